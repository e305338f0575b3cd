"""research/core_study.py: planted slow episodes are told apart from episodes shared by the CPUs, and the
loop really runs on each CPU (docs/methodology.md, "A seventh pair, and the two cores")."""

from __future__ import annotations

import importlib.util
import os
import random
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("core_study", ROOT / "research" / "core_study.py")
core_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(core_study)


def _episodes(rng: random.Random, windows: int, clean: int = 4400) -> list[int]:
    """Loops per 20 ms window of a CPU whose speed drops to half or two thirds for 25 to 100 windows
    (0.5-2 s) at a time, about half the time, with 1% window noise."""
    out, level = [], 1.0
    while len(out) < windows:
        level = rng.choice([1.0, 1.0, 0.5, 0.67])
        out += [round(clean * level * rng.gauss(1, 0.01)) for _ in range(rng.randint(25, 100))]
    return out[:windows]


def test_slowdowns_are_against_the_cpus_clean_speed():
    loops = [1000] * 90 + [500] * 10
    slow = core_study.slowdowns(loops)
    assert slow[0] == 1.0 and slow[-1] == 2.0


def _by_window(slow: list[float], start: int = 0) -> dict[int, float]:
    return dict(enumerate(slow, start))


def test_episodes_of_each_cpu_last_and_are_told_apart_from_shared_ones():
    rng = random.Random(7)
    apart = {0: _episodes(rng, 5000), 1: _episodes(rng, 5000)}
    slow = {cpu: _by_window(core_study.slowdowns(v)) for cpu, v in apart.items()}
    # a state lasts 0.5-2 s: the next window (20 ms) is nearly the same, one 1 s later less so
    assert core_study.autocorrelation(slow[0], 1) > 0.9
    assert core_study.autocorrelation(slow[0], 50) < core_study.autocorrelation(slow[0], 10)
    # drawn independently: the CPUs' slowdowns do not correlate at any width
    assert all(abs(core_study.cross_correlation(slow[0], slow[1], w)) < 0.2 for w in (1, 5, 25))
    # the same episodes on both CPUs (a host-wide load) correlate
    shared = _by_window(core_study.slowdowns([round(n * rng.gauss(1, 0.01)) for n in apart[0]]))
    assert core_study.cross_correlation(slow[0], shared, 1) > 0.9
    # ... matched by the time each window started: CPU 1 not running for 10 s (500 windows) shifts
    # its later windows by position, not by time
    w = core_study.WINDOW_S
    gap = {0: [(i * w, n) for i, n in enumerate(apart[0])]}
    gap[1] = [(i * w, round(n * rng.gauss(1, 0.01))) for i, n in enumerate(apart[0]) if not 1000 <= i < 1500]
    text = "\n".join(core_study.report(gap))
    assert re.search(r"cpu0 and cpu1: 20 ms \+(0\.9\d|1\.00)", text)
    by_position = [core_study.slowdowns([n for _, n in gap[cpu]]) for cpu in (0, 1)]
    assert core_study.cross_correlation(_by_window(by_position[0]), _by_window(by_position[1]), 1) < 0.5
    assert "4500 windows in 100.0 s; 5000 fit: the loop did not run for some of the time" in text
    timed = {cpu: [(i * core_study.WINDOW_S, n) for i, n in enumerate(v)] for cpu, v in apart.items()}
    text = "\n".join(core_study.report(timed))
    assert "cpu0 and cpu1: 20 ms" in text and "cpu1: 20 ms +0.9" in text and "did not run" not in text


def test_the_loop_runs_on_every_cpu_it_is_given():
    cpus = sorted(os.sched_getaffinity(0))[:2]
    series = core_study.measure(cpus, 0.3)
    assert sorted(series) == cpus
    # 0.3 s of 20 ms windows (fewer when the CPU is taken away), each with at least one loop
    assert all(5 <= len(v) <= 16 and min(n for _, n in v) > 0 for v in series.values())
    assert core_study.report(series)[0].startswith("1. slowdown per 20 ms window")
    # a CPU the process may not use is an error, not a run on another CPU
    with pytest.raises(SystemExit, match="the loop failed on cpu"):
        core_study.measure([os.cpu_count() + 64], 0.1)
