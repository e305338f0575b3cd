"""The serbench object hash, spec/hash.md version 2.

Reference implementation: `hash_value` hashes a Python tree, `StreamHasher` takes parse events. Both
must agree with each other and with vectors/vectors.json. Every other harness implements the same
primitives: `mum`, `scalar`, `hash_bytes`, `array_add`/`array_end`, `map_entry`/`map_end`.

Python values map to the data model as: None, bool, int (sign decides UINT or NEGINT), float, str,
bytes/bytearray (binary), list/tuple (array), dict (map with str keys).
"""

from __future__ import annotations

import struct

MASK = (1 << 64) - 1
K = 0x9E3779B97F4A7C15  # 2^64 / golden ratio, odd: t -> t*K spreads the small type tags over 64 bits
# wyhash's secret constants (Wang Yi, wyhash "final version 3"): odd, 32 set bits each.
P0 = 0xA0761D6478BD642F
P1 = 0xE7037ED1A0B428DB
P2 = 0x8EBC6AF09C88C6E3
P3 = 0x589965CC75374CC3

NULL, BOOL, UINT, NEGINT, FLOAT, STRING, BINARY, ARRAY, MAP = range(1, 10)
HASH_VERSION = 2


def seed(tag: int) -> int:
    """S(t): the per-type constant every value of type t is mixed with."""
    return (tag * K) & MASK


S_NULL, S_BOOL, S_UINT, S_NEGINT, S_FLOAT, S_STRING, S_BINARY, S_ARRAY, S_MAP = (seed(t) for t in range(1, 10))

_pack_double = struct.Struct("<d").pack
_unpack_u64 = struct.Struct("<Q").unpack


def mum(a: int, b: int) -> int:
    """The 128-bit product of two 64-bit words, folded: low half XOR high half (wyhash's `mum`)."""
    p = a * b
    return (p ^ (p >> 64)) & MASK


def scalar(s: int, v: int) -> int:
    """A scalar of the type whose seed is s, with 64-bit payload v."""
    p = (v ^ s) * P0
    return (p ^ (p >> 64)) & MASK


_NULL_HASH = scalar(S_NULL, 0)
_FALSE_HASH = scalar(S_BOOL, 0)
_TRUE_HASH = scalar(S_BOOL, 1)
_EMPTY_ARRAY_HASH = mum(S_ARRAY, P3)
_EMPTY_MAP_HASH = mum(S_MAP, P3)


def hash_bytes(s: int, b: bytes) -> int:
    """A string (s = S_STRING, over its UTF-8 bytes) or binary (s = S_BINARY). Two lanes take 32
    bytes per step while 32 or more remain; then lane a takes the rest 16 bytes at a time."""
    n = len(b)
    a, c = s ^ n, 0
    rem = n % 16
    if rem:
        b = b + bytes(16 - rem)
    if b:
        w = struct.unpack(f"<{len(b) // 8}Q", b)
        i, bulk = 0, (n // 32) * 4
        while i < bulk:
            p = (w[i] ^ P1) * (w[i + 1] ^ a ^ P2)
            a = (p ^ (p >> 64)) & MASK
            p = (w[i + 2] ^ P3) * (w[i + 3] ^ c ^ P0)
            c = (p ^ (p >> 64)) & MASK
            i += 4
        while i < len(w):
            p = (w[i] ^ P1) * (w[i + 1] ^ a ^ P2)
            a = (p ^ (p >> 64)) & MASK
            i += 2
    return a ^ c


def hash_str(s: str) -> int:
    return hash_bytes(S_STRING, s.encode("utf-8"))


def hash_int(v: int) -> int:
    return scalar(S_UINT, v) if v >= 0 else scalar(S_NEGINT, v & MASK)


def hash_float(f: float) -> int:
    return scalar(S_FLOAT, _unpack_u64(_pack_double(f))[0])


def array_add(acc: int, i: int, h: int) -> int:
    """Adds the element with hash h at index i (0-based) to an array's sum."""
    p = (h ^ P1) * (i ^ P2)
    return (acc + (p ^ (p >> 64))) & MASK


def array_end(acc: int, n: int) -> int:
    return mum(acc ^ S_ARRAY, n ^ P3)


def map_entry(k: int, v: int) -> int:
    """The hash of one entry, from its key's and its value's hashes; a map sums them."""
    p = (k ^ P3) * (v ^ P0)
    return (p ^ (p >> 64)) & MASK


def map_end(acc: int, n: int) -> int:
    return mum(acc ^ S_MAP, n ^ P3)


def hash_value(v) -> int:
    """Hash one value of the data model (recursively)."""
    t = type(v)
    if t is str:
        return hash_bytes(S_STRING, v.encode("utf-8"))
    if t is int:
        return hash_int(v)
    if t is float:
        return hash_float(v)
    if t is dict:
        s = 0
        for k, x in v.items():
            if type(k) is not str:
                raise TypeError(f"map key must be a string, got {type(k).__name__}")
            s += map_entry(hash_bytes(S_STRING, k.encode("utf-8")), hash_value(x))
        return map_end(s & MASK, len(v))
    if t is list or t is tuple:
        a = 0
        for i, x in enumerate(v):
            a = array_add(a, i, hash_value(x))
        return array_end(a, len(v))
    if v is None:
        return _NULL_HASH
    if t is bool:
        return _TRUE_HASH if v else _FALSE_HASH
    if t is bytes or t is bytearray or t is memoryview:
        return hash_bytes(S_BINARY, bytes(v))
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


try:
    # The Python harness's C walk (harnesses/python/sbwalk), built into this venv by ./serbench's setup;
    # tested against hash_value on every vector and dataset (test_objhash.py).
    from sbwalk import hash_object as _c_hash_object
except ImportError:  # not built (no C compiler): hash_value gives the same answer, slower
    _c_hash_object = None


def hash_document(doc) -> int:
    """hash_value of a whole document, in C where sbwalk is built: the corpus of a 50 MB user file
    hashed in 1.7 to 6.8 s in Python (research/corpus_speed.py, issue 74)."""
    return _c_hash_object(doc) if _c_hash_object is not None else hash_value(doc)


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
            f[1] = (f[1] + map_entry(f[3], h)) & MASK
            f[3] = None
        else:
            f[1] = array_add(f[1], f[2], h)
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
        self._emit(hash_bytes(S_STRING, s.encode("utf-8") if isinstance(s, str) else s))

    def binary(self, b: bytes) -> None:
        self._emit(hash_bytes(S_BINARY, b))

    def start_array(self) -> None:
        self._stack.append([False, 0, 0, None])

    def end_array(self) -> None:
        f = self._stack.pop()
        self._emit(array_end(f[1], f[2]))

    def start_map(self) -> None:
        self._stack.append([True, 0, 0, None])

    def key(self, k: str | bytes) -> None:
        f = self._stack[-1]
        if not f[0] or f[3] is not None:
            raise ValueError("key outside a map, or two keys in a row")
        f[3] = hash_bytes(S_STRING, k.encode("utf-8") if isinstance(k, str) else k)

    def end_map(self) -> None:
        f = self._stack.pop()
        self._emit(map_end(f[1], f[2]))

    def value(self) -> int:
        if self.result is None or self._stack:
            raise ValueError("document is incomplete")
        return self.result
