"""A subject given from Python as one operator overload of this process's dispatcher, which
parity calls by its schema over the channel (ops/torch_op/operator_channel.hpp).

An operator (torch.ops.NS.NAME, an overload of it, a torch.library.custom_op, or its schema name
"NS::NAME[.OVERLOAD]") is itself: of a name with several overloads, the one without an overload
name, else the only one. A plain Python function becomes an operator of the library
parity_python, defined once per function, family, torch_args and returns. Its schema's arguments
are the function's parameters in order, typed from their annotations where they have one, else
from what each one receives: a declared input is a Tensor (Tensor? where the input is optional),
an extent an int, a parameter a bool where every value it takes is 0 or 1, an int where every
value is an integer, else a float, and a torch_args literal its literal's type (cu_seqlens(EXT), a
ragged extent's offsets, a Tensor). Its returns are
the declared outputs, or as many as `returns` names.
"""
import inspect
import json
import re
import typing

import torch

from parity import _options, _program
from parity._errors import UsageError

_LIBRARY = "parity_python"
_library = None  # torch.library.Library: kept for the life of the process (it owns the registrations)
_defined = {}  # (function, family, torch_args, returns) -> its OpOverload
_taken = set()  # operator names defined so far


def _overload_of(packet, text):
    names = packet.overloads()
    if "default" in names:
        return packet.default
    if len(names) == 1:
        return getattr(packet, names[0])
    raise UsageError(f"subject: {text} has the overloads {', '.join(names)}: name one ({text}.OVERLOAD)")


def operator_of(subject):
    """The OpOverload an operator subject is, or None for a plain function."""
    if isinstance(subject, torch._ops.OpOverload):
        return subject
    if isinstance(subject, torch._ops.OpOverloadPacket):
        return _overload_of(subject, subject._qualified_op_name)
    custom_op = getattr(getattr(torch._library, "custom_ops", None), "CustomOpDef", None)  # torch >= 2.4
    if custom_op is not None and isinstance(subject, custom_op):
        return subject._opoverload
    if isinstance(subject, str):
        m = re.fullmatch(r"(\w+)::(\w+)(?:\.(\w+))?", subject)
        if not m:
            raise UsageError(f"subject: {subject!r} is not a schema name NAMESPACE::NAME[.OVERLOAD]")
        try:
            packet = getattr(getattr(torch.ops, m.group(1)), m.group(2))
        except (AttributeError, RuntimeError):
            raise UsageError(f"subject: this process's dispatcher has no operator {m.group(1)}::{m.group(2)} "
                             "(register it, or load its library with torch.ops.load_library)") from None
        if m.group(3) is None:
            return _overload_of(packet, subject)
        overload = m.group(3)
        if overload not in packet.overloads():
            raise UsageError(f"subject: {m.group(1)}::{m.group(2)} has no overload {overload} "
                             f"(it has {', '.join(packet.overloads())})")
        return getattr(packet, overload)
    if callable(subject):
        return None
    raise UsageError(f"subject: {subject!r} is neither an operator, a schema name nor a function")


def schema_name(op):
    """NS::NAME, or NS::NAME.OVERLOAD: what --torch-op names."""
    overload = op._schema.overload_name
    return op._schema.name + (f".{overload}" if overload else "")


def _annotation_type(annotation):
    if annotation is inspect.Parameter.empty:
        return None
    if annotation is torch.Tensor:
        return "Tensor"
    if annotation in (bool, int, float):
        return annotation.__name__
    if typing.get_origin(annotation) is typing.Union and set(typing.get_args(annotation)) == {torch.Tensor, type(None)}:
        return "Tensor?"
    return None


def _param_type(values):
    """A parameter's schema type from the values it takes (annotate the function to choose another)."""
    if all(v in (0.0, 1.0) for v in values):
        return "bool"
    if all(float(v).is_integer() for v in values):
        return "int"
    return "float"


