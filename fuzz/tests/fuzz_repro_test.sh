#!/usr/bin/env bash
# fuzz_repro_test.sh LORA_FUZZER PARITY
# Crash to reproducer, end to end: an input that lora_fuzzer passes on parity's kernel traps
# when a probe is wired in as the subject (PARITY_FUZZ_SUBJECT) and writes a reproducer;
# `parity fuzz-repro` decodes the same bytes, shrinks the case and writes a reproducer that
# `parity replay` fails on, and that passes on parity's own kernel.
set -u
harness=$1
parity=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/log" ] && cat "$tmp/log"; exit 1; }

# forward_accuracy (property 5), T 8, N 8, K 16, r 2, probe row 0, contiguous, alpha = 2r
# (so the probe's missing scale s = 2 matters), seed 1 (fuzz/decode_lora.hpp).
printf '\x05\x07\x07\x0f\x01\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00' > "$tmp/input"

PARITY_REPRO_DIR="$tmp/none" "$harness" "$tmp/input" > "$tmp/log" 2>&1 || fail "parity-host fails the input"

(PARITY_FUZZ_SUBJECT=probe-scale-dropped PARITY_REPRO_DIR="$tmp/repros" "$harness" -artifact_prefix="$tmp/" \
  "$tmp/input"; exit $?) > "$tmp/log" 2>&1 && fail "probe-scale-dropped was not caught"
grep -q "lora/forward_accuracy violated on probe-scale-dropped" "$tmp/log" || fail "no violation report"
grep -q "parity fuzz-repro lora CRASH_FILE --subject probe-scale-dropped" "$tmp/log" || fail "no fuzz-repro line"
ls "$tmp"/repros/lora-forward_accuracy-probe-scale-dropped-*.json > /dev/null 2>&1 || fail "no reproducer written"
"$parity" replay "$tmp"/repros/*.json > "$tmp/log" 2>&1
[ $? -eq 1 ] || fail "the harness's reproducer does not fail on replay"

"$parity" fuzz-repro lora "$tmp/input" --subject probe-scale-dropped --out "$tmp/shrunk" > "$tmp/log" 2>&1 ||
  fail "fuzz-repro did not write a reproducer"
grep -q "shrunk in" "$tmp/log" || fail "fuzz-repro did not shrink"
grep -q "lora K=1 N=1 T=1 r=1 seed=0 probe_row=0" "$tmp/log" || fail "not shrunk to the smallest case"
"$parity" replay "$tmp"/shrunk/*.json > "$tmp/log" 2>&1
[ $? -eq 1 ] || fail "the shrunk reproducer does not fail on replay"
"$parity" replay --subject parity-host "$tmp"/shrunk/*.json > "$tmp/log" 2>&1 || fail "parity-host fails the shrunk case"

"$parity" fuzz-repro lora "$tmp/input" --subject parity-host --out "$tmp/none" > "$tmp/log" 2>&1
[ $? -eq 1 ] || fail "fuzz-repro of a passing input must exit 1"
[ ! -d "$tmp/none" ] || fail "fuzz-repro wrote a reproducer for a passing input"
"$parity" fuzz-repro bogus "$tmp/input" > "$tmp/log" 2>&1
[ $? -eq 2 ] || fail "an unknown family must exit 2"
"$parity" fuzz-repro lora "$tmp/missing" > "$tmp/log" 2>&1
[ $? -eq 2 ] || fail "a missing crash file must exit 2"
echo "fuzz_repro_test: ok"
