"""The second round of robustness cases (issue 73): the depth families in every format up to 10^6
(nested arrays and nested maps; BSON and UBJSON included), the intermediate sizes the growth fit
needs (robustness/growth.py), and the grammar rules the first round's table lacked (JSON's white space
checked exactly, bytes after a root of every type, BSON's element types outside the data model).

The reference decoders' conformance set (corpus/conformance.py) takes them too, but for the files it
already has and those over its size bound.
"""

from __future__ import annotations

import struct

from .. import objhash
from .cases import (
    ACCEPT,
    IMPL,
    REJECT,
    Case,
    F,
    _bdoc,
    _bstr,
    _deep,
    _long_text,
    _nested_hash,
    _wide,
    _wide_hash,
    hash_of,
)
from .cases import FORMATS as _FORMATS

#: nested-array depths added to cases.DEPTHS (100, 10^4, 10^5, 10^6) so that the growth fit has points
#: 1,000 to 30,000 apart by about 3x: a decoder whose time grows with the square of the depth takes
#: 0.2-1.3 s at 10^4 (docs/libraries.md, Go) and runs past the 10 s limit at 10^5
ARRAY_DEPTHS_MORE = (1_000, 3_000, 30_000)
#: nested-map depths, every format: {"a": {"a": ... {}}}, the same ladder as the arrays'
MAP_DEPTHS = (100, 1_000, 3_000, 10_000, 30_000, 100_000, 1_000_000)
#: the string-length family's sizes below cases.LONG_STRING (300,000 B)
STRING_LENGTHS = (3_000, 30_000)
#: the many-items family's sizes below cases.WIDE (10^6)
WIDE_MORE = (10_000, 100_000)


def _deep_any(fmt: str, n: int) -> bytes:
    """{"a": n nested arrays} in every format at every depth: cases._deep's bytes, and its BSON and UBJSON
    construction past the 10^5 it stops at (8 and 4 bytes a level: 8 and 4 MB at 10^6)."""
    d = _deep(fmt, n)
    if d is not None:
        return d
    if fmt == "bson":
        lengths = [5]
        for _ in range(n - 1):
            lengths.append(lengths[-1] + 8)
        heads = b"".join(struct.pack("<i", x) + b"\x040\x00" for x in reversed(lengths[1:]))
        return _bdoc(b"\x04a\x00" + heads + b"\x05\x00\x00\x00\x00" + b"\x00" * (n - 1))
    if fmt == "ubjson":
        return b"{#U\x01U\x01a" + b"[#U\x01" * (n - 1) + b"[#U\x00"
    raise ValueError(fmt)


def _deep_map(fmt: str, n: int) -> bytes:
    """{"a": n nested maps {"a": ...}, the innermost empty}, written without recursion."""
    if fmt == "json":
        return b'{"a":' * n + b"{}" + b"}" * n
    if fmt == "msgpack":
        return b"\x81\xa1a" * n + b"\x80"
    if fmt == "cbor":
        return b"\xa1aa" * n + b"\xa0"
    if fmt == "ubjson":  # the reference encoder's sized form, as the array family
        return b"{#U\x01U\x01a" * n + b"{#U\x00"
    if fmt == "bson":
        # level k is {"a": level k-1}: 4 + (1 + 2) + len(level k-1) + 1 bytes, the innermost 5
        lengths = [5]
        for _ in range(n - 1):
            lengths.append(lengths[-1] + 8)
        heads = b"".join(struct.pack("<i", x) + b"\x03a\x00" for x in reversed(lengths[1:]))
        return _bdoc(b"\x03a\x00" + heads + b"\x05\x00\x00\x00\x00" + b"\x00" * (n - 1))
    raise ValueError(fmt)


def _deep_map_hash(n: int) -> str:
    """{"a": ...} with n maps below the root, hashed without recursion."""
    ka = objhash.hash_str("a")
    h = objhash.map_end(0, 0)
    for _ in range(n - 1):
        h = objhash.map_end(objhash.map_entry(ka, h), 1)
    return objhash.hex64(objhash.map_end(objhash.map_entry(ka, h), 1))


