#!/usr/bin/env bash
# The `parity` command's contract (docs/design.md, "The parity command"): exit 0 / 1 / 2, reproducers that replay, and
# bad input refused with a message naming the flag, file or field.
# usage: cli_contract_test.sh PATH/TO/parity
set -u
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"

expect 0 "properties:" -- "$parity" list
expect 0 "probe-scale-dropped" -- "$parity" list probes
expect 2 "unknown command" -- "$parity" frobnicate
# Help from the parser's own definitions: per command, with -h, --help or `help COMMAND`.
expect 0 "--property P" -- "$parity" check --help
expect 0 "--property P" -- "$parity" check -h
expect 0 "PARITY_CASES" -- "$parity" help check
expect 0 "fuzz-repro" -- "$parity" --help
expect 2 "Usage: parity" -- "$parity"
expect 0 "parity 0.1.0" -- "$parity" --version
# Parse errors exit 2 naming the flag.
expect 2 "check needs exactly one FAMILY" -- "$parity" check
expect 2 "--cases: 1 required N missing" -- "$parity" check lora --cases
expect 2 "--no-shrink: takes no value" -- "$parity" fuzz-repro lora "$work/x" --no-shrink=1
expect 2 "-x: unknown flag (see parity replay --help)" -- "$parity" replay -x
expect 2 "--bogus: unknown flag" -- "$parity" check lora --bogus
expect 2 "unknown family 'nofamily'" -- "$parity" check nofamily
expect 2 "unknown lora subject 'nope'" -- "$parity" check lora --subject nope
expect 2 "unknown lora property 'nope'" -- "$parity" check lora --property nope
expect 2 "--cases: 0 is outside [1, 1000000000]" -- "$parity" check lora --cases 0
expect 2 "--seed: 'x' is not a non-negative integer" -- "$parity" check lora --seed x
expect 2 "--backend: 'gpu' is not auto, host or cuda" -- "$parity" gate --backend gpu
expect 2 "no such file" -- "$parity" replay "$work/missing.json"

# A probe leaves a shrunk reproducer that replay fails on (exit 1) ...
expect 1 "reproducer:" -- "$parity" check lora_forward --subject probe-scale-dropped --property forward_accuracy \
  --cases 40 --repro-dir "$work/repros"
repro=$(ls "$work"/repros/*.json | head -n 1)
expect 1 "STILL FAILS" -- "$parity" replay "$repro"
expect 1 "1 of 1 reproducers still fail" -- "$parity" replay "$work/repros"
# ... that passes on parity's own kernel ...
expect 0 "passes now" -- "$parity" replay --subject parity-host "$repro"
# ... and whose corrupted copies are refused (exit 2), naming the file and the field.
head -c 100 "$repro" > "$work/truncated.json"
expect 2 "truncated.json: not valid JSON" -- "$parity" replay "$work/truncated.json"
sed 's#parity.repro/1#parity.repro/9#' "$repro" > "$work/future.json"
expect 2 "schema: 'parity.repro/9' is not one this parity reads" -- "$parity" replay "$work/future.json"
sed 's#"K": [0-9]*#"K": "many"#' "$repro" > "$work/badfield.json"
expect 2 "case.dims.K: expected an integer" -- "$parity" replay "$work/badfield.json"
sed 's#"K": [0-9]*#"K": 0#' "$repro" > "$work/zero.json"
expect 2 "case.dims.K: outside [1, 1048576]" -- "$parity" replay "$work/zero.json"
sed 's#"probe_row": [0-9]*#"probe_row": 100000#' "$repro" > "$work/row.json"
expect 2 "case.probe_row" -- "$parity" replay "$work/row.json"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
