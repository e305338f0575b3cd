"""A dataset (a document and what the manifest says of it) and the data model every document must fit
(DESIGN §3, spec/data-model.md), checked with one line naming the first value outside it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .formats import DEPTH_MESSAGE, MAX_DEPTH, FormatError, key_kind_message


@dataclass(frozen=True)
class Dataset:
    id: str
    kind: str  # schemaless | micro | user
    doc: object
    binary: bool = False
    size: int | None = None
    source: dict | None = None  # a user's file: path, format, bytes, sha256
    original: bytes | None = None  # a user's file: its exact bytes, written as `<id>.original.<ext>`
    original_format: str | None = None


_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
_OUTSIDE_NAMES = {
    "UndefinedType": "CBOR undefined",
    "CBORSimpleValue": "a CBOR simple value",
    "Timestamp": "a MessagePack timestamp (ext type -1)",
    "ExtType": "a MessagePack ext type",
}


class _Overflow(float):
    """A JSON number too large for a double, kept as its literal to name it (`_check_json_overflow`)."""

    literal: str


class _LongInteger(int):
    """A JSON integer too long for Python to convert (its int-string limit), kept as its digit count to
    name it (`_check_json_overflow`)."""

    digits: int


def _path(where) -> str:
    """`where` is a linked (parent, key) pair, built only for containers so the walk stays cheap."""
    keys = []
    while where is not None:
        where, k = where
        keys.append(k)
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in reversed(keys))


def _string_problem(s: str, what: str) -> str | None:
    m = _BAD_CHARS.search(s)
    if m is None:
        return None
    c = ord(m.group())
    if c == 0:
        return f"the {what} holds NUL (U+0000), which the data model leaves out (C APIs end strings there); remove it"
    return (
        f"the {what} holds a lone surrogate (U+{c:04X}), which UTF-8 cannot carry (a JSON \\u escape can write "
        "it, no other format can); fix the string"
    )


def _scalar_problem(v) -> str | None:
    t = type(v)
    if t is str:
        return _string_problem(v, "string")
    if t is bool or v is None or t is bytes:
        return None
    if t is _LongInteger:
        return f"integer of {v.digits} digits does not fit int64 or uint64; write it as a string"
    if t is int or isinstance(v, int):
        if -(1 << 63) <= v < (1 << 64):
            return None
        digits = str(abs(v)) if abs(v).bit_length() < 4000 else f"({abs(v).bit_length()} bits)"
        shown = ("-" if v < 0 else "") + (digits if len(digits) <= 30 else f"{digits[:20]}… ({len(digits)} digits)")
        return f"integer {shown} does not fit int64 or uint64; write it as a string"
    if t is _Overflow:
        return (
            f"the number {v.literal} overflows a 64-bit double (the data model's floats are finite); "
            "write it as a string or a smaller number"
        )
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return "NaN and infinity are not in the data model (floats are finite); use null or a number"
        return None
    name = _OUTSIDE_NAMES.get(t.__name__, t.__name__)
    return f"{name} is not in the data model (spec/data-model.md); write plain values"


def _quick_check(doc) -> tuple[int, bool] | None:
    """`check_data_model`'s answer for a document inside the data model, or None when something is
    outside it (or a type is not one of the common exact types), for the walk that names it. Half the
    time of that walk on a 50 MB file, because it keeps no path (issue 74)."""
    binary = False
    depth_max = 0
    stack = [(doc, 1)]  # the root container is depth 1, as in check_data_model
    bad = _BAD_CHARS.search
    lo, hi = -(1 << 63), 1 << 64
    while stack:
        v, depth = stack.pop()
        if depth > depth_max:
            if depth > MAX_DEPTH:
                return None
            depth_max = depth
        if type(v) is dict:
            if not all(type(k) is str for k in v) or bad("".join(v)):
                return None
            items = v.values()
        else:
            items = v
        for x in items:
            t = type(x)
            if t is str:
                if bad(x):
                    return None
            elif t is int:
                if not lo <= x < hi:
                    return None
            elif t is float:
                if x - x != 0.0:  # NaN or infinity
                    return None
            elif t is dict or t is list:
                stack.append((x, depth + 1))
            elif t is bytes:
                binary = True
            elif not (x is None or t is bool):
                return None
    return depth_max, binary


def check_data_model(doc) -> tuple[int, bool]:
    """Raise FormatError naming the first value outside the data model (DESIGN §3, spec/data-model.md):
    string keys, int64/uint64, finite floats, UTF-8 strings without NUL, nesting within MAX_DEPTH.
    Iterative, so no document can exhaust the stack. Returns (nesting depth, whether it holds binary)."""
    if type(doc) in (dict, list):
        quick = _quick_check(doc)
        if quick is not None:
            return quick
    binary = False
    depth_max = 0
    stack: list = []

    def visit(x, where, depth: int) -> None:
        nonlocal binary
        if isinstance(x, (dict, list)):
            stack.append((x, where, depth + 1))
            return
        problem = _scalar_problem(x)
        if problem:
            raise FormatError(f"{_path(where)}: {problem}")
        binary = binary or type(x) is bytes

    visit(doc, None, 0)
    while stack:
        v, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FormatError(DEPTH_MESSAGE)
        depth_max = max(depth_max, depth)
        if isinstance(v, dict):
            for k, x in v.items():
                if type(k) is not str:
                    raise FormatError(f"{_path(where)}: {key_kind_message(type(k).__name__, k)}")
                problem = _string_problem(k, f"key {k.encode('utf-8', 'backslashreplace').decode()!r}")
                if problem:
                    raise FormatError(f"{_path(where)}: {problem}")
                visit(x, (where, k), depth)
        else:
            for i, x in enumerate(v):
                visit(x, (where, i), depth)
    return depth_max, binary


def _check_json_overflow(text: str) -> None:
    """JSON has no infinity: an infinite float read from JSON was a number too large for a double
    (1e400), and an integer of thousands of digits cannot even be converted. Read the text again
    keeping such literals, to name the number and where it is."""

    def keep_int(literal: str) -> int:
        if len(literal) <= 64:
            return int(literal)
        i = _LongInteger(0)
        i.digits = len(literal.lstrip("-"))
        return i

    def keep(literal: str) -> float:
        f = float(literal)
        if f in (float("inf"), float("-inf")):
            f = _Overflow(f)
            f.literal = literal
        return f

    doc = json.loads(text, parse_float=keep, parse_int=keep_int, object_pairs_hook=dict)
    check_data_model(doc)
