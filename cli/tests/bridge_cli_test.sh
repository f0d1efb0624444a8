#!/usr/bin/env bash
# `parity bridge` and the bridge family through the command (docs/design.md, "The parity command"): the record
# passes and has the reference record's structure (docs/reference.md, "bridge"), the probes are
# caught and replay, bad usage and
# bad reproducers exit 2 naming the flag, file or field.
# usage: bridge_cli_test.sh PATH/TO/parity
set -u
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"

has() {  # has FILE TEXT: the record holds TEXT
  if grep -qF -- "$2" "$1"; then echo "ok:   record holds $2"; else fail "record lacks $2"; fi
}

expect 0 "every comparison passes, every probe caught, every bad input refused" -- \
  "$parity" bridge --record "$work/r.json"
for key in '"execution_mode"' '"config"' '"ids": [' '"targets": [' '"dtype": "float64"' '"is_causal": true' \
           '"attention_scale": 0.5' '"layernorm_eps": 1e-05' '"sdpa_backend"' '"tolerance"' '"comparisons"' \
           '"explicit"' '"sdpa"' '"compared_gradient_elements": 268' '"nonzero_manual_gradient_tensors": 18' \
           '"mismatch_probes"' '"no_causal_mask"' '"unscaled_attention"' '"wrong_layernorm_epsilon"' \
           '"refused_inputs"' '"environment"' '"libtorch"' '"platform"' '"sources"' '"sources_missing": []' \
           '"exit_status": 0' 'require nonempty in-range integer IDs, matching targets and available positions'; do
  has "$work/r.json" "$key"
done
expect 2 "bridge takes no positional argument" -- "$parity" bridge extra
expect 2 "--bogus: unknown flag" -- "$parity" bridge --bogus
# A record goes where the shared writer puts any output (missing directories are created); a
# path that cannot hold a file is refused before the bridge runs.
expect 2 "--record: $work/r.json/x.json: $work/r.json is not a directory" -- "$parity" bridge --record "$work/r.json/x.json"
expect 0 "record: $work/new/dir/r.json" -- "$parity" bridge --record "$work/new/dir/r.json"
expect 2 "unknown bridge subject 'nope'" -- "$parity" check bridge --subject nope

# A probe fails, leaves a reproducer that still fails, and that passes on the true model ...
expect 1 "reproducer:" -- "$parity" check bridge --subject probe-no-causal-mask --property matches_autograd \
  --cases 40 --repro-dir "$work/repros"
repro=$(ls "$work"/repros/*.json | head -n 1)
expect 1 "STILL FAILS" -- "$parity" replay "$repro"
expect 0 "passes now" -- "$parity" replay --subject torch-autograd "$repro"
# ... and a reproducer whose tokens were cut is refused, naming the field.
sed '/"ids.1"/d' "$repro" > "$work/cut.json"
expect 2 "case.params.ids.1: missing" -- "$parity" replay "$work/cut.json"

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
