"""Reference encoders and decoders for the corpus formats (spec/generator.md, "Formats").

Every corpus file is written from one in-memory document by these encoders, so all formats of a
dataset carry the same data and hash. Decoders are used to import a user's file and by tests.
"""

from __future__ import annotations

import json
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

import bson
import cbor2
import msgpack

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1


class FormatError(ValueError):
    """A value cannot be written in a format, or a file is not valid in it."""


# --- JSON ---------------------------------------------------------------------------------------


def _check_json_value(v) -> None:
    if isinstance(v, float) and not math.isfinite(v):
        raise FormatError("JSON cannot carry NaN or infinity")
    if isinstance(v, (bytes, bytearray)):
        raise FormatError("JSON has no binary type")


def encode_json(doc, pretty: bool = False, ascii_only: bool = False) -> bytes:
    try:
        text = json.dumps(
            doc,
            ensure_ascii=ascii_only,
            allow_nan=False,
            indent=2 if pretty else None,
            separators=(",", ": ") if pretty else (",", ":"),
        )
    except (TypeError, ValueError) as e:
        raise FormatError(f"cannot encode as JSON: {e}") from e
    return text.encode("utf-8") + (b"\n" if pretty else b"")


def _reject_constant(name: str):
    raise FormatError(f"JSON constant {name} is not in the data model")


def decode_json(data: bytes):
    try:
        return json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as e:
        raise FormatError(f"not UTF-8: {e}") from e
    except json.JSONDecodeError as e:
        raise FormatError(f"invalid JSON: {e}") from e


# --- MessagePack, CBOR, BSON -----------------------------------------------------------------------


