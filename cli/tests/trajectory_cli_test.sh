#!/usr/bin/env bash
# trajectory_cli_test.sh PARITY [--browser]
# `parity trajectory` end to end: with LibTorch's video projections (strict) the layouts
# diverge, the report names the step, the flipped elements, the arms and a conclusion, and the
# shrunk reproducer replays (still failing); with the video projections or every boundary bound
# every step is bitwise equal; bad flags exit 2. With --browser, the real HTML page of the
# divergence is opened in headless chromium, whose DOM must say that all its plots rendered
# (3 seeds' step plots + the arms' per-block plot); exits 77 without chromium.
parity=$1
source "$(dirname "$0")/expect.sh"
export PARITY_REPRO_DIR="$work/repros"

expect 1 "single and batched DIFFER" -- "$parity" trajectory --json "$work/strict.json" --html "$work/strict.html"
expect 0 "every step bitwise equal" -- "$parity" trajectory --bind-video-projections --json "$work/video.json"
expect 0 "every step bitwise equal" -- "$parity" trajectory --bind-all --steps 2
expect 0 "every step bitwise equal" -- "$parity" trajectory --bind-video-projections --mode audit --steps 2
expect 2 "unknown runtime mode" -- "$parity" trajectory --mode lenient
expect 2 "--steps" -- "$parity" trajectory --steps 0
expect 2 "--blocks" -- "$parity" trajectory --blocks 4294967296
expect 2 "exclude each other" -- "$parity" trajectory --bind-all --subject strict
expect 2 "unknown trajectory subject" -- "$parity" trajectory --subject nope

python3 - "$work/strict.json" "$work/video.json" <<'PY' || failures=$((failures + 1))
import json, sys
strict, video = (json.load(open(p)) for p in sys.argv[1:3])
d = strict["divergence"]
assert strict["all_steps_bitwise_equal"] is False
assert d is not None and d["flipped_count"] >= 1, d
assert all(k in d["arms"] for k in "ABCP")
assert len(d["arms"]["A"]["per_block_rel_diff"]) == strict["blocks"]
assert d["conclusion"] in ("flipped_elements", "layouts", "both") and d["conclusion_text"]
assert strict["reproducer"] and strict["shrunk"]["property"] == "no_bf16_flip"
assert video["all_steps_bitwise_equal"] is True and video["divergence"] is None
print("ok:   strict report: seed", d["seed"], "step", d["step"], d["flipped_count"], "flip(s),", d["conclusion"])
PY
repro=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["reproducer"])' "$work/strict.json")
expect 1 "still fail" -- "$parity" replay "$repro"
expect 0 "" -- "$parity" replay --subject bound-all "$repro"

if [ "${2:-}" = "--browser" ]; then
  browser=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$browser" ]; then
    echo "chromium is not installed (ci/setup installs it): browser check skipped"
    exit 77
  fi
  profile=$(mktemp -d)
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --dump-dom "file://$work/strict.html" > "$work/strict.dom.html" 2>/dev/null
  said=$(grep -o '<p id="render-check">[^<]*</p>' "$work/strict.dom.html" | sed 's/<[^>]*>//g')
  if [ "$said" = "plots rendered: 4 of 4" ]; then echo "ok:   $said"; else
    echo "FAIL: the trajectory page says '${said:-nothing}', expected 'plots rendered: 4 of 4'"
    failures=$((failures + 1))
  fi
fi
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
