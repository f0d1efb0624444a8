#!/usr/bin/env bash
# docs/your-kernel.md's two leading paths ("A PyTorch operator, by name", "An op of your own"), as
# a user follows them against a fresh install in $HOME/parity (HOME a scratch directory):
#   - a PyTorch operator by name: the page's torch_op/CMakeLists.txt, written as is beside
#     examples/torch_op/mylib.cpp, configured, built and tested with the page's torch_op/run.sh
#     (ctest, and the installed `parity check --torch-op`): every property holds on
#     mylib::rms_norm, in the op and inside the model (KERNEL_OP rms_norm), and on the float32
#     mylib::linear mapped by TORCH_ARGS with DTYPES f32, and on mylib::attention's [B, H, S, D]
#     tensors; the broken mylib::rms_norm_broken and mylib::attention_assumes_contiguous are caught;
#   - an op of one's own: examples/custom_op's files (which the page links), built and tested
#     with the page's custom_op/run.sh: every property of the new op
#     scaled_add holds on my-scaled-add and my-scaled-add-broken is caught, by the property tests
#     and by the op fuzzer (parity_add_op_fuzzer), which writes its reproducer.
# With CUDA, examples/torch_op itself is built too (its CUDA kernel) and lists its gpu tests.
# usage: op_examples_package_test.sh BUILD_DIR DOC EXAMPLES_DIR CUDA(ON|OFF) [-DVAR=VALUE...]
#   DOC is the Markdown file that holds the snippets (docs/your-kernel.md).
set -euo pipefail
build=$1 readme=$2 examples=$3 cuda=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)   # the project's source tree
shown=${readme#"$root"/}                 # the snippets' file as the messages name it
source "$(dirname "$0")/readme_snippets.sh"

mkdir -p "$work/home"
export HOME="$work/home"
# The example projects' property runs take 25 cases a property (the page's user runs the default
# 100): this test checks the install, the page's commands and that each broken copy is caught
# with a reproducer, which the fixed default seed does within those cases; parity's own property
# tests judge the kernels at the default count. ctest hands PARITY_CASES to every test program.
export PARITY_CASES=25
cmake --install "$build" --prefix "$HOME/parity" > "$work/install.log"
venv="$root/.venv/bin"   # the python3 of parity's torch, as the page's user has it
[ -x "$venv/python3" ] && export PATH="$venv:$PATH"

# write_snippets DIR NAME...: the page's snippet "DIR/NAME" into $work/DIR/NAME.
write_snippets() {
  local dir=$1
  shift
  mkdir -p "$work/$dir"
  for name in "$@"; do
    snippet "$dir/$name" > "$work/$dir/$name"
    [ -s "$work/$dir/$name" ] || fail "$shown has no snippet '$dir/$name'"
  done
}

# The example's files (plain files only: a build folder beside them is not copied), then the
# page's commands, so that a file of the example's cannot stand in for the page's run.sh.
mkdir -p "$work/custom_op"
find "$examples/custom_op" -maxdepth 1 -type f -exec cp -t "$work/custom_op/" {} +
write_snippets custom_op run.sh
for f in CMakeLists.txt scaled_add.cpp; do
  grep -qF "](../examples/custom_op/$f)" "$readme" || fail "$shown links no examples/custom_op/$f"
done
(cd "$work/custom_op" && run_lines run.sh "$work/custom_op.log" "$@") || { cat "$work/custom_op.log"; fail "a $shown custom_op/run.sh line failed"; }
cat "$work/custom_op.log"
grep -q "my-scaled-add\.scaled_add\.forward_accuracy .*Passed" "$work/custom_op.log" || fail "my-scaled-add's properties did not run and pass"
grep -q "my-scaled-add-broken_scaled_add_properties .*Passed" "$work/custom_op.log" || fail "my-scaled-add-broken was not caught"
grep -q "my-scaled-add\.op_fuzzer .*Passed" "$work/custom_op.log" || fail "my-scaled-add's op fuzzer did not run and pass"
grep -q "my-scaled-add-broken\.op_fuzzer .*Passed" "$work/custom_op.log" || fail "my-scaled-add-broken was not caught by the op fuzzer"
ls "$work/custom_op/build/repros/my-scaled-add-broken_op_fuzzer/"*.json > /dev/null 2>&1 ||
  fail "the op fuzzer wrote no reproducer of my-scaled-add-broken"

write_snippets torch_op CMakeLists.txt run.sh
cp "$examples/torch_op/mylib.cpp" "$work/torch_op/"
(cd "$work/torch_op" && run_lines run.sh "$work/torch_op.log" "$@") || { cat "$work/torch_op.log"; fail "a $shown torch_op/run.sh line failed"; }
cat "$work/torch_op.log"
grep -q "mylib::rms_norm\.rms_norm\.forward_accuracy .*Passed" "$work/torch_op.log" || fail "mylib::rms_norm's properties did not run and pass"
grep -q "mylib::rms_norm_broken_rms_norm_properties .*Passed" "$work/torch_op.log" || fail "mylib::rms_norm_broken was not caught"
grep -q "mylib::rms_norm+rms_norm\.model\.batch_invariant_bound .*Passed" "$work/torch_op.log" ||
  fail "mylib::rms_norm did not run and pass the model's properties in the routines that run RMSNorm (KERNEL_OP)"
grep -q "^forward_accuracy  *holds" "$work/torch_op.log" || fail "the installed parity check --torch-op did not pass mylib::rms_norm"
for property in repeatable rows_independent batch_vs_batch layout_invariant forward_accuracy; do
  grep -q "mylib::linear\.linear\.$property .*Passed" "$work/torch_op.log" ||
    fail "mylib::linear (TORCH_ARGS, DTYPES f32) did not run and pass linear's $property"
  grep -q "mylib::attention\.sdpa\.$property .*Passed" "$work/torch_op.log" ||
    fail "mylib::attention ([B, H, S, D], TORCH_ARGS, DTYPES f32) did not run and pass sdpa's $property"
done
grep -q "mylib::attention_assumes_contiguous_sdpa_properties .*Passed" "$work/torch_op.log" ||
  fail "mylib::attention_assumes_contiguous was not caught"

if [ "$cuda" = ON ]; then
  cmake -S "$examples/torch_op" -B "$work/torch_op_cuda" -G Ninja -DCMAKE_PREFIX_PATH="$HOME/parity" "$@" \
    > "$work/cuda.log" 2>&1 && cmake --build "$work/torch_op_cuda" >> "$work/cuda.log" 2>&1 ||
    { cat "$work/cuda.log"; fail "examples/torch_op did not build with its CUDA kernel"; }
  ctest --test-dir "$work/torch_op_cuda" -N -L gpu > "$work/gpu-tests.log"
  grep -q "mylib::rms_norm@cuda\.rms_norm\." "$work/gpu-tests.log" ||
    { cat "$work/gpu-tests.log"; fail "examples/torch_op lists no gpu test of mylib::rms_norm@cuda"; }
fi
echo "op_examples: a torch operator by name and a declared op of one's own, as $shown runs them, hold;"
echo "their broken copies are caught"
