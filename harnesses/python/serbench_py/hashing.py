"""The object hash in the Python harness: the leaf hashes and the streaming hasher come from the
orchestrator's reference implementation (`serbench.objhash`, one implementation in this language); the
tree walk is the harness's own, because `objhash.hash_value` recurses once per level and raises
RecursionError on a document nested about 1,000 deep, inside the harness's code (spec/protocol.md: the
harness's own walks never recurse without bound). The reference decoders are `refcodec.py`.

The timed loops hash with the harness's C extension `sbwalk` (harnesses/python/sbwalk/sbwalk.c, built
from source at set-up): `hash_object` is this tree form in C, `hash_binary` a write row's output,
`hash_events` the streaming form over a pull parser's events, `Plan` the typed walk. `hash_value` here
stays the harness's Python reference for them (tests/test_sbwalk.py proves them equal)."""

from __future__ import annotations

import sys
from pathlib import Path

_SRC = Path(__file__).resolve().parents[3] / "orchestrator" / "src"
if str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

import serbench.objhash as objhash  # noqa: E402  (the reference implementation, for tests)
from sbwalk import ModelError, hash_binary, hash_events, hash_object  # noqa: E402  (harnesses/python/sbwalk)
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

__all__ = [
    "DECODERS",
    "ModelError",
    "RefError",
    "StreamHasher",
    "hash_binary",
    "hash_events",
    "hash_object",
    "hash_value",
    "hex64",
    "model_events",
    "objhash",
]

_NULL_HASH = scalar(S_NULL, 0)
_BOOL_HASH = (scalar(S_BOOL, 0), scalar(S_BOOL, 1))


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


def model_events(root):
    """The (event, value) pairs ijson's basic_parse gives for a data-model value, in document order,
    without recursion: the events `hash-events` feeds to `hash_events`, as the incremental rows feed
    theirs (start_map, map_key, end_map, start_array, end_array, and null, boolean, number, string)."""
    out: list[tuple] = []
    stack: list = [iter((root,))]
    ends: list[str] = []
    while stack:
        v = next(stack[-1], _STOP)
        if v is _STOP:
            stack.pop()
            if ends:
                out.append((ends.pop(), None))
            continue
        if isinstance(v, tuple) and len(v) == 3 and v[0] is _KEY:
            out.append(("map_key", v[1]))
            v = v[2]
        if isinstance(v, dict):
            out.append(("start_map", None))
            stack.append((_KEY, k, x) for k, x in v.items())
            ends.append("end_map")
        elif isinstance(v, (list, tuple)):
            out.append(("start_array", None))
            stack.append(iter(v))
            ends.append("end_array")
        elif v is None:
            out.append(("null", None))
        elif isinstance(v, bool):
            out.append(("boolean", v))
        elif isinstance(v, (int, float)):
            out.append(("number", v))
        else:
            out.append(("string", v))
    return out


_KEY = object()
