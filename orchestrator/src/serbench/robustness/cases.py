"""The robustness case corpus: malformed and hostile inputs, written from each format's specification
and by mutating a valid corpus document, each with what a correct decoder must do (docs/robustness.md).

Layout: `<corpus>/robustness/<format>/<case>.<ext>` and `<corpus>/robustness/manifest.json`. Every
case says its class (`spec/...` from the format's specification, `mutation/...` from a valid
document), a one-line description, and its expectation:

- `accept`: a correct decoder returns the value whose object hash is `hashes[0]`;
- `reject`: the bytes are not well-formed in the format, or not valid where the specification says
  a decoder must refuse them: a correct decoder reports an error (exit 3);
- `implementation-defined`: the specification leaves it to the decoder (duplicate keys, lone
  surrogates, limits on depth and range, values outside the data model). Rejecting is right;
  accepting is right when the hash is one of `hashes` (any hash when `hashes` is empty).

Everything is deterministic: the same code and seed give the same bytes. Expected hashes come from
the strict reference decoders (corpus/formats.py) and the object hash (objhash.py); the containers too
deep for them (10,000 and 1,000,000 levels) are hashed iteratively here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import shutil
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import objhash
from ..corpus import formats as F
from ..corpus.generator import DEFAULT_SEED, Rng, generate

ACCEPT, REJECT, IMPL = "accept", "reject", "implementation-defined"
EXPECTATIONS = (ACCEPT, REJECT, IMPL)
MANIFEST_VERSION = 1
#: the valid corpus document the mutations start from (spec/generator.md: about 2.5 KB in MessagePack)
MUTATED_SIZE = 2
TRUNCATIONS = 20
BITFLIPS = 20
#: nesting depths of the deep-nesting cases; 10^6 only where one level is one byte (MessagePack, CBOR)
#: or two (JSON), so the case corpus stays a few MB; 10^5 in every format (BSON's 8 bytes a level make
#: 0.8 MB), where two BSON libraries crash that pass 10^4 (issue 73)
DEPTHS = (100, 10_000, 100_000, 1_000_000)
WIDE = 1_000_000  # elements of the "many empty arrays" case
#: lengths (UTF-8 bytes) of the long-string and long-key cases: past 65,535, so every format needs its
#: 32-bit length form, and past the small fixed buffers a decoder might keep for keys
LONG_STRING = 300_000
LONG_KEY = 70_000
#: formats whose mutations and spec cases are generated (UBJSON: no bit flips, see mutation_cases)
FORMATS = ("json", "msgpack", "cbor", "bson", "ubjson")


@dataclass(frozen=True)
class Case:
    name: str  # unique within its format: [a-z0-9-]+
    format: str
    cls: str
    description: str
    expect: str
    data: bytes = field(repr=False)
    hashes: tuple[str, ...] = ()

    @property
    def file(self) -> str:
        """Path relative to the robustness folder."""
        return f"{self.format}/{self.name}.{F.FORMATS[self.format].ext}"

    def entry(self) -> dict:
        return {
            "name": self.name,
            "format": self.format,
            "class": self.cls,
            "description": self.description,
            "expect": self.expect,
            "hashes": list(self.hashes),
            "file": self.file,
            "bytes": len(self.data),
            "sha256": hashlib.sha256(self.data).hexdigest(),
        }


def hash_of(doc) -> str:
    return objhash.hex64(objhash.hash_value(doc))


def both_entries_hash(entries: list[tuple[str, object]]) -> str:
    """The hash of a map that keeps every entry, duplicates included: what an incremental (event)
    reader that passes each key on gives (spec/hash.md's map sum over the entries it saw)."""
    acc = 0
    for k, v in entries:
        acc += objhash.map_entry(objhash.hash_str(k), objhash.hash_value(v))
    return objhash.hex64(objhash.map_end(acc & objhash.MASK, len(entries)))


# the duplicate-key cases' {"a": 1, "a": 2} read by a reader that keeps both entries
_DUP = [("a", 1), ("a", 2)]


def _dup_hashes() -> tuple[str, ...]:
    """{"a": 1, "a": 2}: the first wins, the last wins, or both are kept (an event reader)."""
    return hash_of({"a": 1}), hash_of({"a": 2}), both_entries_hash(_DUP)


def reference_hash(fmt: str, data: bytes) -> str:
    """The hash of what the strict reference decoder reads from data (raises FormatError)."""
    return hash_of(F.DECODERS[fmt](data))


class _Cases:
    """Collects the cases of one format; accept cases get their hash from the reference decoder."""

    def __init__(self, fmt: str, wrap: Callable[[bytes], bytes]):
        self.fmt, self.wrap, self.out = fmt, wrap, []

    def add(self, cls: str, name: str, desc: str, expect: str, data: bytes, hashes=()) -> None:
        if expect == ACCEPT and not hashes:
            hashes = (reference_hash(self.fmt, data),)
        self.out.append(Case(name, self.fmt, cls, desc, expect, data, tuple(hashes)))

    def value(self, cls: str, name: str, desc: str, expect: str, value: bytes, hashes=()) -> None:
        """A case whose interesting part is one value, wrapped in a map root {"a": value}: the data
        model's root is a map (spec/data-model.md), so no harness refuses the root itself."""
        self.add(cls, name, desc, expect, self.wrap(value), hashes)


# --- JSON (RFC 8259) ---------------------------------------------------------------------------------


def json_cases() -> list[Case]:
    c = _Cases("json", lambda v: b'{"a":' + v + b"}")
    num = "spec/number-grammar"
    # RFC 8259 §6: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
    for name, text in [
        ("zero", "0"),
        ("negative", "-1"),
        ("exponent", "1e2"),
        ("exponent-plus", "1E+2"),
        ("exponent-minus", "1e-2"),
        ("fraction", "0.5"),
        ("negative-zero-float", "-0.0"),
        ("one-point-zero", "1.0"),
        ("uint64-max", "18446744073709551615"),
        ("int64-min", "-9223372036854775808"),
        ("double-max", "1.7976931348623157e308"),
        ("double-min-subnormal", "5e-324"),
        ("long-mantissa", "0.1000000000000000055511151231257827021181583404541015625"),
    ]:
        c.value(num, f"number-{name}", f"valid number {text} (RFC 8259 §6)", ACCEPT, text.encode())
    # §6 lets an implementation limit range and precision; -0 is an int or a float by choice.
    c.value(
        num,
        "number-negative-zero-int",
        "-0: int 0 or float -0.0 (RFC 8259 §6 does not say which)",
        IMPL,
        b"-0",
        (hash_of({"a": 0}), hash_of({"a": -0.0})),
    )
    c.value(num, "number-overflow", "1e400, beyond binary64 (RFC 8259 §6 allows range limits)", IMPL, b"1e400")
    c.value(
        num, "number-underflow", "1e-400, below the smallest subnormal: 0.0 or an error", IMPL, b"1e-400",
        (hash_of({"a": 0.0}),),
    )  # fmt: skip
    # Beyond the data model's integers: a double, an exact big integer (whose hash spec/hash.md does
    # not define) or an error are all defensible, so any acceptance is allowed.
    c.value(num, "number-uint64-max-plus-one", "2^64, beyond uint64: a double, a big integer or an error", IMPL,
            b"18446744073709551616")  # fmt: skip
    c.value(num, "number-int64-min-minus-one", "-2^63-1, beyond int64: a double, a big integer or an error", IMPL,
            b"-9223372036854775809")  # fmt: skip
    for name, text in [
        ("leading-zero", "01"),
        ("negative-leading-zero", "-01"),
        ("plus-sign", "+1"),
        ("bare-fraction", ".5"),
        ("trailing-dot", "1."),
        ("dot-exponent", "1.e1"),
        ("empty-exponent", "1e"),
        ("signed-empty-exponent", "1e+"),
        ("minus-alone", "-"),
        ("hex", "0x10"),
        ("two-dots", "1.5.3"),
        ("double-minus", "--1"),
        ("minus-space", "- 1"),
        ("underscore", "1_000"),
    ]:
        c.value(num, f"number-{name}", f"{text!r} is not in the number grammar (RFC 8259 §6)", REJECT, text.encode())
    for name, tok in (("nan", "NaN"), ("infinity", "Infinity"), ("minus-infinity", "-Infinity")) + (
        ("nan-lower", "nan"),
        ("inf-lower", "inf"),
    ):
        c.value(
            "spec/nan-infinity",
            f"token-{name}",
            f"{tok}: not a JSON value (RFC 8259 §6: NaN and Infinity are not permitted)",
            REJECT,
            tok.encode(),
        )
    esc = "spec/escapes"
    for name, text in [
        ("u-escape", r'"\u00e9"'),
        ("u-escape-upper", r'"\u00E9"'),
        ("surrogate-pair", r'"\ud83d\ude00"'),
        ("short-escapes", r'"\"\\\/\b\f\n\r\t"'),
        ("control-escaped", r'"\u0001"'),
    ]:
        c.value(esc, f"escape-{name}", f"valid escape {text} (RFC 8259 §7)", ACCEPT, text.encode())
    c.value(
        esc,
        "escape-nul",
        r'"\u0000": valid JSON, but NUL is outside the data model (spec/data-model.md)',
        IMPL,
        rb'"\u0000"',
        (hash_of({"a": "\x00"}),),
    )
    for name, raw in [
        ("unknown", rb'"\a"'),
        ("hex-x", rb'"\x41"'),
        ("short-u", rb'"\u12"'),
        ("bad-hex-u", rb'"\u12G4"'),
        ("upper-u", rb'"\U0041"'),
        ("single-quote", rb"'a'"),
        ("escaped-single-quote", rb'"\'"'),
        ("raw-control", b'"a\x01b"'),
        ("raw-tab", b'"a\tb"'),
        ("raw-newline", b'"a\nb"'),
        ("unterminated", b'"abc'),
    ]:
        c.value(esc, f"escape-{name}", f"{raw.decode()!r}: not a valid string (RFC 8259 §7)", REJECT, raw)
    # §8.2: the ABNF allows \u escapes of lone surrogates; "the behavior of software that receives
    # JSON texts containing such values is unpredictable". The data model cannot hold them.
    for name, raw in [
        ("high", rb'"\ud800"'),
        ("low", rb'"\udfff"'),
        ("high-then-letter", rb'"\ud800\u0041"'),
        ("reversed-pair", rb'"\ude00\ud83d"'),
        ("two-high", rb'"\ud800\ud800"'),
    ]:
        c.value("spec/surrogates", f"surrogate-{name}", f"lone surrogate {raw.decode()} (RFC 8259 §8.2)", IMPL, raw)
    c.add("spec/surrogates", "surrogate-in-key", r'lone surrogate in a key {"\ud800":1} (RFC 8259 §8.2)', IMPL,
          rb'{"\ud800":1}')  # fmt: skip
    # §8.1: JSON text exchanged between systems MUST be UTF-8.
    utf = "spec/utf8"
    for name, raw, what in [
        ("byte-ff", b"\xff", "0xFF never occurs in UTF-8"),
        ("overlong-2", b"\xc0\xaf", "overlong 2-byte '/'"),
        ("overlong-3", b"\xe0\x80\xaf", "overlong 3-byte '/'"),
        ("overlong-4", b"\xf0\x80\x80\xaf", "overlong 4-byte '/'"),
        ("surrogate-encoded", b"\xed\xa0\x80", "UTF-8 of surrogate U+D800 (CESU-8)"),
        ("above-max", b"\xf4\x90\x80\x80", "above U+10FFFF"),
        ("lone-continuation", b"\x80", "a continuation byte alone"),
        ("truncated-2", b"\xc3", "a 2-byte sequence cut short"),
        ("truncated-3", b"\xe2\x82", "a 3-byte sequence cut short"),
        ("byte-fe", b"\xfe", "0xFE never occurs in UTF-8"),
    ]:
        c.value(utf, f"utf8-{name}", f"string with {what} (RFC 8259 §8.1, RFC 3629 §3)", REJECT, b'"x' + raw + b'"')
    c.add(utf, "utf8-key-byte-ff", "key with 0xFF (RFC 8259 §8.1)", REJECT, b'{"k\xff":1}')
    c.add(utf, "utf8-key-overlong", "key with an overlong '/' (RFC 3629 §3)", REJECT, b'{"k\xc0\xaf":1}')
    c.value(utf, "utf8-four-byte", "valid 4-byte UTF-8 (U+1F600)", ACCEPT, '"\U0001f600"'.encode())
    c.add(
        utf,
        "utf8-bom",
        "a byte order mark before the text (RFC 8259 §8.1: implementations MAY ignore it)",
        IMPL,
        b'\xef\xbb\xbf{"a":1}',
        (hash_of({"a": 1}),),
    )
    tr = "spec/trailing"
    for name, raw in [
        ("letter", b'{"a":1}x'),
        ("second-value", b'{"a":1}{}'),
        ("comma", b'{"a":1},'),
        ("bracket", b'{"a":1}]'),
        ("nul", b'{"a":1}\x00'),
    ]:
        c.add(tr, f"trailing-{name}", f"bytes after the value: {raw[7:]!r} (RFC 8259 §2: ws value ws)", REJECT, raw)
    c.add(tr, "trailing-whitespace", "white space after the value (RFC 8259 §2)", ACCEPT, b'{"a":1} \n\t\r')
    # the same, after a root that is not a map: a library that refuses a non-map root for its own reason
    # must still be seen to refuse the NUL (found beside a public corpus, issue 73)
    c.add(tr, "trailing-nul-after-array", "a NUL after an array root (RFC 8259 §2: ws value ws)", REJECT, b"[1]\x00")
    c.add(tr, "trailing-second-document", "a second object after the first (one JSON text)", REJECT,
          b'{"a":1}{"b":2}')  # fmt: skip
    ws = "spec/whitespace"  # RFC 8259 §2: ws = space, horizontal tab, line feed, carriage return
    for name, raw in [
        ("form-feed-after", b'{"a":1}\x0c'),
        ("form-feed-before", b'\x0c{"a":1}'),
        ("form-feed-inside", b'{\x0c"a":1}'),
        ("vertical-tab-inside", b'{"a":\x0b1}'),
        ("nbsp-inside", b'{"a":\xc2\xa01}'),
    ]:
        c.add(ws, name, "JSON white space is space, tab, LF and CR only (RFC 8259 §2)", REJECT, raw)
    st = "spec/structure"
    for name, raw, what in [
        ("trailing-comma-array", b'{"a":[1,]}', "a comma before ]"),
        ("trailing-comma-object", b'{"a":1,}', "a comma before }"),
        ("unquoted-key", b"{a:1}", "an unquoted name"),
        ("missing-colon", b'{"a" 1}', "no name separator"),
        ("missing-comma", b'{"a":1 "b":2}', "no value separator"),
        ("double-colon", b'{"a"::1}', "two name separators"),
        ("lone-comma", b"{,}", "a comma alone"),
        ("block-comment", b'{"a":/*c*/1}', "a comment"),
        ("line-comment", b'{"a":1}//c', "a comment after the value"),
        ("empty", b"", "an empty text"),
        ("only-whitespace", b" \n", "white space only"),
        ("unclosed-array", b'{"a":[1}', "] missing"),
        ("unclosed-object", b'{"a":1', "} missing"),
        ("literal-tru", b'{"a":tru}', "a cut literal"),
        ("literal-true-capital", b'{"a":True}', "a capitalised literal"),
        ("literal-nul", b'{"a":nul}', "a cut literal"),
        ("undefined", b'{"a":undefined}', "undefined"),
    ]:
        c.add(st, f"structure-{name}", f"{what} (RFC 8259 §2-§5)", REJECT, raw)
    c.add(st, "structure-whitespace", "white space around every token (RFC 8259 §2)", ACCEPT,
          b' { "a" : [ 1 , 2 ] , "b" : { } } ')  # fmt: skip
    c.add(st, "structure-empty-containers", "empty array and object", ACCEPT, b'{"a":[],"b":{}}')
    c.add(st, "structure-root-array", "an array at the root: JSON, outside the data model (root is a map)", IMPL,
          b"[1]", (hash_of([1]),))  # fmt: skip
    c.add(st, "structure-root-scalar", "a number at the root (RFC 8259 §2 allows any value)", IMPL, b"1",
          (hash_of(1),))  # fmt: skip
    # §4: names SHOULD be unique; with duplicates "the behavior of software ... is unpredictable".
    dup = "spec/duplicate-keys"
    c.add(dup, "duplicate-key", 'the same name twice with two values (RFC 8259 §4)', IMPL, b'{"a":1,"a":2}',
          _dup_hashes())  # fmt: skip
    c.add(dup, "duplicate-key-same-value", "the same name twice, same value (RFC 8259 §4)", IMPL, b'{"a":1,"a":1}',
          (hash_of({"a": 1}), both_entries_hash([("a", 1), ("a", 1)])))  # fmt: skip
    return c.out


# --- MessagePack (github.com/msgpack/msgpack/blob/master/spec.md) -------------------------------------


def msgpack_cases() -> list[Case]:
    c = _Cases("msgpack", lambda v: b"\x81\xa1a" + v)
    c.value("spec/reserved", "reserved-c1", "0xC1, the one byte the spec says is never used", REJECT, b"\xc1")
    c.add("spec/reserved", "reserved-c1-root", "0xC1 as the whole document", REJECT, b"\xc1")
    th = "spec/truncated-header"
    for name, raw, what in [
        ("str8", b"\xd9", "str 8 without its length byte"),
        ("str16", b"\xda\x00", "str 16 with one length byte"),
        ("str32", b"\xdb\x00\x00\x00", "str 32 with three length bytes"),
        ("bin8", b"\xc4", "bin 8 without its length"),
        ("bin16", b"\xc5\x00", "bin 16 with one length byte"),
        ("bin32", b"\xc6\x00\x00\x00", "bin 32 with three length bytes"),
        ("array16", b"\xdc\x00", "array 16 with one count byte"),
        ("array32", b"\xdd\x00\x00\x00", "array 32 with three count bytes"),
        ("map16", b"\xde\x00", "map 16 with one count byte"),
        ("map32", b"\xdf\x00\x00\x00", "map 32 with three count bytes"),
        ("float64", b"\xcb\x00\x00\x00", "float 64 with three of eight bytes"),
        ("float32", b"\xca\x00\x00", "float 32 with two of four bytes"),
        ("uint64", b"\xcf\x00", "uint 64 with one of eight bytes"),
        ("int64", b"\xd3\x00", "int 64 with one of eight bytes"),
        ("uint8", b"\xcc", "uint 8 without its byte"),
        ("fixstr-short", b"\xa5ab", "fixstr of 5 with 2 bytes"),
        ("str8-short", b"\xd9\x05ab", "str 8 of 5 with 2 bytes"),
        ("fixarray-short", b"\x92\x01", "fixarray of 2 with 1 element"),
    ]:
        c.value(th, f"truncated-{name}", f"{what}: the document ends inside a value", REJECT, raw)
    c.add(th, "truncated-fixmap-short", "fixmap of 2 with 1 entry", REJECT, b"\x82\xa1a\x01")
    huge = "mutation/huge-length"
    for name, raw, what in [
        ("str32-max", b"\xdb\xff\xff\xff\xffabc", "str 32 of 2^32-1 bytes with 3 behind it"),
        ("str32-2e31", b"\xdb\x80\x00\x00\x00abc", "str 32 of 2^31 bytes with 3 behind it"),
        ("bin32-max", b"\xc6\xff\xff\xff\xff\x01\x02\x03", "bin 32 of 2^32-1 bytes with 3 behind it"),
        ("array32-max", b"\xdd\xff\xff\xff\xff\x01", "array 32 of 2^32-1 elements with 1 behind it"),
        ("array32-2e31", b"\xdd\x80\x00\x00\x00\x01", "array 32 of 2^31 elements with 1 behind it"),
        ("map32-max", b"\xdf\xff\xff\xff\xff\xa1b\x01", "map 32 of 2^32-1 entries with 1 behind it"),
    ]:
        c.value(huge, f"huge-{name}", f"{what}: must fail without allocating for the count", REJECT, raw)
    utf = "spec/utf8"
    for name, raw, what in [
        ("byte-ff", b"\xa3x\xffy", "0xFF"),
        ("overlong", b"\xa2\xc0\xaf", "an overlong '/'"),
        ("surrogate-encoded", b"\xa3\xed\xa0\x80", "UTF-8 of a surrogate"),
    ]:
        # The spec's "Limitation": "String objects may contain invalid byte sequence and the behavior
        # of a deserializer depends on the actual implementation": rejecting and passing through are
        # both allowed.
        c.value(utf, f"utf8-{name}", f"str with {what} (spec, Limitation: implementation-defined)", IMPL, raw)
    c.add(utf, "utf8-key", "a key with 0xFF (spec, Limitation: implementation-defined)", IMPL, b"\x81\xa2k\xff\x01")
    enc = "spec/encodings"
    for name, raw, what in [
        ("uint16-small", b"\xcd\x00\x01", "1 as uint 16 (not the shortest form)"),
        ("int8-positive", b"\xd0\x01", "1 as int 8"),
        ("uint64-small", b"\xcf" + struct.pack(">Q", 1), "1 as uint 64"),
        ("uint64-max", b"\xcf" + b"\xff" * 8, "2^64-1"),
        ("int64-min", b"\xd3\x80" + b"\x00" * 7, "-2^63"),
        ("negative-fixint", b"\xff", "-1 as a negative fixint"),
        ("float32", b"\xca" + struct.pack(">f", 1.5), "1.5 as float 32"),
        ("float64", b"\xcb" + struct.pack(">d", -0.25), "-0.25 as float 64"),
        ("str8-empty", b"\xd9\x00", "an empty str 8"),
        ("str32-short", b"\xdb\x00\x00\x00\x02ab", "'ab' as str 32"),
        ("array16-empty", b"\xdc\x00\x00", "an empty array 16"),
        ("map16-one", b"\xde\x00\x01\xa1b\x01", "a map 16 of one entry"),
        ("bin8", b"\xc4\x03\x01\x02\x03", "bin 8 of 3 bytes"),
        ("nil-true-false", b"\x93\xc0\xc3\xc2", "nil, true, false"),
    ]:
        c.value(enc, f"valid-{name}", f"valid: {what}", ACCEPT, raw)
    c.add("spec/trailing", "trailing-byte", "a nil after the document: one value and extra bytes", IMPL,
          b"\x81\xa1a\x01\xc0", (hash_of({"a": 1}),))  # fmt: skip
    c.add("spec/trailing", "trailing-nul-after-array", "a 0x00 after an array root: one value and extra bytes", IMPL,
          b"\x91\x01\x00", (hash_of([1]),))  # fmt: skip
    c.add("spec/duplicate-keys", "duplicate-key", "the same key twice (the spec does not say which wins)", IMPL,
          b"\x82\xa1a\x01\xa1a\x02", _dup_hashes())  # fmt: skip
    c.value("spec/data-model", "ext-fixext1", "an ext value (type 1): valid, outside the data model", IMPL,
            b"\xd4\x01\x00")  # fmt: skip
    c.add("spec/data-model", "int-key", "an integer key: valid, outside the data model", IMPL, b"\x81\x01\x01")
    return c.out


# --- CBOR (RFC 8949) ---------------------------------------------------------------------------------


def cbor_cases() -> list[Case]:
    c = _Cases("cbor", lambda v: b"\xa1aa" + v)
    # §3: additional information 28-30 are reserved: not well-formed in every major type (Appendix F).
    for mt in range(8):
        for ai in (28, 29, 30) if mt in (0, 7) else (28,):
            c.value(
                "spec/reserved-ai",
                f"reserved-mt{mt}-ai{ai}",
                f"major type {mt} with reserved additional information {ai} (RFC 8949 §3, Appendix F)",
                REJECT,
                bytes([mt << 5 | ai]),
            )
    ind = "spec/indefinite"
    for name, raw, what in [
        ("uint", b"\x1f", "indefinite length for an unsigned integer (§3.2.4)"),
        ("negint", b"\x3f", "indefinite length for a negative integer (§3.2.4)"),
        ("tag", b"\xdf", "indefinite length for a tag (§3.2.4)"),
        ("text-with-bytes-chunk", b"\x7f\x41a\xff", "a byte-string chunk in an indefinite text string (§3.2.3)"),
        ("bytes-with-text-chunk", b"\x5f\x61a\xff", "a text chunk in an indefinite byte string (§3.2.3)"),
        ("nested-text", b"\x7f\x7f\xff\xff", "an indefinite text string as a chunk (§3.2.3)"),
        ("int-chunk", b"\x5f\x01\xff", "an integer as a chunk (§3.2.3)"),
        ("map-odd", b"\xbfaa\xff", "an indefinite map with a key and no value (§3.2.2)"),
        ("array-no-break", b"\x9f\x01", "an indefinite array that never ends (§3.2.2)"),
        ("text-no-break", b"\x7faa", "an indefinite text string that never ends (§3.2.3)"),
    ]:
        c.value(ind, f"indefinite-{name}", what, REJECT, raw)
    brk = "spec/break"
    c.value(brk, "break-as-value", "a break stop code outside an indefinite item (RFC 8949 §3.2.1)", REJECT, b"\xff")
    c.value(brk, "break-in-definite-array", "a break inside a definite array (§3.2.1)", REJECT, b"\x82\x01\xff")
    c.add(brk, "break-as-key", "a break as a key of a definite map (§3.2.1)", REJECT, b"\xa1\xff\x01")
    c.add(brk, "break-root", "a break alone (§3.2.1)", REJECT, b"\xff")
    for v in (0, 24, 31):
        c.value("spec/simple", f"simple-two-byte-{v}", f"simple value {v} in two bytes (§3.3: not well-formed)",
                REJECT, bytes([0xF8, v]))  # fmt: skip
    th = "spec/truncated-header"
    for name, raw, what in [
        ("uint8", b"\x18", "a 1-byte argument missing"),
        ("uint16", b"\x19\x00", "a 2-byte argument with 1 byte"),
        ("uint32", b"\x1a\x00\x00", "a 4-byte argument with 2 bytes"),
        ("uint64", b"\x1b\x00", "an 8-byte argument with 1 byte"),
        ("float64", b"\xfb\x00\x00\x00", "a float 64 with 3 bytes"),
        ("float16", b"\xf9\x00", "a float 16 with 1 byte"),
        ("text-short", b"\x62a", "a text string of 2 with 1 byte"),
        ("bytes-short", b"\x42\x01", "a byte string of 2 with 1 byte"),
        ("array-short", b"\x82\x01", "an array of 2 with 1 element"),
    ]:
        c.value(th, f"truncated-{name}", f"{what}: the input ends inside a data item (§3, Appendix F)", REJECT, raw)
    c.add(th, "truncated-map-short", "a map of 2 with 1 entry (Appendix F)", REJECT, b"\xa2aa\x01")
    huge = "mutation/huge-length"
    for name, raw, what in [
        ("bytes-2e64", b"\x5b" + b"\xff" * 8 + b"abc", "a byte string of 2^64-1 with 3 bytes behind it"),
        ("text-2e31", b"\x7a\x80\x00\x00\x00abc", "a text string of 2^31 with 3 bytes behind it"),
        ("text-2e64", b"\x7b" + b"\xff" * 8 + b"abc", "a text string of 2^64-1 with 3 bytes behind it"),
        ("array-2e64", b"\x9b" + b"\xff" * 8 + b"\x01", "an array of 2^64-1 with 1 element behind it"),
        ("array-2e31", b"\x9a\x7f\xff\xff\xff\x01", "an array of 2^31-1 with 1 element behind it"),
        ("map-2e32", b"\xba\xff\xff\xff\xffab\x01", "a map of 2^32-1 with 1 entry behind it"),
    ]:
        c.value(huge, f"huge-{name}", f"{what}: must fail without allocating for the count", REJECT, raw)
    # §3.1 major type 3 is UTF-8; §5.3.1: a text string that is not UTF-8 is invalid.
    utf = "spec/utf8"
    for name, raw, what in [
        ("overlong", b"\x62\xc0\xaf", "an overlong '/'"),
        ("surrogate-encoded", b"\x63\xed\xa0\x80", "UTF-8 of a surrogate"),
        ("byte-ff", b"\x61\xff", "0xFF"),
    ]:
        c.value(utf, f"utf8-{name}", f"text string with {what} (RFC 8949 §3.1, §5.3.1)", REJECT, raw)
    c.add(utf, "utf8-key", "a text key with 0xFF (§5.3.1)", REJECT, b"\xa1\x62k\xff\x01")
    # Appendix A examples inside the data model, each as the value of {"a": ...}.
    app = "spec/appendix-a"
    for diag, hx in [
        ("0", "00"),
        ("1", "01"),
        ("10", "0a"),
        ("23", "17"),
        ("24", "1818"),
        ("25", "1819"),
        ("100", "1864"),
        ("1000", "1903e8"),
        ("1000000", "1a000f4240"),
        ("1000000000000", "1b000000e8d4a51000"),
        ("18446744073709551615", "1bffffffffffffffff"),
        ("-1", "20"),
        ("-10", "29"),
        ("-100", "3863"),
        ("-1000", "3903e7"),
        ("0.0", "f90000"),
        ("-0.0", "f98000"),
        ("1.0", "f93c00"),
        ("1.1", "fb3ff199999999999a"),
        ("1.5", "f93e00"),
        ("65504.0", "f97bff"),
        ("100000.0", "fa47c35000"),
        ("3.4028234663852886e+38", "fa7f7fffff"),
        ("1.0e+300", "fb7e37e43c8800759c"),
        ("5.960464477539063e-8", "f90001"),
        ("0.00006103515625", "f90400"),
        ("-4.0", "f9c400"),
        ("-4.1", "fbc010666666666666"),
        ("false", "f4"),
        ("true", "f5"),
        ("null", "f6"),
        ("h''", "40"),
        ("h'01020304'", "4401020304"),
        ('""', "60"),
        ('"a"', "6161"),
        ('"IETF"', "6449455446"),
        ('"\\"\\\\"', "62225c"),
        ('"\\u00fc"', "62c3bc"),
        ('"\\u6c34"', "63e6b0b4"),
        ('"\\ud800\\udd51"', "64f0908591"),
        ("[]", "80"),
        ("[1, 2, 3]", "83010203"),
        ("[1, [2, 3], [4, 5]]", "8301820203820405"),
        ("[1, ..., 25]", "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        ("{}", "a0"),
        ('{"a": 1, "b": [2, 3]}', "a26161016162820203"),
        ('["a", {"b": "c"}]', "826161a161626163"),
        ('{"a": "A", ..., "e": "E"}', "a56161614161626142616361436164614461656145"),
        ("(_ h'0102', h'030405')", "5f42010243030405ff"),
        ('(_ "strea", "ming")', "7f657374726561646d696e67ff"),
        ("[_ ]", "9fff"),
        ("[_ 1, [2, 3], [_ 4, 5]]", "9f018202039f0405ffff"),
        ("[_ 1, [2, 3], [4, 5]]", "9f01820203820405ff"),
        ("[1, [2, 3], [_ 4, 5]]", "83018202039f0405ff"),
        ("[1, [_ 2, 3], [4, 5]]", "83019f0203ff820405"),
        ("[_ 1, ..., 25]", "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff"),
        ('{_ "a": 1, "b": [_ 2, 3]}', "bf61610161629f0203ffff"),
        ('["a", {_ "b": "c"}]', "826161bf61626163ff"),
        ('{_ "Fun": true, "Amt": -2}', "bf6346756ef563416d7421ff"),
    ]:
        c.value(app, f"appendix-a-{hx[:24]}", f"RFC 8949 Appendix A: {diag}", ACCEPT, bytes.fromhex(hx))
    # Appendix A examples outside the data model (no tags, undefined, NaN, infinities, 65-bit ints).
    for diag, hx in [
        ("-18446744073709551616", "3bffffffffffffffff"),
        ("Infinity", "f97c00"),
        ("NaN", "f97e00"),
        ("-Infinity", "f9fc00"),
        ("undefined", "f7"),
        ("simple(16)", "f0"),
        ("1(1363896240)", "c11a514b67b0"),
        ("2(h'010000000000000000')", "c249010000000000000000"),
        ("{1: 2, 3: 4}", "a201020304"),
    ]:
        c.value(app, f"appendix-a-{hx[:24]}", f"RFC 8949 Appendix A: {diag}, outside the data model", IMPL,
                bytes.fromhex(hx))  # fmt: skip
    c.add("spec/trailing", "trailing-byte", "a null after the data item (one item and extra bytes, §5.1)", IMPL,
          b"\xa1aa\x01\xf6", (hash_of({"a": 1}),))  # fmt: skip
    c.add("spec/trailing", "trailing-nul-after-array", "a 0x00 after an array root (one item and extra bytes, §5.1)",
          IMPL, b"\x81\x01\x00", (hash_of([1]),))  # fmt: skip
    c.add("spec/duplicate-keys", "duplicate-key", "the same key twice (§5.6: not valid; what a decoder does is its "
          "own)", IMPL, b"\xa2aa\x01aa\x02", _dup_hashes())  # fmt: skip
    c.value("spec/encodings", "valid-non-shortest-int", "1 in 8 bytes (well-formed, not preferred: §4.2.1)", ACCEPT,
            b"\x1b" + struct.pack(">Q", 1))  # fmt: skip
    return c.out


# --- BSON (bsonspec.org, version 1.1) ----------------------------------------------------------------


def _bdoc(body: bytes, length: int | None = None, terminator: bytes = b"\x00") -> bytes:
    """document ::= int32 e_list "\\x00"; int32 is the total length including itself and the NUL."""
    n = len(body) + 5 if length is None else length
    return struct.pack("<i", n) + body + terminator


def _bstr(s: bytes, length: int | None = None, nul: bytes = b"\x00") -> bytes:
    """string ::= int32 (byte*) "\\x00"; int32 counts the bytes and the NUL."""
    return struct.pack("<i", len(s) + 1 if length is None else length) + s + nul


def bson_cases() -> list[Case]:
    c = _Cases("bson", lambda v: v)
    a1 = b"\x10a\x00" + struct.pack("<i", 1)  # "a": int32 1
    s = b"\x02s\x00" + _bstr(b"xyz")  # "s": "xyz"
    body = a1 + s
    good = _bdoc(body)
    ln = "spec/length"
    for name, n, what in [
        ("plus-one", len(good) + 1, "one more than the bytes"),
        ("minus-one", len(good) - 1, "one less than the content"),
        ("four", 4, "4, below the minimum of 5"),
        ("zero", 0, "0"),
        ("negative", -1, "-1"),
        ("int32-max", 0x7FFFFFFF, "2^31-1"),
    ]:
        c.add(ln, f"doc-length-{name}", f"document length {what} (bsonspec.org: int32 total bytes)", REJECT,
              _bdoc(body, n))  # fmt: skip
    c.add(ln, "doc-missing-terminator", "no final NUL, length counting what is there", REJECT,
          _bdoc(body, len(body) + 4, b""))  # fmt: skip
    c.add(ln, "doc-terminator-not-nul", "the final byte is 0x01, not NUL", REJECT, _bdoc(body, None, b"\x01"))
    for name, n, what in [
        ("too-big", 100, "100 for 3 bytes"),
        ("zero", 0, "0 (it counts the NUL, so at least 1)"),
        ("negative", -1, "-1"),
        ("int32-max", 0x7FFFFFFF, "2^31-1"),
        ("short", 3, "3 for 'xyz' (the NUL falls outside)"),
    ]:
        c.add(ln, f"string-length-{name}", f"string length {what} (bsonspec.org: string ::= int32 byte* NUL)",
              REJECT, _bdoc(a1 + b"\x02s\x00" + _bstr(b"xyz", n)))  # fmt: skip
    c.add(ln, "string-no-nul", "a string whose last byte is 'x', not NUL", REJECT,
          _bdoc(a1 + b"\x02s\x00" + _bstr(b"xyz", None, b"x")))  # fmt: skip
    inner = b"\x10b\x00" + struct.pack("<i", 1)
    for name, delta in [("plus-one", 1), ("minus-one", -1)]:
        c.add(ln, f"embedded-length-{name}", f"an embedded document's length {name.replace('-', ' ')}", REJECT,
              _bdoc(b"\x03d\x00" + _bdoc(inner, len(inner) + 5 + delta)))  # fmt: skip
    st = "spec/structure"
    c.add(st, "unknown-type", "element type 0x20, not defined", REJECT, _bdoc(b"\x20a\x00\x01"))
    c.add(st, "early-terminator", "a NUL element type before the end: the length disagrees", REJECT,
          _bdoc(a1 + b"\x00" + s))  # fmt: skip
    c.add(st, "key-unterminated", "a key that runs to the end of the document", REJECT, _bdoc(b"\x10abcdef"))
    c.add(st, "bool-two", "a boolean byte 0x02 (only 0x00 and 0x01 are defined)", REJECT, _bdoc(b"\x08b\x00\x02"))
    c.add(st, "empty-input", "no bytes at all", REJECT, b"")
    c.add(st, "short-input", "three bytes", REJECT, b"\x05\x00\x00")
    huge = "mutation/huge-length"
    c.add(huge, "huge-binary", "binary of 2^31-1 bytes with 3 behind it", REJECT,
          _bdoc(b"\x05b\x00" + struct.pack("<i", 0x7FFFFFFF) + b"\x00abc"))  # fmt: skip
    c.add(huge, "huge-array", "an array document of 2^31-1 bytes", REJECT,
          _bdoc(b"\x04b\x00" + struct.pack("<i", 0x7FFFFFFF) + b"\x100\x00" + b"\x01\x00\x00\x00\x00"))  # fmt: skip
    utf = "spec/utf8"
    c.add(utf, "utf8-string", "a string with 0xFF (bsonspec.org: UTF-8 strings)", REJECT,
          _bdoc(b"\x02s\x00" + _bstr(b"x\xffy")))  # fmt: skip
    c.add(utf, "utf8-overlong", "a string with an overlong '/'", REJECT, _bdoc(b"\x02s\x00" + _bstr(b"\xc0\xaf")))
    c.add(utf, "utf8-key", "a key (cstring) with 0xFF", REJECT, _bdoc(b"\x10k\xff\x00" + struct.pack("<i", 1)))
    ok = "spec/types"
    for name, raw, what in [
        ("double", b"\x01d\x00" + struct.pack("<d", 1.5), "a double"),
        ("int64", b"\x12i\x00" + struct.pack("<q", -(1 << 63)), "int64 minimum"),
        ("bool", b"\x08t\x00\x01\x08f\x00\x00", "true and false"),
        ("null", b"\x0an\x00", "null"),
        ("binary", b"\x05b\x00" + struct.pack("<i", 3) + b"\x00\x01\x02\x03", "binary subtype 0"),
        ("embedded", b"\x03d\x00" + _bdoc(inner), "an embedded document"),
        ("array", b"\x04l\x00" + _bdoc(b"\x100\x00\x01\x00\x00\x00\x101\x00\x02\x00\x00\x00"), "an array"),
        ("utf8-string", b"\x02s\x00" + _bstr("ü水😀".encode()), "a string of 2-, 3- and 4-byte UTF-8"),
        ("valid", body, "int32 and string"),
    ]:
        c.add(ok, f"valid-{name}", f"valid: {what}", ACCEPT, _bdoc(raw))
    c.add(ok, "valid-empty", "valid: the empty document", ACCEPT, b"\x05\x00\x00\x00\x00")
    c.add("spec/duplicate-keys", "duplicate-key", "the same key twice (bsonspec.org does not say which wins)", IMPL,
          _bdoc(a1 + b"\x10a\x00" + struct.pack("<i", 2)), _dup_hashes())  # fmt: skip
    c.add("spec/trailing", "trailing-byte", "a byte after the document's length", IMPL, good + b"\x00",
          (hash_of({"a": 1, "s": "xyz"}),))  # fmt: skip
    c.add("spec/data-model", "undefined", "the deprecated undefined type 0x06: outside the data model", IMPL,
          _bdoc(b"\x06u\x00"))  # fmt: skip
    c.add("spec/data-model", "array-keys-out-of-order", 'an array with keys "1", "0" (bsonspec.org: keys are '
          "0, 1, ...)", IMPL, _bdoc(b"\x04l\x00" + _bdoc(b"\x101\x00\x01\x00\x00\x00\x100\x00\x02\x00\x00\x00")),
          (hash_of({"l": [1, 2]}), hash_of({"l": [2, 1]})))  # fmt: skip
    return c.out


# --- UBJSON (Draft 12: ubjson.org/type-reference; the same text is kept as UBJSON-Specification.md in
# github.com/Iotic-Labs/py-ubjson) ------------------------------------------------------------------------


def _ukey(k: bytes) -> bytes:
    """An object key: an integer length and the bytes, with no S marker ("must not be included")."""
    return b"U" + bytes([len(k)]) + k


def ubjson_cases() -> list[Case]:
    # {"a": value} as an unsized object, so that a value that ends too early or too late shows as a
    # malformed object instead of bytes after the root
    c = _Cases("ubjson", lambda v: b"{" + _ukey(b"a") + v + b"}")

    def wrap(doc) -> str:
        return hash_of({"a": doc})

    ty = "spec/types"
    for name, raw, doc, what in [
        ("null", b"Z", None, "null Z"),
        ("true", b"T", True, "true T"),
        ("false", b"F", False, "false F"),
        ("int8-min", b"i\x80", -128, "int8 -128"),
        ("int8-negative-one", b"i\xff", -1, "int8 -1"),
        ("uint8-max", b"U\xff", 255, "uint8 255"),
        ("int16-min", b"I\x80\x00", -32768, "int16 -32768 (big-endian)"),
        ("int16-big-endian", b"I\x01\x02", 258, "int16 258: the bytes 01 02 are big-endian"),
        ("int32-min", b"l\x80\x00\x00\x00", -(1 << 31), "int32 -2^31"),
        ("int64-min", b"L\x80" + b"\x00" * 7, -(1 << 63), "int64 -2^63"),
        ("int64-max", b"L\x7f" + b"\xff" * 7, (1 << 63) - 1, "int64 2^63-1"),
        ("int64-small", b"L" + struct.pack(">q", 1), 1, "1 as int64: not the smallest type, still valid"),
        ("float32", b"d" + struct.pack(">f", 1.5), 1.5, "float32 1.5"),
        ("float32-widened", b"d" + struct.pack(">f", 0.1), struct.unpack(">f", struct.pack(">f", 0.1))[0],
         "float32 0.1: read as the float32 value, widened exactly (not as the double 0.1)"),
        ("float64", b"D" + struct.pack(">d", -0.25), -0.25, "float64 -0.25"),
        ("float64-negative-zero", b"D" + struct.pack(">d", -0.0), -0.0, "float64 -0.0 (the sign is data)"),
        ("float64-subnormal", b"D" + struct.pack(">d", 5e-324), 5e-324, "float64 5e-324, the smallest subnormal"),
        ("string-empty", b"SU\x00", "", "an empty string"),
        ("string-utf8", b"SU\x09" + "ü水😀".encode(), "ü水😀", "a string of 2-, 3- and 4-byte UTF-8"),
    ]:  # fmt: skip
        c.value(ty, f"valid-{name}", f"valid: {what} (Draft 12, Value Types)", ACCEPT, raw, (wrap(doc),))
    # Data Format: "length: a positive, integer numeric type (uint8, int16, int32, int64)"; int8 is
    # what the spec's own examples use ([S][i][3][ham]).
    ln = "spec/length"
    for marker, length in [(b"i", b"\x03"), (b"U", b"\x03"), (b"I", b"\x00\x03"), (b"l", b"\x00\x00\x00\x03"),
                           (b"L", b"\x00" * 7 + b"\x03")]:  # fmt: skip
        kind = {b"i": "int8", b"U": "uint8", b"I": "int16", b"l": "int32", b"L": "int64"}[marker]
        c.value(ln, f"string-length-{kind}", f"a string whose length is an {kind} (Draft 12, Data Format)", ACCEPT,
                b"S" + marker + length + b"abc", (wrap("abc"),))  # fmt: skip
        c.add(ln, f"key-length-{kind}", f"a key whose length is an {kind} (Draft 12, Object)", ACCEPT,
              b"{" + marker + length + b"abci\x01}", (hash_of({"abc": 1}),))  # fmt: skip
    c.add(ln, "key-empty", "an empty key (length 0)", ACCEPT, b"{U\x00i\x01}", (hash_of({"": 1}),))
    for name, raw, what in [
        ("string-length-negative", b"Si\xffab", "a string length of int8 -1"),
        ("string-length-negative-int32", b"Sl\x80\x00\x00\x00ab", "a string length of int32 -2^31"),
        ("string-length-float", b"Sd" + struct.pack(">f", 3.0) + b"abc", "a string length given as a float32"),
        ("string-length-char", b"SC\x03abc", "a string length given as a char"),
        ("string-length-string", b"SSU\x013abc", "a string length given as a string"),
        ("string-length-high-precision", b"SHU\x013abc", "a string length given as a high-precision number"),
        ("string-length-missing", b"S", "S followed by the object's end marker"),
    ]:
        c.value(ln, name, f"{what}: the length must be a non-negative integer type (Draft 12, Data Format)",
                REJECT, raw)  # fmt: skip
    c.add(ln, "key-length-negative", "a key length of int8 -1 (Draft 12, Data Format)", REJECT, b"{i\xffai\x01}")
    c.add(ln, "key-with-s-marker", 'a key written with an S marker: "the S marker must not be included" (Draft 12, '
          "Object)", REJECT, b"{SU\x01ai\x01}")  # fmt: skip
    # Char: "an unsigned byte meant to represent a single printable ASCII character (decimal values
    # 0-127). It must not have a decimal value larger than 127."
    ch = "spec/char"
    c.value(ch, "char-letter", "char 'a' (Draft 12, Char): the string \"a\"", ACCEPT, b"Ca", (wrap("a"),))
    c.value(ch, "char-127", "char 127, the largest allowed (Draft 12, Char)", ACCEPT, b"C\x7f", (wrap("\x7f"),))
    for v in (0x80, 0xC3, 0xFF):
        c.value(ch, f"char-{v}", f"char {v}: above 127 (Draft 12, Char: must not be larger than 127)", REJECT,
                bytes([0x43, v]))  # fmt: skip
    c.value(ch, "char-nul", "char 0: within 0-127, but NUL is outside the data model (spec/data-model.md)", IMPL,
            b"C\x00", (wrap("\x00"),))  # fmt: skip
    # High-precision: "encoded as a string ... Values must be written out in accordance with the
    # original JSON number type specification" (json.org). The data model has int64/uint64 and
    # doubles: an integer that fits is read as that integer, anything else as the nearest double, and
    # a decoder may refuse numbers it cannot hold (RFC 8259 §6 allows range and precision limits).
    hp = "spec/number-grammar"
    for name, text, allowed in [
        ("integer", "12345678901234567890", (12345678901234567890, 12345678901234567890.0)),
        ("negative", "-42", (-42, -42.0)),
        ("pi", "3.14159265358979323846", (3.141592653589793,)),
        ("exponent", "1.5e300", (1.5e300,)),
        ("beyond-uint64", "18446744073709551616", (18446744073709551616.0,)),
    ]:
        c.value(hp, f"high-precision-{name}", f"high-precision number {text}: an integer that fits, or the nearest "
                "double, or refused (Draft 12, High-Precision)", IMPL, b"HU" + bytes([len(text)]) + text.encode(),
                tuple(wrap(v) for v in allowed))  # fmt: skip
    for name, text in [
        ("letters", "abc"),
        ("leading-plus", "+1"),
        ("leading-zero", "01"),
        ("bare-fraction", ".5"),
        ("trailing-dot", "1."),
        ("two-dots", "1.2.3"),
        ("hex", "0x10"),
        ("nan", "NaN"),
        ("infinity", "Infinity"),
        ("empty", ""),
        ("space", " 1"),
    ]:
        c.value(hp, f"high-precision-{name}", f"high-precision {text!r}: not a JSON number, which H must be (Draft 12, "
                "High-Precision)", REJECT, b"HU" + bytes([len(text)]) + text.encode())  # fmt: skip
    c.value(hp, "high-precision-spec-example", "high-precision '-1.93+E190': the spec's own example, yet not a "
            "JSON number (Draft 12, High-Precision): reading it is the decoder's choice", IMPL,
            b"Hi\x0a-1.93+E190")  # fmt: skip
    c.value(hp, "high-precision-length-negative", "high-precision with a length of int8 -1", REJECT, b"Hi\xff1")
    # Optimized format: $ type before # count, a type never without a count, counts >= 0, no end
    # marker after a count, exactly `count` children.
    opt = "spec/optimized"
    for name, raw, doc, what in [
        ("count", b"[#U\x03i\x01i\x02i\x03", [1, 2, 3], "an array with a count and no type"),
        ("type-count", b"[$i#U\x03\x01\x02\x03", [1, 2, 3], "an array of int8 with type and count"),
        ("type-count-int16", b"[$I#U\x02\x01\x00\xff\xff", [256, -1], "an array of int16 with type and count"),
        ("type-count-float64", b"[$D#U\x02" + struct.pack(">dd", 1.5, -2.0), [1.5, -2.0], "float64, type and count"),
        ("type-count-string", b"[$S#U\x02U\x01xU\x02yz", ["x", "yz"], "strings with type and count"),
        ("type-count-empty", b"[$i#U\x00", [], "an empty typed array"),
        ("count-empty", b"[#U\x00", [], "an empty sized array"),
        ("count-int16", b"[#I\x00\x02TF", [True, False], "a count given as an int16"),
        ("marker-only-true", b"[$T#U\x03", [True, True, True], "an array of 3 true: the type marker is the value"),
        ("marker-only-null", b"[$Z#U\x02", [None, None], "an array of 2 null: the type marker is the value"),
        ("object-count", b"{#U\x02U\x01bi\x01U\x01cZ", {"b": 1, "c": None}, "an object with a count"),
        ("object-type-count", b"{$i#U\x02U\x01b\x01U\x01c\x02", {"b": 1, "c": 2}, "an int8 object, type and count"),
        ("object-marker-only", b"{$Z#U\x02U\x01bU\x01c", {"b": None, "c": None},
         "an object of null values: names only (the spec's example)"),
        ("nested-typed", b"[$[#U\x02#U\x01i\x01#U\x00", [[1], []],
         "an array typed as arrays: each child starts at its count (Draft 12, the type is [ for every child)"),
        ("unsized", b"[i\x01[]{}]", [1, [], {}], "unsized containers with end markers"),
    ]:  # fmt: skip
        expect = IMPL if name == "nested-typed" else ACCEPT  # nesting typed containers: see ubjson issue 73
        c.value(opt, f"valid-{name}", f"valid: {what} (Draft 12, Optimized Format)", expect, raw, (wrap(doc),))
    c.value(opt, "uint8-typed-array", "an array typed uint8: \"to store binary data, use a strongly-typed array of "
            "uint8\" (Draft 12, Data Format): binary or an array of integers", IMPL, b"[$U#U\x03\x01\x02\xff",
            (wrap(b"\x01\x02\xff"), wrap([1, 2, 255])))  # fmt: skip
    for name, raw, what in [
        ("type-without-count", b"[$i\x01\x02]", "a type with no count: \"a type cannot be specified by itself\""),
        ("count-before-type", b"[#U\x02$i\x01\x02", "a count before the type: the type \"must be done so before "
         "count\""),
        ("count-negative", b"[#i\xffi\x01", "a count of int8 -1: \"a count must be >= 0\""),
        ("count-negative-int64", b"[#L" + b"\xff" * 8 + b"i\x01", "a count of int64 -1"),
        ("count-and-end-marker", b"[#U\x01i\x01]", "a count and then an end marker: \"must not specify an "
         "end-marker\""),
        ("count-too-few", b"[#U\x03i\x01i\x02", "a count of 3 with 2 children"),
        ("count-float", b"[#d" + struct.pack(">f", 2.0) + b"i\x01i\x02", "a count given as a float32"),
        ("count-string", b"[#SU\x012i\x01i\x02", "a count given as a string"),
        ("count-missing", b"[#", "# with no count"),
        ("type-missing", b"[$", "$ with no type"),
        ("type-unknown", b"[$X#U\x01\x00", "a type marker X that Draft 12 does not define"),
        ("object-type-without-count", b"{$iU\x01b\x01}", "an object with a type and no count"),
        ("object-count-too-few", b"{#U\x02U\x01bi\x01", "an object with a count of 2 and 1 pair"),
    ]:  # fmt: skip
        c.value(opt, name, f"{what} (Draft 12, Optimized Format)", REJECT, raw)
    # No-op: "when decoding, No-Op values should be skipped. Also, they can only occur as elements of a
    # container."
    nop = "spec/noop"
    c.value(nop, "noop-in-array", "no-ops among an unsized array's elements are skipped (Draft 12, No-Op)", ACCEPT,
            b"[Ni\x01NNi\x02N]", (wrap([1, 2]),))  # fmt: skip
    c.value(nop, "noop-only", "an unsized array of no-ops only: empty (Draft 12, No-Op)", ACCEPT, b"[NN]",
            (wrap([]),))  # fmt: skip
    c.add(nop, "noop-between-pairs", "a no-op between an object's pairs: the spec says elements of a container, and "
          "an object's elements are pairs, so skipping is the natural reading but not stated", IMPL,
          b"{NU\x01ai\x01N}", (hash_of({"a": 1}),))  # fmt: skip
    c.value(nop, "noop-in-sized-array", "a no-op inside a sized array: whether it counts as a child is not said",
            IMPL, b"[#U\x02Ni\x01i\x02", (wrap([1, 2]),))  # fmt: skip
    c.value(nop, "noop-as-value", "a no-op where an object's value should be: skipped, the next byte is read as "
            "the value (here the end marker) or refused", IMPL, b"N")  # fmt: skip
    c.add(nop, "noop-at-root", "a no-op before the root value: no-ops \"can only occur as elements of a container\"",
          REJECT, b"N{}")  # fmt: skip
    c.add(nop, "noop-only-input", "the input is a single no-op: no value at all", REJECT, b"N")
    st = "spec/structure"
    for name, raw, what in [
        ("unknown-marker", b"X", "a marker Draft 12 does not define (X)"),
        ("marker-lower-u", b"u\x00\x01", "u, a later draft's uint16, not in Draft 12"),
        ("marker-b", b"B\x01", "B, an earlier draft's byte, not in Draft 12"),
        ("marker-e", b"E", "E, an earlier draft's end marker"),
        ("end-of-array-in-object", b"]", "] where a value is expected"),
        ("array-closed-by-brace", b"[i\x01}", "an array closed by }"),
    ]:
        c.value(st, f"structure-{name}", f"{what} (Draft 12)", REJECT, raw)
    # the input ends inside a value: {"a": X} cut inside X (no closing marker follows to be misread)
    for name, raw, what in [
        ("int16", b"I\x01", "int16 with 1 of 2 bytes"),
        ("int64", b"L\x00\x00\x00", "int64 with 3 of 8 bytes"),
        ("float64", b"D\x00\x00\x00\x00", "float64 with 4 of 8 bytes"),
        ("float32", b"d\x00", "float32 with 1 of 4 bytes"),
        ("char", b"C", "C with no byte after it"),
        ("string", b"SU\x05ab", "a string of 5 bytes with 2"),
        ("string-length", b"SI\x00", "a string whose int16 length has 1 of 2 bytes"),
        ("high-precision", b"HU\x0512", "a high-precision number of 5 bytes with 2"),
        ("array", b"[i\x01", "an unsized array with no end marker"),
        ("typed-array", b"[$l#U\x02\x00\x00\x00\x01\x00", "a typed int32 array of 2 with 1.25 elements"),
    ]:
        c.add("spec/truncated-header", f"truncated-{name}", f"{what}: the input ends inside a value (Draft 12)",
              REJECT, b"{U\x01a" + raw)  # fmt: skip
    c.add("spec/truncated-header", "truncated-key", "a key of 5 bytes with 2: the input ends inside a key", REJECT,
          b"{U\x05bc")  # fmt: skip
    c.add(st, "structure-object-closed-by-bracket", "an object closed by ] (Draft 12)", REJECT, b"{U\x01ai\x01]")
    c.add(st, "structure-object-key-without-value", "an object whose last key has no value (Draft 12)", REJECT,
          b"{U\x01a}")  # fmt: skip
    c.add(st, "structure-empty", "no bytes at all", REJECT, b"")
    c.add(st, "structure-root-array", "an array at the root: UBJSON, outside the data model (root is a map)", IMPL,
          b"[i\x01]", (hash_of([1]),))  # fmt: skip
    c.add(st, "structure-root-scalar", "a number at the root: UBJSON, outside the data model", IMPL, b"i\x01",
          (hash_of(1),))  # fmt: skip
    c.add(st, "structure-empty-object", "the empty unsized object", ACCEPT, b"{}", (hash_of({}),))
    # Numeric: "Numeric values of infinity (and NaN) are to be encoded as a null in all cases": a
    # writer's rule; a decoder given one may read it (outside the data model) or refuse it.
    for name, raw, what in [
        ("float64-nan", b"D" + struct.pack(">d", math.nan), "float64 NaN"),
        ("float64-infinity", b"D" + struct.pack(">d", math.inf), "float64 +infinity"),
        ("float32-nan", b"d" + struct.pack(">f", math.nan), "float32 NaN"),
    ]:
        c.value("spec/data-model", name, f"{what}: to be written as null (Draft 12, Numeric), outside the data model",
                IMPL, raw)  # fmt: skip
    # String: "the UBJSON string value requires UTF-8 encoding" (keys are strings too).
    utf = "spec/utf8"
    for name, raw, what in [
        ("byte-ff", b"SU\x03x\xffy", "0xFF"),
        ("overlong", b"SU\x02\xc0\xaf", "an overlong '/'"),
        ("surrogate-encoded", b"SU\x03\xed\xa0\x80", "UTF-8 of a surrogate (CESU-8)"),
        ("truncated", b"SU\x02x\xc3", "a 2-byte sequence cut by the length"),
    ]:
        c.value(utf, f"utf8-{name}", f"string with {what} (Draft 12, String: requires UTF-8)", REJECT, raw)
    c.add(utf, "utf8-key", "a key with 0xFF (Draft 12, String: requires UTF-8)", REJECT, b"{U\x02k\xffi\x01}")
    c.value(utf, "utf8-high-precision", "a high-precision number with 0xFF (a string, so UTF-8, and not a number)",
            REJECT, b"HU\x021\xff")  # fmt: skip
    c.add("spec/duplicate-keys", "duplicate-key", "the same key twice (Draft 12 does not say which wins)", IMPL,
          b"{U\x01ai\x01U\x01ai\x02}", _dup_hashes())  # fmt: skip
    c.add("spec/trailing", "trailing-byte", "a null after the root object: one value and extra bytes", IMPL,
          b"{U\x01ai\x01}Z", (hash_of({"a": 1}),))  # fmt: skip
    return c.out


# --- mutations of a valid corpus document ---------------------------------------------------------------


def _nested_hash(depth: int) -> str:
    """{"a": [[...[]...]]} with `depth` arrays, hashed iteratively (no recursion at any depth)."""
    h = objhash.array_end(0, 0)
    for _ in range(depth - 1):
        h = objhash.array_end(objhash.array_add(0, 0, h), 1)
    return objhash.hex64(objhash.map_end(objhash.map_entry(objhash.hash_str("a"), h), 1))


def _wide_hash(n: int) -> str:
    """{"a": [[], [], ...]} with n empty arrays."""
    e, acc = objhash.array_end(0, 0), 0
    for i in range(n):
        acc = objhash.array_add(acc, i, e)
    return objhash.hex64(objhash.map_end(objhash.map_entry(objhash.hash_str("a"), objhash.array_end(acc, n)), 1))


def _deep(fmt: str, n: int) -> bytes | None:
    """{"a": n nested arrays}, written without recursion; None where it would be too big to keep."""
    if fmt == "json":
        return b'{"a":' + b"[" * n + b"]" * n + b"}"
    if fmt == "msgpack":
        return b"\x81\xa1a" + b"\x91" * (n - 1) + b"\x90"
    if fmt == "cbor":
        return b"\xa1aa" + b"\x81" * (n - 1) + b"\x80"
    if n > 100_000:  # 8 bytes (BSON) and 4 bytes (UBJSON) a level: 8 and 4 MB at 10^6
        return None
    if fmt == "bson":
        # level k is the document {"0": level k-1}: 4 + 1 + 2 + len(level k-1) + 1 bytes
        lengths = [5]
        for _ in range(n - 1):
            lengths.append(lengths[-1] + 8)
        heads = [struct.pack("<i", n_) + b"\x040\x00" for n_ in reversed(lengths[1:])]
        inner = b"".join(heads) + b"\x05\x00\x00\x00\x00" + b"\x00" * (n - 1)
        return _bdoc(b"\x04a\x00" + inner)
    if fmt == "ubjson":
        # the reference encoder's sized form: "[#U\x01" per level, "[#U\x00" innermost
        return b"{#U\x01U\x01a" + b"[#U\x01" * (n - 1) + b"[#U\x00"
    return None


def _wide(fmt: str, n: int) -> bytes | None:
    if fmt == "json":
        return b'{"a":[' + b"[]," * (n - 1) + b"[]]}"
    if fmt == "msgpack":
        return b"\x81\xa1a\xdd" + struct.pack(">I", n) + b"\x90" * n
    if fmt == "cbor":
        return b"\xa1aa\x9a" + struct.pack(">I", n) + b"\x80" * n
    return None  # BSON spends ~13 bytes and UBJSON 4 per element: too big to keep


def _huge_root(fmt: str, data: bytes) -> bytes | None:
    """The document with its root map's count (or BSON's length) set to a huge value, little data behind."""
    if fmt == "msgpack":
        skip = {0xDE: 3, 0xDF: 5}.get(data[0], 1)
        return b"\xdf\xff\xff\xff\xff" + data[skip:]
    if fmt == "cbor":
        ai = data[0] & 0x1F
        skip = 1 + {24: 1, 25: 2, 26: 4, 27: 8}.get(ai, 0)
        return b"\xbb" + b"\xff" * 8 + data[skip:]
    if fmt == "bson":
        return struct.pack("<i", 0x7FFFFFFF) + data[4:]
    return None


def _long_text(n: int) -> str:
    """n bytes of UTF-8 mixing 1-, 2-, 3- and 4-byte characters and escapes ("a é € 😀 \\n\"")."""
    unit = 'abc é€😀\n"\\ '
    text = unit * (n // len(unit.encode()) + 1)
    while len(text.encode()) > n:
        text = text[:-1]
    return text + "x" * (n - len(text.encode()))


def _huge_inner(fmt: str) -> list[tuple[str, str, bytes]]:
    """(name, description, bytes): {"a": X} where X's length or count field is huge and its data short.
    MessagePack, CBOR and BSON have these among their spec cases (huge-str32-max, huge-text-2e64, ...)."""
    if fmt == "ubjson":
        return [
            ("huge-string-length", "a string claiming 2^31-1 bytes (int32 length), holding 3",
             b"{#U\x01U\x01aSl\x7f\xff\xff\xffabc"),
            ("huge-array-count", "a sized array claiming 2^63-1 items (int64 count), holding 1",
             b"{#U\x01U\x01a[#L\x7f\xff\xff\xff\xff\xff\xff\xffZ"),
        ]  # fmt: skip
    return []


def long_cases(fmt: str) -> list[Case]:
    """Very long strings and keys (accept), and huge length or count fields inside the document (reject)."""
    out = []
    for name, doc, what in (
        (f"long-string-{LONG_STRING}", {"a": _long_text(LONG_STRING)}, f"a string of {LONG_STRING:,} bytes of UTF-8"),
        (f"long-key-{LONG_KEY}", {_long_text(LONG_KEY): 1}, f"a map key of {LONG_KEY:,} bytes of UTF-8"),
    ):
        out.append(Case(name, fmt, "mutation/long-string", what, ACCEPT, F.FORMATS[fmt].encode(doc), (hash_of(doc),)))
    for name, what, data in _huge_inner(fmt):
        out.append(Case(name, fmt, "mutation/huge-length", f'{{"a": X}}, X {what}', REJECT, data))
    return out


#: what a strict reference decoder's error says when the input is well-formed but outside the data
#: model or a place where the format leaves the choice to the decoder: a bit flip that makes one of
#: these is implementation-defined, not a must-reject
_NOT_MALFORMED = ("appears twice", "not in the data model", "bytes after the end", "map key", "nested deeper")


def _mutant(fmt: str, data: bytes) -> tuple[str, tuple[str, ...]]:
    """What a correct decoder must do with a mutated document, judged by the strict reference decoder:
    accept when it reads a document that its encoder writes back to the same bytes (so no choice of
    the decoder was involved), reject when it finds the bytes malformed."""
    try:
        doc = F.DECODERS[fmt](data)
        h = hash_of(doc)
    except F.FormatError as e:
        msg = str(e)
        if fmt == "json" and "bytes after the end" in msg:
            return REJECT, ()  # RFC 8259 §2: JSON-text = ws value ws
        if fmt == "msgpack" and "UTF-8" in msg:
            return IMPL, ()  # the MessagePack spec's "Limitation" leaves invalid UTF-8 in str to the decoder
        return (IMPL if any(m in msg for m in _NOT_MALFORMED) else REJECT), ()
    except (TypeError, ValueError, RecursionError):  # a value outside the data model (undefined, ...)
        return IMPL, ()
    try:
        same = F.FORMATS[fmt].encode(doc) == data
    except F.FormatError:
        same = False
    return (ACCEPT if same else IMPL), (h,)


def mutation_cases(seed: int) -> list[Case]:
    out: list[Case] = []
    doc = generate(MUTATED_SIZE, seed)
    for fmt in FORMATS:
        data = F.FORMATS[fmt].encode(doc)
        n = len(data)
        cuts = sorted({max(1, min(n - 1, round(n * k / (TRUNCATIONS - 1)))) for k in range(TRUNCATIONS)})
        for cut in cuts:
            # A strict prefix of one complete value is never a complete value in any of these formats
            # (JSON's root map ends with '}', the binary formats' lengths and counts say where it ends).
            out.append(
                Case(
                    f"truncated-at-{cut:06d}",
                    fmt,
                    "mutation/truncation",
                    f"size-{MUTATED_SIZE} cut to its first {cut} of {n} bytes",
                    REJECT,
                    data[:cut],
                )  # fmt: skip
            )
        if fmt != "ubjson":  # no strict UBJSON reference decoder to judge a flipped document by
            rng = Rng(seed ^ 0xB17F11B5 ^ FORMATS.index(fmt))  # one stream per format
            for i in range(BITFLIPS):
                pos, bit = rng.below(n), rng.below(8)
                m = bytearray(data)
                m[pos] ^= 1 << bit
                expect, hashes = _mutant(fmt, bytes(m))
                out.append(
                    Case(f"bitflip-{i:02d}", fmt, "mutation/bitflip",
                         f"size-{MUTATED_SIZE} with bit {bit} of byte {pos} flipped", expect, bytes(m), hashes)
                )  # fmt: skip
        huge = _huge_root(fmt, data)
        if huge is not None:
            out.append(
                Case("huge-root-count", fmt, "mutation/huge-length",
                     f"size-{MUTATED_SIZE} with its root map's count or length set to the maximum", REJECT, huge)
            )  # fmt: skip
        for depth in DEPTHS:
            d = _deep(fmt, depth)
            if d is None:
                continue
            # RFC 8259 §9 and RFC 8949 §5.3 let a decoder limit nesting: beyond 100 levels refusing is
            # right, accepting is right with the right hash, crashing never is.
            expect = ACCEPT if depth <= 100 else IMPL
            out.append(
                Case(f"deep-{depth}", fmt, "mutation/deep-nesting", f"{depth} nested arrays in {{\"a\": ...}}",
                     expect, d, (_nested_hash(depth),))
            )  # fmt: skip
        out += long_cases(fmt)
        w = _wide(fmt, WIDE)
        if w is not None:
            out.append(
                Case(f"wide-{WIDE}", fmt, "mutation/many-items", f"an array of {WIDE:,} empty arrays", ACCEPT, w,
                     (_wide_hash(WIDE),))
            )  # fmt: skip
    return out


SPEC_CASES = {
    "json": json_cases,
    "msgpack": msgpack_cases,
    "cbor": cbor_cases,
    "bson": bson_cases,
    "ubjson": ubjson_cases,
}


def all_cases(seed: int = DEFAULT_SEED) -> list[Case]:
    cases = [c for fn in SPEC_CASES.values() for c in fn()] + mutation_cases(seed)
    seen: set[tuple[str, str]] = set()
    for c in cases:
        key = (c.format, c.name)
        if key in seen:
            raise ValueError(f"duplicate robustness case {c.format}/{c.name}")
        if c.expect not in EXPECTATIONS or (c.expect == ACCEPT and len(c.hashes) != 1):
            raise ValueError(f"robustness case {c.format}/{c.name}: bad expectation")
        seen.add(key)
    return cases


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_cases(corpus_dir: Path, seed: int = DEFAULT_SEED) -> dict:
    """Write `<corpus_dir>/robustness/` (only the files whose bytes changed) and return its manifest.
    Files of cases that no longer exist are removed; the manifest is written last."""
    dest = corpus_dir / "robustness"
    cases = all_cases(seed)
    manifest = {
        "version": MANIFEST_VERSION,
        "seed": seed,
        "hash_version": objhash.HASH_VERSION,
        "cases": [c.entry() for c in cases],
    }
    wanted = set()
    for c in cases:
        path = dest / c.file
        wanted.add(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not (path.exists() and path.stat().st_size == len(c.data) and path.read_bytes() == c.data):
            _write_atomic(path, c.data)
    for sub in dest.iterdir():
        if sub.is_dir():
            for p in sub.iterdir():
                if p not in wanted:
                    p.unlink() if p.is_file() else shutil.rmtree(p)
    _write_atomic(dest / "manifest.json", json.dumps(manifest, indent=1).encode())
    return manifest


def load_manifest(corpus_dir: Path) -> dict:
    return json.loads((corpus_dir / "robustness" / "manifest.json").read_text())


# --- your own cases (`serbench robustness --cases PATH`) ------------------------------------------------

#: where your own cases are copied, beside the built-in ones (which a run with them leaves as they are)
USER_FOLDER = "robustness-user"
#: a file name's prefix that says what a correct decoder must do, as JSONTestSuite names its files
#: (github.com/nst/JSONTestSuite, test_parsing/: y_ must be accepted, n_ rejected, i_ either)
PREFIXES = {"y_": ACCEPT, "n_": REJECT, "i_": IMPL}


class CaseFolderError(ValueError):
    """A --cases folder that cannot be used: one line naming it and what to do."""


def _ext_formats() -> dict[str, str]:
    return {F.FORMATS[f].ext: f for f in FORMATS} | {"mp": "msgpack", "ubj": "ubjson"}


def _case_name(stem: str) -> str:
    """[a-z0-9-]+ from a file name: JSONTestSuite's `n_string_1_surrogate_then_escape_u1x` becomes
    `n-string-1-surrogate-then-escape-u1x`."""
    name = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in stem.lower())
    return "-".join(part for part in name.split("-") if part) or "case"


def user_case(path: Path, fmt: str, cls: str) -> Case:
    """One file as a case: its expectation from its name's prefix (PREFIXES; any other name:
    implementation-defined, so only crashes, hangs and blow-ups count against a library). A file that
    must be accepted is held to the hash of what the strict reference decoder reads; when that decoder
    refuses it (a value outside serbench's data model, such as a duplicate key or a number beyond a
    double), accepting any value or rejecting is right, and the description says why."""
    data = path.read_bytes()
    expect = next((e for p, e in PREFIXES.items() if path.name.startswith(p)), IMPL)
    desc, hashes = f"{path.name} (your file)", ()
    if expect == ACCEPT:
        try:
            value = F.DECODERS[fmt](data)
            hashes = (hash_of(value),)
        except (F.FormatError, TypeError, ValueError, RecursionError) as e:
            expect = IMPL
            desc += f"; valid, but serbench's reference decoder cannot read it ({str(e)[:200]})"
        else:
            if fmt == "json" and not _finite(value):
                # 1e400 is valid JSON text, but RFC 8259 §6 lets a parser limit the range of numbers
                # (the built-in case json/number-overflow is implementation-defined for that reason)
                expect, hashes = IMPL, ()
                desc += "; a number beyond binary64, which RFC 8259 §6 lets a parser refuse"
    elif expect == IMPL and not any(path.name.startswith(p) for p in PREFIXES):
        desc += "; no y_, n_ or i_ prefix: any clean answer is right"
    return Case(_case_name(path.stem), fmt, cls, desc, expect, data, hashes)


def _finite(value) -> bool:
    """No infinite or NaN float anywhere in a decoded value (iterative: a case may nest deeply)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def user_cases(folder: Path) -> tuple[list[Case], list[str]]:
    """The cases of a folder of your own files (the folder and its subfolders), or of one such file
    (the input that broke a service), by extension (.json, .msgpack or .mp, .cbor, .bson, .ubjson or
    .ubj), and the names of the files skipped for another extension. Their class is `user/<folder
    name>` (a single file's folder); two names that clean to one get -2, -3, ..."""
    formats, cases, skipped, taken = _ext_formats(), [], [], set()
    exts = ", ".join(sorted(f".{e}" for e in formats))
    if not folder.exists():
        raise CaseFolderError(f"{folder}: no such file or folder; give a folder of case files (or one) to --cases")
    if folder.is_file():
        if formats.get(folder.suffix.lower().lstrip(".")) is None:
            raise CaseFolderError(f"{folder}: not a case file (the extensions read are {exts})")
        files, top = [folder], folder.parent
    elif folder.is_dir():
        files, top = sorted(p for p in folder.rglob("*") if p.is_file()), folder
    else:
        raise CaseFolderError(f"{folder}: neither a folder nor a file; give a folder of case files to --cases")
    cls = f"user/{_case_name(top.resolve().name)}"
    for path in files:
        fmt = formats.get(path.suffix.lower().lstrip("."))
        if fmt is None:
            skipped.append(str(path.relative_to(top)))
            continue
        try:
            case = user_case(path, fmt, cls)
        except OSError as e:
            raise CaseFolderError(f"{path}: cannot read it ({e.strerror or e})") from None
        name, n = case.name, 1
        while (fmt, name) in taken:
            n += 1
            name = f"{case.name}-{n}"
        taken.add((fmt, name))
        cases.append(dataclasses.replace(case, name=name))
    if not cases:
        raise CaseFolderError(f"{folder}: no case file in it (the extensions read are {exts})")
    return cases, skipped


def write_user_cases(corpus_dir: Path, folder: Path, cases: list[Case]) -> dict:
    """Copy your cases to `<corpus_dir>/robustness-user/` (what was there before goes) and return
    their manifest, which names the folder they came from."""
    dest = corpus_dir / USER_FOLDER
    if dest.exists():
        shutil.rmtree(dest)
    for c in cases:
        path = dest / c.file
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, c.data)
    manifest = {
        "version": MANIFEST_VERSION,
        "seed": None,
        "source": str(folder.resolve()),
        "folder": USER_FOLDER,
        "hash_version": objhash.HASH_VERSION,
        "cases": [c.entry() for c in cases],
    }
    _write_atomic(dest / "manifest.json", json.dumps(manifest, indent=1).encode())
    return manifest


def folder_of(manifest: dict) -> str:
    """The case files' folder under the corpus, as a run's stored manifest says: your own cases' or
    the built-in ones'."""
    return manifest.get("folder", "robustness")
