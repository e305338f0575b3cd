#!/usr/bin/env python3
"""ctest: the typed rows and typed baselines of the native harness (spec/typed.md).

usage: typed.py <serbench-native> <repo root>

Makes the typed datasets product, trade and nested with the orchestrator's generator (the corpus's
seed, so the files are the corpus's) and reads the typed rows of this build (typed.tsv, beside the
driver). Asserts, against the expected hashes of the Python reference (orchestrator/src/serbench/objhash.py):
  - every typed row's check (`verify`) gives the dataset's hash, for each of its tests and formats, on
    product, trade and nested;
  - the typed baselines give it too, for every typed format of the build (trade);
  - `run` of every row: a check row and samples; --output-file receives exactly output_bytes bytes;
    --alloc writes an alloc row; --latency on trade writes a latency row with ordered percentiles;
  - a wrong expected hash is a failed check row and exit 4;
  - inputs that are not typed datasets (truncated, deep, out of range, not a float32, unknown schema
    or field, children deeper than the harness's limit) are exit 6, never a crash or a hang.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import importlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from protocol import limits

DATASETS = ("product", "trade", "nested")
TIMEOUT_S = 300


def call(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S, preexec_fn=limits)


def rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    build = Path(drv).resolve().parent
    # The typed datasets, made here with the orchestrator's generator and hashed with its reference hash
    # (both stdlib only), exactly as `./serbench corpus` makes them: the test needs no corpus.
    sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
    # stdlib only: the reference hash (spec/hash.md) and the generators (spec/generator.md, typed.md);
    # imported by name, as ruff would sort a `from corpus import` differently with or without a corpus
    # folder at the repo root
    objhash = importlib.import_module("objhash")
    generator = importlib.import_module("corpus.generator")
    typed = importlib.import_module("corpus.typed")

    records = typed.generate_typed(generator.DEFAULT_SEED)
    data_dir = Path(tempfile.mkdtemp(prefix="serbench-typed-"))
    atexit.register(shutil.rmtree, data_dir, True)
    ds: dict[str, dict] = {}
    for name in DATASETS:
        doc = typed.typed_document(name, records[name])
        path = data_dir / f"typed-{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        ds[name] = {"hash": objhash.hex64(objhash.hash_value(doc)), "path": path}

    def file_of(name: str) -> Path:
        return ds[name]["path"]

    rows = []
    for line in (build / "typed.tsv").read_text().splitlines():
        if line.strip():
            rid = line.split("\t")[0]
            d = json.loads(call([str(build / f"bench-{rid}"), "describe"]).stdout)
            rows.append(d)
    failures: list[str] = []
    if not rows:
        failures.append("typed.tsv lists no typed row")

    # 1. every row's check on every dataset, test and format
    jobs = [(r["id"], t, f, n) for r in rows for t in r["tests"] for f in r["formats"] for n in DATASETS]
    # 2. the baselines, for every typed format (on trade: they ask every row for its bytes)
    formats = sorted({f for r in rows for f in r["formats"]})
    jobs += [
        (b, t, f, "trade")
        for b, t in (("hash-typed", "typed-decode"), ("hash-data-typed", "typed-encode"))
        for f in formats
    ]

    def verify(job):
        bench, test, fmt, name = job
        r = call([drv, "verify", "--bench", bench, "--test", test, "--format", fmt, "--file", str(file_of(name))])
        return job, r

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for (bench, test, fmt, name), r in pool.map(verify, jobs):
            where = f"verify {bench} {test} {fmt} on {name}"
            out = r.stdout.strip()
            if r.returncode != 0:
                failures.append(f"{where}: exit {r.returncode}: {(out or r.stderr.strip())[-300:]}")
            elif json.loads(out).get("hash") != ds[name]["hash"]:
                failures.append(f"{where}: {out}, expected {ds[name]['hash']}")

    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        trade = ds["trade"]

        def run(bench, test, fmt, *extra, expect=None):
            res = tmpd / f"{bench}-{test}-{fmt}-{len(extra)}.jsonl"
            res.unlink(missing_ok=True)
            argv = [drv, "run", "--bench", bench, "--test", test, "--format", fmt, "--file", str(file_of("trade"))]
            argv += ["--expect-hash", expect or trade["hash"], "--results", str(res), "--budget-ms", "5"]
            argv += ["--min-samples", "2", *extra]
            r = call(argv)
            return r, rows_of(res) if res.exists() else []

        # 3. run: check + samples, --output-file, --alloc, --latency, for every row
        for row in rows:
            for test in row["tests"]:
                fmt = row["formats"][0]
                where = f"run {row['id']} {test} {fmt} on trade"
                out_file = tmpd / "output.bin"
                out_file.unlink(missing_ok=True)
                extra = ["--output-file", str(out_file)] if test == "typed-encode" else []
                r, got = run(row["id"], test, fmt, *extra)
                kinds = [x["kind"] for x in got]
                if r.returncode != 0 or not got or got[0]["kind"] != "check" or not got[0]["ok"]:
                    failures.append(f"{where}: exit {r.returncode}, rows {kinds} {got[:1]} {r.stderr[-200:]}")
                    continue
                if kinds.count("sample") < 2:
                    failures.append(f"{where}: {kinds.count('sample')} sample rows")
                if test == "typed-encode":
                    n = got[0]["output_bytes"]
                    size = out_file.stat().st_size if out_file.exists() else None
                    if not isinstance(n, int) or n <= 0 or size != n:
                        failures.append(f"{where}: output_bytes {n}, --output-file holds {size} bytes")
                r, got = run(row["id"], test, fmt, "--alloc", "--no-check")
                alloc = [x for x in got if x["kind"] == "alloc"]
                # every typed-encode op allocates at least its fresh output (as the schemaless write
                # rows); a read row's count is the library's own (the input copy goes into the cell's
                # buffer, spec/fairness.md rule 1), which a zero-copy view may keep at 0
                least = 1 if test == "typed-encode" else 0
                if r.returncode != 0 or len(alloc) != 1 or alloc[0]["allocs_per_op"] < least:
                    failures.append(f"{where} --alloc: exit {r.returncode}, rows {got}")
                if test in ("typed-encode", "typed-decode"):
                    r, got = run(row["id"], test, fmt, "--latency", "--budget-ms", "1")
                    lat = [x for x in got if x["kind"] == "latency"]
                    if r.returncode != 0 or len(lat) != 1:
                        failures.append(f"{where} --latency: exit {r.returncode}, rows {got[-2:]}")
                    else:
                        x = lat[0]
                        order = [x["p50_ns"], x["p99_ns"], x["p999_ns"], x["p9999_ns"], x["max_ns"]]
                        held = sum(n for _, n in x.get("buckets", []))
                        if x["count"] < 100000 or order != sorted(order) or order[0] <= 0 or held != x["count"]:
                            failures.append(f"{where} --latency: {x}")

            # 4. a wrong expected hash: a failed check row, exit 4
            test = row["tests"][0]
            r, got = run(row["id"], test, row["formats"][0], expect="0000000000000000")
            if r.returncode != 4 or not got or got[0]["kind"] != "check" or got[0]["ok"] is not False:
                failures.append(f"run {row['id']} {test} with a wrong hash: exit {r.returncode}, rows {got[:1]}")
            elif got[0]["hash"] != trade["hash"] or "reason" not in got[0]:
                failures.append(f"run {row['id']} {test} with a wrong hash: check row {got[0]}")

        # the harness allocates nothing of its own in a timed read: the hash-typed baseline copies the
        # input as every read row does, then only hashes the prebuilt records
        r, got = run("hash-typed", "typed-decode", formats[0], "--alloc", "--no-check")
        alloc = [x for x in got if x["kind"] == "alloc"]
        if r.returncode != 0 or len(alloc) != 1 or alloc[0]["allocs_per_op"] != 0:
            failures.append(f"run hash-typed typed-decode {formats[0]} --alloc: exit {r.returncode}, rows {got}")
        # and its latency pass copies records of different lengths into that one buffer
        r, got = run("hash-typed", "typed-decode", formats[0], "--latency", "--budget-ms", "1")
        if r.returncode != 0 or not any(x["kind"] == "latency" for x in got):
            failures.append(f"run hash-typed typed-decode {formats[0]} --latency: exit {r.returncode}, {got[-2:]}")

        # 5. inputs that are not typed datasets: exit 6 from every row (the shared loader) and baseline
        doc = json.loads(file_of("nested").read_text())
        rec = doc["records"][0]

        def variant(**changes):
            r = dict(rec)
            r.update(changes)
            return json.dumps({"schema": "nested", "records": [r]}).encode()

        deep = {**rec, "children": []}
        for _ in range(100):  # past the loader's limit on children (kMaxDepth)
            deep = {**rec, "children": [deep]}
        extra_field = dict(rec)
        extra_field["extra"] = 1
        missing_field = {k: v for k, v in rec.items() if k != "note"}
        raw = file_of("trade").read_bytes()
        bad = {
            "truncated": raw[: len(raw) // 2],
            "empty": b"",
            "schemaless": b'{"a":[1,2,3],"b":"x"}',
            "deep-arrays": b'{"schema":"nested","records":' + b"[" * 100000 + b"]" * 100000 + b"}",
            "unknown-schema": b'{"schema":"bogus","records":[]}',
            "u8-out-of-range": variant(u8=256),
            "not-a-float32": variant(f32=0.1),
            "int-for-float": variant(f64=1),
            "extra-field": json.dumps({"schema": "nested", "records": [extra_field]}).encode(),
            "missing-field": json.dumps({"schema": "nested", "records": [missing_field]}).encode(),
            "bad-enum": json.dumps(
                {"schema": "trade", "records": [{**json.loads(raw)["records"][0], "side": "Hold"}]}
            ).encode(),
            "children-too-deep": json.dumps({"schema": "nested", "records": [deep]}).encode(),
        }
        benches = [(r["id"], r["tests"][0], r["formats"][0]) for r in rows]
        benches += [("hash-typed", "typed-decode", formats[0]), ("hash-data-typed", "typed-encode", formats[0])]
        for name, data in bad.items():
            p = tmpd / f"bad-{name}.json"
            p.write_bytes(data)
            for bench, test, fmt in benches:
                r = call([drv, "verify", "--bench", bench, "--test", test, "--format", fmt, "--file", str(p)])
                if r.returncode != 6:
                    failures.append(
                        f"verify {bench} {test} on a {name} file: exit {r.returncode}, expected 6: "
                        f"{(r.stdout.strip() or r.stderr.strip())[-200:]}"
                    )

    for f in failures:
        print("FAIL:", f)
    print(f"{len(rows)} typed rows, {len(jobs)} checks: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
