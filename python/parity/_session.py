"""parity.check and parity.replay: `parity check` and `parity replay` run as a child process on an
operator of this one, which answers its calls (_channel.py). parity does the rest: cases, oracles,
shrinking, reproducers, its text and its JSON records (--json), which become the results.
"""
import json
import os
import tempfile

from parity import _channel, _options, _program, _subject
from parity._errors import UsageError
from parity._results import PropertyResult, Replays, ReplayResult, Results


def property_names(family):
    return [p["name"] for p in _program.family(family)["properties"] if p["needs_subject"]]


def _operator(family, subject, options):
    op = _subject.operator_of(subject)
    if op is None:
        op = _subject.define_function_op(subject, family, options.get("torch_args") or {},
                                         _options.names(options.get("returns"), "returns"))
    return op


def _run(command, args, op):
    """Runs `parity COMMAND ARGS --in-process --json FILE` on `op`: (exit status, its text, its
    records). Raises UsageError for what parity refuses, RuntimeError for a fault of parity's."""
    program = _program.program()
    with tempfile.TemporaryDirectory(prefix="parity-") as tmp:
        results = os.path.join(tmp, "results.json")
        with open(os.path.join(tmp, "output.txt"), "w+", encoding="utf-8", errors="replace") as out:
            status = _channel.run([program, command, *args, "--in-process", "--json", results], op, out)
            out.seek(0)
            text = out.read()
        if status == 2 and not _options.is_fault(command, text):
            raise _options.usage_error(command, text)
        if status not in (0, 1) or not os.path.exists(results):
            raise RuntimeError(f"parity {command} ended with status {status}:\n{text}")
        with open(results, encoding="utf-8") as f:
            records = json.load(f)["results"]
    return status, text, records


def _call(function, first, options):
    """The Python call `parity.FUNCTION(first, subject, **options)`, as text."""
    words = [repr(first), "subject"] + [f"{k}={v!r}" for k, v in options.items() if v is not None]
    return f"parity.{function}({', '.join(words)})"


def _property_result(record, options):
    message, rerun, replay = record.get("message"), None, None
    if record["status"] == "fails":
        again = {**options, "properties": [record["property"]], "cases": record["case_count"],
                 "seed": record["seed"]}
        rerun = _call("check", record["family"], again)
        if record.get("reproducer"):
            replay = _call("replay", record["reproducer"],
                           {k: v for k, v in options.items() if k in _options.SUBJECT_FLAGS})
        lines = []
        for line in (message or "").splitlines():
            if line.startswith("  rerun:      "):
                line = "  rerun:      " + rerun
            elif line.startswith("  replay:     ") and replay:
                line = "  replay:     " + replay
            lines.append(line)
        message = "\n".join(lines) + "\n"
    return PropertyResult(record, message, rerun, replay)


def check(family, subject, *, properties=None, **options):
    _program.family(family)
    if isinstance(properties, str):
        properties = [properties]
    if properties is not None and (not isinstance(properties, (list, tuple)) or not properties
                                   or not all(isinstance(p, str) for p in properties)):
        raise UsageError(f"properties: expected a non-empty list of property names, not {properties!r}")
    flags = _options.flags(options, {**_options.CHECK_FLAGS, **_options.SUBJECT_FLAGS})  # refused before any work
    op = _operator(family, subject, options)
    base = [family, "--torch-op", _subject.schema_name(op), *flags]
    shown = {k: os.fspath(v) if isinstance(v, os.PathLike) else v for k, v in options.items() if v is not None}
    results, text = [], ""
    for prop in properties or [None]:
        _, out, records = _run("check", base + (["--property", prop] if prop else []), op)
        text += out
        results += [_property_result(r, shown) for r in records]
    return Results(results, text)


def _recorded_family(path):
    """The family the reproducer file at `path` records, or None (parity names what is wrong)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["case"]["family"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def replay(reproducer, subject, **options):
    for keyword in options:
        if keyword not in _options.SUBJECT_FLAGS:
            raise UsageError(f"unknown option {keyword!r} (parity.replay takes {', '.join(_options.SUBJECT_FLAGS)})")
    paths = [reproducer] if isinstance(reproducer, (str, os.PathLike)) else list(reproducer)
    if not paths:
        raise UsageError("reproducer: no file given")
    args = [os.fspath(p) for p in paths]
    for p in args:
        if not os.path.exists(p):
            raise UsageError(f"reproducer: no file or directory {p}")
    flags = _options.flags(options, _options.SUBJECT_FLAGS)
    op = _subject.operator_of(subject)
    if op is None:  # a plain function is defined for the family its reproducers record
        files = [os.path.join(p, f) for p in args if os.path.isdir(p) for f in sorted(os.listdir(p))
                 if f.endswith(".json")] + [p for p in args if os.path.isfile(p)]
        family = next((f for f in map(_recorded_family, files) if f), None)
        if family is None:
            raise UsageError(f"reproducer: {args[0]} records no family to define {subject!r} for")
        op = _operator(family, subject, options)
    name = _subject.schema_name(op)
    args += ["--torch-op", name, *flags]
    # Replayed on this operator, whatever subject the file records (a function's operator is
    # named anew in each session).
    args += ["--subject", name + ("@cuda" if options.get("device") == "cuda" else "")]
    _, text, records = _run("replay", args, op)
    return Replays([ReplayResult(r) for r in records], text)
