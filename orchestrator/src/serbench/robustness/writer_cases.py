"""The writers' cases (issue 73): hostile but *valid* documents, each written to a file its row's
reference decoder reads, for the `write` test of every row (docs/robustness.md, "Writers").

A write row's `verify` (spec/protocol.md) decodes the file with the harness's reference decoder into
the harness's own object, encodes that with the row's library, decodes the output with the reference
decoder and prints its hash. So every case here is a document of the data model (spec/data-model.md),
and its expected hash is that document's object hash: a writer that prints it wrote the document
right, whatever bytes it chose.

Layout: `<corpus>/robustness-write/<format>/<case>.<ext>` and its `manifest.json`; each entry's `file`
is relative to the corpus folder. Rows of a format no case is written in read another's file, as `run`
feeds them (`READS`, and a row's own `reads` in `list`). What is not run, and why, is data
(`NOT_RUN`), kept in the manifest and shown in the report: never a silent branch.

Classes:
- `write/deep-nesting`: `{"a": X}`, X arrays (`deep-array-N`) or maps (`deep-map-N`) nested N = 10^1..10^6
  deep. 10 and 100 must be written; deeper may be refused cleanly (a writer may limit depth), never crash.
- `write/long-string`: a 16 MiB string of 1- to 4-byte UTF-8 with quotes, backslashes and newlines, and a
  1 MiB key: must be written.
- `write/integers`: int64's and uint64's limits, 2^53 +- 1, the edges of every shorter integer form.
- `write/floats`: -0.0 alone; the smallest subnormal, the largest double, 2^53, 0.1, 1e21, 1e22.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from .. import objhash
from ..corpus import formats as F
from .cases import ACCEPT, IMPL, Case, _long_text, hash_of, write_case_files

FOLDER = "robustness-write"
MANIFEST_VERSION = 1
#: formats a case file is written in
FORMATS = ("json", "msgpack", "cbor", "bson", "ubjson")
#: write rows of these formats read the case files of another: the reference decoder of json-pretty
#: is the JSON one and of ubjson-plain the UBJSON one (a compact input serves them as well as an
#: indented or unsized one would, and keeps the 16 MiB cases once on disk)
READS = {"json-pretty": "json", "ubjson-plain": "ubjson"}
DEPTHS = tuple(10**k for k in range(1, 7))
#: deeper than this a writer may refuse (RFC 8259 §9 and RFC 8949 §5.3 let a decoder limit nesting,
#: and a writer that refuses what common decoders refuse is right to)
MUST_WRITE_DEPTH = 100
LONG_STRING = 16 << 20
LONG_KEY = 1 << 20

INT64 = [
    -(1 << 63), (1 << 63) - 1, -(1 << 63) + 1, (1 << 63) - 2,
    (1 << 53) - 1, 1 << 53, (1 << 53) + 1, -(1 << 53) + 1, -(1 << 53), -(1 << 53) - 1,
    (1 << 32) - 1, 1 << 32, -(1 << 31), -(1 << 31) - 1, (1 << 31) - 1, 1 << 31,
    65535, 65536, -32768, -32769, 32767, 32768, 255, 256, -128, -129, 127, 128, -33, -32, 23, 24, 0, -1,
]  # fmt: skip
UINT64 = [(1 << 64) - 1, 1 << 63, (1 << 63) + 1, (1 << 64) - 2]
FLOATS = [
    5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
    -1.7976931348623157e308, 9007199254740992.0, 9007199254740994.0, 0.1, 1e21, 1e22, 1e-7, 123456789012345680.0,
    0.30000000000000004, 1.0,
]  # fmt: skip


@dataclass(frozen=True)
class WriterCase(Case):
    """A decoder case's fields and manifest entry; its file lives in the writers' folder."""

    @property
    def file(self) -> str:
        """Path relative to the corpus folder."""
        return f"{FOLDER}/{super().file}"


# --- nesting at any depth, written and hashed without recursion ---------------------------------------


def deep_hash(kind: str, n: int) -> str:
    """{"a": X}, X `n` arrays ([[...[]...]]) or maps ({"a": {"a": ... {}}}) deep, hashed iteratively."""
    key = objhash.hash_str("a")
    if kind == "array":
        h = objhash.array_end(0, 0)
        for _ in range(n - 1):
            h = objhash.array_end(objhash.array_add(0, 0, h), 1)
        return objhash.hex64(objhash.map_end(objhash.map_entry(key, h), 1))
    h = objhash.map_end(0, 0)
    for _ in range(n):
        h = objhash.map_end(objhash.map_entry(key, h), 1)
    return objhash.hex64(h)


def _bson_nested(kind: str, n: int) -> bytes:
    """BSON {"a": X}: level k is the document {"0": level k-1} (array) or {"a": level k-1} (map)."""
    elem = b"\x040\x00" if kind == "array" else b"\x03a\x00"
    lengths = [5]
    for _ in range(n - 1):
        lengths.append(lengths[-1] + 8)
    heads = b"".join(struct.pack("<i", k) + elem for k in reversed(lengths[1:]))
    body = (b"\x04a\x00" if kind == "array" else b"\x03a\x00") + heads + b"\x05\x00\x00\x00\x00" + b"\x00" * (n - 1)
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def deep_bytes(fmt: str, kind: str, n: int) -> bytes:
    """The bytes the reference encoder would write for the deep document (it recurses; this does not)."""
    if fmt == "json":
        if kind == "array":
            return b'{"a":' + b"[" * n + b"]" * n + b"}"
        return b'{"a":' * n + b"{}" + b"}" * n
    if fmt == "msgpack":
        return b"\x81\xa1a" + b"\x91" * (n - 1) + b"\x90" if kind == "array" else b"\x81\xa1a" * n + b"\x80"
    if fmt == "cbor":
        return b"\xa1aa" + b"\x81" * (n - 1) + b"\x80" if kind == "array" else b"\xa1aa" * n + b"\xa0"
    if fmt == "bson":
        return _bson_nested(kind, n)
    if fmt == "ubjson":  # the reference encoder's sized form
        if kind == "array":
            return b"{#U\x01U\x01a" + b"[#U\x01" * (n - 1) + b"[#U\x00"
        return b"{#U\x01U\x01a" * n + b"{#U\x00"
    raise ValueError(f"no deep writer case in {fmt}")


# --- the cases -------------------------------------------------------------------------------------------


def _can_carry(fmt: str, doc) -> bool:
    try:
        F.FORMATS[fmt].encode(doc)
    except F.FormatError:
        return False
    return True


def _documents() -> list[tuple[str, str, str, object]]:
    """(class, name, description, document) of the cases that are not nesting."""
    return [
        ("write/long-string", f"long-string-{LONG_STRING}",
         f'{{"a": S}}, S {LONG_STRING:,} bytes of UTF-8 (1- to 4-byte characters, quotes, backslashes, newlines)',
         {"a": _long_text(LONG_STRING)}),
        ("write/long-string", f"long-key-{LONG_KEY}", f"a map whose one key is {LONG_KEY:,} bytes of such UTF-8",
         {_long_text(LONG_KEY): 1}),
        ("write/integers", "int64-limits", "int64's minimum and maximum, 2^53 +- 1 and the edges of every shorter "
         "integer form, in an array and as map values", {"a": INT64, "m": {str(i): v for i, v in enumerate(INT64)}}),
        ("write/integers", "uint64-limits", "2^63, 2^63+1, 2^64-2 and 2^64-1 (uint64 beyond int64)",
         {"a": UINT64}),
        ("write/floats", "negative-zero", "-0.0 alone, and in an array: a float, not the integer 0", {"a": -0.0,
         "b": [-0.0]}),
        ("write/floats", "float-limits", "the smallest subnormal, the largest normal, 2^53 and 2^53+2, 0.1, 1e21, "
         "1e22, 1e-7 (where shortest printing switches form)", {"a": FLOATS}),
    ]  # fmt: skip


#: json-pretty's deepest case that is run
PRETTY_MAX_DEPTH = 1_000
PRETTY_REASON = (
    "pretty-printed with a 2-space indent, nesting n deep holds about 2n^2 bytes of indentation (200 MB at 10^4, "
    "20 GB at 10^5), which measures the memory limit rather than the writer: json-pretty rows run 10 to 1,000 deep"
)
#: what is not run, and why: (format or "*", case-name prefix, reason). Shown in every report.
NOT_RUN: list[tuple[str, str, str]] = [
    ("bson", "uint64-limits", "BSON has no unsigned 64-bit integer (int32 and int64 only): the document is not "
     "in the format"),
    ("ubjson", "uint64-limits", "UBJSON Draft 12 has no unsigned 64-bit integer (L is int64): the document is not "
     "in the format"),
    ("json-pretty", "deep-", PRETTY_REASON),
    ("*", "nan-infinity", "NaN and the infinities are outside the data model (spec/data-model.md rule 5: floats "
     "finite): every harness's reference decoder refuses them in the input (exit 6) and in the output, so `verify` "
     "can neither hand them to a writer nor judge what it wrote"),
    ("*", "invalid-utf8", "strings are valid UTF-8 in the data model (rule 2): every harness's reference decoder "
     "refuses invalid UTF-8 and encoded surrogates, so no writer can be given such a string through `verify`, "
     "even in the harnesses that hold strings as bytes (native, Go); Python, Java and JavaScript strings hold lone "
     "surrogates but not invalid UTF-8, Rust's String holds neither"),
    ("*", "lone-surrogate", "as invalid-utf8: a JSON \\ud800 escape or its encoded form ED A0 80 is refused by "
     "every reference decoder (rule 2), so it cannot reach a writer through `verify`"),
]  # fmt: skip


def all_cases() -> list[WriterCase]:
    out: list[WriterCase] = []
    docs = [(cls, name, desc, doc, hash_of(doc)) for cls, name, desc, doc in _documents()]
    for fmt in FORMATS:
        for kind in ("array", "map"):
            for n in DEPTHS:
                expect = ACCEPT if n <= MUST_WRITE_DEPTH else IMPL
                what = "arrays" if kind == "array" else 'maps {"a": ...}'
                out.append(
                    WriterCase(f"deep-{kind}-{n}", fmt, "write/deep-nesting", f'{{"a": X}}, X {n:,} nested {what}',
                               expect, deep_bytes(fmt, kind, n), (deep_hash(kind, n),))
                )  # fmt: skip
        for cls, name, desc, doc, h in docs:
            if not _can_carry(fmt, doc):
                continue  # NOT_RUN says why
            out.append(WriterCase(name, fmt, cls, desc, ACCEPT, F.FORMATS[fmt].encode(doc), (h,)))
    return out


def not_run_reason(fmt: str, source: str, name: str) -> str | None:
    """Why case `name` (a file of format `source`) is not run on a write row of format `fmt`, or None."""
    if fmt == "json-pretty" and name.startswith("deep-") and int(name.rsplit("-", 1)[1]) > PRETTY_MAX_DEPTH:
        return PRETTY_REASON
    return None


def write_cases(corpus_dir: Path) -> dict:
    """Write `<corpus_dir>/robustness-write/` (only the files whose bytes changed) and return its
    manifest; files of cases that no longer exist are removed, the manifest is written last."""
    dest = corpus_dir / FOLDER
    cases = all_cases()
    manifest = {
        "version": MANIFEST_VERSION,
        "hash_version": objhash.HASH_VERSION,
        "cases": [c.entry() for c in cases],
        "not_run": [{"format": f, "case": c, "reason": r} for f, c, r in NOT_RUN],
    }
    return write_case_files(corpus_dir, dest, cases, manifest)


def row_cases(manifest: dict, fmt: str, reads: dict | None = None) -> list[dict]:
    """The cases a write row of format `fmt` runs: the entries of the file format it reads (its own,
    READS's, or the row's `reads` from `list`), each relabelled with the row's format, without those
    NOT_RUN leaves out for it."""
    source = (reads or {}).get(fmt) or READS.get(fmt, fmt)
    return [
        c | {"format": fmt, "source_format": source}
        for c in manifest["cases"]
        if c["format"] == source and not not_run_reason(fmt, source, c["name"])
    ]
