#!/usr/bin/env bash
# The cuda preset honours PARITY_CUDA_ARCHITECTURES and finds nvcc without a path in the
# preset: configures the source tree with --preset cuda -DPARITY_CUDA_ARCHITECTURES=80, nvcc
# only on PATH (CUDACXX, CUDA_HOME, CUDA_PATH unset), and checks that the kernels compile for
# sm_80 alone, then that a reconfigure with 90 switches them.
# usage: cuda_architectures_test.sh SOURCE_DIR NVCC [-DVAR=VALUE...]   (this build's finding options)
set -euo pipefail
src=$1 nvcc=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
configure() {
  (cd "$src" && env -u CUDACXX -u CUDA_HOME -u CUDA_PATH PATH="$(dirname "$nvcc"):$PATH" \
     cmake --preset cuda -B "$work/build" -DPARITY_CUDA_ARCHITECTURES="$1" "${@:2}") > "$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure with PARITY_CUDA_ARCHITECTURES=$1 failed"; }
}
archs() { grep -oE 'arch=compute_[0-9a-z]+' "$work/build/build.ninja" | sort -u | tr '\n' ' '; }

configure 80 "$@"
grep -q "^CMAKE_CUDA_COMPILER:.*=$nvcc\$\|^CMAKE_CUDA_COMPILER:.*=$(readlink -f "$nvcc")\$" "$work/build/CMakeCache.txt" ||
  fail "nvcc on PATH was not the one found: $(grep ^CMAKE_CUDA_COMPILER: "$work/build/CMakeCache.txt")"
[ "$(archs)" = "arch=compute_80 " ] || fail "PARITY_CUDA_ARCHITECTURES=80 built for: $(archs)"
configure 90 "$@"
[ "$(archs)" = "arch=compute_90 " ] || fail "reconfigured with PARITY_CUDA_ARCHITECTURES=90, built for: $(archs)"
echo "cuda_architectures_test: the cuda preset built for PARITY_CUDA_ARCHITECTURES (80, then 90), nvcc found on PATH"
