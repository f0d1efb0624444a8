#!/usr/bin/env bash
# retired_replay_test.sh PARITY RETIRED_DIR
# corpus/retired holds reproducers of a case format no parity of this version reads (the
# transition family's former cases: dims B, tokens, channels, a sigma_prev.<b> per row): `parity
# replay` refuses each, exit 2, naming case.dims and what replaces the format.
set -u
parity=$1 retired=$2
source "$(dirname "$0")/../../cli/tests/expect.sh"
shopt -s nullglob
files=("$retired"/*.json)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no reproducer under $retired"; exit 1; }
for f in "${files[@]}"; do
  expect 2 "case.dims: a transition case of the family's former format" -- "$parity" replay "$f"
done
echo "$failures failure(s)"
[ "$failures" -eq 0 ]
