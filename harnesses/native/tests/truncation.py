#!/usr/bin/env python3
"""ctest: every row of the native harness on every truncation of a small document of each format.

usage: truncation.py <serbench-native> <repo root>

Each proper prefix of the document (every byte offset) goes to every row that supports the format,
through `verify`, which must end within a time limit with:
  - 6 for the baselines and write rows: the reference decoder rejects the input;
  - 3 for tree and incremental rows: the library rejects it;
  - or 0 when only trailing whitespace was cut (json-pretty's "\\n"); a baseline must then give
    the document's hash.
No signal and no hang: a loop over the input that misses the end of the input (libmpack-incremental
on a truncated string body looped forever) fails here.
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

TIME_LIMIT_S = 10


def documents(repo: Path, oh) -> dict[str, list[tuple[str, bytes, str]]]:
    """format -> [(name, bytes, hash)]: the all-types vector, and for the formats with binary a
    small document with a binary value (its body is what a truncation cuts)."""
    vectors = json.loads((repo / "vectors" / "vectors.json").read_text())["vectors"]
    v = next(x for x in vectors if x["name"] == "all-types")
    docs = {f: [("all-types", (repo / "vectors" / p).read_bytes(), v["hash"])] for f, p in v["files"].items()}
    with_bin = oh.hex64(oh.hash_value({"b": b"\x00\x01\x02\x03\x04", "s": "xyz"}))
    bson_body = (
        b"\x05b\x00"
        + struct.pack("<i", 5)
        + b"\x00\x00\x01\x02\x03\x04"
        + b"\x02s\x00"
        + struct.pack("<i", 4)
        + b"xyz\x00"
    )
    docs["msgpack"].append(("binary", b"\x82\xa1b\xc4\x05\x00\x01\x02\x03\x04\xa1s\xa3xyz", with_bin))
    docs["cbor"].append(("binary", b"\xa2\x61b\x45\x00\x01\x02\x03\x04\x61s\x63xyz", with_bin))
    docs["bson"].append(("binary", struct.pack("<i", len(bson_body) + 5) + bson_body + b"\x00", with_bin))
    return docs


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    oh = load_objhash(repo)
    docs = documents(repo, oh)
    listing = json.loads(subprocess.run([drv, "list"], capture_output=True, text=True, check=True).stdout)
    failures, jobs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, items in docs.items():
            for name, data, want in items:
                for cut in range(len(data)):
                    p = Path(tmp) / f"{name}-{cut}.{fmt}"
                    p.write_bytes(data[:cut])
                    whole = data[:cut].rstrip(b" \t\r\n") == data.rstrip(b" \t\r\n")
                    for b in listing["benchmarks"]:
                        if fmt not in b["formats"]:
                            continue
                        # Typed tests read typed datasets only (their truncations are in typed.py).
                        for test in (t for t in b["tests"] if not t.startswith("typed-")):
                            jobs.append((b["id"], test, fmt, name, cut, len(data), p, want, whole))

        def one(job):
            return job, verify(drv, job[0], job[1], job[2], job[6], TIME_LIMIT_S)

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for (bench, test, fmt, name, cut, n, _p, want, whole), (rc, out) in pool.map(one, jobs):
                where = f"{bench} {test} {fmt}: {name} cut to {cut} of {n} bytes"
                ref_first = bench in BASELINES or test == "write"  # the reference decoder reads the input
                if rc == 0 and whole:
                    # The whole document: a valid input. A library's hash of it is the selftest's
                    # business (some have known deviations on all-types); a baseline's is exact.
                    if bench in BASELINES and json.loads(out).get("hash") != want:
                        failures.append(f"{where}: hash {out}, expected {want}")
                elif rc != (6 if ref_first else 3):
                    failures.append(f"{where}: exit {rc}, expected {6 if ref_first else 3}: {out}")
    by_row: dict[str, list[str]] = {}
    for f in failures:
        by_row.setdefault(f.split(":")[0], []).append(f)
    for row, fs in by_row.items():  # the first few of each row, then how many more
        for f in fs[:3]:
            print("FAIL:", f)
        if len(fs) > 3:
            print(f"FAIL: {row}: {len(fs) - 3} more")
    print(f"{len(jobs)} truncated inputs: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
