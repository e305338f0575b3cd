"""The canary (canary.py, spec/protocol.md `run` step 4): a process's times are brought to the speed at
which its harness's canary takes the machine's reference time, the reference is fixed by the store's
first run on the machine, and `--no-canary` leaves the times as measured."""

from __future__ import annotations

import json

import pytest
from serbench import canary, compare, runner
from serbench.store import Store


def test_a_process_median_needs_a_canary_in_every_sample():
    assert canary.process_median([20_000, 22_000, 21_000]) == 21_000
    assert canary.process_median([20_000, None]) is None  # a harness before protocol 1.9
    assert canary.process_median([]) is None
    assert canary.process_median([0, 0, 0]) is None  # a clock that read nothing is no speed


def test_the_reference_is_the_lower_twentieth_of_the_processes_medians():
    meds = [float(20_000 + 100 * i) for i in range(41)]  # 20,000 .. 24,000
    assert canary.reference(list(reversed(meds))) == 20_200  # index int(0.05 * 40) = 2
    assert canary.reference([25_000.0]) == 25_000
    assert canary.reference([]) is None
    assert canary.factor(25_000, 20_000) == pytest.approx(0.8)
    assert canary.factor(None, 20_000) == 1.0 and canary.factor(25_000, None) == 1.0


def _cell(bench: str, harness: str = "fake", baseline: str | None = None) -> dict:
    return {
        "harness": harness,
        "bench": bench,
        "test": "tree",
        "dataset": "d",
        "format": "json",
        "library": bench,
        "version": "0",
        "notes": "",
        "is_baseline": int(baseline is None and bench == "base"),
        "baseline_bench": baseline,
    }


def _record(store: Store, cell_id: int, rnd: int, ns_per_op: float, canary_ns: int | None, n: int = 8) -> None:
    row = {"iterations": 10, "wall_ns": int(ns_per_op * 10), "cpu_ns": None, "canary_ns": canary_ns}
    rows = [dict(row) for _ in range(n)]
    store.record_round(cell_id, rnd, "ok", None, 0.01, rows)


def _run(store: Store, run_id: str, canary_off: bool = False) -> tuple[int, int]:
    env = {"cpu_model": "Test CPU", "cores": 2} | ({"canary_off": True} if canary_off else {})
    store.create_run(run_id, "test", {}, env, {"datasets": []})
    return store.add_cell(run_id, _cell("lib", baseline="base")), store.add_cell(run_id, _cell("base"))


def test_a_slowed_process_is_brought_back_to_the_clean_speed(tmp_path):
    store = Store(tmp_path / "s.db")
    lib, _ = _run(store, "r")
    _record(store, lib, 0, 1_000, 20_000)
    _record(store, lib, 1, 1_250, 25_000)  # the host slowed this whole process by a quarter
    _record(store, lib, 2, 1_000, None)  # no canary: as measured
    assert store.samples(lib) == {0: [1_000] * 8, 1: [1_250] * 8, 2: [1_000] * 8}
    assert store.samples(lib, 20_000) == {0: [1_000] * 8, 1: pytest.approx([1_000] * 8), 2: [1_000] * 8}


def test_the_first_run_on_a_machine_fixes_the_reference_for_the_runs_after_it(tmp_path):
    store = Store(tmp_path / "s.db")
    lib, base = _run(store, "a")
    for rnd in range(3):  # run a: canary 20 us, lib 1,000 ns, its baseline 200 ns
        _record(store, lib, rnd, 1_000, 20_000)
        _record(store, base, rnd, 200, 20_000)
    runner.finalize(store, "a", 50, 1)
    lib_b, base_b = _run(store, "b")
    for rnd in range(3):  # run b: the host is a tenth slower throughout; the canary sees it
        _record(store, lib_b, rnd, 1_100, 22_000)
        _record(store, base_b, rnd, 220, 22_000)
    runner.finalize(store, "b", 50, 1)
    a = {c["bench"]: c for c in store.cells("a")}
    b = {c["bench"]: c for c in store.cells("b")}
    assert a["lib"]["median_ns"] == pytest.approx(1_000) and b["lib"]["median_ns"] == pytest.approx(1_000)
    assert b["lib"]["net_ns"] == pytest.approx(800)
    facts = json.loads(store.run("b")["env_json"])["canary"]
    assert facts == {"fake": {"reference_ns": 20_000, "processes": 6, "median_slowdown": 1.1}}
    # compare recomputes from the samples with the same reference: the two runs agree
    cmp = compare.compare(store, "a", "b", n_boot=50)
    assert [r.ratio for r in cmp.rows] == [pytest.approx(1.0)]


def test_no_canary_keeps_the_times_as_measured(tmp_path):
    store = Store(tmp_path / "s.db")
    lib, base = _run(store, "r", canary_off=True)
    for rnd in range(3):
        _record(store, lib, rnd, 1_100, 22_000)
        _record(store, base, rnd, 220, 20_000)
    runner.finalize(store, "r", 50, 1)
    got = {c["bench"]: c for c in store.cells("r")}
    assert got["lib"]["median_ns"] == pytest.approx(1_100) and got["lib"]["net_ns"] == pytest.approx(880)
    assert "canary" not in json.loads(store.run("r")["env_json"])


def test_canary_effect_shows_both_ways_and_leaves_the_store_alone(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    for run, slow in (("a", 1.0), ("b", 1.1)):  # b: the host a tenth slower, which the canary sees
        lib, base = _run(store, run)
        for rnd in range(3):
            _record(store, lib, rnd, 1_000 * slow, int(20_000 * slow))
            _record(store, base, rnd, 200 * slow, int(20_000 * slow))
        runner.finalize(store, run, 50, 1)
    before = [dict(c) for c in store.cells("b")]
    tool = Path(__file__).resolve().parents[2] / "tools" / "canary_effect.py"
    out = subprocess.run(
        [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with_canary, without = out.split("Without it")
    assert "1 of 1 cells (100.0%)" in with_canary and "by harness: fake 1 of 1 (100.0%)" in with_canary
    assert "0 of 1 cells (0.0%)" in without and "lib tree d json (1.100)" in without
    assert [dict(c) for c in Store(tmp_path / "s.db").cells("b")] == before
    missing = subprocess.run(
        [sys.executable, str(tool), "a", "zz", "--db", str(tmp_path / "s.db")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and missing.stderr.strip() == f"canary_effect: no run zz in {tmp_path / 's.db'}"


def test_a_harness_whose_canary_is_unused_keeps_its_times_and_the_run_says_why(tmp_path):
    from serbench.harnesses.python import PythonHarness
    from serbench.report import facts

    assert PythonHarness.canary_unused  # its interpreted canary moves more than its libraries
    store = Store(tmp_path / "s.db")
    env = {"cpu_model": "Test CPU", "cores": 2, "canary_unused": {"fake": "why"}}
    store.create_run("r", "test", {}, env, {"datasets": []})
    lib = store.add_cell("r", _cell("lib", baseline="base"))
    base = store.add_cell("r", _cell("base"))
    for rnd in range(3):
        _record(store, lib, rnd, 1_100, 22_000)
        _record(store, base, rnd, 200, 20_000)
    runner.finalize(store, "r", 50, 1)
    got = {c["bench"]: c for c in store.cells("r")}
    assert got["lib"]["median_ns"] == pytest.approx(1_100) and got["lib"]["net_ns"] == pytest.approx(900)
    run_env = json.loads(store.run("r")["env_json"])
    assert run_env["canary"] == {"fake": {"unused": "why", "processes": 6}}
    assert facts.canary_text(run_env) == "fake as measured (its canary is not used: see the methodology)"
