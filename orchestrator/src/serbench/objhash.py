"""The serbench object hash, spec/hash.md version 1.

Reference implementation: `hash_value` hashes a Python tree, `StreamHasher` takes parse events. Both
must agree with each other and with vectors/vectors.json.

Python values map to the data model as: None, bool, int (sign decides UINT or NEGINT), float, str,
bytes/bytearray (binary), list/tuple (array), dict (map with str keys).
"""

from __future__ import annotations

import struct

MASK = (1 << 64) - 1
K = 0x9E3779B97F4A7C15

NULL, BOOL, UINT, NEGINT, FLOAT, STRING, BINARY, ARRAY, MAP, ENTRY = range(1, 11)
HASH_VERSION = 1

_pack_double = struct.Struct("<d").pack
_unpack_u64 = struct.Struct("<Q").unpack


def fmix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def step(a: int, x: int) -> int:
    z = (a * K + x) & MASK
    # fmix inlined: this is the hot path of every check in the Python harness.
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


_NULL_HASH = step(NULL, 0)
_FALSE_HASH = step(BOOL, 0)
_TRUE_HASH = step(BOOL, 1)


def hash_bytes(tag: int, b: bytes) -> int:
    n = len(b)
    a = step(tag, n)
    full = n - n % 8
    if full:
        for w in struct.unpack(f"<{full // 8}Q", b[:full]):
            a = step(a, w)
    if n != full:
        a = step(a, int.from_bytes(b[full:], "little"))
    return a


def hash_str(s: str) -> int:
    return hash_bytes(STRING, s.encode("utf-8"))


def hash_int(v: int) -> int:
    if v >= 0:
        return step(UINT, v)
    return step(NEGINT, v & MASK)


def hash_float(f: float) -> int:
    return step(FLOAT, _unpack_u64(_pack_double(f))[0])


def hash_value(v) -> int:
    """Hash one value of the data model (recursively)."""
    t = type(v)
    if t is str:
        return hash_bytes(STRING, v.encode("utf-8"))
    if t is int:
        return step(UINT, v) if v >= 0 else step(NEGINT, v & MASK)
    if t is float:
        return step(FLOAT, _unpack_u64(_pack_double(v))[0])
    if t is dict:
        s = 0
        for k, x in v.items():
            if type(k) is not str:
                raise TypeError(f"map key must be a string, got {type(k).__name__}")
            s += step(step(ENTRY, hash_bytes(STRING, k.encode("utf-8"))), hash_value(x))
        return step(step(MAP, s & MASK), len(v))
    if t is list or t is tuple:
        a = ARRAY
        for x in v:
            a = step(a, hash_value(x))
        return step(a, len(v))
    if v is None:
        return _NULL_HASH
    if t is bool:
        return _TRUE_HASH if v else _FALSE_HASH
    if t is bytes or t is bytearray or t is memoryview:
        return hash_bytes(BINARY, bytes(v))
    # Subclasses (e.g. bson's Int64, OrderedDict) fall back to their base type.
    for base, fn in (
        (bool, lambda x: _TRUE_HASH if x else _FALSE_HASH),
        (int, hash_int),
        (float, hash_float),
        (str, hash_str),
    ):
        if isinstance(v, base):
            return fn(v)
    if isinstance(v, dict):
        return hash_value(dict(v))
    if isinstance(v, (list, tuple)):
        return hash_value(list(v))
    raise TypeError(f"value of type {t.__name__} is not in the serbench data model")


def hex64(h: int) -> str:
    return format(h, "016x")


class StreamHasher:
    """Computes the hash from parse events, without a tree (spec/hash.md, "Streaming form")."""

    def __init__(self) -> None:
        # Each frame: [is_map, acc, count, pending_key_hash]
        self._stack: list[list] = []
        self.result: int | None = None

    def _emit(self, h: int) -> None:
        if not self._stack:
            if self.result is not None:
                raise ValueError("more than one root value")
            self.result = h
            return
        f = self._stack[-1]
        if f[0]:
            if f[3] is None:
                raise ValueError("map value without a key")
            f[1] = (f[1] + step(step(ENTRY, f[3]), h)) & MASK
            f[3] = None
        else:
            f[1] = step(f[1], h)
        f[2] += 1

    def null(self) -> None:
        self._emit(_NULL_HASH)

    def boolean(self, b: bool) -> None:
        self._emit(_TRUE_HASH if b else _FALSE_HASH)

    def integer(self, v: int) -> None:
        self._emit(hash_int(v))

    def double(self, f: float) -> None:
        self._emit(hash_float(f))

    def string(self, s: str | bytes) -> None:
        self._emit(hash_bytes(STRING, s.encode("utf-8") if isinstance(s, str) else s))

    def binary(self, b: bytes) -> None:
        self._emit(hash_bytes(BINARY, b))

    def start_array(self) -> None:
        self._stack.append([False, ARRAY, 0, None])

    def end_array(self) -> None:
        f = self._stack.pop()
        self._emit(step(f[1], f[2]))

    def start_map(self) -> None:
        self._stack.append([True, 0, 0, None])

    def key(self, k: str | bytes) -> None:
        f = self._stack[-1]
        if not f[0] or f[3] is not None:
            raise ValueError("key outside a map, or two keys in a row")
        f[3] = hash_bytes(STRING, k.encode("utf-8") if isinstance(k, str) else k)

    def end_map(self) -> None:
        f = self._stack.pop()
        self._emit(step(step(MAP, f[1]), f[2]))

    def value(self) -> int:
        if self.result is None or self._stack:
            raise ValueError("document is incomplete")
        return self.result
