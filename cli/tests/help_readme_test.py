#!/usr/bin/env python3
"""Every flag and environment variable `parity` accepts is in its --help and in docs/command.md.

usage: help_readme_test.py PATH/TO/parity SOURCE_DIR

The commands, their flags and positional arguments come from the parser itself (`parity
help-dump`, which walks the CLI11 App that parses the command line), with the variables each
command's help names. Checked:
  - `parity --help`, `parity -h` and `parity help` exit 0 and name every command and variable;
  - `parity CMD --help`, `parity CMD -h` and `parity help CMD` exit 0 and name every flag,
    positional argument and variable of CMD;
  - docs/command.md's synopsis (the code block after "# The `parity` command") has a `parity CMD`
    entry per command naming each of its flags, and its environment table has a row per variable
    naming every command that reads it;
  - every variable the program's sources read (getenv, env_decimal) is one the help documents.
"""
import json
import pathlib
import re
import subprocess
import sys

parity, source = sys.argv[1], pathlib.Path(sys.argv[2])
failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def run(*args):
    p = subprocess.run([parity, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def names(text, word):
    """Whether `word` stands alone in `text` (not part of a longer flag or name)."""
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


status, dump_text = run("help-dump")
if status != 0:
    sys.exit("FAIL: parity help-dump exited %d:\n%s" % (status, dump_text))
dump = json.loads(dump_text)
commands = dump["commands"]
if not commands or not all(c["flags"] or c["positionals"] or c["name"] == "list" for c in commands):
    fail("help-dump lists no commands, or commands without arguments: %s" % [c["name"] for c in commands])

for args in (["--help"], ["-h"], ["help"]):
    status, text = run(*args)
    if status != 0:
        fail("parity %s exited %d" % (" ".join(args), status))
    for word in [c["name"] for c in commands] + dump["environment"]:
        if not names(text, word):
            fail("parity %s does not name %s" % (" ".join(args), word))

for c in commands:
    for args in ([c["name"], "--help"], [c["name"], "-h"], ["help", c["name"]]):
        status, text = run(*args)
        if status != 0:
            fail("parity %s exited %d: %s" % (" ".join(args), status, text[-300:]))
            continue
        for word in c["flags"] + c["positionals"] + c["environment"]:
            if not names(text, word):
                fail("parity %s does not name %s" % (" ".join(args), word))
print("ok:   --help of %d commands checked against the parser" % len(commands))

DOC = "docs/command.md"
readme = (source / DOC).read_text()
block = re.search(r"# The `parity` command\n+```\n(.*?)```", readme, re.S)
if not block:
    sys.exit("FAIL: %s has no synopsis block after '# The `parity` command'" % DOC)
synopsis = {}  # command -> its synopsis entry (its line and the indented lines after it)
current = None
for line in block.group(1).splitlines():
    m = re.match(r"parity (\S+)", line)
    if m:
        current = m.group(1)
        synopsis[current] = synopsis.get(current, "") + line + "\n"
    elif line.startswith(" ") and current:
        synopsis[current] += line + "\n"
for c in commands:
    entry = synopsis.get(c["name"])
    if entry is None:
        fail("%s's synopsis has no 'parity %s' line" % (DOC, c["name"]))
        continue
    for flag in c["flags"]:
        if not names(entry, flag):
            fail("%s's synopsis of 'parity %s' lacks %s" % (DOC, c["name"], flag))
for extra in sorted(set(synopsis) - {c["name"] for c in commands}):
    fail("%s's synopsis names 'parity %s', which the parser does not know" % (DOC, extra))

rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([A-Z][A-Z0-9_]+)` \|.*$", readme, re.M)}
for variable in dump["environment"]:
    row = rows.get(variable)
    if row is None:
        fail("%s's environment table has no row for %s" % (DOC, variable))
        continue
    for c in commands:
        if variable in c["environment"] and not names(row, c["name"]):
            fail("%s's row of %s does not name '%s', which reads it" % (DOC, variable, c["name"]))
print("ok:   %s checked: %d synopsis entries, %d variables" % (DOC, len(synopsis), len(rows)))

read = set()
for folder in ("cli", "core", "oracles", "subjects", "properties/gen", "fuzz"):
    for path in (source / folder).rglob("*"):
        if path.suffix in (".cpp", ".hpp", ".cu", ".cuh") and "tests" not in path.parts:
            read |= set(re.findall(r'(?:getenv|env_decimal)\("([A-Z0-9_]+)"', path.read_text(errors="replace")))
if len(read) < 3:
    fail("found only %s read in the sources: the search is broken" % sorted(read))
for variable in sorted(read - set(dump["environment"])):
    fail("the sources read %s, which no --help documents" % variable)
print("ok:   the sources read %s" % ", ".join(sorted(read)))

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
