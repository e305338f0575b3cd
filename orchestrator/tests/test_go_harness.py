"""The Go harness's orchestrator class: both binaries built, their settings recorded, and the
jsonv2 binary's rows reachable through the main binary. Skipped where Go is not installed."""

from __future__ import annotations

import json
import subprocess

import pytest
from serbench.harnesses import BuildOptions, harness_classes

from .conftest import ROOT, VECTORS


@pytest.fixture(scope="module")
def go():
    h = harness_classes()["go"](ROOT, BuildOptions())
    missing = h.missing_toolchain()
    if missing:
        pytest.skip(missing[0])
    h.build()
    return h


def test_env_info_records_the_collector_settings_and_each_binarys_goexperiment(go):
    info = go.env_info()
    assert info["go"].startswith("go version go")
    assert {"GOGC", "GOMAXPROCS", "GOMEMLIMIT"} <= info.keys()
    assert info["binaries"]["serbench-go"]["GOEXPERIMENT"] == "none"
    assert "jsonv2" in info["binaries"]["serbench-go-jsonv2"]["GOEXPERIMENT"]


def test_the_jsonv2_rows_are_listed_and_verified_through_the_main_binary(go):
    listing = json.loads(subprocess.run([*go.command(), "list"], capture_output=True, text=True).stdout)
    rows = {b["id"]: b for b in listing["benchmarks"]}
    assert rows["jsontext-token"]["version"].endswith("X:jsonv2")
    assert [b["id"] for b in listing["benchmarks"]].count("hash-object") == 1
    v = next(v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"] if v["name"] == "all-types")
    res = subprocess.run(
        [*go.command(), "verify", "--bench", "jsontext-token", "--test", "incremental", "--format", "json"]
        + ["--file", str(VECTORS / v["files"]["json"])],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0 and json.loads(res.stdout) == {"hash": v["hash"]}


def test_instruction_counts_are_declined_with_the_reason(go):
    assert isinstance(go.instructions_unsupported, str) and "deterministic" in go.instructions_unsupported
