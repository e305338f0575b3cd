"""The reference decoders' conformance set (spec/data-model.md, "What a reference decoder accepts";
DESIGN §12): byte strings in every corpus format, each with the one answer every harness's reference
decoder must give, accept with a hash or reject. The reference decoders judge every row's correctness
(a write row's output is read back by them, a user's file is imported by them), so two of them that
disagree make two harnesses judge one library differently.

The cases are the built-in robustness cases (robustness/cases.py: each format's specification, and
mutations of a corpus document), where the specification leaves a choice to the decoder resolved by
the data model's rules (`answer`), plus the cases below that pin each rule of the data model in every
format. `serbench vectors` writes them to vectors/conformance/ with manifest.json; a test checks the
committed files are exactly what this module produces, and every harness's `selftest` runs them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import struct
from pathlib import Path

from .. import objhash
from ..robustness import cases as R
from ..robustness.grammar_cases import extra_cases

VERSION = 1
#: robustness case classes left out: an array of 1,000,000 empty arrays is 1 to 3 MB a format and
#: tests nothing of a reference decoder that the deep-nesting cases do not
LEFT_OUT = ("mutation/many-items",)
#: nesting depths 10^1..10^6 (DESIGN §12). One level of a nested array is 1 byte in MessagePack and
#: CBOR, 2 in JSON and UBJSON, 8 in BSON; one level of a nested map `{"a": ...}` is 3 to 9 bytes. The
#: levels that would make a file above about 5 MB are left out (BSON arrays at 10^6, maps at 10^6).
ARRAY_DEPTHS = tuple(10**k for k in range(1, 7))
MAP_DEPTHS = tuple(10**k for k in range(1, 6))
MAX_CASE_BYTES = 5_000_000

# Implementation-defined robustness cases that the reference decoders accept, with the hash they give
# (the case's first, or the one whose index follows the reason): everything else the specification
# leaves open is outside the data model or its grammar as the references apply it, and they reject it
# (spec/data-model.md).
ACCEPTED = {
    # "-0" has no fraction or exponent: an integer, and integer -0 is 0
    ("json", "number-negative-zero-int"): "int 0: a JSON number without fraction or exponent is an integer",
    # a correctly rounded decimal-to-binary conversion gives +0.0 (the nearest double)
    ("json", "number-underflow"): "0.0, the nearest double",
    ("ubjson", "valid-nested-typed"): "valid UBJSON",
    ("ubjson", "noop-between-pairs"): "a no-op is skipped wherever a value or key may start",
    ("ubjson", "noop-in-sized-array"): "a no-op is skipped and does not count as a child",
    # the data model has no UBJSON binary (spec/generator.md writes binary only in MessagePack, CBOR and
    # BSON): a typed array of uint8 is what it says, an array of integers (the case's second hash)
    ("ubjson", "uint8-typed-array"): ("an array of integers, not binary", 1),
    ("ubjson", "high-precision-integer"): "an integer that fits the data model",
    ("ubjson", "high-precision-negative"): "an integer that fits the data model",
    ("ubjson", "high-precision-pi"): "the nearest double",
    ("ubjson", "high-precision-exponent"): "the nearest double",
}


def _hex(h: int) -> str:
    return objhash.hex64(h)


def _deep_map_hash(depth: int) -> str:
    """{"a": {"a": ... {} }} with `depth` maps below the root, hashed without recursion."""
    ka = objhash.hash_str("a")
    h = objhash.map_end(0, 0)
    for _ in range(depth - 1):
        h = objhash.map_end(objhash.map_entry(ka, h), 1)
    return _hex(objhash.map_end(objhash.map_entry(ka, h), 1))


def _deep_map(fmt: str, n: int) -> bytes | None:
    """{"a": n nested maps, each {"a": ...}, the innermost empty}, written without recursion."""
    if fmt == "json":
        return b'{"a":' + b'{"a":' * (n - 1) + b"{}" + b"}" * n
    if fmt == "msgpack":
        return b"\x81\xa1a" + b"\x81\xa1a" * (n - 1) + b"\x80"
    if fmt == "cbor":
        return b"\xa1aa" + b"\xa1aa" * (n - 1) + b"\xa0"
    if fmt == "ubjson":
        return b"{i\x01a" + b"{i\x01a" * (n - 1) + b"{}" + b"}" * n
    if fmt == "bson":
        # level k is {"a": level k-1}: 4 + 1 + 2 + len(level k-1) + 1 bytes, the innermost 5
        lengths = [5]
        for _ in range(n):
            lengths.append(lengths[-1] + 8)
        heads = b"".join(struct.pack("<i", ln) + b"\x03a\x00" for ln in reversed(lengths[1:]))
        return heads + b"\x05\x00\x00\x00\x00" + b"\x00" * n
    return None


def _deep_array(fmt: str, n: int) -> bytes | None:
    """{"a": n nested arrays}: the robustness cases' construction (None beyond 10^5 in BSON, 8 bytes a
    level), except UBJSON's unsized form, 2 bytes a level, which reaches 10^6."""
    if fmt == "ubjson":  # unsized: "[" and "]" a level
        return b"{i\x01a" + b"[" * n + b"]" * n + b"}"
    return R._deep(fmt, n)