def depth_cases(fmt: str) -> list[Case]:
    """The nesting-depth families (RFC 8259 §9 and RFC 8949 §5.3 let a decoder limit depth; none may
    crash): arrays at the depths cases.DEPTHS lacks, maps at 10^2..10^6."""
    cls = "mutation/deep-nesting"
    out = []
    depths = list(ARRAY_DEPTHS_MORE) + ([1_000_000] if fmt in ("bson", "ubjson") else [])
    for n in depths:
        out.append(Case(f"deep-{n}", fmt, cls, f'{n:,} nested arrays in {{"a": ...}}', IMPL, _deep_any(fmt, n),
                        (_nested_hash(n),)))  # fmt: skip
    for n in MAP_DEPTHS:
        expect = ACCEPT if n <= 100 else IMPL
        out.append(Case(f"deep-map-{n}", fmt, cls, f'{n:,} nested maps {{"a": ...}} below the root', expect,
                        _deep_map(fmt, n), (_deep_map_hash(n),)))  # fmt: skip
    return out


def length_cases(fmt: str) -> list[Case]:
    """The smaller sizes of the length families, for the growth fit: must be read."""
    out = []
    for n in STRING_LENGTHS:
        doc = {"a": _long_text(n)}
        out.append(Case(f"long-string-{n}", fmt, "mutation/long-string", f"a string of {n:,} bytes of UTF-8", ACCEPT,
                        F.FORMATS[fmt].encode(doc), (hash_of(doc),)))  # fmt: skip
    for n in WIDE_MORE:
        w = _wide(fmt, n)
        if w is not None:
            out.append(Case(f"wide-{n}", fmt, "mutation/many-items", f"an array of {n:,} empty arrays", ACCEPT, w,
                            (_wide_hash(n),)))  # fmt: skip
    return out


# --- JSON (RFC 8259) -------------------------------------------------------------------------------------

#: characters that are white space to Unicode or to some language's isspace(), but not to JSON: RFC 8259
#: §2 "ws = *( %x20 / %x09 / %x0A / %x0D )"
_NOT_JSON_WS = [
    ("form-feed", "\x0c", "form feed U+000C"),
    ("vertical-tab", "\x0b", "vertical tab U+000B"),
    ("file-separator", "\x1c", "file separator U+001C (Python's str.isspace)"),
    ("unit-separator", "\x1f", "unit separator U+001F (Python's str.isspace)"),
    ("next-line", "\u0085", "next line U+0085"),
    ("nbsp", "\u00a0", "no-break space U+00A0"),
    ("ogham-space", "\u1680", "ogham space mark U+1680"),
    ("em-space", "\u2003", "em space U+2003"),
    ("line-separator", "\u2028", "line separator U+2028"),
    ("paragraph-separator", "\u2029", "paragraph separator U+2029"),
    ("narrow-nbsp", "\u202f", "narrow no-break space U+202F"),
    ("ideographic-space", "\u3000", "ideographic space U+3000"),
    ("zero-width-nbsp", "\ufeff", "zero width no-break space U+FEFF, not at the start"),
]

#: a JSON text of each root type, for the bytes-after-the-value cases (RFC 8259 §2: JSON-text = ws value ws)
_JSON_ROOTS = [
    ("map", b'{"a":1}'),
    ("array", b"[1]"),
    ("string", b'"a"'),
    ("number", b"1"),
    ("true", b"true"),
    ("false", b"false"),
    ("null", b"null"),
]


def json_cases() -> list[Case]:
    out = []
    ws = "spec/whitespace"
    for name, ch, what in _NOT_JSON_WS:
        b = ch.encode()
        for where, data in (("inside", b'{"a":' + b + b"1}"), ("after", b'{"a":1}' + b)):
            nm = f"{name}-{where}"
            if nm in ("form-feed-after", "form-feed-inside", "vertical-tab-inside", "nbsp-inside"):
                continue  # in case_table.py already
            out.append(Case(nm, "json", ws, f"{what} {where} the text: not JSON white space (RFC 8259 §2)", REJECT,
                            data))  # fmt: skip
    tr = "spec/trailing"
    for root, text in _JSON_ROOTS:
        if root not in ("map", "array"):  # (case_table.py has those two)
            desc = f"a NUL after a {root} root (RFC 8259 §2: ws value ws)"
            out.append(Case(f"trailing-nul-after-{root}", "json", tr, desc, REJECT, text + b"\x00"))
        if root != "map":
            out.append(Case(f"trailing-value-after-{root}", "json", tr,
                            f"a second value after a {root} root (RFC 8259 §2: one value)", REJECT,
                            text + b" 2"))  # fmt: skip
    out.append(Case("trailing-nul-after-whitespace", "json", tr,
                    "a NUL after the text's trailing white space (RFC 8259 §2)", REJECT, b'{"a":1} \x00'))  # fmt: skip
    st = "spec/escapes"
    out.append(Case("raw-del-in-string", "json", st,
                    "a raw DEL (U+007F) in a string: only U+0000-U+001F must be escaped (RFC 8259 §7)", ACCEPT,
                    b'{"a":"x\x7fy"}', (hash_of({"a": "x\x7fy"}),)))  # fmt: skip
    out.append(Case("raw-line-separator-in-string", "json", st,
                    "a raw U+2028 in a string: valid JSON (RFC 8259 §7), unlike in JavaScript source before ES2019",
                    ACCEPT, '{"a":"x\u2028y"}'.encode(), (hash_of({"a": "x\u2028y"}),)))  # fmt: skip
    sx = "spec/structure"
    for name, data, what in [
        ("structure-leading-comma-array", b'{"a":[,1]}', "a comma before the first element (§5)"),
        ("structure-double-comma-array", b'{"a":[1,,2]}', "two value separators (§5)"),
        ("structure-number-key", b"{1:2}", "a number as a name (§4: member = string name-separator value)"),
        ("structure-single-quoted-key", b"{'a':1}", "a single-quoted name (§7: quotation mark is U+0022)"),
        ("structure-plus-literal", b'{"a":+true}', "a sign before a literal (§3)"),
    ]:
        out.append(Case(name, "json", sx, f"{what} (RFC 8259)", REJECT, data))
    return out


