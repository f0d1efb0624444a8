#!/usr/bin/env bash
# `parity gate` runs at the reference figures it reads (docs/reference/figures.json, or
# $PARITY_FIGURES): the rows it reports are the figures' shapes with the figures' `reference`
# beside them, and a changed figure changes the verdict: a shape outside its ops' limits (a LoRA
# shape lora_forward's and lora_backward's, under the gate's raised caps; a
# transition shape transition_step's and transition_score's) is refused before any work (exit 2,
# naming the file and the field); at float32's largest LoRA alpha,
# where some evaluation orders overflow, parity's kernels' finite outputs are still checked and
# certified (exit 0), and a scale alpha / r beyond the ops' contract is refused.
# usage: gate_figures_test.sh PATH/TO/parity PATH/TO/docs/reference/figures.json
set -u
parity=$1 figures=$2
source "$(dirname "$0")/../../core/tests/expect.sh"

# figures NAME PYTHON-STATEMENTS: a copy of the figures with small shapes, edited by the statements (f is the JSON).
figures() {
  python3 - "$figures" "$work/$1.json" "$2" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["lora_gate"]["rank"] = 2
f["lora_gate"]["alpha"] = 4
f["lora_gate"]["shapes"] = [{"N": 8, "K": 8, "T": 4, "reference": {"marker": 1}}, {"N": 6, "K": 5, "T": 3}]
f["transition"]["shapes"] = [{"B": 2, "tokens": 4, "channels": 4, "reference": {"marker": 2}}]
f["model"]["tokens"] = f["model"]["tokens"][:1]
exec(sys.argv[3])
json.dump(f, open(sys.argv[2], "w"))
PY
}
# field FILE PYTHON-EXPRESSION: prints the expression of the report r (JSON).
field() { python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$1"; }
check() {  # check WHAT GOT WANT
  if [ "$2" != "$3" ]; then fail "$1: got '$2', want '$3'"; else echo "ok:   $1"; fi
}

figures small "pass"
PARITY_FIGURES="$work/small.json" expect 0 "N8 K8 T4" -- "$parity" gate --backend host --out "$work/small-gate.json"
check "rows at the figures' LoRA shapes" "$(field "$work/small-gate.json" '[row["shape"] for row in r["lora_gate"]]')" \
  "['N8 K8 T4', 'N6 K5 T3']"
check "the LoRA figure's reference copied beside its row" \
  "$(field "$work/small-gate.json" '[row["reference"] for row in r["lora_gate"]]')" "[{'marker': 1}, {}]"
check "rows at the figures' transition shape" "$(field "$work/small-gate.json" '[row["shape"] for row in r["transition"]]')" \
  "['B2 x 4x4']"
check "the model at the figures' token count" "$(field "$work/small-gate.json" 'sorted({row["tokens"] for row in r["model"]})')" \
  "$(field "$work/small.json" '[t["tokens"] for t in r["model"]["tokens"]]')"
check "the report names its figures" "$(field "$work/small-gate.json" 'r["figures"]')" "$work/small.json"

# At the LoRA ops' largest scale (alpha = 1024 at rank 1: s = 1024) the gate certifies every output.
figures alpha 'f["lora_gate"]["alpha"] = 1024.0; f["lora_gate"]["rank"] = 1'
PARITY_FIGURES="$work/alpha.json" expect 0 "every check holds" -- "$parity" gate --backend host --out "$work/alpha-gate.json"
check "the LoRA rows certified at the ops' largest scale" \
  "$(field "$work/alpha-gate.json" '[(row["forward_within_bound"], row["gradients_within_bound"]) for row in r["lora_gate"]]')" \
  "[(True, True), (True, True)]"
# refused NAME PYTHON-STATEMENTS MESSAGE: the gate refuses the edited figures before any work.
refused() {
  figures "$1" "$2"
  PARITY_FIGURES="$work/$1.json" expect 2 "$3" -- "$parity" gate --backend host --out "$work/$1-gate.json"
  [ -e "$work/$1-gate.json" ] && { fail "a refused figure ($1) still wrote a report"; }
  return 0
}
refused big 'f["lora_gate"]["shapes"][1]["T"] = 2**21' "$work/big.json: lora_gate.shapes[1]: case.dims.T: outside [1, 1048576]"
refused channels 'f["transition"]["shapes"][0]["channels"] = 0' \
  "$work/channels.json: transition.shapes[0].channels: must be >= 1"
# Row b of the transition gate's case is at sigma = 1 - 0.9 b / B: from B = 10 the last row is below
# the ops' sigma minimum (0.2), and the shape is refused, not run and reported as a failing subject.
refused sigma_rows 'f["transition"]["shapes"][0]["B"] = 10' \
  "$work/sigma_rows.json: transition.shapes[0]: case.params.sigma.9: expected a float32 value in [0.2, 1]"
refused tokens 'f["model"]["tokens"][0]["tokens"] = 10**9' "$work/tokens.json: model.tokens[0]"
refused schema 'f["schema"] = "parity.reference-figures/0"' "schema: expected parity.reference-figures/1"
refused alpha_text 'f["lora_gate"]["alpha"] = "32"' "$work/alpha_text.json: lora_gate.alpha"
# A scale past the ops' contract (s = alpha / r in [0, 1024]) is refused.
refused scale 'f["lora_gate"]["alpha"] = 3.4028234663852886e38; f["lora_gate"]["rank"] = 1' \
  "$work/scale.json: lora_gate.shapes[0]: case.params.scale: expected a float32 value in [0, 1024]"
refused alpha_range 'f["lora_gate"]["alpha"] = 1e39' \
  "$work/alpha_range.json: lora_gate.shapes[0]: case.params.scale: expected a float32 value in [0, 1024]"
PARITY_FIGURES="$work/missing.json" expect 2 "$work/missing.json" -- "$parity" gate --backend host --out "$work/x.json"

# Without PARITY_FIGURES the gate reads the project's figures (from a build tree: the source's).
PARITY_FIGURES= expect 0 "N512 K384 T70" -- "$parity" gate --quick --backend host --out "$work/quick-gate.json"
check "the default figures are docs/reference/figures.json" "$(field "$work/quick-gate.json" 'r["figures"]')" "$figures"
check "the reference figures beside the first LoRA row" \
  "$(field "$work/quick-gate.json" 'json.dumps(r["lora_gate"][0]["reference"], sort_keys=True)')" \
  "$(field "$figures" 'json.dumps(r["lora_gate"]["shapes"][0]["reference"], sort_keys=True)')"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "gate_figures: the gate runs at its figures, and refuses figures outside its families' limits"
