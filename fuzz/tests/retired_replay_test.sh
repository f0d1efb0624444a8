#!/usr/bin/env bash
# retired_replay_test.sh PARITY RETIRED_DIR
# corpus/retired holds reproducers of a case format no parity of this version reads (the
# transition family's former cases: dims B, tokens, channels, a sigma_prev.<b> per row, refused
# naming case.dims; the LoRA family's: params alpha, b_zero, no scale, refused naming
# case.params): `parity replay` refuses each, exit 2, naming the field and what replaces the format.
set -u
parity=$1 retired=$2
source "$(dirname "$0")/../../core/tests/expect.sh"
shopt -s nullglob
files=("$retired"/*.json)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no reproducer under $retired"; exit 1; }
for f in "${files[@]}"; do
  case $(basename "$f") in
    transition-*) want="case.dims: a transition case of the family's former format" ;;
    lora-*) want="case.params: a lora case of the family's former format" ;;
    *) want="a rule for $(basename "$f")" ;;  # a retired reproducer needs a rule of its own here
  esac
  expect 2 "$want" -- "$parity" replay "$f"
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