# --- MessagePack, CBOR, UBJSON: bytes after a root of every type ---------------------------------------

_BINARY_ROOTS = {
    # (root type, bytes of the root value, the value)
    "msgpack": [("string", b"\xa1a", "a"), ("integer", b"\x01", 1), ("nil", b"\xc0", None), ("map", b"\x80", {})],
    "cbor": [("string", b"\x61a", "a"), ("integer", b"\x01", 1), ("null", b"\xf6", None), ("map", b"\xa0", {})],
    "ubjson": [("string", b"SU\x01a", "a"), ("integer", b"i\x01", 1), ("array", b"[i\x01]", [1])],
}


def trailing_cases(fmt: str) -> list[Case]:
    """A NUL after a root of each type: the binary formats leave bytes after one value to the decoder
    (a stream reader stops after it; MessagePack spec, RFC 8949 §5.1, UBJSON Draft 12), so implementation-
    defined, read as the root value when accepted; a root other than a map is outside the data model."""
    out = []
    for root, data, value in _BINARY_ROOTS.get(fmt, []):
        out.append(Case(f"trailing-nul-after-{root}", fmt, "spec/trailing",
                        f"a 0x00 after a {root} root: one value and extra bytes", IMPL, data + b"\x00",
                        (hash_of(value),)))  # fmt: skip
    return out


# --- BSON (bsonspec.org 1.1) ------------------------------------------------------------------------------

#: element types bsonspec.org 1.1 defines that the data model has no value for (spec/data-model.md):
#: well-formed, so a decoder may read them as its own types or refuse them
_BSON_OTHER_TYPES = [
    ("objectid", b"\x07", bytes(12), "ObjectId (0x07, 12 bytes)"),
    ("datetime", b"\x09", struct.pack("<q", 0), "UTC datetime (0x09, int64)"),
    ("regex", b"\x0b", b"a\x00i\x00", "regular expression (0x0B, two cstrings)"),
    ("dbpointer", b"\x0c", _bstr(b"c") + bytes(12), "DBPointer (0x0C, deprecated)"),
    ("javascript", b"\x0d", _bstr(b"1"), "JavaScript code (0x0D)"),
    ("symbol", b"\x0e", _bstr(b"s"), "symbol (0x0E, deprecated)"),
    ("code-w-scope", b"\x0f", struct.pack("<i", 4 + 6 + 5) + _bstr(b"1") + _bdoc(b""), "code with scope (0x0F)"),
    ("timestamp", b"\x11", struct.pack("<Q", 1), "timestamp (0x11, uint64)"),
    ("decimal128", b"\x13", bytes(15) + b"\x30", "decimal128 (0x13, 16 bytes)"),
    ("min-key", b"\xff", b"", "min key (0xFF)"),
    ("max-key", b"\x7f", b"", "max key (0x7F)"),
]


