#!/usr/bin/env bash
# Self-checks of parity's own oracles (oracle_agreement) are parity's tests, never a subject's
# verdict: `parity check FAMILY` on a subject leaves them out and refuses them by name; they run
# under the pseudo-subject parity-oracles, which says so, and `parity list` marks them.
# usage: oracle_self_check_cli_test.sh PATH/TO/parity
set -u
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"

for family_property in lora_forward:repeatable transition_step:rows_independent; do
  family=${family_property%%:*} property=${family_property#*:}
  expect 2 "checks parity's own oracles and calls no subject: run it with --subject parity-oracles" -- \
    "$parity" check "$family" --property oracle_agreement
  expect 0 "oracle_agreement" -- "$parity" check "$family" --subject parity-oracles --cases 3
  expect 2 "runs only the self-checks of parity's oracles" -- \
    "$parity" check "$family" --subject parity-oracles --property "$property" --cases 3
done
# A subject's run lists no self-check.
out=$("$parity" check lora_forward --property repeatable --cases 2 2>&1)
if [[ "$out" == *oracle_agreement* ]]; then fail "a subject's run mentions oracle_agreement"; fi
expect 0 "[self-check of parity's oracles: --subject parity-oracles]" -- "$parity" list properties
[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all passed"
