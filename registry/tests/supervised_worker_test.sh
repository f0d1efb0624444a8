#!/usr/bin/env bash
# Subjects that crash, abort, hang or exit at chosen shapes (crashing_ops.cpp's PyTorch operators,
# crashing_subjects.cpp's C++ subjects), run in parity's supervised worker
# (properties/gen/case_worker.hpp):
#   - `parity check` finds each, reports it by kind (text, --json, --junit), shrinks it to exactly
#     the smallest T and D that fail, and writes a reproducer that replays to the same kind, exit 1;
#   - the property main (a user's ctest program) does the same, and its --replay too; what the
#     subject wrote before it died is in the verdict;
#   - a kernel bound into the model's routines (--kernel-op) that aborts is found and replayed alike;
#   - a well-behaved subject and a wrong one give the same results in a worker as in process;
#   - an allocation past --memory-limit is out_of_memory;
#   - bad --timeout, --memory-limit, PARITY_TIMEOUT and their mix with --in-process exit 2 naming
#     the flag.
# usage: supervised_worker_test.sh PARITY CRASHING_OPS_LIBRARY CRASHING_SUBJECTS_PROGRAM
parity=$1 lib=$2 program=$3
source "$(dirname "$0")/../../core/tests/expect.sh"
export PARITY_REPRO_DIR=$work/repros

# shrunk_to JSON KIND T D: the one failing record of JSON has kind KIND and was shrunk to T and D,
# and its reproducer exists.
shrunk_to() {
  local verdict
  verdict=$(python3 - "$@" <<'EOF'
import json, os, sys
path, kind, t, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
failed = [r for r in json.load(open(path))["results"] if r["failed"]]
if len(failed) != 1:
    sys.exit(f"{len(failed)} failing results, want 1")
r = failed[0]
dims = r["case"]["dims"]
if r["kind"] != kind or dims["T"] != t or dims["D"] != d or not os.path.exists(r["reproducer"]):
    sys.exit(f"kind {r['kind']} T={dims['T']} D={dims['D']} reproducer {r['reproducer']}; want {kind} T={t} D={d}")
print(r["reproducer"])
EOF
  ) || { fail "$1: $verdict"; return 1; }
  echo "ok:   $1: $2 shrunk to T=$3 D=$4"
  repro=$verdict
}

# PyTorch operators through `parity check`, then their reproducers through `parity replay`.
check_op() {  # check_op NAME [flags...]
  local name=$1
  shift
  "$parity" check rms_norm --torch-op "crashing::$name" --library "$lib" --property forward_accuracy --cases 100 \
    --max T=64,D=64 --json "$work/$name.json" --junit "$work/$name.xml" "$@"
}
expect 1 "the subject crashed" -- check_op rms_norm_segv
if shrunk_to "$work/rms_norm_segv.json" crashed 40 1; then
  expect 1 "crashed: SIGSEGV" -- "$parity" replay "$repro" --torch-op crashing::rms_norm_segv --library "$lib"
  grep -q 'failure type="crashed"' "$work/rms_norm_segv.xml" || fail "the JUnit file has no failure of type crashed"
fi
expect 1 "aborted: SIGABRT" -- check_op rms_norm_abort
if shrunk_to "$work/rms_norm_abort.json" aborted 24 5; then
  expect 1 "STILL FAILS" -- "$parity" replay "$repro" --torch-op crashing::rms_norm_abort --library "$lib"
fi
expect 1 "hung: no result after 1 s (--timeout)" -- check_op rms_norm_hang --timeout 1
if shrunk_to "$work/rms_norm_hang.json" hung 2 3; then
  expect 1 "hung: no result after 1 s (--timeout)" -- "$parity" replay "$repro" --timeout 1 \
    --torch-op crashing::rms_norm_hang --library "$lib"
fi
# 64 GiB asked for by a worker allowed 1 GiB more than it holds: an allocation failure.
expect 1 "out of memory: the subject threw: std::bad_alloc" -- check_op rms_norm_alloc --memory-limit 1
shrunk_to "$work/rms_norm_alloc.json" out_of_memory 32 1

