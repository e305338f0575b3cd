"""Typed rows of the Python harness (spec/typed.md): every row round-trips the `product`, `trade` and
`nested` datasets, made by the orchestrator's corpus module, to the hash the reference implementation
(serbench.objhash) gives the dataset document; a record the library changes fails the check; inputs that
are not typed datasets exit 6; the latency pass and the histogram; the committed generated code is
what regen-schemas.sh makes."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sbwalk
from serbench_py import __main__ as cli
from serbench_py import typed
from serbench_py.hashing import objhash
from serbench_py.typed_adapters import load_all

# isort: split
from serbench.corpus.formats import encode_json  # on the path through serbench_py.hashing
from serbench.corpus.typed import generate_typed, typed_document

HARNESS = Path(__file__).resolve().parents[1]
BENCHES = load_all()
ROWS = [b for b in BENCHES.values() if not b.baseline]
#: records per dataset in these tests: all of `nested` (100), the first 1,000 of the others (the full
#: 10,000 take seconds per row to check in Python, and 1,000 already hold the full value ranges)
LIMIT = 1_000
#: rows whose format cannot carry a dataset, with the library's reason (spec/typed.md "Known format limits")
CANNOT = {("fastavro", "product"): "OverflowError", ("fastavro", "nested"): "OverflowError"}


@pytest.fixture(scope="module")
def datasets(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """{dataset: (its JSON file as the corpus writes it, the expected hash by serbench.objhash)}."""
    out = {}
    d = tmp_path_factory.mktemp("typed")
    for name, records in generate_typed(1).items():
        if name == "product-large":
            continue
        doc = typed_document(name, records[:LIMIT])
        path = d / f"{name}.json"
        path.write_bytes(encode_json(doc))
        out[name] = (path, objhash.hex64(objhash.hash_value(doc)))
    return out


def _cells():
    for b in ROWS:
        for fmt in b.formats:
            for test in b.tests:
                for ds in ("product", "trade", "nested"):
                    yield pytest.param(b.id, test, fmt, ds, id=f"{b.id}-{test}-{fmt}-{ds}")


@pytest.mark.parametrize("bench,test,fmt,ds", list(_cells()))
def test_every_row_round_trips_the_dataset_to_its_hash(datasets, bench, test, fmt, ds):
    path, expected = datasets[ds]
    b = BENCHES[bench]
    data = path.read_bytes()
    reason = CANNOT.get((bench, ds))
    if reason:
        with pytest.raises(typed.Fail, match=reason) as e:
            typed.Cell(b, BENCHES, test, fmt, data).check()
        assert e.value.code == 3
        return
    cell = typed.Cell(b, BENCHES, test, fmt, data)
    h, out = cell.check()
    assert objhash.hex64(h) == expected
    if test == "typed-encode":
        assert isinstance(out, bytes) and out
    # the timed op runs and gives the library's result (decoded records, or the fields read)
    result = cell.op(cell.arg)
    assert result is not None
    if test != "typed-encode":
        models = typed.read_back(cell.codec, ds, cell.arg, test == "typed-access")
        assert len(models) == len(json.loads(data)["records"])


@pytest.mark.parametrize("test", ["typed-encode", "typed-decode", "typed-access"])
def test_baselines_check_the_harness_reading_and_hash_the_shortest_encoding(datasets, test):
    path, expected = datasets["trade"]
    base = BENCHES[typed.BASELINE_OF[test]]
    fmt = "flatbuffers" if test == "typed-access" else "json"
    cell = typed.Cell(base, BENCHES, test, fmt, path.read_bytes())
    h, _ = cell.check()
    assert objhash.hex64(h) == expected
    rows = [b for b in ROWS if fmt in b.formats]
    sizes = [len(typed.Cell(b, BENCHES, "typed-encode", fmt, path.read_bytes()).check()[1]) for b in rows]
    assert len(cell.arg) == min(sizes)
    # hash-typed walks the prebuilt records (the expected hash); hash-data-typed hashes the bytes
    want = h if test != "typed-encode" else sbwalk.hash_binary(cell.arg)
    assert cell.op(cell.arg) == want


def _corrupt_name(wire: bytes, name: str) -> bytes:
    """The bytes with the first letter of a record's name changed (still valid in the format)."""
    i = wire.index(name.encode())
    swapped = b"Z" if wire[i : i + 1] != b"Z" else b"Y"
    return wire[:i] + swapped + wire[i + 1 :]


