#!/usr/bin/env bash
# A project that builds no CUDA configures and links against parity's installed package
# without a CUDA toolkit, also when parity itself was built with CUDA: installs the build to a
# temporary prefix and configures examples/custom_lora with MY_LORA_CUDA=OFF while no toolkit can
# be found (no nvcc on PATH, CUDACXX, CUDA_HOME and CUDA_PATH unset, the toolkit's directories
# ignored by every find_*), builds its property test program and runs it once on its host
# subject's properties (2 cases each). LibTorch (the package's default component) is found
# again from TORCH_ROOT on CMAKE_PREFIX_PATH, without loading its CMake files. Fails if configure
# found the toolkit's CMake package or loaded LibTorch's CMake files. (The example's own check_language(CUDA) may still see an nvcc through
# CMake's built-in /usr/local/cuda search: it only sets MY_LORA_CUDA's default, given OFF here.)
# usage: custom_lora_no_cuda_test.sh BUILD_DIR EXAMPLE_DIR nvcc=[NVCC] TORCH_ROOT [-DVAR=VALUE...]
# (nvcc= is never an empty argument: ctest drops those, which would shift the others.)
set -euo pipefail
build=$1 example=$2 nvcc=${3#nvcc=} torch_root=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
ignore=""
path=$PATH
if [ -n "$nvcc" ]; then
  root=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  ignore="$root;$root/bin;$root/include;$root/lib64;$root/targets/x86_64-linux/include;$root/targets/x86_64-linux/lib"
  path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$(dirname "$nvcc")" | grep -vxF "$root/bin" | paste -sd:)
fi
env -u CUDACXX -u CUDA_HOME -u CUDA_PATH PATH="$path" \
  cmake -S "$example" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix;$torch_root" -DMY_LORA_CUDA=OFF \
    -DCMAKE_IGNORE_PATH="$ignore" -DCMAKE_IGNORE_PREFIX_PATH="${root:-}" -DCUDAToolkit_ROOT="$work/no-toolkit" "$@" \
    > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure without a CUDA toolkit failed"; }
found=$(grep -E '^(CUDAToolkit_BIN_DIR|CUDAToolkit_INCLUDE_DIR|Torch_DIR|Caffe2_DIR|TORCH_LIBRARY):[A-Z]+=.+' "$work/build/CMakeCache.txt" |
  grep -v 'NOTFOUND$' || true)
if [ -n "$found" ]; then
  echo "$found"
  fail "configure found a CUDA toolkit or LibTorch's CMake files"
fi
env PATH="$path" cmake --build "$work/build" -j 2 --target my_lora_parity_tests > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "build and link without a CUDA toolkit failed"; }
PARITY_CASES=2 "$work/build/my_lora_parity_tests" lora my-lora-host > "$work/run.log" 2>&1 ||
  { tail -n 30 "$work/run.log"; fail "the linked program did not run"; }
echo "custom_lora_no_cuda: configured, linked and ran without a CUDA toolkit (parity built with CUDA: ${nvcc:+yes}${nvcc:-no})"
