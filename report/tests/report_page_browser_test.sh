#!/usr/bin/env bash
# report_page_browser_test.sh <parity> <fixtures dir> <regressions dir> <output dir>
# `parity report` end to end: a gate, a probes, a check-like and a trajectory report and a
# reproducer rendered as one page, opened in headless chromium. The dumped DOM must show each
# file's conclusion first, the failing rows with their reproducer linked relative to the page,
# an unknown field, and "plots rendered: 3 of 3" (the trajectory's plots, measured by the page's
# own script). Bad input exits 2 naming the file or flag. Exits 77 (skipped) without chromium.
set -uo pipefail
parity=$1 fixtures=$2 regressions=$3 out=$4
source "$(dirname "$0")/headless_chromium.sh"
rm -rf "$out" && mkdir -p "$out/pages"
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

repro=$(ls "$regressions"/lora-*.json | head -1)
page="$out/pages/all.html"
"$parity" report "$fixtures/gate_failing.json" "$fixtures/probes_one_undetected.json" "$fixtures/check_results.json" \
  "$fixtures/diverged.json" "$repro" --out "$page" >"$out/report.log" 2>&1 || fail "parity report exited $? ($(tail -1 "$out/report.log"))"
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$page" >"$out/all.dom.html" 2>"$out/dom.log" ||
  fail "chromium --dump-dom exited $?"
dom="$out/all.dom.html"
has() { grep -qF -- "$1" "$dom" || fail "the page lacks: $1"; }
has '<title>parity report</title>'
has '<p id="render-check">plots rendered: 3 of 3</p>'
has 'some checks fail</span>: 1 failing row(s).'
has '1 of 2 probes not detected (a failure of parity)'
has '1 of 3 results fail'
has 'the single and batched layouts diverged.'
has 'a reproducer: '
has 'a_field_from_the_future'
has 'findings (reported, not gated)'
# The conclusions come before the first table; the gate's finding is not among the failures.
conclusion=$(grep -bo 'section class="conclusion"' "$dom" | head -1 | cut -d: -f1)
table=$(grep -bo '<table>' "$dom" | head -1 | cut -d: -f1)
[ -n "$conclusion" ] && [ -n "$table" ] && [ "$conclusion" -lt "$table" ] || fail "the conclusions do not come first"
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