@pytest.mark.parametrize("bench,fmt", [("msgspec-typed", "msgpack"), ("protobuf", "protobuf"), ("pycapnp", "capnp")])
def test_a_changed_record_fails_the_check(datasets, bench, fmt):
    path, expected = datasets["product"]
    data = path.read_bytes()
    test = "typed-decode" if "typed-decode" in BENCHES[bench].tests else "typed-access"
    cell = typed.Cell(BENCHES[bench], BENCHES, test, fmt, data)
    assert objhash.hex64(cell.check()[0]) == expected
    cell.arg = _corrupt_name(cell.arg, json.loads(data)["records"][3]["name"])
    assert objhash.hex64(cell.check()[0]) != expected


def test_a_library_changing_a_record_is_reported_incorrect_by_run(datasets, tmp_path, monkeypatch):
    """End to end through `run`: an encoder that drops a tag writes a failed check row and exits 4."""
    from serbench_py.typed_adapters import pickle_

    def dropping(records):
        records = list(records)
        records[0].tags = records[0].tags[1:] + ["extra"]
        return pickle_.pickle.dumps(records, protocol=5)

    monkeypatch.setattr(pickle_, "_encode", dropping)
    path, expected = datasets["product"]
    results = tmp_path / "r.jsonl"
    argv = ["run", "--bench", "pickle-typed", "--test", "typed-encode", "--format", "pickle", "--file", str(path)]
    code = cli.main([*argv, "--expect-hash", expected, "--results", str(results), "--budget-ms", "1"])
    rows = [json.loads(x) for x in results.read_text().splitlines()]
    assert code == 4
    assert rows[0]["kind"] == "check" and rows[0]["ok"] is False and rows[0]["hash"] != expected


def test_run_writes_check_output_file_and_samples(datasets, tmp_path):
    path, expected = datasets["nested"]
    results, output = tmp_path / "r.jsonl", tmp_path / "out.bin"
    argv = ["run", "--bench", "protobuf", "--test", "typed-encode", "--format", "protobuf", "--file", str(path)]
    argv += ["--expect-hash", expected, "--results", str(results), "--budget-ms", "5", "--min-samples", "2"]
    assert cli.main([*argv, "--output-file", str(output)]) == 0
    rows = [json.loads(x) for x in results.read_text().splitlines()]
    check = rows[0]
    assert check["kind"] == "check" and check["ok"] and check["output_bytes"] == output.stat().st_size > 0
    assert {r["kind"] for r in rows} == {"check", "info", "sample"}
    assert sum(r["kind"] == "sample" for r in rows) >= 2
    # protocol 1.9: the canary's time, run alone just before the batch
    assert all(isinstance(r["canary_ns"], int) and r["canary_ns"] > 0 for r in rows if r["kind"] == "sample")
    from serbench_py.generated import typed_pb2

    assert len(typed_pb2.NestedList.FromString(output.read_bytes()).records) == 100


