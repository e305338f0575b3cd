"""The canary of protocol 1.10 (canary.py, spec/protocol.md `run` step 4): it returns the protocol's
reference values for Python's canary, it is run and timed alone before every batch, and `run` writes its
time in every sample row (but not under --iterations, which reads no clock)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serbench_py import __main__ as cli
from serbench_py import canary, measure

VECTORS = Path(__file__).resolve().parents[3] / "vectors"


@pytest.mark.parametrize(("passes", "value"), [(1, 0x9EBF7845), (2, 0x2360E37F), (4, 0xFC750C26)])
def test_the_canary_returns_the_reference_values_of_the_protocol(passes, value):
    c = canary.Canary(passes)
    assert c() == value
    assert c() == value  # nothing carries over: each call starts from 0
    assert len(canary.TABLE) == 16 * 1024 and canary.TABLE[:3] == bytes([1, 38, 75])


def test_every_result_is_kept_in_the_sink():
    before = canary.sink
    x = canary.Canary(1)()
    assert canary.sink == before ^ x


def test_the_canary_runs_twenty_times_untimed_then_warm_and_timed_alone_before_each_batch():
    now = [0]
    log = []

    def clock() -> int:
        return now[0]

    def op(_arg) -> None:
        log.append("op")
        now[0] += 250_000

    def fake_canary() -> int:
        log.append("canary")
        now[0] += 7
        return 0

    samples, info = measure.sample(op, None, 3_000_000, 3, clock=clock, cpu_clock=None, canary=fake_canary)
    batch = info["batch"]
    assert batch == 4 and len(samples) == 3
    calibration = ["op"] * (1 + 2 + 4)
    assert log == calibration + ["canary"] * 20 + (["canary", "canary"] + ["op"] * batch) * 3
    # the timed canary's time is its own (one run, after an untimed one), and none of it is in the batch's
    assert all(s.canary_ns == 7 and s.wall_ns == 1_000_000 for s in samples)


def _run(tmp_path, *extra: str) -> list[dict]:
    vectors = {v["name"]: v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"]}
    argv = ["run", "--bench", "json", "--test", "tree", "--format", "json", "--file", str(VECTORS / "all-types.json")]
    argv += ["--expect-hash", vectors["all-types"]["hash"], "--results", str(tmp_path / "r.jsonl"), *extra]
    assert cli.main(argv) == 0
    return [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]


def test_run_writes_a_positive_integer_canary_ns_in_every_sample_row(tmp_path):
    samples = [r for r in _run(tmp_path, "--budget-ms", "2", "--min-samples", "3") if r["kind"] == "sample"]
    assert len(samples) >= 3
    for r in samples:
        assert isinstance(r["canary_ns"], int) and r["canary_ns"] > 0, r


def test_run_under_iterations_reads_no_clock_for_the_canary(tmp_path):
    samples = [r for r in _run(tmp_path, "--iterations", "2") if r["kind"] == "sample"]
    assert samples == [{"kind": "sample", "iterations": 2, "wall_ns": 0, "cpu_ns": None}]
