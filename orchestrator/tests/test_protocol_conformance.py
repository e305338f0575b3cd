"""Every registered harness speaks spec/protocol.md: list, run (results rows valid against
spec/result.schema.json), verify, selftest, and the exit codes. Harnesses whose toolchain is missing
are skipped with that reason."""

from __future__ import annotations

import json
import subprocess
import time

import jsonschema
import pytest
from serbench import contracts, latency, objhash
from serbench.corpus.formats import encode_json
from serbench.corpus.typed import generate_typed, typed_document
from serbench.harnesses import BuildOptions, harness_classes
from serbench.rows import fault as row_fault

from .conftest import ROOT, VECTORS

SCHEMA = json.loads((ROOT / "spec" / "result.schema.json").read_text())


@pytest.fixture(scope="module", params=sorted(harness_classes()))
def harness(request):
    h = harness_classes()[request.param](ROOT, BuildOptions())
    missing = h.missing_toolchain()
    if missing:
        pytest.skip(missing[0])
    h.build()
    return h


@pytest.fixture(scope="module")
def listing(harness):
    res = subprocess.run(harness.command() + ["list"], capture_output=True, text=True, env=harness.env())
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _vector(name: str) -> dict:
    return next(v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"] if v["name"] == name)


def _call(harness, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        harness.command() + list(args), capture_output=True, text=True, env=harness.env(), timeout=300
    )


def _first_cell(listing, test: str = "tree"):
    for b in listing["benchmarks"]:
        if not b.get("baseline") and test in b["tests"]:
            fmt = b["formats"][0]
            return b, fmt
    pytest.skip(f"no benchmark with a {test} test")


def test_list_describes_every_benchmark(listing):
    assert listing["protocol"] == 1 and listing["benchmarks"]
    ids = [b["id"] for b in listing["benchmarks"]]
    assert len(ids) == len(set(ids))
    for b in listing["benchmarks"]:
        assert {"id", "library", "version", "formats", "tests", "baseline_for"} <= b.keys(), b
        for _test, base in b["baseline_for"].items():
            assert base in ids, f"{b['id']}: baseline {base} not listed"


def test_list_declares_the_steps_of_every_row_in_every_test(listing):
    """spec/fairness.md rule 12: every row says what its loop does, in the contract's words; a row
    that does other work names its deviation (prebuilt, convert, decode-lazy, ...) or does another
    test's contract (an incremental row whose API gives a whole tree); either is shown apart."""
    deviations = set(contracts.STEPS) - {w for steps in contracts.CONTRACTS.values() for w in steps}
    for b in listing["benchmarks"]:
        steps = b.get("steps") or {}
        assert set(steps) == set(b["tests"]), f"{b['id']}: steps for {sorted(steps)}, tests {b['tests']}"
        for test, words in steps.items():
            assert words and set(words) <= set(contracts.STEPS), f"{b['id']} {test}: {words}"
            if not b.get("baseline") and test in contracts.CONTRACTS:
                other_test = tuple(words) in contracts.CONTRACTS.values()
                assert tuple(words) == contracts.CONTRACTS[test] or set(words) & deviations or other_test, (
                    f"{b['id']} {test}"
                )


def _run(harness, tmp_path, bench, test, fmt, vector, expect=None, *extra):
    v = _vector(vector)
    return _run_file(harness, tmp_path, bench, test, fmt, VECTORS / v["files"][fmt], expect or v["hash"], *extra)


def _run_file(harness, tmp_path, bench, test, fmt, path, expect, *extra):
    results = tmp_path / f"{bench}-{test}-{fmt}.jsonl"
    results.unlink(missing_ok=True)
    res = _call(
        harness,
        "run",
        "--bench",
        bench,
        "--test",
        test,
        "--format",
        fmt,
        "--file",
        str(path),
        "--expect-hash",
        expect,
        "--results",
        str(results),
        "--budget-ms",
        "20",
        "--min-samples",
        "3",
        *extra,
    )
    rows = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    for r in rows:
        jsonschema.validate(r, SCHEMA)
        assert row_fault(r) is None, r  # the orchestrator's own check (rows.py) keeps it too
    return res, rows


@pytest.mark.parametrize("test", ["tree", "write"])
def test_run_checks_then_writes_valid_samples(harness, listing, tmp_path, test):
    b, fmt = _first_cell(listing, test)
    res, rows = _run(harness, tmp_path, b["id"], test, fmt, "all-types")
    assert res.returncode == 0, res.stderr
    assert res.stdout == "", "results go to the results file, never stdout"
    check = [r for r in rows if r["kind"] == "check"]
    samples = [r for r in rows if r["kind"] == "sample"]
    assert check and check[0]["ok"] and len(samples) >= 3
    assert all(s["iterations"] >= 1 and s["wall_ns"] > 0 for s in samples)
    # protocol 1.9: every harness times its canary before each batch (canary.py divides by it)
    assert all(isinstance(s.get("canary_ns"), int) and s["canary_ns"] > 0 for s in samples)


def test_alloc_pass_follows_the_samples_with_one_alloc_row(harness, listing, tmp_path):
    b, fmt = _first_cell(listing)
    res, rows = _run(harness, tmp_path, b["id"], "tree", fmt, "all-types", None, "--alloc")
    assert res.returncode == 0, res.stderr
    kinds = [r["kind"] for r in rows]
    assert kinds.count("alloc") == 1 and "sample" in kinds
    assert kinds.index("alloc") > max(i for i, k in enumerate(kinds) if k == "sample"), (
        "counting never lands in a sample"
    )
    alloc = rows[kinds.index("alloc")]
    assert alloc["alloc_bytes_per_op"] is None or alloc["alloc_bytes_per_op"] >= 0


def test_latency_pass_writes_one_row_of_percentiles_and_buckets(harness, listing, tmp_path):
    """spec/protocol.md `run` step 7 on the dataset it is for (trade): one latency row, which the schema
    and the orchestrator accept and latency.py can pool over forks. A row whose library fails on trade
    (exit 3 or 4, its own failure) gives way to the next typed-decode row."""
    doc = typed_document("trade", generate_typed(1)["trade"][:100])
    path = tmp_path / "trade.json"
    path.write_bytes(encode_json(doc))
    rows_ok = None
    for b in (b for b in listing["benchmarks"] if not b.get("baseline") and "typed-decode" in b["tests"]):
        res, rows = _run_file(harness, tmp_path, b["id"], "typed-decode", b["formats"][0], path,
                              objhash.hex64(objhash.hash_value(doc)), "--latency", "--budget-ms", "1")  # fmt: skip
        assert res.returncode in (0, 3, 4), res.stderr
        if res.returncode == 0:
            rows_ok = rows
            break
    if rows_ok is None:
        pytest.skip("no typed-decode row, or none that reads trade")
    lat = [r for r in rows_ok if r["kind"] == "latency"]
    assert len(lat) == 1 and not [r for r in rows_ok if r["kind"] == "sample"], "latency replaces timing"
    r = lat[0]
    assert r["count"] >= 100_000 and 0 < r["p50_ns"] <= r["p99_ns"] <= r["p9999_ns"] <= r["max_ns"]
    if "buckets" in r:
        assert sum(n for _, n in r["buckets"]) == r["count"]
        # latency.py pools a cell's forks from their buckets: one fork pooled must read as its own row
        pooled = latency.figures(r["buckets"], r["max_ns"])
        assert {f: pooled[f] for f in latency.QUANTILES if f in r} == {f: r[f] for f in latency.QUANTILES if f in r}


def test_the_read_baselines_allocate_nothing_in_a_timed_operation(harness, listing, tmp_path):
    # spec/fairness.md rule 1 (version 8): the harness's own work in an operation (the input copy,
    # the hash) allocates nothing once warm, so a row's allocation count is its library's. The
    # baselines subtracted from read rows do exactly that work and nothing else. (A walk of a
    # library's tree through its iterators, as `hash-walk` does over the harness's tree, is the
    # library API's cost, rule 5.)
    if harness.name == "python":
        pytest.skip("Python counts the blocks an op's result keeps alive, not the allocations during it")
    subtracted = {base for b in listing["benchmarks"] for base in b["baseline_for"].values()}
    cells = [
        (b["id"], t)
        for b in listing["benchmarks"]
        if b["id"] in subtracted and "json" in b["formats"]
        for t in b["tests"]
        if t in ("tree", "incremental")
    ]
    assert cells, "no tree or incremental baseline"
    # Go's count is a mean over as many operations as fit 50 ms and sees its runtime's own background
    # allocations too (0.35 per operation once, on a loaded machine): the harness allocating in every
    # operation would count at least 1, or (Java, which counts bytes only) at least the input's size.
    input_bytes = (VECTORS / _vector("all-types")["files"]["json"]).stat().st_size
    for bench, test in cells:
        res, rows = _run(harness, tmp_path, bench, test, "json", "all-types", None, "--alloc")
        assert res.returncode == 0, res.stderr
        alloc = next(r for r in rows if r["kind"] == "alloc")
        if alloc["allocs_per_op"] is not None:
            assert alloc["allocs_per_op"] < 1, (bench, test, alloc)
        else:
            per_op = alloc["alloc_bytes_per_op"]
            assert per_op is None or per_op < input_bytes, (bench, test, alloc)


def test_run_hold_times_nothing_until_one_byte_arrives_on_stdin(harness, listing, tmp_path):
    """spec/protocol.md step 10: checked and prepared, then held; the orchestrator's byte lets it time."""
    b, fmt = _first_cell(listing)
    v = _vector("all-types")
    results = tmp_path / "held.jsonl"
    argv = ["run", "--bench", b["id"], "--test", "tree", "--format", fmt, "--file", str(VECTORS / v["files"][fmt])]
    argv += ["--expect-hash", v["hash"], "--results", str(results), "--budget-ms", "20", "--min-samples", "3"]
    p = subprocess.Popen(harness.command() + argv + ["--hold"], stdin=subprocess.PIPE, env=harness.env())

    def kinds() -> list[str]:
        return [json.loads(x)["kind"] for x in results.read_text().splitlines()] if results.exists() else []

    try:
        deadline = time.monotonic() + 120  # a JVM starts in seconds
        while "check" not in kinds():
            assert p.poll() is None, "the held process ended before its check row"
            assert time.monotonic() < deadline, "no check row"
            time.sleep(0.02)
        time.sleep(0.3)
        assert p.poll() is None and "sample" not in kinds(), "it timed before the byte"
        p.stdin.write(b"g")
        p.stdin.close()
        assert p.wait(timeout=120) == 0
    finally:
        p.kill()
        p.wait()
    assert kinds().count("sample") >= 3


def test_a_wrong_expected_hash_exits_4_without_timing(harness, listing, tmp_path):
    b, fmt = _first_cell(listing)
    res, rows = _run(harness, tmp_path, b["id"], "tree", fmt, "all-types", "0123456789abcdef")
    assert res.returncode == 4
    assert rows[0]["kind"] == "check" and rows[0]["ok"] is False and "reason" in rows[0]
    assert not [r for r in rows if r["kind"] == "sample"]


def test_a_write_row_writes_its_output_file_even_when_the_hash_differs(harness, listing, tmp_path):
    # spec/protocol.md step 8: the file is written before the hash is compared, so that the
    # orchestrator can name the first differing path of an incorrect writer (serbench/diff.py)
    b, fmt = _first_cell(listing, "write")
    out = tmp_path / "out.bin"
    res, rows = _run(
        harness, tmp_path, b["id"], "write", fmt, "all-types", "0123456789abcdef", "--output-file", str(out)
    )
    assert res.returncode == 4, res.stderr
    assert out.exists() and out.stat().st_size == rows[0]["output_bytes"] > 0


def test_input_the_library_rejects_exits_3_with_a_reason(harness, listing, tmp_path):
    b, fmt = _first_cell(listing)
    bad = tmp_path / "garbage.bin"
    bad.write_bytes(b"\xc1\xff\x00{[garbage")
    res = _call(harness, "verify", "--bench", b["id"], "--test", "tree", "--format", fmt, "--file", str(bad))
    assert res.returncode == 3 and "error" in json.loads(res.stdout)


def test_unknown_benchmark_exits_2_and_unsupported_format_exits_5(harness, listing, tmp_path):
    b, fmt = _first_cell(listing)
    v = _vector("all-types")
    common = ["--test", "tree", "--file", str(VECTORS / v["files"]["json"])]
    assert _call(harness, "verify", "--bench", "no-such-bench", "--format", "json", *common).returncode == 2
    other = next((f for f in ("bson", "json", "cbor") if f not in b["formats"]), None)
    assert _call(harness, "verify", "--bench", b["id"], "--format", other, *common).returncode == 5


def test_verify_prints_the_vector_hash(harness, listing):
    b, fmt = _first_cell(listing)
    v = _vector("float-17-digits")
    res = _call(
        harness,
        "verify",
        "--bench",
        b["id"],
        "--test",
        "tree",
        "--format",
        fmt,
        "--file",
        str(VECTORS / v["files"][fmt]),
    )
    assert res.returncode == 0 and json.loads(res.stdout) == {"hash": v["hash"]}


def test_selftest_passes_every_vector(harness, listing):
    res = _call(harness, "selftest", "--vectors", str(VECTORS))
    assert res.returncode == 0, [ln for ln in res.stdout.splitlines() if '"fail"' in ln][:5]
    lines = [json.loads(ln) for ln in res.stdout.splitlines() if ln.startswith("{")]
    statuses = [x["status"] for x in lines]
    assert statuses.count("pass") > 100 and "fail" not in statuses
    # the reference decoders' conformance set (spec/data-model.md): every case of every format, each
    # with the manifest's answer, so all harnesses answer alike
    cases = json.loads((VECTORS / "conformance" / "manifest.json").read_text())["cases"]
    seen = {(x["format"], x["vector"]): x["status"] for x in lines if x.get("test") == "conformance"}
    assert {(c["format"], c["name"]) for c in cases} == set(seen)
    ref = next(b for b in listing["benchmarks"] if b["id"] == "hash-object")
    wrong = sorted(k for k, v in seen.items() if v != "pass" and not (v == "skip" and k[0] not in ref["formats"]))
    assert wrong == [], wrong[:5]
