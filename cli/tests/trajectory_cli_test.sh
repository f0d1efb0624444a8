#!/usr/bin/env bash
# trajectory_cli_test.sh PARITY [--browser]
# `parity trajectory` end to end. Asserted only where parity's own routines compute everything:
# with the batch-variant-projection probe (every boundary bound, its projections batch variant)
# the layouts diverge, the report names the step, the flipped elements, the arms and a
# conclusion, and the shrunk reproducer replays (still failing on the probe, passing on
# bound-all); with every boundary bound every step is bitwise equal; bad flags exit 2. The
# binding sets that leave a boundary on LibTorch (strict, bound-video-projections) are run
# and their outcome printed as a finding: whether LibTorch's GEMMs give a batched row the bits
# of a single one depends on the BLAS kernel, the CPU and the thread count. With --browser, the
# real HTML page of the divergence is opened in headless chromium, whose DOM must say that all
# its plots rendered (video and audio gaps with the 3 seeds overlaid + the arms' per-block plot);
# exits 77 without chromium. The page links the reproducer relative to itself.
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"
export PARITY_REPRO_DIR="$work/repros"

expect 1 "single and batched DIFFER" -- "$parity" trajectory --subject batch-variant-projection \
  --json "$work/probe.json" --html "$work/probe.html"
expect 0 "every step bitwise equal" -- "$parity" trajectory --bind-all --json "$work/all.json"
expect 0 "every step bitwise equal" -- "$parity" trajectory --bind-all --mode audit --steps 2
for subject in strict bound-video-projections; do
  out=$("$parity" trajectory --subject "$subject" --steps 2 --no-shrink 2>&1)
  status=$?
  case "$status:$out" in
    0:*"every step bitwise equal"*) echo "finding: $subject is batch invariant on this machine's LibTorch" ;;
    1:*"single and batched DIFFER"*) echo "finding: $subject is batch variant on this machine's LibTorch" ;;
    *) fail "trajectory --subject $subject exited $status:"; echo "$out" | tail -20 ;;
  esac
done
expect 2 "unknown runtime mode" -- "$parity" trajectory --mode lenient
expect 2 "--steps" -- "$parity" trajectory --steps 0
expect 2 "--blocks" -- "$parity" trajectory --blocks 4294967296
expect 2 "exclude each other" -- "$parity" trajectory --bind-all --subject strict
expect 2 "unknown trajectory subject" -- "$parity" trajectory --subject nope

python3 - "$work/probe.json" "$work/all.json" <<'PY' || failures=$((failures + 1))
import json, sys
probe, bound = (json.load(open(p)) for p in sys.argv[1:3])
d = probe["divergence"]
assert probe["all_steps_bitwise_equal"] is False
assert d is not None and d["flipped_count"] >= 1, d
assert all(k in d["arms"] for k in "ABCP")
assert len(d["arms"]["A"]["per_block_rel_diff"]) == probe["blocks"]
assert d["conclusion"] in ("flipped_elements", "layouts", "both") and d["conclusion_text"]
assert probe["reproducer"] and probe["shrunk"]["property"] == "no_bf16_flip"
assert bound["all_steps_bitwise_equal"] is True and bound["divergence"] is None
print("ok:   probe report: seed", d["seed"], "step", d["step"], d["flipped_count"], "flip(s),", d["conclusion"])
PY
repro=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reproducer"])' "$work/probe.json")
expect 1 "still fail" -- "$parity" replay "$repro"
expect 0 "" -- "$parity" replay --subject bound-all "$repro"
# The page's link to the reproducer is relative to the page and leads to the file.
link=$(grep -o '<a href="[^"]*">' "$work/probe.html" | head -1 | sed 's/<a href="//; s/">//')
if [ -n "$link" ] && [ "${link#/}" = "$link" ] && cmp -s "$work/$link" "$repro"; then echo "ok:   page links $link"; else
  fail "the page's reproducer link '${link:-none}' does not lead from $work to $repro"
fi

if [ "${2:-}" = "--browser" ]; then
  browser=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$browser" ]; then
    echo "chromium is not installed (ci/setup installs it): browser check skipped"
    exit 77
  fi
  profile=$(mktemp -d)
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --dump-dom "file://$work/probe.html" > "$work/probe.dom.html" 2>/dev/null
  said=$(grep -o '<p id="render-check">[^<]*</p>' "$work/probe.dom.html" | sed 's/<[^>]*>//g')
  if [ "$said" = "plots rendered: 3 of 3" ]; then echo "ok:   $said"; else
    fail "the trajectory page says '${said:-nothing}', expected 'plots rendered: 3 of 3'"
  fi
fi
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
