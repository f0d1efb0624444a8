#!/usr/bin/env bash
# with_blas_config.sh CORETYPE THREADS PROGRAM [ARG...]
# Runs a property test program with OpenBLAS forced to its CORETYPE kernels
# (OPENBLAS_CORETYPE; Debian's OpenBLAS is a dynamic-arch build that picks them per CPU) and
# with THREADS threads for OpenMP (LibTorch's intra-op pool), OpenBLAS and parity's own pool
# (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, PARITY_THREADS). What parity asserts must hold under
# every such configuration: a test that passes only on this CPU's default kernel is a defect.
# Exit: the program's, or 77 (ctest: skipped) when the program's OpenBLAS does not run CORETYPE
# (not OpenBLAS, not a dynamic-arch build, or a kernel this CPU cannot run), checked first
# from OpenBLAS's own report (OPENBLAS_VERBOSE=2 prints "Core: NAME" on loading), so a test
# never passes under a configuration other than the one it names; 2 on a usage error.
set -uo pipefail
if [ $# -lt 3 ] || ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: with_blas_config.sh CORETYPE THREADS PROGRAM [ARG...] (THREADS a positive decimal)" >&2
  exit 2
fi
core=$1 threads=$2
shift 2
export OPENBLAS_CORETYPE=$core OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads PARITY_THREADS=$threads
said=$(OPENBLAS_VERBOSE=2 "$@" --gtest_list_tests 2>&1 >/dev/null | grep -m1 '^Core' || true)
if [ "$said" != "Core: $core" ]; then
  echo "OpenBLAS in $1 does not run the $core kernels here (it says '${said:-nothing}'): skipped"
  exit 77
fi
echo "OpenBLAS kernels $core, $threads thread(s) for OpenMP, OpenBLAS and parity"
exec "$@"