def encode_msgpack(doc) -> bytes:
    try:
        return msgpack.packb(doc, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        raise FormatError(f"cannot encode as MessagePack: {e}") from e


def decode_msgpack(data: bytes):
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception as e:  # msgpack raises several unrelated types for bad input
        raise FormatError(f"invalid MessagePack: {e}") from e


def encode_cbor(doc) -> bytes:
    try:
        return cbor2.dumps(doc)
    except Exception as e:
        raise FormatError(f"cannot encode as CBOR: {e}") from e


def decode_cbor(data: bytes):
    try:
        return cbor2.loads(data)
    except Exception as e:
        raise FormatError(f"invalid CBOR: {e}") from e


def encode_bson(doc) -> bytes:
    if not isinstance(doc, dict):
        raise FormatError("BSON needs a map at the root")
    _check_bson_ints(doc)
    try:
        return bson.encode(doc)
    except Exception as e:
        raise FormatError(f"cannot encode as BSON: {e}") from e


def _check_bson_ints(v) -> None:
    # pymongo would raise OverflowError deep inside; say which rule is broken instead.
    if type(v) is int and not INT64_MIN <= v <= INT64_MAX:
        raise FormatError(f"BSON cannot carry integer {v} (above INT64_MAX)")
    if isinstance(v, dict):
        for x in v.values():
            _check_bson_ints(x)
    elif isinstance(v, list):
        for x in v:
            _check_bson_ints(x)


def decode_bson(data: bytes):
    try:
        return bson.decode(data)
    except Exception as e:
        raise FormatError(f"invalid BSON: {e}") from e


# --- UBJSON (Draft 12; https://ubjson.org/type-reference/) ------------------------------------------
# Written by hand because no Python library emits the optimised ($ type, # count) container form.


def _ubjson_int(v: int) -> tuple[bytes, bytes]:
    """Smallest integer marker and payload for v."""
    if 0 <= v <= 255:
        return b"U", struct.pack(">B", v)
    if -128 <= v <= 127:
        return b"i", struct.pack(">b", v)
    if -(1 << 15) <= v < (1 << 15):
        return b"I", struct.pack(">h", v)
    if -(1 << 31) <= v < (1 << 31):
        return b"l", struct.pack(">i", v)
    if INT64_MIN <= v <= INT64_MAX:
        return b"L", struct.pack(">q", v)
    raise FormatError(f"UBJSON cannot carry integer {v} (above INT64_MAX)")


def _ubjson_len(n: int) -> bytes:
    marker, payload = _ubjson_int(n)
    return marker + payload


def _ubjson_scalar(v) -> tuple[bytes, bytes] | None:
    """(marker, payload) for scalars, None for containers."""
    if v is None:
        return b"Z", b""
    if v is True:
        return b"T", b""
    if v is False:
        return b"F", b""
    if isinstance(v, int):
        return _ubjson_int(v)
    if isinstance(v, float):
        return b"D", struct.pack(">d", v)
    if isinstance(v, str):
        b = v.encode("utf-8")
        return b"S", _ubjson_len(len(b)) + b
    if isinstance(v, (bytes, bytearray)):
        raise FormatError("UBJSON has no binary type")
    if isinstance(v, (list, dict)):
        return None
    raise FormatError(f"type {type(v).__name__} is not in the data model")


# Markers that may stand as a container's strong type. T/F/Z are legal in the spec but several
# decoders mishandle them, and an array typed $U is read as binary by convention (py-ubjson returns
# bytes), so the reference encoder never uses those.
_TYPEABLE = {b"i", b"I", b"l", b"L", b"D", b"S"}


def encode_ubjson(doc, optimised: bool = True) -> bytes:
    out: list[bytes] = []

    def container_header(open_: bytes, markers: list[bytes], n: int) -> bytes | None:
        out.append(open_)
        if not optimised:
            return None
        typed = markers[0] if n and markers[0] in _TYPEABLE and all(m == markers[0] for m in markers) else None
        if typed:
            out.append(b"$" + typed)
        out.append(b"#" + _ubjson_len(n))
        return typed

    def value(v) -> None:
        sc = _ubjson_scalar(v)
        if sc is not None:
            out.append(sc[0] + sc[1])
        elif isinstance(v, list):
            items(v, b"[", b"]", None)
        else:
            items(list(v.values()), b"{", b"}", list(v.keys()))

    def items(vals: list, open_: bytes, close: bytes, keys: list | None) -> None:
        scalars = [_ubjson_scalar(x) for x in vals]
        markers = [s[0] if s else b"[" for s in scalars]
        typed = container_header(open_, markers, len(vals))
        for i, x in enumerate(vals):
            if keys is not None:
                kb = keys[i].encode("utf-8")
                out.append(_ubjson_len(len(kb)) + kb)
            if typed:
                out.append(scalars[i][1])
            else:
                value(x)
        if not optimised:
            out.append(close)

    value(doc)
    return b"".join(out)


def decode_ubjson(data: bytes):
    import ubjson  # only tests and imports need it

    try:
        return ubjson.loadb(data)
    except Exception as e:
        raise FormatError(f"invalid UBJSON: {e}") from e


@dataclass(frozen=True)
class Format:
    id: str
    ext: str
    encode: Callable[[object], bytes]
    binary_ok: bool
    description: str
    default: bool  # in the default run matrix


FORMATS: dict[str, Format] = {
    f.id: f
    for f in [
        Format("json", "json", encode_json, False, "JSON, minified, UTF-8 unescaped", True),
        Format(
            "json-pretty", "pretty.json", lambda d: encode_json(d, pretty=True), False, "JSON, 2-space indent", False
        ),
        Format("msgpack", "msgpack", encode_msgpack, True, "MessagePack, smallest encodings, bin type", True),
        Format("cbor", "cbor", encode_cbor, True, "CBOR (RFC 8949), definite lengths, float64", True),
        Format("bson", "bson", encode_bson, True, "BSON 1.1, int32 where it fits else int64", True),
        Format("ubjson", "ubjson", encode_ubjson, False, "UBJSON Draft 12, sized (#) and typed ($)", True),
        Format(
            "ubjson-plain",
            "plain.ubjson",
            lambda d: encode_ubjson(d, optimised=False),
            False,
            "UBJSON Draft 12, unsized and untyped",
            False,
        ),
    ]
}

DECODERS: dict[str, Callable[[bytes], object]] = {
    "json": decode_json,
    "json-pretty": decode_json,
    "msgpack": decode_msgpack,
    "cbor": decode_cbor,
    "bson": decode_bson,
    "ubjson": decode_ubjson,
    "ubjson-plain": decode_ubjson,
}

# Formats a user's file may be given in (--data), by file extension.
IMPORT_EXTENSIONS = {".json": "json", ".msgpack": "msgpack", ".mp": "msgpack", ".cbor": "cbor"}
