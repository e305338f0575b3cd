#!/usr/bin/env python3
"""ctest: every row of the native harness on documents nested 100,000 deep, in every format.

usage: hostile_deep.py <serbench-native> <repo root>

spec/protocol.md: the harness's own code (reference decoder, hash walks, walks over library trees,
builders of library input) never crashes on any input. So:
  - the baselines (hash-object, hash-data, empty) read the document and print its exact hash;
  - every other row exits 0 with the exact hash, 3 (the library refused it, or threw: never 2),
    or 6, or dies by a signal only where that signal was shown, with gdb, to be inside the library
    (LIBRARY_CRASHES below: the library recurses once per level and overflows the stack).
Documents are generated here (arrays of arrays, and maps of maps), not committed.
"""

from __future__ import annotations

import concurrent.futures
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from protocol import BASELINES, load_objhash, verify

DEPTH = 100_000

# (benchmark, test) -> why a signal there is the library's own. Each was reproduced under gdb on an
# unstripped -O3 build (docs/libraries.md, "Library crashes on hostile input"): every frame between
# the signal and the adapter's call is in the library. "May": a larger stack can let one pass.
LIBRARY_CRASHES = {
    ("rapidjson-dom", "tree"): "RapidJSON's GenericReader::ParseValue/ParseArray recurse per level",
    ("rapidjson-dom-insitu", "tree"): "RapidJSON's GenericReader::ParseValue/ParseArray recurse per level",
    ("rapidjson-sax", "incremental"): "RapidJSON's GenericReader::ParseValue/ParseArray recurse per level",
    ("rapidjson-sax-insitu", "incremental"): "RapidJSON's GenericReader::ParseValue/ParseArray recurse per level",
    ("rapidjson-writer", "write"): "RapidJSON's GenericValue::Accept recurses per level (may: it passed 100,000 "
    "levels while the build kept assertions; with -DNDEBUG its frame overflows 8 MiB near 75,000 levels)",
    ("jansson-dump", "write"): "Jansson's do_dump (libjansson.a) recurses per level",
    ("jansson-dump-prebuilt", "write"): "Jansson's do_dump (libjansson.a) recurses per level",
    ("nlohmann-json", "write"): "nlohmann's serializer::dump recurses per level",
    ("nlohmann-binary", "write"): "nlohmann's binary_writer::write_* recurse per level",
    ("nlohmann-binary", "tree"): "nlohmann's binary_reader::parse_*_internal recurse per level",
    ("nlohmann-binary", "incremental"): "nlohmann's binary_reader::parse_*_internal recurse per level",
    ("jsoncpp-write", "write"): "JsonCpp's BuiltStyledStreamWriter::writeValue (libjsoncpp.so) recurses per level",
    ("cjson-print", "write"): "cJSON's print_value (libcjson.so) recurses per level",
    ("json-c-write", "write"): "json-c's json_object_object_to_json_string (libjson-c.a) recurses per level",
    ("boost-json-serialize", "write"): "Boost.JSON's serializer::write_value/write_array recurse per level",
}


def expected_hash(oh, kind: str) -> str:
    """Hash of {"a": X}, X = DEPTH nested containers (innermost empty), computed without recursion
    from the reference primitives (spec/hash.md version 2)."""
    key = oh.hash_str("a")

    def one_entry_map(h: int) -> int:
        return oh.map_end(oh.map_entry(key, h), 1)

    if kind == "array":
        h = oh.array_end(0, 0)
        for _ in range(DEPTH - 1):
            h = oh.array_end(oh.array_add(0, 0, h), 1)
    else:
        h = oh.map_end(0, 0)
        for _ in range(DEPTH - 1):
            h = one_entry_map(h)
    return oh.hex64(one_entry_map(h))


