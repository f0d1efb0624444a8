"""The keyword options of parity.check and parity.replay as `parity`'s flags, and parity's refusals
as Python's: each flag named back as the keyword that gave it."""
import math
import re

from parity._errors import UsageError

# keyword -> the flag of `parity check` it gives.
CHECK_FLAGS = {
    "cases": "--cases",
    "seed": "--seed",
    "dtypes": "--dtypes",
    "params": "--param",
    "max_extents": "--max",
    "repro_dir": "--repro-dir",
}
# keyword -> the flag that describes the subject, for check and replay alike.
SUBJECT_FLAGS = {
    "torch_args": "--torch-arg",
    "returns": "--torch-returns",
    "device": "--torch-device",
    "kernel_op": "--kernel-op",
}
# Flags named in parity's messages that no keyword gives one to one.
OTHER_NAMES = {"--torch-op": "subject", "--property": "properties", "--subject": "subject"}


def _number(value, keyword):
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UsageError(f"{keyword}: {value!r} is not a finite number")
        return repr(value)
    raise UsageError(f"{keyword}: {value!r} is not a number")


def torch_literal(value, keyword):
    """A --torch-arg value: a declared name or literal as parity reads it."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value, keyword)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(torch_literal(v, keyword) for v in value) + "]"
    if isinstance(value, str):
        return value
    text = str(value)
    if text.startswith("torch."):  # a torch.dtype: its name, which parity reads
        return text[len("torch."):]
    raise UsageError(f"{keyword}: {value!r} is none of a name, None, a bool, a number, a list or a dtype")


def _pairs(value, keyword, render):
    if not isinstance(value, dict):
        raise UsageError(f"{keyword}: expected a dict, not {type(value).__name__}")
    for k in value:
        if not isinstance(k, str) or not k:
            raise UsageError(f"{keyword}: the key {k!r} is not a name")
    return ",".join(f"{k}={render(v, f'{keyword}[{k!r}]')}" for k, v in value.items())


def names(value, keyword):
    """A list of names from a list of them or one comma-separated str; None stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.split(",")
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{keyword}: expected a list of names, not {value!r}")
    return list(value)


def _int(value, keyword):
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{keyword}: expected an int, not {value!r}")
    return str(value)


def _flag_value(keyword, value):
    if keyword in ("cases", "seed"):
        return _int(value, keyword)
    if keyword == "dtypes" or keyword == "returns":
        return ",".join(names(value, keyword))
    if keyword == "params":
        return _pairs(value, keyword, _number)
    if keyword == "max_extents":
        return _pairs(value, keyword, _int)
    if keyword == "torch_args":
        return _pairs(value, keyword, torch_literal)
    if keyword in ("device", "kernel_op"):
        if not isinstance(value, str):
            raise UsageError(f"{keyword}: expected a str, not {value!r}")
        return value
    if keyword == "repro_dir":
        return str(value)
    raise AssertionError(keyword)


def flags(options, table):
    """The flags of `options` (keyword -> value; None leaves a flag out) that `table` knows.
    Raises UsageError naming a keyword that neither table knows."""
    args = []
    for keyword, value in options.items():
        if keyword not in CHECK_FLAGS and keyword not in SUBJECT_FLAGS:
            known = ", ".join(sorted([*CHECK_FLAGS, *SUBJECT_FLAGS, "properties"]))
            raise UsageError(f"unknown option {keyword!r} (parity.check takes {known})")
        if value is None or keyword not in table:
            continue
        args += [table[keyword], _flag_value(keyword, value)]
    return args


_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")
_SEE_HELP = re.compile(r"\s*\(see parity [a-z-]+ --help\)")
_ARG_HINT = re.compile(r"torch_args (\w+)=([\w.\[\],-]+)")


def is_fault(command, text):
    """Whether parity's exit 2 is a fault of parity's or of the socket (an exception it did not
    expect, a channel that failed), not a refusal of what the caller gave."""
    return f"parity {command}: error: " in text or "--torch-channel: " in text


def usage_error(command, text):
    """parity's refusal (its standard error) as a UsageError, each flag named as its keyword."""
    keywords = {**{f: k for k, f in CHECK_FLAGS.items()}, **{f: k for k, f in SUBJECT_FLAGS.items()}, **OTHER_NAMES}
    message = _SEE_HELP.sub("", text.strip())
    if message.startswith(f"parity {command}: "):
        message = message[len(f"parity {command}: "):]
    message = _FLAG.sub(lambda m: keywords.get(m.group(0), m.group(0)), message)
    # A hint in the command line's form ("--torch-arg x=ARGUMENT") in the keyword's.
    message = _ARG_HINT.sub(lambda m: f"torch_args={{{m.group(1)!r}: {m.group(2)!r}}}", message)
    return UsageError(message)
