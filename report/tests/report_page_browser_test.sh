#!/usr/bin/env bash
# report_page_browser_test.sh <parity> <fixtures dir> <regressions dir> <output dir>
# `parity report` end to end: a gate, a probes, two check-like and a trajectory report and a
# reproducer rendered as one page, opened in headless chromium. The dumped DOM must show each
# file's conclusion first, a card per failing row before any table, with its reproducer linked
# relative to the page and its replay and rerun commands, the element map of a check record
# (check_with_map.json) as an SVG with its differing cells marked, an unknown field, and
# "plots rendered: 4 of 4" (the trajectory's three plots and the map, measured by the page's own
# script). Bad input exits 2 naming the file or flag. Exits 77 (skipped) without chromium.
set -uo pipefail
parity=$1 fixtures=$2 regressions=$3 out=$4
source "$(dirname "$0")/headless_chromium.sh"
rm -rf "$out" && mkdir -p "$out/pages"
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

repro=$(ls "$regressions"/lora-*.json | head -1)
page="$out/pages/all.html"
"$parity" report "$fixtures/gate_failing.json" "$fixtures/probes_one_undetected.json" "$fixtures/check_results.json" \
  "$fixtures/check_with_map.json" "$fixtures/diverged.json" "$repro" --out "$page" >"$out/report.log" 2>&1 || fail "parity report exited $? ($(tail -1 "$out/report.log"))"
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out/all.dom.html" 2>"$out/dom.log" ||
  fail "chromium --dump-dom exited $?"
dom="$out/all.dom.html"
has() { grep -qF -- "$1" "$dom" || fail "the page lacks: $1"; }
has '<title>parity report</title>'
has '<p id="render-check">plots rendered: 4 of 4</p>'
has 'some checks fail</span>: 1 failing row(s).'
has '1 of 2 probes not detected (a failure of parity)'
has '1 of 3 results fail'
has 'the single and batched layouts diverged.'
has 'a reproducer: '
has 'a_field_from_the_future'
has 'findings (reported, not gated)'
# The conclusions and their cards come before the first table; the gate's finding is not among
# the failures.
conclusion=$(grep -bo 'section class="conclusion"' "$dom" | head -1 | cut -d: -f1)
card=$(grep -bo '<article class="card">' "$dom" | tail -1 | cut -d: -f1)
table=$(grep -bo '<table>' "$dom" | head -1 | cut -d: -f1)
[ -n "$conclusion" ] && [ -n "$card" ] && [ -n "$table" ] && [ "$conclusion" -lt "$card" ] && [ "$card" -lt "$table" ] ||
  fail "the conclusions and their cards do not come first"
# The check record's card: its case in one line, its rerun, its map drawn with the cells the
# fixture's map marks (read from the fixture: a marked cell's row and element).
with_map="$fixtures/check_with_map.json"
has "<code class=\"case\">$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["case_summary"])' "$with_map")</code>"
has "<code class=\"command\">$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["rerun"])' "$with_map")</code>"
has '<figure class="plot map"><svg'
read -r marked_row marked_element < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["map"]
i = next(k for k, v in enumerate(m["cells"]) if v not in (0, "nan"))
print(i // m["cell_cols"], i % m["cell_cols"])' "$with_map")
grep -qE "class=\"data mark\"[^>]*data-rows=\"$marked_row\" data-elements=\"$marked_element(-[0-9]+)?\"" "$dom" ||
  fail "the map lacks a mark at row $marked_row, element $marked_element"
marks=$(grep -o 'class="data mark"' "$dom" | wc -l)
[ "$marks" -gt 0 ] || fail "the map marks no cell"
grep -q '>null<' "$dom" && fail "a table shows null for an absent field"
sed -n '/section class="conclusion"/,/<\/section>/p' "$dom" | grep -q 'a finding, not a failure' &&
  fail "a LibTorch finding is listed as a failure"
# Paths relative to the page (the JSON records them relative to where parity ran: here).
relative=$(realpath -m --relative-to="$out/pages" reports/repros/lora-rows_independent-my-lora-host-00112233445566ff.json)
has "<a href=\"$relative\">"
has "parity replay reports/repros/lora-rows_independent-my-lora-host-00112233445566ff.json"
repro_link=$(realpath -m --relative-to="$out/pages" "$repro")
has "<a href=\"$repro_link\">"
[ -f "$out/pages/$repro_link" ] || fail "the reproducer's link $repro_link does not lead to it"

# Bad input: exit 2, naming the file or the flag.
expect_2() {
  local what=$1; shift
  local said
  said=$("$parity" report "$@" 2>&1)
  local status=$?
  [ "$status" -eq 2 ] && grep -qF -- "$what" <<<"$said" || fail "parity report $* exited $status, said '$said' (wanted 2 and '$what')"
}
echo '{"truncated": ' >"$out/bad.json"
expect_2 "bad.json: not valid JSON" "$out/bad.json" --out "$out/x.html"
expect_2 "missing.json" "$out/missing.json" --out "$out/x.html"
expect_2 "--out" "$fixtures/diverged.json"
expect_2 "at least one FILE" --out "$out/x.html"
[ -e "$out/x.html" ] && fail "a page was written for bad input"

if [ "$failures" -ne 0 ]; then
  echo "report_page_browser_test: $failures failure(s); page and DOM in $out"
  exit 1
fi
echo "report_page_browser_test: the page rendered as expected ($out)"
