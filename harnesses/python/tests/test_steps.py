"""Every row's loop does the steps it declares (DESIGN §12): the hash is computed inside the timed op
(each tree, incremental, write, typed and baseline op returns the expected hash, or the hash of the
bytes it wrote), `list` gives every row its `steps`, and protobuf's typed-decode now materialises its
records inside the op (allocations on the order of the record count)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sbwalk
from serbench_py import __main__ as cli
from serbench_py import steps, typed
from serbench_py.adapters import load_all
from serbench_py.hashing import hash_value
from serbench_py.typed_adapters import load_all as load_typed

VECTORS = Path(__file__).resolve().parents[3] / "vectors"
INDEX = json.loads((VECTORS / "vectors.json").read_text())
VECTOR = next(v for v in INDEX["vectors"] if v["name"] == "all-types")
BENCHES = load_all()


def _cells():
    for b in BENCHES.values():
        for test in b.tests:
            for fmt in b.formats:
                if (b.reads or fmt) in VECTOR["files"]:
                    yield pytest.param(b.id, test, fmt, id=f"{b.id}-{test}-{fmt}")


@pytest.mark.parametrize("bench,test,fmt", list(_cells()))
def test_every_op_returns_its_hash(bench, test, fmt):
    b = BENCHES[bench]
    data = (VECTORS / VECTOR["files"][b.reads or fmt]).read_bytes()
    try:
        cli.check(b, test, fmt, data)
    except cli.Rejected:
        pytest.skip("the library cannot read this vector (known deviation)")
    op, arg = cli.operation(b, test, fmt, data)
    got = op(arg)
    if test == "write":
        want = sbwalk.hash_binary(b.encode(arg)) if not b.baseline else sbwalk.hash_binary(data)
    else:
        want = int(VECTOR["hash"], 16)
    assert got == want


def test_list_declares_steps(capsys):
    assert cli.main(["list"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    for r in rows:
        assert set(r["steps"]) == set(r["tests"]), r["id"]
        for test, words in r["steps"].items():
            default = (steps.BASELINE if r["baseline"] else steps.ROW)[test]
            assert len(words) >= len(default) - 1, r["id"]
    by_id = {r["id"]: r for r in rows}
    assert by_id["orjson"]["steps"]["tree"] == ["copy-input", "decode", "visit-all"]
    assert by_id["hash-object"]["steps"]["tree"] == ["copy-input", "visit-all"]
    assert by_id["flatbuffers"]["steps"]["typed-access"] == ["copy-input", "view-unchecked", "visit-all"]
    assert by_id["protobuf-convert"]["steps"]["typed-encode"] == ["convert", "encode", "hash-output"]
    for r in rows:  # every baseline named exists and stands for the test
        for base in r["baseline_for"].values():
            assert by_id[base]["baseline"], (r["id"], base)


@pytest.fixture(scope="module")
def product(tmp_path_factory) -> bytes:
    from serbench.corpus.formats import encode_json
    from serbench.corpus.typed import generate_typed, typed_document

    return encode_json(typed_document("product", generate_typed(1)["product"][:2000]))


def _typed_cells():
    for b in load_typed().values():
        for fmt in b.formats:
            for test in b.tests:
                yield pytest.param(b.id, test, fmt, id=f"{b.id}-{test}-{fmt}")


@pytest.mark.parametrize("bench,test,fmt", list(_typed_cells()))
def test_every_typed_op_returns_its_hash(bench, test, fmt, product):
    benches = load_typed()
    try:
        cell = typed.Cell(benches[bench], benches, test, fmt, product)
        h, _ = cell.check()
    except typed.Fail:
        pytest.skip("this library cannot carry the dataset")
    got = cell.op(cell.arg)
    if test == "typed-encode":
        assert got == sbwalk.hash_binary(cell.arg if benches[bench].baseline else cell.codec.encode(cell.arg))
    else:
        assert got == h == hash_value(json.loads(product))


def test_protobuf_typed_decode_allocates_per_record(product):
    benches = load_typed()
    cell = typed.Cell(benches["protobuf"], benches, "typed-decode", "protobuf", product)
    cell.op(cell.arg)
    calls, _ = sbwalk.count_allocations(cell.op, cell.arg)
    decode_alone, _ = sbwalk.count_allocations(lambda d: cell.codec.decode(typed.copy(d)), cell.arg)
    assert decode_alone < 100  # upb parses into its arena: no Python object yet
    assert calls >= 2000  # the walk reads every field: at least one object per record
