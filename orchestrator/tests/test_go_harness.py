"""The Go harness's orchestrator class: both binaries built, their settings recorded, and the
jsonv2 binary's rows reachable through the main binary. Skipped where Go is not installed."""

from __future__ import annotations

import json
import subprocess

import pytest

from .conftest import VECTORS, built_harness


@pytest.fixture(scope="module")
def go():
    return built_harness("go")


def test_env_info_records_the_collector_settings_and_each_binarys_goexperiment(go):
    info = go.env_info()
    assert info["go"].startswith("go version go")
    assert {"GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GODEBUG"} <= info.keys()
    assert info["binaries"]["serbench-go"]["GOEXPERIMENT"] == "none"
    assert "jsonv2" in info["binaries"]["serbench-go-jsonv2"]["GOEXPERIMENT"]


def test_env_info_stores_a_godebug_setting_the_user_gave_and_says_default_otherwise(go, monkeypatch):
    monkeypatch.delenv("GODEBUG", raising=False)
    assert go.env_info()["GODEBUG"] == "none (default)"
    monkeypatch.setenv("GODEBUG", "madvdontneed=0")
    assert go.env_info()["GODEBUG"] == "madvdontneed=0"


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


def test_code_size_probes_give_each_library_one_size_shared_by_its_rows(go):
    # two libraries, one per binary (the jsonv2 binary's probes are built with its experiment)
    go.build_size_probes(libraries={"buger/jsonparser", "encoding/json/v2"})
    listing = json.loads(subprocess.run([*go.command(), "list"], capture_output=True, text=True).stdout)
    rows = {b["id"]: b for b in listing["benchmarks"]}
    for row_id, library in (("jsonparser", "buger/jsonparser"), ("jsontext-token", "encoding/json/v2")):
        row = rows[row_id]
        assert row["code_size_bytes"] > 0, row
        assert f"only {library}'s adapter file" in row["code_size_method"]
    v2 = [b for b in listing["benchmarks"] if b["library"] == "encoding/json/v2"]
    assert len(v2) > 1 and len({b["code_size_bytes"] for b in v2}) == 1
    assert "GOEXPERIMENT=jsonv2" in rows["jsontext-token"]["code_size_method"]
    assert all("code_size_bytes" not in b for b in listing["benchmarks"] if b["baseline"])


def test_the_probes_key_changes_with_any_go_source_but_not_with_other_files(tmp_path):
    from serbench.harnesses.go import source_fingerprint

    (tmp_path / "adapters").mkdir()
    (tmp_path / "bin").mkdir()
    (tmp_path / "go.mod").write_text("module x\n")
    (tmp_path / "adapters" / "a.go").write_text("package adapters\n")
    first = source_fingerprint(tmp_path, "go version go1.26.8 linux/amd64")
    (tmp_path / "bin" / "b.go").write_text("package junk\n")  # built output, not a source
    (tmp_path / "notes.md").write_text("docs\n")
    assert source_fingerprint(tmp_path, "go version go1.26.8 linux/amd64") == first
    assert source_fingerprint(tmp_path, "go version go1.26.9 linux/amd64") != first
    (tmp_path / "adapters" / "a.go").write_text("package adapters // changed\n")
    assert source_fingerprint(tmp_path, "go version go1.26.8 linux/amd64") != first