def test_a_row_imports_its_own_library_alone(datasets):
    """`verify` (and `run`) of one typed row import its adapter module only, not every library's."""
    path, expected = datasets["trade"]
    code = (
        "import sys; from serbench_py import __main__ as cli; "
        f"rc = cli.main(['verify', '--bench', 'msgspec-typed', '--test', 'typed-decode', '--format', 'json', "
        f"'--file', {str(path)!r}]); "
        "print(sorted(m for m in ('pydantic', 'capnp', 'fastavro', 'flatbuffers', 'google.protobuf') "
        "if m in sys.modules))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=HARNESS, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert json.loads(out[0]) == {"hash": expected}
    assert out[1] == "[]"


def test_typed_rows_are_listed_with_their_baselines(capsys):
    assert cli.main(["list"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)["benchmarks"]}
    for b in ROWS:
        r = rows[b.id]
        assert r["tests"] == list(b.tests)
        for t in b.tests:
            base = rows[r["baseline_for"][t]]
            assert base["baseline"] and t in base["tests"] and set(r["formats"]) <= set(base["formats"])
            assert r["measures"][t] == typed.MEASURES[t]


@pytest.mark.parametrize(
    "doc",
    [
        b"[]",
        b'{"schema": "order", "records": []}',
        b'{"schema": "trade", "records": [{"price": 1.0}]}',
        b'{"schema": "product", "records": [{"id": -1, "name": "a", "price": 1.0, "in_stock": true, "tags": []}]}',
        b'{"schema": "product", "records": [{"id": 1, "name": "a", "price": 1, "in_stock": true, "tags": []}]}',
        b"not json",
        b'{"schema": "trade", "records": [{"price": 1e999, "flag": true, "text": "a", "side": "Buy", '
        b'"small_int": 1, "long_int": 1}]}',
        b'{"schema": "trade", "records": [{"price": 1.0, "flag": true, "text": "\\ud800", "side": "Buy", '
        b'"small_int": 1, "long_int": 1}]}',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"schema": "product", "records": [{"id": 1, "name": "a", "price": 1.0, "in_stock": true, "tags": [],'
        b' "extra": 1}]}',
    ],
    ids=[
        "array",
        "schema",
        "fields",
        "uint64-range",
        "int-for-float",
        "not-json",
        "infinity",
        "surrogate",
        "deep",
        "extra-field",
    ],
)
def test_a_file_that_is_not_a_typed_dataset_exits_6(tmp_path, capsys, doc):
    f = tmp_path / "bad.json"
    f.write_bytes(doc)
    code = cli.main(
        ["verify", "--bench", "msgspec-typed", "--test", "typed-decode", "--format", "json", "--file", str(f)]
    )
    assert code == 6
    assert "error" in json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "change,message",
    [
        (
            lambda r: r["children"][0]["u16s"].__setitem__(1, 70000),
            "records[0].children[0].u16s[1]: 70000 is not a u16",
        ),
        (lambda r: r["inner"]["point"].__setitem__("x", 1), "records[0].inner.point.x: 1 is not a f64"),
        (lambda r: r["counts"].__setitem__("k\ud800", 1), "records[0].counts key: 'k\\ud800' is not a string"),
        (lambda r: r["counts"].__setitem__("k", "1"), "records[0].counts['k']: '1' is not a i64"),
        (
            lambda r: r["children"][0].pop("flag"),
            "records[0].children[0]: not a nested record (a map of its 28 fields)",
        ),
        (lambda r: r.__setitem__("note", 5), "records[0].note: 5 is not a string"),
    ],
    ids=["list-item", "struct-field", "map-key", "map-value", "missing-field", "optional"],
)
def test_a_value_of_the_wrong_type_is_named_by_its_path(datasets, change, message):
    """The loader builds no path while a file is valid (it was most of the load of `product`), and
    the full path when a value is wrong."""
    records = json.loads(datasets["nested"][0].read_bytes())["records"]
    rec = next(r for r in records if r["children"] and r["children"][0]["u16s"][1:])
    change(rec)
    with pytest.raises(typed.TypedInputError) as e:
        typed.load(json.dumps({"schema": "nested", "records": [rec]}).encode())  # keeps a lone surrogate
    assert str(e.value) == message


def test_records_nested_beyond_the_harness_limit_exit_6(datasets, tmp_path, capsys):
    rec = json.loads(datasets["nested"][0].read_bytes())["records"][0]
    rec["children"] = []
    deep = rec
    for _ in range(typed.MAX_DEPTH + 5):
        deep = {**rec, "children": [deep]}
    f = tmp_path / "deep.json"
    f.write_bytes(encode_json({"schema": "nested", "records": [deep]}))
    code = cli.main(
        ["verify", "--bench", "pickle-typed", "--test", "typed-decode", "--format", "pickle", "--file", str(f)]
    )
    assert code == 6
    assert "deeper" in json.loads(capsys.readouterr().out)["error"]


def test_a_map_key_that_is_not_unicode_exits_6(datasets, tmp_path, capsys):
    rec = json.loads(datasets["nested"][0].read_bytes())["records"][0]
    text = json.dumps({"schema": "nested", "records": [{**rec, "counts": {"KEY": 1}}]})
    f = tmp_path / "key.json"
    f.write_text(text.replace("KEY", "\\ud800"))
    code = cli.main(["verify", "--bench", "hash-typed", "--test", "typed-decode", "--format", "json", "--file", str(f)])
    assert code == 6
    assert "key" in json.loads(capsys.readouterr().out)["error"]


def test_unsupported_test_or_format_exits_5(datasets):
    path, _ = datasets["trade"]
    args = ["verify", "--file", str(path)]
    assert cli.main([*args, "--bench", "pydantic", "--test", "typed-access", "--format", "json"]) == 5
    assert cli.main([*args, "--bench", "pydantic", "--test", "typed-decode", "--format", "msgpack"]) == 5


@pytest.mark.parametrize(
    "bench,fmt,test",
    [
        ("msgspec-typed", "json", "typed-decode"),
        ("hash-typed", "json", "typed-decode"),
        ("flatbuffers", "flatbuffers", "typed-encode"),
    ],
)
def test_latency_writes_percentiles_of_one_record_at_a_time(datasets, tmp_path, bench, fmt, test):
    path, expected = datasets["trade"]
    results = tmp_path / "r.jsonl"
    argv = ["run", "--bench", bench, "--test", test, "--format", fmt, "--file", str(path), "--expect-hash"]
    assert cli.main([*argv, expected, "--results", str(results), "--budget-ms", "1", "--latency"]) == 0
    rows = [json.loads(x) for x in results.read_text().splitlines()]
    lat = [r for r in rows if r["kind"] == "latency"]
    assert len(lat) == 1
    r = lat[0]
    assert r["count"] >= 100_000 and r["count"] % LIMIT == 0
    assert 0 < r["p50_ns"] <= r["p99_ns"] <= r["p999_ns"] <= r["p9999_ns"] <= r["max_ns"]
    # the histogram itself, for pooling over forks: non-empty buckets in order, every operation in one
    highs = [b for b, _ in r["buckets"]]
    assert highs == sorted(set(highs)) and all(n > 0 for _, n in r["buckets"])
    assert sum(n for _, n in r["buckets"]) == r["count"] and highs[-1] >= r["max_ns"]


def test_latency_checks_each_record_round_trips(datasets):
    """A library that changes one record read alone fails the latency pass's check (exit 4)."""
    import dataclasses

    from serbench_py.typed_adapters import msgspec_

    def lossy(fmt, schema, one):
        c = msgspec_._codec(fmt, schema, one)
        flip = lambda r: {**typed.to_model(r, schema), "flag": not r.flag}  # noqa: E731
        return dataclasses.replace(c, model=flip) if one else c

    bench = dataclasses.replace(BENCHES["msgspec-typed"], codec=lossy)
    rows = []
    path, _ = datasets["trade"]
    code = typed.latency(
        bench, BENCHES, "typed-decode", "json", path.read_bytes(), 0, True, lambda k, **f: rows.append((k, f))
    )
    assert code == 4
    assert rows[0][0] == "check" and rows[0][1]["ok"] is False and "record 0" in rows[0][1]["reason"]


def test_histogram_buckets_are_within_one_sixty_fourth():
    h = typed.Histogram
    for v in [1, 2, 63, 64, 65, 127, 128, 1000, 123_456, 1 << 40]:
        i = h.index(v)
        assert h.highest(i) >= v
        assert (h.highest(i) - v) / v < 1 / 64
        if i > 0:
            assert h.highest(i - 1) < v
    hist = h()
    for v in range(1, 1001):
        hist.record(v)
    assert hist.count == 1000 and hist.max == 1000
    p50 = hist.percentile(0.5)
    assert 500 <= p50 <= 500 * (1 + 1 / 64)
    assert hist.percentile(1.0) == 1000


@pytest.mark.skipif(not (shutil.which("protoc") and shutil.which("flatc")), reason="protoc and flatc are not installed")
def test_committed_generated_code_is_what_regen_schemas_makes(tmp_path):
    subprocess.run(["sh", str(HARNESS / "regen-schemas.sh"), str(tmp_path)], check=True, capture_output=True)
    committed = HARNESS / "serbench_py" / "generated"
    assert filecmp.cmp(tmp_path / "typed_pb2.py", committed / "typed_pb2.py", shallow=False)
    fbs = sorted(p.name for p in (tmp_path / "typed_fbs").iterdir())
    assert fbs == sorted(p.name for p in (committed / "typed_fbs").iterdir() if p.suffix == ".py")
    for name in fbs:
        assert filecmp.cmp(tmp_path / "typed_fbs" / name, committed / "typed_fbs" / name, shallow=False), name


def _hold_argv(datasets, results: Path) -> list[str]:
    path, expected = datasets["trade"]
    argv = [sys.executable, "-m", "serbench_py", "run", "--bench", "msgspec-typed", "--test", "typed-decode"]
    argv += ["--format", "json", "--file", str(path), "--expect-hash", expected, "--results", str(results)]
    return argv + ["--budget-ms", "5", "--min-samples", "2", "--hold"]


def _kinds(results: Path) -> list[str]:
    return [json.loads(x)["kind"] for x in results.read_text().splitlines()] if results.exists() else []


@pytest.mark.parametrize("extra", [[], ["--latency"]], ids=["samples", "latency"])
def test_run_hold_times_nothing_until_a_byte_arrives_on_stdin(datasets, tmp_path, extra):
    """protocol.md step 10: the check is written, then nothing until the orchestrator's byte."""
    results = tmp_path / "r.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])}
    p = subprocess.Popen(_hold_argv(datasets, results) + extra, stdin=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 60
        while "check" not in _kinds(results):
            assert p.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.3)
        assert p.poll() is None and "sample" not in _kinds(results) and "latency" not in _kinds(results)
        p.stdin.write(b"g")
        p.stdin.close()
        assert p.wait(timeout=60) == 0
    finally:
        p.kill()
        p.wait()
    assert ("latency" if extra else "sample") in _kinds(results)


def test_run_hold_goes_on_when_stdin_is_at_its_end(datasets, tmp_path):
    results = tmp_path / "r.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[1])}
    res = subprocess.run(_hold_argv(datasets, results), stdin=subprocess.DEVNULL, env=env, timeout=60)
    assert res.returncode == 0 and "sample" in _kinds(results)
