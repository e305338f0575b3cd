"""Where two documents differ: the first differing path, with both values and their types (DESIGN §9).

An incorrect cell says only "hash X != expected Y" unless something shows what the library produced.
For write rows it does: the bytes the library wrote (the check's `--output-file`) are decoded with the
reference decoder of their format and compared here with the corpus document, so the reason reads
`first difference at $.a[3]: expected uint 18446744073709551615, got float 1.8446744073709552e+19`.

Values are the data model as the reference decoders return it (corpus/formats.py, objhash.py): None,
bool, int (the sign decides int or uint: the hash does not tell them apart), float, str, bytes,
list, dict. Equality is the hash's: floats by their IEEE-754 bits (so -0.0 is not 0.0), maps without
order. The walk is iterative, so depth is bounded by memory only.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable

_bits = struct.Struct("<d").pack
SHOW_CHARS = 60  # a value longer than this is cut in the message, with its length said


def type_name(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "uint" if v > (1 << 63) - 1 else "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (bytes, bytearray)):
        return "binary"
    if isinstance(v, (list, tuple)):
        return "array"
    if isinstance(v, dict):
        return "map"
    return type(v).__name__


def _kind(v) -> str:
    """The hash's notion of a type: int and uint are one kind (a non-negative value hashes the same)."""
    t = type_name(v)
    return "int" if t == "uint" else t


def show(v) -> str:
    """A value for a one-line message: its type and a short rendering."""
    t = type_name(v)
    if t == "array":
        return f"array of {len(v)}"
    if t == "map":
        return f"map of {len(v)}"
    if t == "float":
        text = repr(v)
    elif t == "binary":
        text = bytes(v[:SHOW_CHARS]).hex() + ("…" if len(v) > SHOW_CHARS else "")
        return f"binary ({len(v)} B) {text}"
    elif t == "string":
        text = json.dumps(v[:SHOW_CHARS], ensure_ascii=True) + ("…" if len(v) > SHOW_CHARS else "")
        return f"string ({len(v)} chars) {text}"
    else:
        text = json.dumps(v)
    return f"{t} {text}"


def _step(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=True)}]"


def _same_scalar(a, b) -> bool:
    if isinstance(a, float):
        return _bits(a) == _bits(b)
    return a == b


def first_difference(expected, got) -> str | None:
    """`None` when the documents are equal as the hash sees them; else one line naming the first
    differing path (document order of `expected`) and what each side holds there."""
    stack = [("$", expected, got)]
    while stack:
        path, e, g = stack.pop()
        ke, kg = _kind(e), _kind(g)
        if ke != kg:
            return f"at {path}: expected {show(e)}, got {show(g)}"
        if ke == "array":
            if len(e) != len(g):
                return f"at {path}: expected an array of {len(e)} values, got {len(g)}"
            stack.extend((_step(path, i), e[i], g[i]) for i in reversed(range(len(e))))
        elif ke == "map":
            missing = [k for k in e if k not in g]
            if missing:
                return f"at {path}: the key {json.dumps(missing[0], ensure_ascii=True)} is missing"
            extra = [k for k in g if k not in e]
            if extra:
                return f"at {path}: an extra key {json.dumps(extra[0], ensure_ascii=True)}"
            stack.extend((_step(path, k), e[k], g[k]) for k in reversed(list(e)))
        elif not _same_scalar(e, g):
            return f"at {path}: expected {show(e)}, got {show(g)}"
    return None


def explain_output(decode: Callable[[bytes], object], expected, output: bytes) -> str:
    """Why a writer's output is not the `expected` document: its first difference, or that the
    reference decoder refuses it. Never raises: a reason is the whole point."""
    try:
        got = decode(output)
    except Exception as e:
        return f"the output does not decode with serbench's reference decoder: {e}"
    found = first_difference(expected, got)
    return f"first difference {found}" if found else "the output decodes to the expected document"
