"""Reference encoders and decoders for the corpus formats (spec/generator.md, "Formats").

Every corpus file is written from one in-memory document by these encoders, so all formats of a
dataset carry the same data and hash. Decoders are used to import a user's file and by tests.
"""

from __future__ import annotations

import io
import json
import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass

import bson
import cbor2
import msgpack

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1

# Containers (arrays and maps) nested deeper than this are refused when a user's file is read
# (spec/generator.md, "User files"). The reference codecs here and the object hash recurse once per
# level against Python's recursion limit (json and bson stop near 990 levels from a shallow stack,
# msgpack at 1024, cbor2 reads 400 by default), as do most libraries measured (serde_json stops at 128,
# orjson and simdjson at 1024); 500 is handled by all of them with room for the caller's own stack.
MAX_DEPTH = 500
DEPTH_MESSAGE = f"nested deeper than {MAX_DEPTH} levels (arrays and maps), serbench's limit; flatten the document"


class FormatError(ValueError):
    """A value cannot be written in a format, or a file is not valid in it."""


# The Python type of a refused map key (msgpack's and cbor2's names for it), as the data model names it
_PY_KIND = {
    "int": "an integer",
    "float": "a float",
    "NoneType": "null",
    "bool": "a boolean",
    "bytes": "binary",
    "list": "an array",
    "tuple": "an array",
    "dict": "a map",
}


def key_kind_message(py_type: str, key: object = None) -> str:
    """Why a map key of this Python type is refused; with the key itself when the caller has it."""
    shown = "" if key is None else f" ({key!r})"
    return (
        f"a map key is {_PY_KIND.get(py_type, py_type)}{shown}; the data model's map keys are strings, write it as one"
    )


