"""The typed rows with generated code (typed/codegen.cmake: protobuf, FlatBuffers, Cap'n Proto, Thrift,
Avro C) on product, trade and nested: every cell's check must read the row's own bytes back to the
expected hash, which this test computes itself from the generated records with the reference hash
(orchestrator/src/serbench/objhash.py). Also: the one-record codecs on trade (--latency checks that
every record round-trips alone), and --output-file writes exactly the bytes the check reports.

usage: typed_codegen.py <serbench-native> <repo>
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# (benchmark, wire formats, tests): what typed/codegen.cmake registers.
ROWS = [
    ("protobuf", ["protobuf"], ["typed-encode", "typed-decode"]),
    ("protobuf-convert", ["protobuf"], ["typed-encode", "typed-decode"]),
    ("flatbuffers", ["flatbuffers"], ["typed-encode", "typed-access"]),
    ("flatbuffers-unchecked", ["flatbuffers"], ["typed-access"]),
    ("capnp", ["capnp"], ["typed-encode", "typed-access"]),
    ("thrift", ["thrift-compact", "thrift-binary"], ["typed-encode", "typed-decode"]),
    ("avro-c", ["avro"], ["typed-encode", "typed-decode"]),
]
# Enough records of each schema to meet every field shape (nested: all 100, with their children),
# few enough that the whole test takes seconds.
COUNTS = {"product": 500, "trade": 500, "nested": 100}
SEED = 20261125


def load_reference(repo: Path):
    sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
    # stdlib only: the reference hash (spec/hash.md) and the typed generator (spec/typed.md), imported by
    # name, as ruff would sort a `from corpus import` differently with or without a corpus folder at the root
    return importlib.import_module("objhash"), importlib.import_module("corpus.typed")


def run(drv: str, bench: str, test: str, fmt: str, path: Path, expect: str, tmp: Path, *extra: str) -> list[dict]:
    results = tmp / "results.jsonl"
    results.unlink(missing_ok=True)
    opts = {"--bench": bench, "--test": test, "--format": fmt, "--file": str(path), "--expect-hash": expect}
    opts |= {"--results": str(results), "--budget-ms": "1", "--min-samples": "1"}
    cmd = [drv, "run", *(x for kv in opts.items() for x in kv), *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    rows = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-300:]} {rows[-1:]}")
    return rows


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    objhash, typed = load_reference(repo)
    records = typed.generate_typed(SEED)
    failures: list[str] = []
    cells = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        files: dict[str, tuple[Path, str]] = {}
        for dataset, n in COUNTS.items():
            doc = typed.typed_document(dataset, records[dataset][:n])
            path = tmp / f"{dataset}.json"
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            files[dataset] = (path, objhash.hex64(objhash.hash_value(doc)))
        for bench, formats, tests in ROWS:
            for fmt in formats:
                for test in tests:
                    for dataset, (path, expect) in files.items():
                        cells += 1
                        where = f"{bench} {test} {fmt} {dataset}"
                        try:
                            out = tmp / "out.bin"
                            extra = ["--output-file", str(out)] if test == "typed-encode" else []
                            rows = run(drv, bench, test, fmt, path, expect, tmp, *extra)
                            check = next(r for r in rows if r.get("kind") == "check")
                            if not check["ok"] or check["hash"] != expect:
                                failures.append(f"{where}: check {check}, expected {expect}")
                            if test == "typed-encode" and out.stat().st_size != check["output_bytes"]:
                                failures.append(
                                    f"{where}: --output-file has {out.stat().st_size} bytes, "
                                    f"the check reports {check['output_bytes']}"
                                )
                            if dataset == "trade" and test != "typed-access":
                                rows = run(drv, bench, test, fmt, path, expect, tmp, "--latency")
                                lat = [r for r in rows if r.get("kind") == "latency"]
                                if len(lat) != 1 or lat[0]["count"] < COUNTS["trade"]:
                                    failures.append(f"{where} --latency: {lat}")
                        except (AssertionError, StopIteration, OSError, subprocess.TimeoutExpired) as e:
                            failures.append(f"{where}: {e}")
    for f in failures:
        print("FAIL", f)
    print(f"{cells - len(failures)} of {cells} typed codegen cells passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
