"""The adapter registry (adapters/__init__.py): MODULES says which benchmarks each module defines, so
`run` and `verify` of one benchmark import its module alone, while `list` and `selftest` see them all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from serbench_py.adapters import MODULES, Benches, load_all

HARNESS = Path(__file__).resolve().parents[1]
VECTORS = HARNESS.parents[1] / "vectors"
EXT = {"json-pretty": "pretty.json", "ubjson-plain": "plain.ubjson"}

# Runs one `run` in a fresh interpreter, then prints the adapter modules it imported (sys.modules).
_PROBE = """
import json, sys
from serbench_py.__main__ import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "adapters": sorted(m for m in sys.modules if m.startswith("serbench_py.adapters.")),
                  "typed": "serbench_py.typed" in sys.modules}))
"""


def _first_cell(module: str) -> tuple[str, str, str, Path, str]:
    """(bench, test, format, vector file, its hash): the all-types vector in the module's first row's
    first format and test."""
    vectors = {v["name"]: v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"]}
    b = load_all()[MODULES[module][0]]
    fmt = b.formats[0]
    src = b.reads or fmt  # a row of a format only its library has reads another format's file
    return b.id, b.tests[0], fmt, VECTORS / f"all-types.{EXT.get(src, src)}", vectors["all-types"]["hash"]


@pytest.mark.parametrize("module", list(MODULES))
def test_run_of_one_benchmark_imports_its_adapter_module_only(module, tmp_path):
    bench, test, fmt, file, want = _first_cell(module)
    argv = ["run", "--bench", bench, "--test", test, "--format", fmt, "--file", str(file)]
    argv += ["--expect-hash", want, "--results", str(tmp_path / "r.jsonl"), "--iterations", "1"]
    env = {**os.environ, "PYTHONPATH": str(HARNESS), "PYTHONHASHSEED": "0"}
    res = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.splitlines()[-1])
    # ... and not the typed records' module either (8 ms of every schemaless process's start-up)
    assert out == {"code": 0, "adapters": [f"serbench_py.adapters.{module}"], "typed": False}, out
    # the run measured the cell, after its check passed
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["ok"] for r in rows if r["kind"] == "check"] == [True]
    assert [r["iterations"] for r in rows if r["kind"] == "sample"] == [1]


def test_lookups_and_membership_import_nothing_and_values_import_every_module_in_order():
    benches = Benches()
    ids = [i for ids in MODULES.values() for i in ids]
    assert list(benches) == ids and len(benches) == len(ids)
    assert "orjson" in benches and "no-such-bench" not in benches and benches.get("no-such-bench") is None
    assert benches._loaded == {}
    assert benches["msgpack-fallback"].id == "msgpack-fallback"
    assert list(benches._loaded) == ["msgpack_"]
    # every module defines exactly the ids it is registered with (else _load raises)
    assert [b.id for b in benches.values()] == ids
    assert sorted(benches._loaded) == sorted(MODULES)


def test_a_registration_that_does_not_match_the_module_is_an_error():
    with pytest.raises(ValueError, match="duplicate benchmark id orjson"):
        Benches({"orjson_": ("orjson",), "ujson_": ("orjson",)})
    wrong = Benches({"orjson_": ("orjson-typo",)})
    with pytest.raises(ValueError, match=r"serbench_py.adapters.orjson_ defines \['orjson'\], MODULES registers"):
        wrong["orjson-typo"]


@pytest.mark.parametrize(
    ("bench", "package", "header", "macro"),
    [
        ("yyjson", "yyjson", "yyjson.h", "YYJSON_VERSION_STRING"),
        ("pysimdjson", "simdjson", "simdjson.h", "SIMDJSON_VERSION"),
    ],
)
def test_a_binding_s_notes_name_the_c_library_version_its_package_bundles(bench, package, header, macro):
    """The wheels ship the C sources they were built from; the notes (and docs/libraries.md) must name
    that version, not a stale one, when the pin moves."""
    import importlib.util
    import re

    src = Path(importlib.util.find_spec(package).origin).parent / header
    version = re.search(rf'#define {macro} "([0-9.]+)"', src.read_text(errors="replace")).group(1)
    assert f" {version} " in f" {load_all()[bench].notes} ".replace("(", " ").replace(")", " ")
    docs = (HARNESS.parents[1] / "docs" / "libraries.md").read_text()
    row = next(line for line in docs.splitlines() if line.startswith(f"| {bench} |"))
    assert version in row


def test_a_write_run_reads_its_input_with_the_reference_decoder_once(tmp_path, monkeypatch):
    """The check and the timed loop of a write row share one reading of the input (0.2 s of pure
    Python on a size-5 document): the decoder runs for the input once and for the library's output
    once (the check's read-back)."""
    from serbench_py import __main__ as cli

    vectors = {v["name"]: v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"]}
    real = cli.DECODERS["json"]
    calls = []
    monkeypatch.setitem(cli.DECODERS, "json", lambda data: calls.append(len(data)) or real(data))
    file = VECTORS / "all-types.json"
    argv = ["run", "--bench", "json", "--test", "write", "--format", "json", "--file", str(file)]
    argv += ["--expect-hash", vectors["all-types"]["hash"], "--results", str(tmp_path / "r.jsonl"), "--iterations", "3"]
    assert cli.main(argv) == 0
    assert len(calls) == 2 and calls[0] == file.stat().st_size, calls
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["ok"] for r in rows if r["kind"] == "check"] == [True]
    assert [r["iterations"] for r in rows if r["kind"] == "sample"] == [3]