def _unique_map(pairs: list[tuple]) -> dict:
    """object_pairs_hook: a map whose keys are unique, as the data model says (spec/data-model.md)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set = set()
        for k, _ in pairs:
            # a key that is not a string (MessagePack's strict_map_key lets binary through) is
            # refused, with its path, by check_data_model
            if k in seen and type(k) is str:
                raise FormatError(f"the key {json.dumps(k)} appears twice in one map; keys must be unique, keep one")
            seen.add(k)
    return d


def _trailing(n: int) -> FormatError:
    return FormatError(f"{n} bytes after the end of the document; a file holds exactly one document")


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
        data = text.encode("utf-8")
    except (TypeError, ValueError, RecursionError) as e:  # UnicodeEncodeError (a lone surrogate) is a ValueError
        raise FormatError(f"cannot encode as JSON: {e}") from e
    return data + (b"\n" if pretty else b"")


def _reject_constant(name: str):
    raise FormatError(f"{name} is not valid JSON and not in the data model (floats are finite); use null or a number")


class IntegerTooLong(FormatError):
    """A JSON integer too long to convert at all; `build` reads the text again to say where it is."""


def decode_json(data: bytes):
    """Strict JSON (RFC 8259): UTF-8, unique keys, no NaN or Infinity, nesting within MAX_DEPTH."""
    if not data.strip():
        raise FormatError("the file is empty" if not data else "the file holds only white space")
    if data.startswith(b"\xef\xbb\xbf"):
        # RFC 8259 §8.1: JSON text must not start with a byte order mark, and a parser MAY ignore one or
        # refuse it; the file's exact bytes are a row of their own, so a BOM would measure parsers on a
        # choice the RFC leaves open (Python's own message here names a codec, not the problem)
        raise FormatError(
            "the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow; save it without one"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"not UTF-8 at byte {e.start} ({e.reason}); JSON must be UTF-8, re-save it as UTF-8") from e
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_map)
    except json.JSONDecodeError as e:
        raise FormatError(f"invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}; fix the file there") from e
    except RecursionError as e:
        raise FormatError(DEPTH_MESSAGE) from e
    except FormatError:
        raise
    except ValueError as e:  # an integer longer than Python's int-string limit (4,300 digits)
        raise IntegerTooLong(
            "invalid JSON for the data model: an integer with thousands of digits, where integers are int64 or "
            "uint64; write it as a string"
        ) from e


# --- MessagePack, CBOR, BSON -----------------------------------------------------------------------


def encode_msgpack(doc) -> bytes:
    try:
        return msgpack.packb(doc, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        raise FormatError(f"cannot encode as MessagePack: {e}") from e


def _reject_ext(code: int, data: bytes):
    raise FormatError(f"MessagePack ext type {code} is not in the data model; write plain values")


def _utf8_error(e: UnicodeDecodeError) -> FormatError:
    return FormatError(f"a string is not valid UTF-8 ({e.reason}); strings must be UTF-8, store other bytes as binary")


def decode_msgpack(data: bytes):
    """Strict MessagePack: one document, no trailing bytes, UTF-8 strings, unique string keys, no ext
    types (the timestamp either). Length fields are bounded by the input's size, so a huge one cannot
    allocate."""
    if not data:
        raise FormatError("the file is empty")
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            object_pairs_hook=_unique_map,
            ext_hook=_reject_ext,
            timestamp=0,
        )
    except FormatError:
        raise
    except msgpack.ExtraData as e:
        raise _trailing(len(e.extra)) from e
    except msgpack.StackError as e:
        raise FormatError(DEPTH_MESSAGE) from e
    except UnicodeDecodeError as e:
        raise _utf8_error(e) from e
    except msgpack.FormatError as e:  # raised with no message, for the one type byte never assigned
        raise FormatError(
            "invalid MessagePack: the byte 0xc1, which the format never uses, where a value should start"
        ) from e
    except Exception as e:  # msgpack raises several unrelated types for bad input
        text = str(e)
        if "incomplete input" in text or "exceeds max" in text:
            text = "the file ends inside a value (truncated, or a length field larger than the file)"
        elif m := re.fullmatch(r"(\w+) is not allowed for map key when strict_map_key=True", text):
            text = key_kind_message(m[1])
        raise FormatError(f"invalid MessagePack: {text}") from e


def encode_cbor(doc) -> bytes:
    try:
        return cbor2.dumps(doc)
    except Exception as e:
        raise FormatError(f"cannot encode as CBOR: {e}") from e


# Tags cbor2 decodes itself (RFC 8949 §3.4 and the IANA registry); each is refused like any other tag.
_CBOR_BUILTIN_TAGS = (0, 1, 2, 3, 4, 5, 21, 22, 23, 24, 25, 28, 29, 30, 32, 33, 34, 35, 36, 37, 38, 52, 54, 100)
_CBOR_BUILTIN_TAGS += (256, 258, 260, 261, 1004, 55799)


def _tag_refused(tag: int) -> FormatError:
    return FormatError(f"CBOR tag {tag} is not in the data model (no tags); write plain values")


def _reject_tag_hook(decoder, tag):
    raise _tag_refused(tag.tag)


def _reject_builtin_tag(tag: int):
    def reject(decoder, *args):
        raise _tag_refused(tag)

    return reject


def decode_cbor(data: bytes):
    """Strict CBOR: one document, no trailing bytes, no tags, UTF-8 text, unique text keys, nesting
    within MAX_DEPTH. cbor2 reads long strings in chunks, so a huge length field cannot allocate."""
    if not data:
        raise FormatError("the file is empty")
    fp = io.BytesIO(data)
    try:
        doc = cbor2.CBORDecoder(
            fp,
            tag_hook=_reject_tag_hook,
            semantic_decoders={t: _reject_builtin_tag(t) for t in _CBOR_BUILTIN_TAGS},
            max_depth=MAX_DEPTH,
            allow_duplicate_keys=False,
            strict_hashable_types=True,
        ).decode()
    except FormatError:
        raise
    except Exception as e:
        cause = e.__cause__
        if isinstance(cause, FormatError):
            raise cause from e
        if isinstance(cause, UnicodeDecodeError):
            raise _utf8_error(cause) from e
        text = str(e)
        if "nesting depth" in text:
            raise FormatError(DEPTH_MESSAGE) from e
        if "Duplicate map key: " in text:
            key = text.split("Duplicate map key: ", 1)[1]
            key = json.dumps(key[1:-1]) if key[:1] in "'\"" else key
            raise FormatError(f"the key {key} appears twice in one map; keys must be unique, keep one") from e
        if isinstance(e, cbor2.CBORDecodeEOF):
            text = "the file ends inside a value (truncated, or a length field larger than the file)"
        elif m := re.search(r"map key must be a text string or byte string, not (\w+)$", text):
            text = key_kind_message(m[1])
        raise FormatError(f"invalid CBOR: {text}") from e
    if fp.tell() != len(data):
        raise _trailing(len(data) - fp.tell())
    return doc


def encode_bson(doc) -> bytes:
    if not isinstance(doc, dict):
        raise FormatError("BSON needs a map at the root")
    try:
        return bson.encode(doc)
    except Exception as e:
        # walked only on failure: a walk of every value costs more than pymongo's whole encoding
        _check_bson_ints(doc)
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


_PACK_D = struct.Struct(">d").pack


def _ubjson_item(v) -> bytes | None:
    """Marker and payload of a scalar as one bytes object; None for a container. The common types are
    dispatched on `type` first (the corpus of a 50 MB file calls this millions of times, issue 74);
    anything else goes through `_ubjson_scalar`, which also says why a value cannot be written."""
    t = type(v)
    if t is str:
        b = v.encode("utf-8")
        n = len(b)
        return (b"SU" + bytes((n,)) if n < 256 else b"S" + _ubjson_len(n)) + b
    if t is int:
        if 0 <= v <= 255:
            return b"U" + bytes((v,))
        m, payload = _ubjson_int(v)
        return m + payload
    if t is float:
        return b"D" + _PACK_D(v)
    if t is list or t is dict:
        return None
    sc = _ubjson_scalar(v)
    return None if sc is None else sc[0] + sc[1]


def encode_ubjson(doc, optimised: bool = True) -> bytes:
    """Iterative, so any depth the data model allows encodes (the output is what the recursive
    definition gives: a container's header, then each child, then the close marker when unsized)."""
    out = bytearray()

    def open_container(v) -> list:
        nonlocal out
        if isinstance(v, list):
            vals, keys, open_, close = v, None, b"[", b"]"
        else:
            vals, keys, open_, close = list(v.values()), list(v.keys()), b"{", b"}"
        items = [_ubjson_item(x) for x in vals]
        out += open_
        typed = False
        if optimised:
            n = len(vals)
            if n and items[0] is not None:
                m = items[0][:1]
                typed = m in _TYPEABLE and all(it is not None and it[:1] == m for it in items)
                if typed:
                    out += b"$" + m
            out += b"#" + _ubjson_len(n)
        return [vals, keys, items, typed, close, 0]

    top = _ubjson_scalar(doc)
    if top is not None:
        return top[0] + top[1]
    stack = [open_container(doc)]
    while stack:
        frame = stack[-1]
        vals, keys, items, typed, close, i = frame
        if i == len(vals):
            if not optimised:
                out += close
            stack.pop()
            continue
        frame[5] = i + 1
        if keys is not None:
            kb = keys[i].encode("utf-8")
            out += _ubjson_len(len(kb))
            out += kb
        it = items[i]
        if it is None:
            stack.append(open_container(vals[i]))
        elif typed:
            out += memoryview(it)[1:]
        else:
            out += it
    return bytes(out)


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
    # why a document is not written in this format, from figures of its walk (generator.walk_stats),
    # or None: a format whose size is not linear in the document's can refuse one that would blow up
    refuse: Callable[[dict], str | None] = lambda figures: None


#: JSON's 2-space indentation grows with depth: a 10 MB document whose values are nested about 190
#: deep on average pretty-prints to 833 MB, and a 1 MB one to 53 MB (research/corpus_speed.py,
#: "nested"), files no one would parse, which take this writer seconds and memory to produce. A
#: document of ordinary depth gains less than its payload (0.6x for 50 MB of numbers or tweets, 1.25x
#: for micro-lists), so the limit is 4x the payload, and no less than 8 MiB for small documents.
PRETTY_INDENT_LIMIT_BYTES = 8 << 20
PRETTY_INDENT_PER_PAYLOAD = 4


def _refuse_pretty(figures: dict) -> str | None:
    n, payload = figures["indent_bytes"], figures["payload_bytes"]
    if n <= max(PRETTY_INDENT_LIMIT_BYTES, PRETTY_INDENT_PER_PAYLOAD * payload):
        return None
    return (
        f"indentation would add {n / 2**20:,.0f} MiB (values nested {figures['max_depth']} deep), over "
        f"{PRETTY_INDENT_LIMIT_BYTES / 2**20:,.0f} MiB and {PRETTY_INDENT_PER_PAYLOAD}x the payload"
    )


FORMATS: dict[str, Format] = {
    f.id: f
    for f in [
        Format("json", "json", encode_json, False, "JSON, minified, UTF-8 unescaped", True),
        Format(
            "json-pretty",
            "pretty.json",
            lambda d: encode_json(d, pretty=True),
            False,
            "JSON, 2-space indent",
            False,
            _refuse_pretty,
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
