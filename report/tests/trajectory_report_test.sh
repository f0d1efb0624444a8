#!/usr/bin/env bash
# trajectory_report_test.sh <trajectory_report_render> <fixtures dir> <output dir>
# Renders each fixture report to HTML and opens it in headless chromium: the screenshot must be
# a real picture (not tiny, more than a few colours) and the dumped DOM must say
# "plots rendered: N of M" with the N and M expected for that fixture, which the page's own
# script computes by measuring every plot's drawn marks with getBBox(). The nonfinite fixture
# has no finite audio value: its audio plot draws nothing, so there N < M, which shows that the
# check can fail. Exits 77 (skipped) when chromium is not installed.
set -euo pipefail
render=$1 fixtures=$2 out=$3

source "$(dirname "$0")/headless_chromium.sh"
rm -rf "$out" && mkdir -p "$out"

failures=0
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# fixture, then the render check expected in its DOM.
check() {
  local name=$1 expected=$2 page="$out/$1.html" png="$out/$1.png" dom="$out/$1.dom.html"
  "$render" "$fixtures/$name.json" "$page"
  timeout 120 "$browser" "${flags[@]}" --screenshot="$png" --window-size=1280,2000 "file://$page" \
    >"$out/$name.screenshot.log" 2>&1 || fail "$name" "chromium --screenshot exited $? (log: $out/$name.screenshot.log)"
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$dom" 2>"$out/$name.dom.log" ||
    fail "$name" "chromium --dump-dom exited $? (log: $out/$name.dom.log)"

  local size
  size=$(stat -c %s "$png" 2>/dev/null || echo 0)
  [ "$size" -gt 20000 ] || fail "$name" "screenshot $png is $size bytes: too small to hold the page"
  if command -v python3 >/dev/null && [ "$size" -gt 0 ]; then
    local colours
    colours=$(python3 "$(dirname "$0")/png_colours.py" "$png") || colours=0
    [ "$colours" -gt 8 ] || fail "$name" "screenshot $png has $colours colour(s): the page did not paint"
  fi
  local said
  said=$(grep -o '<p id="render-check">[^<]*</p>' "$dom" | sed 's/<[^>]*>//g' || true)
  [ "$said" = "plots rendered: $expected" ] || fail "$name" "DOM says '${said:-no render check}', expected 'plots rendered: $expected'"
  grep -q "<body data-plots-rendered=\"${expected%% *}\">" "$dom" ||
    fail "$name" "body's data-plots-rendered is not ${expected%% *}"
  grep -q '<title>parity trajectory</title>' "$dom" || fail "$name" "the page's title changed: injected script ran?"
  echo "$name: $said; screenshot $size bytes, ${colours:-?} colours"
}

check diverged "3 of 3"            # video and audio gaps, 3 seeds on each + the per-block plot of the arms
check equal_single_step "2 of 2"   # one step, all zeros: markers on the zero row only
check nonfinite "2 of 3"           # every audio value is nan: the audio plot is drawn empty
# The reproducer is linked relative to the page (the JSON records it relative to the directory the
# render ran in) with the command that replays it from the page's folder.
relative=$(realpath -m --relative-to="$out" reports/repros/trajectory_seed33_step3.json)
grep -q "<a href=\"$relative\">" "$out/diverged.dom.html" || fail diverged "no link to the reproducer at $relative"
grep -q "parity replay $relative" "$out/diverged.dom.html" || fail diverged "no replay command for $relative"
grep -q '&lt;script&gt;document.title' "$out/nonfinite.dom.html" || fail nonfinite "bindings text not escaped"

if [ "$failures" -ne 0 ]; then
  echo "trajectory_report_test: $failures failure(s); pages, screenshots and DOM dumps in $out"
  exit 1
fi
echo "trajectory_report_test: every page rendered as expected ($out)"