# The model's routines bound to a kernel that aborts (--kernel-op rms_norm): found through the model,
# and its reproducer replays to the same kind.
rm -rf "$work/model_repros"
expect 1 "aborted: SIGABRT" -- env PARITY_REPRO_DIR="$work/model_repros" "$parity" check model \
  --torch-op crashing::rms_norm_abort --library "$lib" --kernel-op rms_norm --property strict_repeatable --cases 10
file=$(ls "$work"/model_repros/*.json 2>/dev/null | head -n 1)
if [ -n "$file" ]; then
  expect 1 "aborted: SIGABRT" -- "$parity" replay "$file" --torch-op crashing::rms_norm_abort --library "$lib" \
    --kernel-op rms_norm
else
  fail "the model's abort left no reproducer"
fi

# C++ subjects through the property main, as ctest runs a user's property test: each reproducer's
# kind and shrunk T and D, and its replay through the program's --replay.
repro_is() {  # repro_is FILE KIND T D
  python3 - "$@" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
got = (r["observed"]["failure"], r["case"]["dims"]["T"], r["case"]["dims"]["D"])
want = (sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
if got != want:
    sys.exit(f"FAIL: {sys.argv[1]}: {got}, want {want}")
print(f"ok:   {r['subject']}: {want[0]} shrunk to T={want[1]} D={want[2]}")
EOF
}
for row in "crash-segv crashed 40 1 crashed: SIGSEGV (Segmentation fault); its last output: crash-segv: T=40 D=1, a store through null" "crash-abort aborted 24 5 aborted: SIGABRT (Aborted); its last output: crash-abort: T=24 D=5 is past what it handles" \
  "crash-exit crashed 8 1 exited with status 3" "crash-hang hung 2 3 hung: no result after 1 s (PARITY_TIMEOUT)"; do
  read -r subject kind t d text <<<"$row"
  rm -rf "$work/program_repros"
  expect 1 "$text" -- env PARITY_TIMEOUT=1 PARITY_REPRO_DIR="$work/program_repros" PARITY_CASES=100 \
    PARITY_MAX_T=64 PARITY_MAX_D=64 "$program" rms_norm "$subject" --gtest_filter=rms_norm.forward_accuracy
  file=$(ls "$work"/program_repros/*.json 2>/dev/null | head -n 1)
  if [ -z "$file" ]; then
    fail "$subject: no reproducer"
    continue
  fi
  repro_is "$file" "$kind" "$t" "$d" || failures=$((failures + 1))
  expect 1 "$text" -- env PARITY_TIMEOUT=1 "$program" --replay "$file"
done

# A well-behaved subject and a wrong one: the same results in a worker as in process (the shrunk
# case, its verdict and the reproducer's name included).
for subject in parity-host probe-eps-after-sqrt; do
  "$parity" check rms_norm --subject "$subject" --cases 20 --json "$work/worker-$subject.json" >/dev/null 2>&1
  "$parity" check rms_norm --subject "$subject" --cases 20 --json "$work/process-$subject.json" --in-process \
    >/dev/null 2>&1
  python3 - "$work/worker-$subject.json" "$work/process-$subject.json" <<'EOF' || failures=$((failures + 1))
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:])
if a != b:
    sys.exit(f"FAIL: {sys.argv[1]} and {sys.argv[2]} differ")
print(f"ok:   {sys.argv[1]}: the same {len(a)} results in a worker and in process")
EOF
done

expect 2 "--timeout: " -- "$parity" check rms_norm --timeout 0
expect 2 "--timeout: " -- "$parity" check rms_norm --timeout 1s
expect 2 "--memory-limit: " -- "$parity" replay "$work" --memory-limit -1
expect 2 "--timeout: applies to a worker, and --in-process runs none" -- "$parity" check rms_norm --in-process --timeout 5
expect 2 "PARITY_TIMEOUT" -- env PARITY_TIMEOUT=forever "$parity" check rms_norm
expect 2 "PARITY_TIMEOUT" -- env PARITY_TIMEOUT=0 "$program" rms_norm crash-segv

[ "$failures" = 0 ] || { echo "$failures failures"; exit 1; }
echo "all supervised worker checks pass"