def _literal_type(text):
    """The schema type of a torch_args literal as parity reads it (torch_op.hpp), or None for None."""
    if text in ("true", "false"):
        return "bool"
    if text == "None":
        return None
    if text.startswith("["):
        return "int[]"  # parity's lists are of ints and extents (torch_op.hpp)
    if re.fullmatch(r"cu_seqlens\(\w+\)", text):
        return "Tensor"  # a ragged extent's offsets, an int32 tensor (torch_op.hpp)
    if re.fullmatch(r"[+-]?\d+", text):
        return "int"
    try:
        float(text)
        return "float"
    except ValueError:
        return "ScalarType"  # a dtype's name; parity refuses any other word


def _default_text(default):
    if default is inspect.Parameter.empty:
        return ""
    if default is None:
        return "=None"
    if isinstance(default, bool):
        return "=True" if default else "=False"
    if isinstance(default, (int, float)):
        return f"={default!r}"
    return ""


def _schema(fn, family, torch_args):
    decl = _program.family(family)["op"]
    if decl is None:
        raise UsageError(f"subject: a plain Python function is a subject of an op family only; {family} is none "
                         "(give an operator, or a function on an op such as rms_norm)")
    inputs = {i["name"]: i for i in decl["inputs"]}
    params = {p["name"]: p for p in decl["params"]}
    extents = set(decl["extents"])
    declared = {**inputs, **params, **{e: e for e in extents}}
    # DECLARED=ARGUMENT and ARGUMENT=DECLARED both name the argument a declared name feeds.
    mapped = {v: k for k, v in torch_args.items() if k in declared and isinstance(v, str)}
    mapped.update({k: v for k, v in torch_args.items() if k not in declared and isinstance(v, str) and v in declared})
    arguments = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise UsageError(f"subject: {fn.__name__} takes *{p.name}: parity passes named arguments only")
        name = mapped.get(p.name, p.name)
        typ = _annotation_type(p.annotation)
        if typ is None:
            if name in inputs:
                typ = "Tensor?" if inputs[name]["optional"] else "Tensor"
            elif name in params:
                typ = _param_type(params[name]["values"])
            elif name in extents:
                typ = "int"
            elif p.name in torch_args:
                typ = _literal_type(_options.torch_literal(torch_args[p.name], f"torch_args[{p.name!r}]"))
            elif p.default is not inspect.Parameter.empty:
                typ = {bool: "bool", int: "int", float: "float"}.get(type(p.default))
                if p.default is None:
                    typ = "Tensor?"
            if typ is None:
                raise UsageError(
                    f"subject: the parameter {p.name!r} of {fn.__name__} is no input, parameter or extent of "
                    f"{family} ({', '.join(declared)}), and torch_args gives it no value its type can be read from"
                )
        arguments.append(f"{typ} {p.name}{_default_text(p.default)}")
    return ", ".join(arguments), decl["outputs"]


def define_function_op(fn, family, torch_args, returns):
    """The operator that calls `fn` (defined here the first time)."""
    global _library
    key = (fn, family, json.dumps(torch_args, sort_keys=True, default=str), tuple(returns or ()))
    if key in _defined:
        return _defined[key]
    arguments, outputs = _schema(fn, family, torch_args)
    count = len(returns) if returns else len(outputs)
    results = "Tensor" if count == 1 else "(" + ", ".join(["Tensor"] * count) + ")"
    base = re.sub(r"\W", "_", getattr(fn, "__name__", "function")) or "function"
    if base[0].isdigit():
        base = "_" + base
    name, n = base, 1
    while name in _taken:
        n += 1
        name = f"{base}_{n}"
    if _library is None:
        _library = torch.library.Library(_LIBRARY, "FRAGMENT")
    _library.define(f"{name}({arguments}) -> {results}")
    names = list(inspect.signature(fn).parameters)

    def kernel(*args):
        out = fn(**dict(zip(names, args)))
        return tuple(out) if isinstance(out, list) else out

    _library.impl(name, kernel, "CompositeExplicitAutograd")
    _taken.add(name)
    _defined[key] = getattr(getattr(torch.ops, _LIBRARY), name).default
    return _defined[key]
