"""The robustness case corpus: malformed and hostile inputs, written from each format's specification
(JSON's, MessagePack's, CBOR's and UBJSON's as rows of the table in case_table.py, BSON's built here)
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

import hashlib
import json
import os
import shutil
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import objhash
from ..corpus import formats as F
from ..corpus.generator import DEFAULT_SEED, Rng, generate
from . import case_table as table

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


# --- the specifications' table (case_table.py): JSON, MessagePack, CBOR, UBJSON ----------------------


def _ukey(k: bytes) -> bytes:
    """An object key: an integer length and the bytes, with no S marker ("must not be included")."""
    return b"U" + bytes([len(k)]) + k


#: how a "value" row of the table is wrapped in each format's map root {"a": value}
_WRAP: dict[str, Callable[[bytes], bytes]] = {
    "json": lambda v: b'{"a":' + v + b"}",
    "msgpack": lambda v: b"\x81\xa1a" + v,
    "cbor": lambda v: b"\xa1aa" + v,
    # {"a": value} as an unsized object, so that a value that ends too early or too late shows as a
    # malformed object instead of bytes after the root
    "ubjson": lambda v: b"{" + _ukey(b"a") + v + b"}",
}


def _reading_hash(reading) -> str:
    """The object hash of one reading a table row allows: a document, or a map with every entry kept."""
    if isinstance(reading, table.Entries):
        return both_entries_hash(list(reading.entries))
    return hash_of(reading)


def table_cases(fmt: str) -> list[Case]:
    """The cases of one format's rows in case_table.py, in order."""
    c = _Cases(fmt, _WRAP[fmt])
    for kind, cls, name, expect, desc, data, readings in table.SPEC[fmt]:
        hashes = tuple(_reading_hash(r) for r in readings)
        (c.value if kind == "value" else c.add)(cls, name, desc, expect, data, hashes)
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


SPEC_CASES: dict[str, Callable[[], list[Case]]] = {
    "json": lambda: table_cases("json"),
    "msgpack": lambda: table_cases("msgpack"),
    "cbor": lambda: table_cases("cbor"),
    "bson": bson_cases,
    "ubjson": lambda: table_cases("ubjson"),
}


def all_cases(seed: int = DEFAULT_SEED, extra: bool = False) -> list[Case]:
    """The built-in cases; `extra`: with the second round's (grammar_cases.py)."""
    cases = [c for fn in SPEC_CASES.values() for c in fn()] + mutation_cases(seed)
    if extra:
        from .grammar_cases import extra_cases

        cases += extra_cases()
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
    cases = all_cases(seed, extra=True)
    manifest = {
        "version": MANIFEST_VERSION,
        "seed": seed,
        "hash_version": objhash.HASH_VERSION,
        "cases": [c.entry() for c in cases],
    }
    return write_case_files(dest, dest, cases, manifest)


def write_case_files(root: Path, dest: Path, cases: list, manifest: dict) -> dict:
    """Each case's file at root/<case.file>, rewritten only when its bytes changed; files in dest's
    format folders that no case names removed; then dest/manifest.json. Returns the manifest."""
    wanted = set()
    for c in cases:
        path = root / c.file
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


def folder_of(manifest: dict) -> str:
    """The case files' folder under the corpus, as a run's stored manifest says: your own cases' or
    the built-in ones'."""
    return manifest.get("folder", "robustness")
