"""Documents nested deep, in every format, and their hashes (shared by the tests)."""

from __future__ import annotations

import struct

import serbench_py.hashing  # noqa: F401  (puts the orchestrator's sources on the path)
from serbench import objhash

hash_value, hex64 = objhash.hash_value, objhash.hex64


def bson_doc(elements: bytes) -> bytes:
    return struct.pack("<i", len(elements) + 5) + elements + b"\0"


def deep(fmt: str, n: int, maps: bool) -> bytes:
    """{"a": [[...[]...]]} with n arrays, or {"a": {"a": ... {}}} with n maps below the root."""
    if fmt in ("json", "json-pretty"):
        return b'{"a":' * n + b"{}" + b"}" * n if maps else b'{"a":' + b"[" * n + b"]" * n + b"}"
    if fmt == "msgpack":
        return b"\x81\xa1a" * n + b"\x80" if maps else b"\x81\xa1a" + b"\x91" * (n - 1) + b"\x90"
    if fmt == "cbor":
        return b"\xa1\x61a" * n + b"\xa0" if maps else b"\xa1\x61a" + b"\x81" * (n - 1) + b"\x80"
    if fmt in ("ubjson", "ubjson-plain"):
        if maps:
            # the optimised form: maps sized with # (no close marker)
            return b"{#U\x01U\x01a" * n + b"{}" if fmt == "ubjson" else b"{U\x01a" * n + b"{}" + b"}" * n
        return b"{U\x01a" + b"[" * n + b"]" * n + b"}"
    assert fmt == "bson"
    # built front to back (wrapping the document n times would copy it n times): each level adds its
    # length (4), type (1), key (2) and terminator (1) to the one inside it; the innermost is empty (5)
    levels = n if maps else n - 1
    elem = b"\x03a\0" if maps else b"\x040\0"
    lengths = [5 + 8 * k for k in range(levels, 0, -1)]
    inner = b"".join(struct.pack("<i", ln) + elem for ln in lengths) + b"\x05\0\0\0\0" + b"\0" * levels
    return inner if maps else bson_doc(b"\x04a\0" + inner)


def _wrap(h: int, in_map: bool) -> int:
    """The hash of {"a": x} or [x] from the hash of x."""
    o = objhash
    if in_map:
        return o.map_end(o.map_entry(hash_value("a"), h), 1)
    return o.array_end(o.array_add(0, 0, h), 1)


def deep_hash(n: int, maps: bool) -> str:
    """The hash of deep(fmt, n, maps), level by level."""
    if maps:
        h = hash_value({})
        for _ in range(n):
            h = _wrap(h, True)
        return hex64(h)
    h = hash_value([])
    for _ in range(n - 1):
        h = _wrap(h, False)
    return hex64(_wrap(h, True))