def _bson_doc(*elements: bytes) -> bytes:
    return R._bdoc(b"".join(elements))


def _rule_cases() -> list[R.Case]:
    """One case per rule of the data model and per format, where the robustness cases lack it."""
    out: list[R.Case] = []

    def add(fmt: str, rule: str, name: str, desc: str, data: bytes, accept_doc=None, hash_hex: str | None = None):
        if accept_doc is not None or hash_hex is not None:
            h = hash_hex or R.hash_of(accept_doc)
            out.append(R.Case(name, fmt, rule, desc, R.ACCEPT, data, (h,)))
        else:
            out.append(R.Case(name, fmt, rule, desc, R.REJECT, data))

    root = "rule/root-map"
    for fmt, name, data in [
        ("msgpack", "root-array", b"\x93\x01\x02\x03"),
        ("msgpack", "root-scalar", b"\x01"),
        ("msgpack", "root-string", b"\xa1a"),
        ("cbor", "root-array", b"\x83\x01\x02\x03"),
        ("cbor", "root-scalar", b"\x01"),
        ("cbor", "root-string", b"\x61a"),
        ("json", "root-string", b'"a"'),
        ("json", "root-array-of-maps", b'[{"a":1}]'),
        ("json", "root-null", b"null"),
        ("ubjson", "root-string", b"SU\x01a"),
    ]:
        add(fmt, root, name, "the root is not a map (spec/data-model.md: the root of every document is a map)", data)

    nul = "rule/no-nul"
    why = "a NUL inside a string (spec/data-model.md: strings are UTF-8 with no NUL)"
    add("json", nul, "nul-in-key", "a key with the escape \\u0000: " + why, b'{"a\\u0000b":1}')
    add("msgpack", nul, "nul-in-string", why, b"\x81\xa1a\xa3a\x00b")
    add("msgpack", nul, "nul-in-key", "a key with a NUL: " + why, b"\x81\xa3a\x00b\x01")
    add("cbor", nul, "nul-in-string", why, b"\xa1aa\x63a\x00b")
    add("cbor", nul, "nul-in-key", "a key with a NUL: " + why, b"\xa1\x63a\x00b\x01")
    add("bson", nul, "nul-in-string", why + "; the length counts it", _bson_doc(b"\x02s\x00" + R._bstr(b"a\x00b")))
    add("ubjson", nul, "nul-in-string", why, b"{i\x01aSi\x03a\x00b}")
    add("ubjson", nul, "nul-in-key", "a key with a NUL: " + why, b"{i\x03a\x00bi\x01}")

    bin_ = "rule/bson-binary"
    old = b"\x05b\x00"
    add("bson", bin_, "binary-old-inner-length-long",
        "binary subtype 0x02 whose inner length says 10 for 4 bytes (bsonspec.org: the old binary's int32 "
        "inner length is the binary's length minus 4)",
        _bson_doc(old + struct.pack("<i", 8) + b"\x02" + struct.pack("<i", 10) + b"abcd"))  # fmt: skip
    add("bson", bin_, "binary-old-inner-length-short", "binary subtype 0x02 whose inner length says 1 for 4 bytes",
        _bson_doc(old + struct.pack("<i", 8) + b"\x02" + struct.pack("<i", 1) + b"abcd"))  # fmt: skip
    add("bson", bin_, "binary-old-too-short", "binary subtype 0x02 of 3 bytes, too short for its inner length",
        _bson_doc(old + struct.pack("<i", 3) + b"\x02abc"))  # fmt: skip
    add("bson", bin_, "binary-old-valid", "binary subtype 0x02 with a right inner length: the 4 bytes inside",
        _bson_doc(old + struct.pack("<i", 8) + b"\x02" + struct.pack("<i", 4) + b"abcd"), {"b": b"abcd"})  # fmt: skip
    add("bson", bin_, "binary-user-defined", "binary subtype 0x80 (user defined): its bytes",
        _bson_doc(old + struct.pack("<i", 2) + b"\x80xy"), {"b": b"xy"})  # fmt: skip
    add("bson", bin_, "binary-uuid", "binary subtype 0x04 (UUID, 16 bytes): its bytes",
        _bson_doc(old + struct.pack("<i", 16) + b"\x04" + bytes(range(16))), {"b": bytes(range(16))})  # fmt: skip

    ws = "rule/json-whitespace"  # (the other kinds of white space are robustness cases: spec/whitespace)
    add("json", ws, "all-whitespace-kinds", "space, tab, LF and CR around every token", b' \t\r\n{ \t\r\n"a" \t\r\n:'
        b' \t\r\n[ 1 , 2 ] \t\r\n} \t\r\n', {"a": [1, 2]})  # fmt: skip

    depth = "rule/depth"
    for fmt in R.FORMATS:
        for n in ARRAY_DEPTHS:
            data = None if n in R.DEPTHS and R._deep(fmt, n) is not None else _deep_array(fmt, n)
            if data is not None:  # (the robustness cases' deep-N are the same arrays)
                add(fmt, depth, f"nested-arrays-{n}", f'{{"a": {n} nested arrays}}: no depth limit in a reference '
                    "decoder", data, hash_hex=R._nested_hash(n))  # fmt: skip
        for n in MAP_DEPTHS:
            data = _deep_map(fmt, n)
            if data is not None and len(data) <= MAX_CASE_BYTES:
                add(fmt, depth, f"nested-maps-{n}", f'{{"a": {n} nested maps {{"a": ...}}}}: no depth limit',
                    data, hash_hex=_deep_map_hash(n))  # fmt: skip
    return out