def encode(fmt: str, kind: str) -> bytes:
    """{"a": X} in fmt: DEPTH - 1 one-element containers around an empty one."""
    n = DEPTH - 1
    arr = kind == "array"
    if fmt == "json":
        return b'{"a":' + (b"[" * n + b"[]" + b"]" * n if arr else b'{"a":' * n + b"{}" + b"}" * n) + b"}"
    if fmt == "msgpack":
        return b"\x81\xa1a" + ((b"\x91" * n + b"\x90") if arr else (b"\x81\xa1a" * n + b"\x80"))
    if fmt == "cbor":
        return b"\xa1\x61a" + ((b"\x81" * n + b"\x80") if arr else (b"\xa1\x61a" * n + b"\xa0"))
    if fmt == "ubjson":
        return b"{#i\x01i\x01a" + ((b"[#i\x01" * n + b"[#i\x00") if arr else (b"{#i\x01i\x01a" * n + b"{#i\x00"))
    if fmt == "ubjson-plain":
        return b"{i\x01a" + ((b"[" * n + b"[]" + b"]" * n) if arr else (b"{i\x01a" * n + b"{}" + b"}" * n)) + b"}"
    if fmt == "bson":
        # Each level is a document holding one element (type, key "0" or "a", the child document),
        # so its length is the child's plus 8; the bytes are prefixes, the innermost, terminators.
        key = b"0\x00" if arr else b"a\x00"
        child_type = b"\x04" if arr else b"\x03"
        lengths = [5]
        for _ in range(n):
            lengths.append(lengths[-1] + 8)
        prefixes = [struct.pack("<i", lengths[i]) + child_type + key for i in range(n, 0, -1)]
        inner = b"".join(prefixes) + struct.pack("<i", 5) + b"\x00" + b"\x00" * n
        return struct.pack("<i", len(inner) + 8) + child_type + b"a\x00" + inner + b"\x00"
    raise ValueError(fmt)


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    oh = load_objhash(repo)
    listing = json.loads(subprocess.run([drv, "list"], capture_output=True, text=True, check=True).stdout)
    failures, crashes, jobs = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for kind in ("array", "map"):
            want = expected_hash(oh, kind)
            for fmt in ("json", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain"):
                p = Path(tmp) / f"deep-{kind}.{fmt}"
                p.write_bytes(encode(fmt, kind))
                files[(kind, fmt)] = (p, want)
            files[(kind, "json-pretty")] = files[(kind, "json")]  # compact JSON is valid json-pretty input
        for b in listing["benchmarks"]:
            # Typed tests read typed datasets only (their hostile inputs are in typed.py).
            for test in (t for t in b["tests"] if not t.startswith("typed-")):
                for fmt in b["formats"]:
                    # Pretty-printing 100,000 levels writes ~10^10 bytes of indentation: not a test of
                    # robustness but of patience (the output is quadratic in the depth).
                    if test == "write" and fmt == "json-pretty":
                        continue
                    for kind in ("array", "map"):
                        jobs.append((b["id"], test, fmt, kind))
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = pool.map(lambda j: (j, verify(drv, j[0], j[1], j[2], files[(j[3], j[2])][0], 120)), jobs)
            for (bench, test, fmt, kind), (rc, out) in results:
                want = files[(kind, fmt)][1]
                where = f"{bench} {test} {fmt} ({kind}s nested {DEPTH} deep)"
                if isinstance(rc, int) and rc < 0 and (bench, test) in LIBRARY_CRASHES:
                    crashes.append(f"{where}: signal {-rc}, inside the library: {LIBRARY_CRASHES[(bench, test)]}")
                    continue
                if rc == 0:
                    got = json.loads(out).get("hash")
                    if got != want:
                        failures.append(f"{where}: hash {got}, expected {want}")
                elif bench in BASELINES:
                    failures.append(f"{where}: a baseline must read any valid document; exit {rc}: {out}")
                elif rc not in (3, 6):
                    failures.append(f"{where}: exit {rc} (allowed: 0, 3, 6, or a listed library crash): {out}")
                elif bench == "jsoncpp-parse" and rc != 3:
                    failures.append(f"{where}: JsonCpp's exception must be exit 3, got {rc}: {out}")
    for c in crashes:
        print("library crash (allowed):", c)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(jobs)} runs: {len(failures)} failed, {len(crashes)} library crashes")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
