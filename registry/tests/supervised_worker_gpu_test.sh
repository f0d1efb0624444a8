#!/usr/bin/env bash
# A CUDA subject that writes out of bounds on the device when T >= 16 (crashing_cuda_subject.cu):
# the property main reports a device fault (cudaErrorIllegalAddress), shrinks it to T = 16 in
# fresh workers (each fault loses the worker's CUDA context) and replays it to the same kind.
# Exit 77 (ctest: skipped) without a CUDA device.
# usage: supervised_worker_gpu_test.sh CRASHING_SUBJECTS_PROGRAM
program=$1
source "$(dirname "$0")/../../core/tests/expect.sh"
out=$(PARITY_REPRO_DIR=$work/repros PARITY_CASES=100 "$program" rms_norm crash-cuda-oob \
  --gtest_filter=rms_norm.forward_accuracy 2>&1)
status=$?
if [ "$status" = 77 ]; then
  echo "$out" | tail -2
  exit 77
fi
if [ "$status" != 1 ] || [[ "$out" != *"device fault: cudaErrorIllegalAddress"* ]]; then
  echo "FAIL: exit $status, want 1 and a device fault:"
  echo "$out" | tail -20
  exit 1
fi
file=$(ls "$work"/repros/*.json | head -n 1)
python3 - "$file" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
got = (r["observed"]["failure"], r["case"]["dims"]["T"])
if got != ("device_fault", 16):
    sys.exit(f"FAIL: {sys.argv[1]}: {got}, want ('device_fault', 16)")
print("ok:   device_fault shrunk to T=16")
PY
expect 1 "device fault: cudaErrorIllegalAddress" -- "$program" --replay "$file"
[ "$failures" = 0 ] || exit 1
echo "the device fault is found, shrunk and replayed"
