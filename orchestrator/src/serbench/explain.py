"""Why a read row's hash differs, when a known, systematic change of the document explains it.

A tree or incremental row reports only the hash of what its library decoded (every harness feeds the
hash with the hashes of the values it reads, not the values), so serbench cannot diff it the way it
diffs a writer's output (diff.py). Most incorrect decoders are systematically wrong, though: every
number becomes a double, integers beyond int64 become doubles, -0.0 loses its sign. So the expected
document is changed in each of those ways in turn, and hashed: when a changed document's hash is the
one the row reported, the explanation is exact (same 64-bit hash), and it names the first path the
change touches with the value before and after. When none matches, nothing is claimed.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

from . import diff, objhash

INT64_MAX = (1 << 63) - 1
_f32 = struct.Struct("<f")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _to_float32(v: float) -> float:
    try:
        return _f32.unpack(_f32.pack(v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _latin1_of_utf8(v):
    return v.encode("utf-8").decode("latin-1") if isinstance(v, str) and not v.isascii() else None


# (what the library did, the change applied to every scalar value and every map key; None = unchanged).
# Keys too, because a codec reads a map's keys with the code that reads its string values. Ordered
# from the narrowest to the broadest, so the first that matches is the most specific explanation.
TRANSFORMS: list[tuple[str, Callable[[object], object | None]]] = [
    ("-0.0 read as +0.0", lambda v: 0.0 if isinstance(v, float) and v == 0.0 and math.copysign(1, v) < 0 else None),
    ("the integer -2^63 read as a double", lambda v: float(v) if _is_int(v) and v == -(1 << 63) else None),
    ("integers above 2^63-1 read as doubles", lambda v: float(v) if _is_int(v) and v > INT64_MAX else None),
    (
        "integers above 2^63-1, and -2^63, read as doubles (an int64 magnitude overflowed)",
        lambda v: float(v) if _is_int(v) and (v > INT64_MAX or v == -(1 << 63)) else None,
    ),
    (
        "integers above 2^63-1 wrapped to negative int64",
        lambda v: v - (1 << 64) if _is_int(v) and v > INT64_MAX else None,
    ),
    ("integers beyond ±2^53 read as doubles", lambda v: float(v) if _is_int(v) and abs(v) > (1 << 53) else None),
    ("every number read as a double", lambda v: float(v) if _is_int(v) else None),
    (
        "integral doubles read as integers",
        lambda v: int(v) if isinstance(v, float) and math.isfinite(v) and v.is_integer() else None,
    ),
    ("doubles rounded to float32", lambda v: _to_float32(v) if isinstance(v, float) and _to_float32(v) != v else None),
    ("strings cut at their first NUL", lambda v: v.split("\0", 1)[0] if isinstance(v, str) and "\0" in v else None),
    # A codec that writes UTF-8 and reads each byte back as one char (ISO-8859-1), as Chronicle Bytes'
    # writer()/reader() pair and RawWire's UTF-8 mode do: every non-ASCII string, keys included, comes back
    # as the Latin-1 reading of its UTF-8 bytes ("é" as "Ã©").
    ("non-ASCII text read back as the Latin-1 reading of its UTF-8 bytes", _latin1_of_utf8),
]


@dataclass(frozen=True)
class KeyChange:
    """A map key that `change` changed: where its entry's value goes, and what to report."""

    before: str
    after: str


def transform(doc, change: Callable[[object], object | None]) -> tuple[object, tuple[str, object, object] | None]:
    """(a copy of doc with `change` applied to every scalar value and map key, the first (path, before,
    after) it changed in document order or None). Iterative: any depth."""
    first: list = []
    root: list = [None]
    # (path, value, container to put the result in, key or index there)
    stack: list[tuple[str, object, object, object]] = [("$", doc, root, 0)]
    while stack:
        path, v, parent, slot = stack.pop()
        if isinstance(slot, KeyChange):  # reported at its entry's turn, so `first` stays in document order
            if not first:
                first.append((f"{path} (its key)", slot.before, slot.after))
            slot = slot.after
        if isinstance(v, dict):
            new: dict = {}
            parent[slot] = new
            keys = [(k, change(k)) for k in v]
            for k, after in keys:
                new[k if after is None else after] = None  # keeps the order; values come as the stack unwinds
            stack.extend(
                (diff._step(path, k), v[k], new, k if after is None else KeyChange(k, after))
                for k, after in reversed(keys)
            )
        elif isinstance(v, (list, tuple)):
            new_list: list = [None] * len(v)
            parent[slot] = new_list
            stack.extend((diff._step(path, i), v[i], new_list, i) for i in reversed(range(len(v))))
        else:
            after = change(v)
            if after is None:
                parent[slot] = v
            else:
                parent[slot] = after
                if not first:
                    first.append((path, v, after))
    return root[0], (first[0] if first else None)


class Explainer:
    """Explanations for one expected document; the changed documents' hashes are computed once, as
    they are asked for, so many incorrect cells of one dataset cost one pass per change."""

    def __init__(self, expected) -> None:
        self.expected = expected
        self._hashes: dict[int, tuple[str, tuple] | None] = {}

    def _hash_of(self, i: int) -> tuple[str, tuple] | None:
        if i not in self._hashes:
            changed, first = transform(self.expected, TRANSFORMS[i][1])
            self._hashes[i] = (objhash.hex64(objhash.hash_value(changed)), first) if first else None
        return self._hashes[i]

    def explain(self, got_hash: str) -> str | None:
        got = got_hash.lower()
        for i, (what, _) in enumerate(TRANSFORMS):
            found = self._hash_of(i)
            if found and found[0] == got:
                path, before, after = found[1]
                return (
                    f"the hash is the document's with {what} (first at {path}: "
                    f"expected {diff.show(before)}, got {diff.show(after)})"
                )
        return None
