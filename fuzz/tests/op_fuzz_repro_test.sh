#!/usr/bin/env bash
# op_fuzz_repro_test.sh OP_FUZZER PARITY
# op_fuzzer end to end: an input that rms_norm's own kernel passes traps with a probe as the
# subject and writes a reproducer `parity replay` fails on; `parity fuzz-repro rms_norm` decodes
# the same bytes, shrinks the case and writes a reproducer that fails on the probe and passes on
# parity's kernel; an unknown op exits 2.
set -u
harness=$1
parity=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/log" ] && cat "$tmp/log"; exit 1; }

# fuzz/decode_op.hpp for rms_norm (the op byte is ignored under PARITY_FUZZ_OP): batch_vs_batch (property 2), T = 128 - 1 (a realistic
# size: thresholds and powers of two, index 2, -1), D = 1 + 2, f32, eps 1e-6, scale 1, probe row
# 0, contiguous, seed 1, no straddles.
printf '\x00\x02\xff\x06\x00\x02\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00' > "$tmp/input"

PARITY_FUZZ_OP=rms_norm PARITY_REPRO_DIR="$tmp/none" "$harness" "$tmp/input" > "$tmp/log" 2>&1 ||
  fail "parity-host fails the input"
(PARITY_FUZZ_OP=rms_norm PARITY_FUZZ_SUBJECT=probe-plan-by-rows PARITY_REPRO_DIR="$tmp/repros" "$harness" \
  -artifact_prefix="$tmp/" "$tmp/input"; exit $?) > "$tmp/log" 2>&1 && fail "probe-plan-by-rows was not caught"
grep -q "rms_norm/batch_vs_batch violated on probe-plan-by-rows" "$tmp/log" || fail "no violation report"
grep -q "parity fuzz-repro rms_norm CRASH_FILE --subject probe-plan-by-rows" "$tmp/log" || fail "no fuzz-repro line"
"$parity" replay "$tmp"/repros/*.json > "$tmp/log" 2>&1
[ $? -eq 1 ] || fail "the harness's reproducer does not fail on replay"

"$parity" fuzz-repro rms_norm "$tmp/input" --subject probe-plan-by-rows --out "$tmp/shrunk" > "$tmp/log" 2>&1 ||
  fail "fuzz-repro did not write a reproducer"
grep -q "shrunk in" "$tmp/log" || fail "fuzz-repro did not shrink"
"$parity" replay "$tmp"/shrunk/*.json > "$tmp/log" 2>&1
[ $? -eq 1 ] || fail "the shrunk reproducer does not fail on replay"
"$parity" replay --subject parity-host "$tmp"/shrunk/*.json > "$tmp/log" 2>&1 || fail "parity-host fails the shrunk case"

PARITY_FUZZ_OP=no_such_op "$harness" "$tmp/input" > "$tmp/log" 2>&1
[ $? -eq 2 ] || fail "an unknown PARITY_FUZZ_OP must exit 2"
echo "op_fuzz_repro_test: ok"