def answer(case: R.Case) -> tuple[str, str | None, str]:
    """(expect, hash, why) of the reference decoders on a case: accept with the hash, or reject."""
    if case.expect == R.ACCEPT:
        return R.ACCEPT, case.hashes[0], ""
    if case.expect == R.REJECT:
        return R.REJECT, None, ""
    if case.cls == "mutation/deep-nesting":
        return R.ACCEPT, case.hashes[0], "no depth limit in a reference decoder"
    why = ACCEPTED.get((case.format, case.name))
    if why is not None:
        why, i = why if isinstance(why, tuple) else (why, 0)
        return R.ACCEPT, case.hashes[i], why
    return R.REJECT, None, "outside the data model or its format's grammar as the references apply it"


@functools.cache
def cases() -> tuple[R.Case, ...]:
    """Every case of the set: the robustness cases (less LEFT_OUT), the rule cases, then the robustness
    cases' second round (grammar_cases.py) but for a case whose bytes one above already has in its format
    (the second round's nested maps are the rule cases' in JSON, MessagePack and CBOR) or whose file would
    be over MAX_CASE_BYTES."""
    first = [c for c in R.all_cases() if c.cls not in LEFT_OUT]
    names = {(c.format, c.name) for c in first}
    rules = _rule_cases()
    for c in rules:
        if (c.format, c.name) in names:
            raise ValueError(f"conformance case {c.format}/{c.name} is also a robustness case")
    out = first + rules
    seen = {(c.format, c.data) for c in out}
    for c in extra_cases():
        if c.cls not in LEFT_OUT and len(c.data) <= MAX_CASE_BYTES and (c.format, c.data) not in seen:
            seen.add((c.format, c.data))
            out.append(c)
    return tuple(out)


def write_conformance(dest: Path) -> int:
    """Write dest/<format>/<name>.<ext> and dest/manifest.json (only files whose bytes changed; files of
    cases that no longer exist are removed). Returns the number of cases."""
    entries = []
    wanted: set[Path] = set()
    for c in cases():
        expect, h, why = answer(c)
        path = dest / c.file
        wanted.add(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if not (path.exists() and path.read_bytes() == c.data):
            path.write_bytes(c.data)
        e = {"name": c.name, "format": c.format, "file": c.file, "expect": expect, "rule": c.cls}
        if h is not None:
            e["hash"] = h
        e["why"] = c.description + (f"; the references: {why}" if why else "")
        e["sha256"] = hashlib.sha256(c.data).hexdigest()
        entries.append(e)
    if dest.exists():
        for sub in dest.iterdir():
            if sub.is_dir():
                for p in sub.iterdir():
                    if p not in wanted:
                        p.unlink() if p.is_file() else shutil.rmtree(p)
    doc = {
        "version": VERSION,
        "hash_version": objhash.HASH_VERSION,
        "note": "What every reference decoder must answer (spec/data-model.md). Generated by `serbench vectors`.",
        "cases": entries,
    }
    (dest / "manifest.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return len(entries)
