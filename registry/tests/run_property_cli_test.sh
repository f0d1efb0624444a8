#!/usr/bin/env bash
# usage: run_property_cli_test.sh PROGRAM   (run_property_subjects: parity's property main with the
# two wrong subjects of run_property_subjects.cpp)
#
# 1. The rerun line a failure prints reproduces it exactly in a fresh process: the same shrunk
#    case and verdict, on the same seed and case count.
# 2. A nondeterministic failure's reproducer, replayed in a fresh process, reports "flaky:
#    failed k of 20" and exits 1 (replayed once it would pass).
set -u
prog=$1
unset RC_PARAMS PARITY_CASES PARITY_SEED
source "$(dirname "$0")/../../core/tests/expect.sh"  # $work, fail

# Lines of a failure's report: the shrunk case and its verdict (the two after "shrunk to:").
shrunk() { grep -A2 'shrunk to:' "$1" | tail -2; }

PARITY_REPRO_DIR=$work/first PARITY_SEED=2 PARITY_CASES=60 \
  "$prog" lora_forward test-wrong-from-t16 --gtest_filter=lora_forward.rows_independent >"$work/first.txt" 2>&1
status=$?
rerun=$(sed -n 's/^ *rerun: *//p' "$work/first.txt" | head -1)
if [ "$status" != 1 ] || [ -z "$rerun" ]; then
  fail "the first run exited $status (want 1) or printed no rerun line:"; tail -20 "$work/first.txt"
else
  echo "rerun: $rerun"
  PARITY_REPRO_DIR=$work/second bash -c "$rerun" >"$work/second.txt" 2>&1
  status=$?
  if [ "$status" != 1 ]; then fail "the rerun exited $status (want 1)"; tail -20 "$work/second.txt"; fi
  if [ -z "$(shrunk "$work/first.txt")" ] || [ "$(shrunk "$work/first.txt")" != "$(shrunk "$work/second.txt")" ]; then
    fail "the rerun shrank to another case:"; shrunk "$work/first.txt"; shrunk "$work/second.txt"
  else
    echo "ok:   the rerun reproduces: $(shrunk "$work/first.txt" | head -1)"
  fi
fi

PARITY_REPRO_DIR=$work/flaky "$prog" lora_forward test-nondeterministic --gtest_filter=lora_forward.repeatable >"$work/flaky.txt" 2>&1
status=$?
repro=$(sed -n 's/^ *reproducer: *//p' "$work/flaky.txt" | head -1)
if [ "$status" != 1 ] || [ -z "$repro" ]; then
  fail "the nondeterministic subject's run exited $status (want 1) or wrote no reproducer:"; tail -20 "$work/flaky.txt"
else
  "$prog" --replay "$repro" >"$work/replay.txt" 2>&1
  status=$?
  if [ "$status" != 1 ] || ! grep -Eq '^flaky: failed [1-9][0-9]* of 20 ' "$work/replay.txt"; then
    fail "the replay exited $status (want 1) without 'flaky: failed k of 20':"; cat "$work/replay.txt"
  else
    echo "ok:   $(head -1 "$work/replay.txt")"
  fi
fi

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all hold"