def bson_cases() -> list[Case]:
    out = []
    for name, t, payload, what in _BSON_OTHER_TYPES:
        desc = f"a {what}: well-formed BSON outside the data model"
        out.append(Case(f"type-{name}", "bson", "spec/data-model", desc, IMPL, _bdoc(t + b"x\x00" + payload)))
    ln = "spec/length"
    out.append(Case("element-cut-int32", "bson", ln, "an int32 element with 2 of its 4 bytes before the terminator",
                    REJECT, _bdoc(b"\x10a\x00\x01\x00")))  # fmt: skip
    out.append(Case("element-cut-double", "bson", ln, "a double element with 4 of its 8 bytes", REJECT,
                    _bdoc(b"\x01d\x00" + bytes(4))))  # fmt: skip
    desc = "a binary whose int32 length is -1 (bsonspec.org: binary ::= int32 subtype byte*)"
    neg = _bdoc(b"\x05b\x00" + struct.pack("<i", -1) + b"\x00")
    out.append(Case("binary-negative-length", "bson", ln, desc, REJECT, neg))
    out.append(Case("trailing-second-document", "bson", "spec/trailing",
                    "a second document after the first: one value and extra bytes", IMPL,
                    _bdoc(b"\x10a\x00" + struct.pack("<i", 1)) + _bdoc(b""), (hash_of({"a": 1}),)))  # fmt: skip
    return out


# --- CBOR tags (RFC 8949 §3.4) and MessagePack timestamps (spec.md "Timestamp extension type") ----------

_WRAP_VALUE = {"cbor": lambda v: b"\xa1aa" + v, "msgpack": lambda v: b"\x81\xa1a" + v}


def tag_cases() -> list[Case]:
    """Tags whose content has the wrong type (RFC 8949 §3.4: well-formed, but "invalid", §5.3.2: a
    generic decoder may pass the tag through or refuse it), a tag on a tag, and 1,000 nested tags:
    implementation-defined, never a crash. A tagged value is outside the data model (spec/data-model.md)."""
    w = _WRAP_VALUE["cbor"]
    cls = "spec/tags"
    out = []
    for name, data, what in [
        ("tag-bignum-on-text", b"\xc2\x61a", "tag 2 (unsigned bignum, §3.4.3) on a text string, not a byte string"),
        ("tag-bignum-empty", b"\xc2\x40", "tag 2 on an empty byte string (the bignum 0)"),
        ("tag-epoch-on-text", b"\xc1\x61a", "tag 1 (epoch time, §3.4.2) on a text string"),
        ("tag-datetime-on-int", b"\xc0\x01", "tag 0 (date/time string, §3.4.1) on an integer"),
        ("tag-decimal-on-int", b"\xc4\x01", "tag 4 (decimal fraction, §3.4.4) on an integer, not an array of two"),
        (
            "tag-embedded-malformed",
            b"\xd8\x18\x42\xff\xff",
            "tag 24 (embedded CBOR, §3.4.5.1) on bytes that are not CBOR",
        ),
        ("tag-on-tag", b"\xc1\xc1\x01", "tag 1 on tag 1 on 1"),
        ("tag-max", b"\xdb" + b"\xff" * 8 + b"\x01", "tag number 2^64-1 on 1"),
        ("tags-1000-deep", b"\xd9\x01\x00" * 1000 + b"\x01", "1,000 nested tags 256 on 1"),
    ]:
        out.append(Case(name, "cbor", cls, f"{what}: outside the data model, never a crash", IMPL, w(data)))
    wm = _WRAP_VALUE["msgpack"]
    for name, data, what in [
        ("timestamp32", b"\xd6\xff" + struct.pack(">I", 1), "timestamp 32 (fixext 4, type -1)"),
        ("timestamp96-nanoseconds-too-big", b"\xc7\x0c\xff" + struct.pack(">Iq", 1_000_000_000, 0),
         "timestamp 96 with nanoseconds 10^9 (the spec: 'must not be larger than 999999999')"),
        ("timestamp-length-3", b"\xc7\x03\xff\x00\x00\x00", "ext 8 of type -1 (timestamp) with 3 bytes: no "
         "timestamp format has that length"),
    ]:  # fmt: skip
        out.append(Case(name, "msgpack", "spec/data-model", f"{what}: outside the data model, never a crash", IMPL,
                        wm(data)))  # fmt: skip
    return out


def extra_cases() -> list[Case]:
    """Every second-round case, in a fixed order."""
    out: list[Case] = []
    for fmt in _FORMATS:
        out += depth_cases(fmt) + length_cases(fmt) + trailing_cases(fmt)
        if fmt == "json":
            out += json_cases()
        if fmt == "bson":
            out += bson_cases()
    return out + tag_cases()
