#!/usr/bin/env bash
# docs/your-kernel.md's "A kernel of a shipped family" (the LoRA path) as a user follows it, and
# examples/custom_lora with it: installs the build to a scratch prefix and moves the prefix to
# $HOME/parity (HOME a scratch directory: an install is relocatable); copies the example (whose
# CMakeLists.txt and register_subjects.cpp the page links) and runs, in it, the page's run.sh
# lines (configure, build, ctest -L properties) and its replay.sh lines, as written between its
# `<!-- readme-snippet: NAME -->` markers. Holds when every property holds on the host path (and,
# in a CUDA build, the CUDA kernel's tests are there: the .cu file was not skipped), and the
# broken copy is caught: a property fails on it, shrunk, with a reproducer written, and the replay
# command printed with the failure (the example's own test program, which knows its subjects)
# still fails on that reproducer, which passes on the good host path (--subject); bad replay
# arguments exit 2 naming what is wrong.
# usage: readme_snippet_test.sh BUILD_DIR DOC EXAMPLE_DIR CUDA(ON|OFF) [-DVAR=VALUE...]
#   DOC is the Markdown file that holds the snippets (docs/your-kernel.md); the -D arguments (this
#   build's compilers and flags) are added to its configure line.
set -euo pipefail
build=$1 readme=$2 example=$3 cuda=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)   # the project's source tree
shown=${readme#"$root"/}                 # the snippets' file as the messages name it

source "$(dirname "$0")/readme_snippets.sh"

mkdir -p "$work/home" "$work/src"
export HOME="$work/home"
# The example projects' property runs take 25 cases a property (the page's user runs the default
# 100): this test checks the install, the page's commands and that each broken copy is caught
# with a reproducer, which the fixed default seed does within those cases; parity's own property
# tests judge the kernels at the default count. ctest hands PARITY_CASES to every test program.
export PARITY_CASES=25
cmake --install "$build" --prefix "$work/stage" > "$work/install.log"
mv "$work/stage" "$HOME/parity"
for f in CMakeLists.txt register_subjects.cpp; do
  grep -qF "](../examples/custom_lora/$f)" "$readme" || fail "$shown links no examples/custom_lora/$f"
done
find "$example" -maxdepth 1 -type f -exec cp -t "$work/src/" {} +  # plain files: no build folder
for name in run.sh replay.sh; do
  snippet "$name" > "$work/src/$name"
  [ -s "$work/src/$name" ] || fail "$shown has no snippet '$name'"
done

# The page's user has the python3 of the torch parity was built with on PATH: here, the
# project's venv when parity was built against it (none for Debian's LibTorch, found in /usr).
venv="$root/.venv/bin"
[ -x "$venv/python3" ] && export PATH="$venv:$PATH"

cd "$work/src"
status=0
run_lines run.sh "$work/run.log" "$@" || status=$?
cat "$work/run.log"
[ "$status" -eq 0 ] || fail "a $shown run.sh line exited $status"
# One test per property for a subject (my-lora-host.lora.<property>); the broken copy is one test.
grep -q "my-lora-host\.lora\.base_frozen .*Passed" "$work/run.log" || fail "my-lora-host's properties did not run and pass"
grep -q "my-lora-host\.lora_forward\.forward_accuracy .*Passed" "$work/run.log" || fail "my-lora-host's lora_forward properties did not run and pass"
grep -q "my-lora-host-broken_lora_forward_properties .*Passed" "$work/run.log" || fail "lora_forward did not catch the broken copy"
grep -q "my-lora-host\.lora_backward\.forward_accuracy .*Passed" "$work/run.log" || fail "my-lora-host's lora_backward properties did not run and pass"
grep -q "my-lora-host-broken_lora_backward_properties .*Passed" "$work/run.log" || fail "lora_backward did not catch the broken copy"
if [ "$cuda" = ON ]; then
  grep -q "my-lora-cuda\.lora\." "$work/run.log" || fail "the CUDA kernel's tests are missing"
fi

# The broken copy's failure as its test prints it (a WILL_FAIL test's output is not shown).
ctest --test-dir build -R '^my-lora-host-broken_lora_forward_properties$' -V > "$work/broken.log" 2>&1 || true
grep -q "FAILED lora_forward/.* on my-lora-host-broken" "$work/broken.log" || { cat "$work/broken.log"; fail "no property failed on the broken copy"; }
repros="$work/src/build/repros/my-lora-host-broken_lora_forward_properties"
ls "$repros/"*.json > /dev/null 2>&1 || fail "no reproducer was written for the broken copy"
program="$work/src/build/my_lora_parity_tests"

# expect STATUS TEXT -- COMMAND...: COMMAND exits STATUS and prints TEXT.
expect() {
  local want=$1 text=$2 got=0
  shift 3
  "$@" > "$work/out.log" 2>&1 || got=$?
  [[ $got -eq $want ]] && grep -qF -- "$text" "$work/out.log" ||
    { cat "$work/out.log"; fail "'$*' exited $got (want $want, printing '$text')"; }
}
# The replay command the failure printed, run as printed.
replay=$(grep -m 1 -o "replay: .*" "$work/broken.log" | sed 's/^replay: *//' || true)
[[ $replay == "$program --replay $repros/"*.json ]] || fail "the failure printed '$replay', not $program --replay FILE"
read -r -a replay_words <<< "$replay"
expect 1 "STILL FAILS" -- "${replay_words[@]}"
expect 1 "on my-lora-host-broken" -- "$program" --replay "$repros"
expect 0 "passes now" -- "$program" --replay --subject my-lora-host "$repros"
grep -q "STILL FAILS\|discarded" "$work/out.log" && { cat "$work/out.log"; fail "a reproducer does not pass on my-lora-host"; }
expect 2 "no such file" -- "$program" --replay "$work/missing.json"
expect 2 "nobody" -- "$program" --replay --subject nobody "$repros"

# The page's replay lines: the first still fails on the broken copy, the second passes on the host path.
want=(1 0)
i=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  got=0
  eval "$line" > "$work/replay.log" 2>&1 || got=$?
  cat "$work/replay.log"
  [ "$got" -eq "${want[$i]}" ] || fail "'$line' exited $got, want ${want[$i]}"
  i=$((i + 1))
done < replay.sh
[ "$i" -eq 2 ] || fail "$shown's replay.sh has $i lines, not 2"
echo "readme_snippet: examples/custom_lora, with $shown's commands, builds against a moved install and passes"
echo "as written; the broken copy is caught with a reproducer that replays failing and passes on my-lora-host"
