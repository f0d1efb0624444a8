#!/usr/bin/env bash
# --json and --junit of `parity check`, `probes` and `replay`: valid JSON whose results name the
# property, subject, case, verdict kind, reproducer and replay command; well-formed JUnit XML
# (testsuites / testsuite / testcase, a failure for what failed) that agrees with the JSON; "-"
# and /dev/stdout put the document alone on stdout; bad output paths exit 2 before any work, naming the flag.
# usage: result_outputs_test.sh PATH/TO/parity
set -u
parity=$1
source "$(dirname "$0")/../../core/tests/expect.sh"
cd "$work"

# validate JSON JUNIT STATUS... : both documents agree, and hold the given statuses in order.
validate() {
  python3 - "$@" <<'PY' || fail "validate $*"
import json, sys, xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1]))
want = sys.argv[3:]
assert doc["schema"] == "parity.results/1", doc.get("schema")
results = doc["results"]
assert [r["status"] for r in results] == want, ([r["status"] for r in results], want)
assert doc["counts"] == {"results": len(results), "failed": sum(r["failed"] for r in results),
                         "skipped": sum(r["skipped"] and not r["failed"] for r in results)}, doc["counts"]
for r in results:
    for key in ("family", "property", "subject", "status", "kind", "case", "detail", "reproducer", "replay", "rerun"):
        assert key in r, (key, r)
    if r["status"] in ("fails", "still_fails", "detected"):
        assert r["kind"] is not None and r["case"]["family"] == r["family"] and r["case_summary"], r
        assert r["reproducer"] and r["replay"] == "parity replay " + r["reproducer"], r
root = ET.parse(sys.argv[2]).getroot()
assert root.tag == "testsuites", root.tag
cases = [c for s in root.findall("testsuite") for c in s.findall("testcase")]
assert len(cases) == len(results) == int(root.get("tests")), (len(cases), len(results), root.get("tests"))
assert int(root.get("failures")) == doc["counts"]["failed"], root.attrib
for c, r in zip(cases, results):
    assert c.get("classname") == r["family"] + "." + r["subject"], (c.attrib, r)
    assert c.get("name") == (r["property"] or r["status"]), (c.attrib, r)
    failure = c.find("failure")
    assert (failure is not None) == r["failed"], (c.attrib, r)
    if failure is not None and r["reproducer"]:
        assert r["replay"] in failure.text and failure.get("type") == (r["kind"] or r["status"]), failure.text
print("ok:   " + sys.argv[1] + ": " + " ".join(want))
PY
}

# check: a probe fails, shrinks and leaves a reproducer; the property that holds on it does not fail.
expect 1 "FAILS" -- "$parity" check lora_forward --subject probe-scale-dropped --property forward_accuracy --cases 40 \
  --repro-dir repros --json check.json --junit check.xml
validate check.json check.xml fails
repro=$(python3 -c 'import json; print(json.load(open("check.json"))["results"][0]["reproducer"])')
# "-": the document alone on stdout, the table on stderr.
"$parity" check lora_forward --property repeatable --cases 3 --json - 2> check.err > check-stdout.json
expect 0 "" -- python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["results"][0]["status"] == "holds"' check-stdout.json
grep -q "^repeatable" check.err || fail "the table did not go to stderr with --json -"
"$parity" check lora_forward --property repeatable --cases 3 --junit - > holds.xml 2> /dev/null
"$parity" check lora_forward --property repeatable --cases 3 --json holds.json > /dev/null 2>&1
validate holds.json holds.xml holds

# replay: still failing on the probe, passing on parity's kernel.
expect 1 "STILL FAILS" -- "$parity" replay "$repro" --json replay.json --junit replay.xml
validate replay.json replay.xml still_fails
expect 0 "passes now" -- "$parity" replay --subject parity-host "$repro" --json pass.json --junit pass.xml
validate pass.json pass.xml passes_now

# probes: every probe of the bridge family detected, each with its reproducer.
expect 0 "every probe detected" -- "$parity" probes bridge --cases 40 --repro-dir repros --json probes.json --junit probes.xml
n=$("$parity" list probes | grep -c '^  bridge ')
validate probes.json probes.xml $(for _ in $(seq "$n"); do echo detected; done)
# /dev/stdout is stdout too: the document alone there, the table on stderr.
"$parity" probes bridge --cases 40 --repro-dir repros --json /dev/stdout 2> probes.err > probes-stdout.json
expect 0 "" -- python3 -c 'import json, sys; json.load(open(sys.argv[1]))' probes-stdout.json
grep -q "^family" probes.err || fail "the table did not go to stderr with --json /dev/stdout"
# Progress: a line per finished probe on a terminal (script(1) gives the command one), none when piped.
"$parity" probes bridge --cases 40 --repro-dir repros > /dev/null 2> piped.err
if grep -q "parity probes: \[" piped.err; then fail "progress lines when stderr is a pipe"; fi
if command -v script > /dev/null; then
  script -qec "'$parity' probes bridge --cases 40 --repro-dir repros" /dev/null > tty.out 2>&1
  lines=$(grep -c "parity probes: \[[0-9]*/$n\] bridge/.*: detected by" tty.out)
  if [ "$lines" = "$n" ]; then echo "ok:   $n progress lines on a terminal"; else
    fail "$lines progress lines on a terminal, want $n:"; tail -5 tty.out; fi
else
  echo "script(1) is not installed: the terminal's progress lines are not checked"
fi

# Bad output paths, before any work.
echo plain > afile
expect 2 "--json: afile/x.json: afile is not a directory" -- timeout 20 "$parity" check lora --json afile/x.json
expect 2 "--junit: afile/x.xml: afile is not a directory" -- timeout 20 "$parity" probes --junit afile/x.xml
expect 2 "--junit: repros: is a directory" -- timeout 20 "$parity" replay "$repro" --junit repros
expect 2 "--junit: - is stdout, which --json - takes" -- "$parity" replay "$repro" --json - --junit -
expect 2 "--junit: /dev/stdout is stdout, which --json - takes" -- "$parity" replay "$repro" --json - --junit /dev/stdout

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
