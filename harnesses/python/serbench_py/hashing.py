"""The object hash in the Python harness: the leaf hashes and the streaming hasher come from the
orchestrator's reference implementation (`serbench.objhash`, one implementation in this language); the
tree walk is the harness's own, because `objhash.hash_value` recurses once per level and raises
RecursionError on a document nested about 1,000 deep, inside the harness's code (spec/protocol.md: the
harness's own walks never recurse without bound). The reference decoders are `refcodec.py`."""

from __future__ import annotations

import sys
from pathlib import Path

_SRC = Path(__file__).resolve().parents[3] / "orchestrator" / "src"
if str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

import serbench.objhash as objhash  # noqa: E402  (the reference implementation, for tests)
from serbench.objhash import (  # noqa: E402
    MASK,
    S_BINARY,
    S_BOOL,
    S_NEGINT,
    S_NULL,
    S_STRING,
    S_UINT,
    StreamHasher,
    array_add,
    array_end,
    hash_bytes,
    hash_float,
    hex64,
    map_end,
    map_entry,
    scalar,
)

from .refcodec import DECODERS, RefError  # noqa: E402

__all__ = ["DECODERS", "ModelError", "RefError", "StreamHasher", "hash_value", "hex64", "objhash"]

_NULL_HASH = scalar(S_NULL, 0)
_BOOL_HASH = (scalar(S_BOOL, 0), scalar(S_BOOL, 1))


class ModelError(TypeError):
    """A value outside the data model (in a library's result: the harness cannot hash it)."""


def _leaf(v, t) -> int:
    """The hash of a scalar of type t (subclasses, e.g. bson's Int64, as their base type)."""
    if t is str:
        return hash_bytes(S_STRING, v.encode("utf-8", "strict"))
    if t is int:
        return scalar(S_UINT, v) if v >= 0 else scalar(S_NEGINT, v & MASK)
    if t is float:
        return hash_float(v)
    if v is None:
        return _NULL_HASH
    if t is bool:
        return _BOOL_HASH[v]
    if t is bytes or t is bytearray or t is memoryview:
        return hash_bytes(S_BINARY, bytes(v))
    if isinstance(v, bool):
        return _BOOL_HASH[bool(v)]
    if isinstance(v, int):
        return _leaf(int(v), int)
    if isinstance(v, float):
        return hash_float(float(v))
    if isinstance(v, str):
        return _leaf(str(v), str)
    raise ModelError(f"value of type {t.__name__} is not in the serbench data model")


_DONE = -1  # no hash to feed (hashes are >= 0)
_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


def hash_value(root) -> int:
    """The tree form of the hash (spec/hash.md), without recursion: an explicit stack of open
    containers, each [is_map, iterator, accumulator, count, pending key hash (a map) or next index
    (an array)]. Agrees with `objhash.hash_value` (tests/test_hashing.py); raises ModelError for
    values outside the model, and for strings that are not valid Unicode (a lone surrogate cannot be UTF-8)."""
    stack: list[list] = []
    v = root
    while True:
        t = type(v)
        if t is dict or (t not in _SCALARS and isinstance(v, dict)):
            stack.append([True, iter(v.items()), 0, len(v), 0])
            h = _DONE
        elif t is list or t is tuple or (t not in _SCALARS and isinstance(v, (list, tuple))):
            stack.append([False, iter(v), 0, len(v), 0])
            h = _DONE
        else:
            try:
                h = _leaf(v, t)
            except UnicodeEncodeError as e:
                raise ModelError(f"string is not valid Unicode: {e.reason}") from None
        while True:
            if not stack:
                return h
            f = stack[-1]
            if f[0]:
                if h != _DONE:
                    f[2] = (f[2] + map_entry(f[4], h)) & MASK
                entry = next(f[1], None)
                if entry is not None:
                    k, v = entry
                    if type(k) is not str and not isinstance(k, str):
                        raise ModelError(f"map key must be a string, got {type(k).__name__}")
                    try:
                        f[4] = hash_bytes(S_STRING, k.encode("utf-8", "strict"))
                    except UnicodeEncodeError as e:
                        raise ModelError(f"map key is not valid Unicode: {e.reason}") from None
                    break
                h = map_end(f[2], f[3])
            else:
                if h != _DONE:
                    f[2] = array_add(f[2], f[4], h)
                    f[4] += 1  # an array frame's last slot is the next element's index
                v = next(f[1], _STOP)
                if v is not _STOP:
                    break
                h = array_end(f[2], f[3])
            stack.pop()


_STOP = object()
