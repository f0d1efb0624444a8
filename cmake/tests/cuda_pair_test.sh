#!/usr/bin/env bash
# parity_check_cuda_pair (cmake/ParityCudaPair.cmake): configure must fail, naming both versions,
# when LibTorch's CUDA major differs from the toolkit's, and pass when the majors agree or either
# side has no CUDA.
# usage: cuda_pair_test.sh CMAKE MODULE_DIR
set -euo pipefail
cmake=$1 modules=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }

# check TORCH_CUDA TOOLKIT: runs the check in cmake -P; prints its output, returns its status.
check() {
  cat > "$work/check.cmake" <<CMAKE
list(APPEND CMAKE_MODULE_PATH "$modules")
include(ParityCudaPair)
parity_check_cuda_pair(TORCH_CUDA "$1" TOOLKIT "$2" TOOLKIT_WHAT "nvcc (test)" TORCH_WHAT "torch (test)")
CMAKE
  local status=0
  "$cmake" -P "$work/check.cmake" > "$work/raw.log" 2>&1 || status=$?
  tr -s ' \n' ' ' < "$work/raw.log" > "$work/out.log"  # CMake wraps messages: one line, single spaces
  return $status
}

check 12.8 13.0 && fail "torch CUDA 12.8 with toolkit 13.0 was accepted"
grep -q "CUDA 12.8" "$work/out.log" && grep -q "CUDA 13.0" "$work/out.log" ||
  { cat "$work/out.log"; fail "the refusal does not name both versions"; }
grep -q "one CUDA runtime per process" "$work/out.log" || { cat "$work/out.log"; fail "the refusal gives no reason"; }
check 13.0 12.9 && fail "torch CUDA 13.0 with toolkit 12.9 was accepted"
for pair in "13.0 13.0" "13.0 13.2" "12.4 12.8" " 13.0" "13.0 "; do
  read -r torch toolkit <<< "$pair" || true
  [[ $pair == " "* ]] && { torch=""; toolkit=${pair# }; }
  [[ $pair == *" " ]] && { torch=${pair% }; toolkit=""; }
  check "$torch" "$toolkit" || { cat "$work/out.log"; fail "torch CUDA '$torch' with toolkit '$toolkit' was refused"; }
done
echo "cuda_pair_test: differing CUDA majors refused with both versions named; equal majors and CPU-only sides accepted"
