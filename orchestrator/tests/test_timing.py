"""Stable timings (issue 18, part 2): the process is the unit of replication and its CI is honest,
adaptive rounds stop when a cell is tight and spend the budget where the noise is, passes survive a
resume, harness processes are pinned, warm-up is dropped, and compare can reach a verdict."""

from __future__ import annotations

import json
import math
import os
import random
import re
import signal
import textwrap
from itertools import combinations, pairwise
from pathlib import Path
from statistics import median

import pytest
from serbench import pinning, runner, stats
from serbench.cli import mode_from_args, parser
from serbench.store import Store

from .test_runner import FakeHarness

# --- statistics of a cell ------------------------------------------------------------------------------


def _cell_data(rng: random.Random, n_rounds: int, between: float, within: float, n: int = 30) -> list[list[float]]:
    """Fresh processes whose level varies (log-normal, SD `between`) around 100 ns, each with `n`
    samples spread by `within` around its level: the reference machine's situation."""
    out = []
    for _ in range(n_rounds):
        level = 100 * math.exp(rng.gauss(0, between))
        out.append([level * math.exp(rng.gauss(0, within)) for _ in range(n)])
    return out


def _host_slowed(rng: random.Random, n_rounds: int, n: int = 15) -> list[list[float]]:
    """Processes as this VM's host makes them (docs/methodology.md, "The fast half"): levels within 1%
    of each other, but a third of the processes run during an episode of the host that slows them by
    10-50%, with samples spread by 2% inside each."""
    out = []
    for _ in range(n_rounds):
        level = 100 * math.exp(rng.gauss(0, 0.01)) * ((1 + rng.uniform(0.1, 0.5)) if rng.random() < 1 / 3 else 1)
        out.append([level * math.exp(rng.gauss(0, 0.02)) for _ in range(n)])
    return out


def test_the_fast_quarter_by_hand():
    assert stats.fast_mean([5.0, 1.0, 3.0]) == 1.0  # up to 4 processes: the fastest
    assert stats.fast_mean([4.0, 1.0, 3.0, 2.0]) == 1.0
    assert stats.fast_mean([4.0, 1.0, 100.0, 3.0, 2.0]) == pytest.approx(1.2)  # (4 x1 + x2) / 5
    assert stats.fast_mean([6.0, 5.0, 4.0, 3.0, 2.0, 1.0]) == pytest.approx(4 / 3)  # (2 x1 + x2) / 3
    assert stats.fast_mean([float(x) for x in range(8, 0, -1)]) == 1.5  # 8: the two fastest, exactly
    assert stats.fast_mean([float(x) for x in range(12, 0, -1)]) == 2.0  # 12: the three fastest
    for n in range(1, 60):  # the weights hold a quarter of the processes, never less than one
        assert sum(stats.fast_weights(n)) == pytest.approx(max(1.0, n / 4))


def _agreement(f, n_rounds: int, share: float, spread: float) -> float:
    """How often two runs of n_rounds process medians estimate within 5% of each other by f, where the
    host slows `share` of the processes by 10-50% and levels spread log-normally by `spread`."""
    rng = random.Random(7)  # the same processes for every estimator

    def run() -> float:
        return f(
            [
                100 * math.exp(rng.gauss(0, spread)) * ((1 + rng.uniform(0.1, 0.5)) if rng.random() < share else 1)
                for _ in range(n_rounds)
            ]
        )

    trials = 3000
    return sum(abs(run() / run() - 1) <= 0.05 for _ in range(trials)) / trials


def _fast_half(xs: list[float]) -> float:
    k = max(1, len(xs) // 2)
    return sum(sorted(xs)[:k]) / k


def _fast_third(xs: list[float]) -> float:
    """The estimator from 2026-11-27 evening to 2026-12-03."""
    return stats.fast_mean(xs, 1 / 3)


def test_a_fourth_process_no_longer_costs_what_the_fast_half_and_third_lost():
    """The fast half (the floor(n/2) fastest, the estimator until 2026-11-27) reached half-way into the
    processes at 4 and 6 but a third at 3 and 5, so when the host slows a third of them (this VM's
    host as `_host_slowed` models it) two runs of 4 processes agreed less often than two runs of 3
    (80% against 93% when this test was written), and of 6 less than of 5; on this VM's noisy pairs,
    redrawn from their processes, 51.8% at 4 against 57.5% at 3 (docs/methodology.md, "The fast
    third"). The fast third still dipped at 4 (88%), where a third of a weight falls on the second
    process. The fast quarter, the fastest alone at 4, does not dip (98%; "The fast quarter") and gains
    with every process added."""
    quarter = {n: _agreement(stats.fast_mean, n, 1 / 3, 0.01) for n in (3, 4, 5, 6, 8)}
    third = {n: _agreement(_fast_third, n, 1 / 3, 0.01) for n in (3, 4, 5, 6)}
    half = {n: _agreement(_fast_half, n, 1 / 3, 0.01) for n in (3, 4, 5, 6)}
    assert half[4] < half[3] - 0.08 and half[6] < half[5] - 0.03, half  # the fast half's loss
    assert third[4] < third[3] - 0.03, third  # the fast third's
    assert quarter[4] > third[4] + 0.05 and quarter[6] > half[6] + 0.05, (quarter, third, half)
    assert quarter[3] < quarter[4] and quarter[6] < quarter[8], quarter  # more processes, more agreement


def test_the_price_of_the_fast_quarter_where_processes_spread_evenly():
    """Where processes spread evenly (log-normal, 3%, no host episodes), a mean over a quarter is less
    repeatable than one over a third or a half, most at 4 processes, where it is the fastest alone:
    89.5% against 93.7% (third) and 95.6% (half) when this test was written; within 3 points of the
    fast half from 5 processes on (docs/methodology.md, "The fast quarter")."""
    for n in (3, 4, 5, 6, 8, 10):
        quarter, half = _agreement(stats.fast_mean, n, 0.0, 0.03), _agreement(_fast_half, n, 0.0, 0.03)
        assert quarter >= half - (0.07 if n == 4 else 0.03), (n, quarter, half)


@pytest.mark.parametrize(("n_rounds", "at_least"), [(3, 0.78), (4, 0.78), (5, 0.88), (7, 0.88), (10, 0.88)])
def test_the_interval_covers_what_another_run_estimates_when_the_host_slows_whole_processes(n_rounds, at_least):
    """The two-level bootstrap interval covers the fast quarter's expectation at that process count (what
    a run with as many processes estimates on average): 85%, 88%, 94%, 94% and 94% of 400 cells at 3,
    4, 5, 7 and 10 processes (with the fast third: 85%, 87%, 93%, 94% and 94%; with the fast half: 84%,
    85%, 93%, 94% and 92%; the bootstrap of a
    minimum-like statistic is known to under-cover at 3 and 4; docs/methodology.md, "The fast half")."""
    rng = random.Random(18 + n_rounds)
    truth = sum(stats.fast_mean([median(r) for r in _host_slowed(rng, n_rounds, 10)]) for _ in range(20_000)) / 20_000
    trials, hits = 400, 0
    for _ in range(trials):
        s = stats.summarize(_host_slowed(rng, n_rounds), rng, 200, warmup_k=0)
        hits += s.ci_low_ns <= truth <= s.ci_high_ns
    assert at_least <= hits / trials <= 0.99, hits / trials


def test_two_runs_agree_on_the_fast_quarter_where_the_trimmed_mean_follows_the_host():
    """Two runs of 4 processes each, the median count of a quick run: within 5% of each other on the
    fast quarter in 97% of 2,000 trials (the fast third: 88%, the fast half: 84%), on the 20% trimmed
    mean (the plain mean at 4) in 39%."""
    rng = random.Random(4)
    agree = {"fast": 0, "trimmed": 0}
    trials = 2000
    for _ in range(trials):
        a, b = ([median(r) for r in _host_slowed(rng, 4, 5)] for _ in range(2))
        for name, f in (("fast", stats.fast_mean), ("trimmed", lambda xs: stats.trimmed(xs)[0])):
            agree[name] += abs(f(b) / f(a) - 1) <= 0.05
    assert agree["fast"] / trials > 0.92 and agree["trimmed"] / trials < 0.5, agree


def test_under_symmetric_spread_the_interval_is_short_of_95_percent_with_few_processes():
    """The price of a minimum-like estimate (docs/methodology.md, "The fast half"): when processes
    spread evenly (log-normal, 8%) rather than being slowed by the host, its bootstrap interval covers
    the fast quarter's expectation in about half the cells at 3 processes (47% when this test was
    written) and in 76% at 10 (the fast third: 47% and 81%; the fast half: 47% and 88%)."""
    cover = {}
    for n_rounds in (3, 10):
        rng = random.Random(1)
        truth = sum(
            stats.fast_mean([median(r) for r in _cell_data(rng, n_rounds, 0.08, 0.01, 10)]) for _ in range(20_000)
        )
        truth /= 20_000
        hits = sum(
            (lambda s: s.ci_low_ns <= truth <= s.ci_high_ns)(
                stats.summarize(_cell_data(rng, n_rounds, 0.08, 0.01), rng, 200, warmup_k=0)
            )
            for _ in range(300)
        )
        cover[n_rounds] = hits / 300
    assert cover[3] < 0.6 and 0.7 < cover[10] < 0.97, cover


def test_the_trimmed_mean_and_its_standard_error_by_hand():
    # n = 5: g = 1 value trimmed from each end, h = 3 kept; winsorized [2, 2, 3, 4, 4] has variance 1,
    # so the squared standard error is 1 * 4 / (3 * 2) on 2 degrees of freedom (Wilcox 2012, §4.4.1)
    assert stats.trimmed([4.0, 1.0, 100.0, 3.0, 2.0]) == pytest.approx((3.0, 2 / 3, 2))
    m, lo, hi = stats.process_ci([4.0, 1.0, 100.0, 3.0, 2.0])
    assert (m, hi - m) == pytest.approx((3.0, stats.t975(2) * math.sqrt(2 / 3)))
    # below 5 processes nothing is trimmed: the mean, s^2 / n and n - 1
    assert stats.trimmed([1.0, 2.0, 6.0]) == pytest.approx((3.0, 7 / 3, 2))


def test_a_slowed_process_moves_the_trimmed_mean_less_than_the_mean_and_two_runs_agree_more_often():
    """What a quick run sees (docs/methodology.md, "The estimator"): process medians spread by 2%, and
    now and then a whole process slowed 1.6x (a host stall). Two runs of 5 processes each agree within
    5% far more often on the trimmed mean, and its interval still covers the trimmed mean of that
    distribution 95% of the time (Yuen 1974)."""
    rng = random.Random(5)

    def process() -> float:
        return 100 * math.exp(rng.gauss(0, 0.02)) * (1.6 if rng.random() < 0.08 else 1.0)

    truth = stats.trimmed([process() for _ in range(200_000)])[0]  # population trimmed mean, to ~0.01%
    agree = {"mean": 0, "trimmed": 0}
    hits, trials = 0, 2000
    for _ in range(trials):
        a, b = [process() for _ in range(5)], [process() for _ in range(5)]
        for name, f in (("mean", lambda xs: sum(xs) / len(xs)), ("trimmed", lambda xs: stats.trimmed(xs)[0])):
            agree[name] += abs(f(b) / f(a) - 1) <= 0.05
        _, lo, hi = stats.process_ci(a)
        hits += lo <= truth <= hi
    assert agree["trimmed"] / trials > 0.85 and agree["mean"] / trials < 0.6, agree  # 89.8% and 53.8%
    assert 0.93 <= hits / trials <= 0.99, hits / trials


def test_the_old_bootstrap_over_samples_under_covers_when_processes_differ():
    """Why the CI moved to the process level (docs/methodology.md): resampling samples says how precisely
    each process was measured, not how much the next process would differ."""
    rng = random.Random(7)
    trials = 200
    hits = 0
    for _ in range(trials):
        lo, hi = stats.bootstrap_ci(_cell_data(rng, 3, 0.08, 0.01), rng, 200)
        hits += lo <= 100 <= hi
    assert hits / trials < 0.85


def test_t_quantiles_match_the_tables():
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262, 10: 2.228, 20: 2.086, 30: 2.042}
    for df, t in table.items():
        assert stats.t975(df) == pytest.approx(t, abs=0.001)


def test_the_net_interval_pairs_the_two_cells_replicates_and_adds_the_baselines_noise():
    # by hand: differences 9, 10, 11 -> the 2.5th and 97.5th percentiles by linear interpolation
    assert stats.net_replicates_ci([10.0, 11.0, 12.0], [1.0, 1.0, 1.0]) == pytest.approx((9.05, 10.95))
    rng = random.Random(11)
    gross = stats.summarize(_cell_data(rng, 6, 0.03, 0.01), rng, 400, warmup_k=0)
    noisy_base = stats.summarize([[x / 10 for x in r] for r in _cell_data(rng, 6, 0.3, 0.01)], rng, 400, warmup_k=0)
    still = stats.summarize([[10.0] * 20] * 6, rng, 400, warmup_k=0)
    lo, hi = stats.net_replicates_ci(gross.replicates, still.replicates)
    assert (lo, hi) == pytest.approx((gross.ci_low_ns - 10, gross.ci_high_ns - 10))  # a still baseline adds nothing
    lo2, hi2 = stats.net_replicates_ci(gross.replicates, noisy_base.replicates)
    assert hi2 - lo2 > hi - lo


def test_a_cell_reports_within_and_between_process_spread_and_its_ci_width():
    rng = random.Random(3)
    s = stats.summarize(_cell_data(rng, 10, 0.05, 0.005), rng, 10, warmup_k=0)
    assert s.rounds == 10 and s.rcv_within < 0.01 < s.cv_between
    assert s.rel_ci == pytest.approx((s.ci_high_ns - s.ci_low_ns) / 2 / s.median_ns)


# --- warm-up -------------------------------------------------------------------------------------------


def test_slow_leading_samples_are_dropped_as_warm_up_and_counted():
    xs = [300.0, 180.0, 101.0, 100.0, 99.0, 100.5, 100.0, 99.5, 101.0, 100.0]
    assert stats.steady_state(xs) == 2
    assert stats.steady_state(xs, k=0) == 0
    assert stats.steady_state([100.0, 101.0, 99.0, 100.0, 300.0]) == 0  # a late slow sample stays
    assert stats.steady_state([500.0] * 3 + [100.0] * 3) == 3  # at most half are dropped
    s = stats.summarize([xs, xs[2:]], random.Random(1), 10)
    assert s.warmup_dropped == 2 and s.median_ns == 100


# --- compare -------------------------------------------------------------------------------------------


def test_the_exact_u_distribution_matches_enumeration():
    for n1, n2 in [(3, 3), (4, 6), (5, 5)]:
        counts = [0] * (n1 * n2 + 1)
        for idx in combinations(range(n1 + n2), n1):
            counts[sum(i + 1 for i in idx) - n1 * (n1 + 1) // 2] += 1
        assert stats.u_distribution(n1, n2) == counts


def test_full_modes_minimum_rounds_can_reach_a_holm_adjusted_verdict_over_800_cells():
    n = runner.MODES["full"].rounds
    assert stats.min_possible_p(n, n) < 0.05 / 800
    # a cleanly separated pair of cells (one overlap) still passes the strictest Holm step
    a = [100 + i for i in range(n)]
    b = [100 + n - 1.5 + i for i in range(n)]
    assert stats.mann_whitney_p(a, b) < 0.05 / 800
    assert stats.min_possible_p(7, 7) > 0.05 / 800  # the classic 7 rounds cannot


# --- adaptive rounds -----------------------------------------------------------------------------------

NOISY = textwrap.dedent(
    """
    import json, os, sys, time
    a = sys.argv[1:]
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1) if a[i].startswith("--")}
    bench = opt["bench"]
    call = {"bench": bench, "alloc": "--alloc" in a, "held": "--hold" in a, "t_start": time.monotonic()}
    call["start_cpus"] = sorted(os.sched_getaffinity(0))
    if "--hold" in a:
        os.read(0, 1)
    call["t_go"], call["cpus"] = time.monotonic(), sorted(os.sched_getaffinity(0))
    # a process's level: steady cells vary 0.1% between processes, noisy ones 5%, in a fixed pattern
    # (a random one now and then came out tight enough to stop a noisy cell early: a flaky test)
    spread = {"noisy": 0.05, "noisier": 0.10}.get(bench, 0.001)
    calls = os.path.join(os.path.dirname(opt["file"]), "calls.jsonl")
    k = sum(json.loads(x)["bench"] == bench for x in open(calls)) if os.path.exists(calls) else 0
    z = [0.9, -1.1, 0.3, -0.4, 1.4, -0.8, 0.1, 1.0, -1.3, 0.6, -0.2, 0.8, -0.6, 1.2, -1.0][k % 15]
    level = 1000 * (1 + spread * z)
    with open(opt["results"], "a") as f:
        row = lambda **r: f.write(json.dumps(r) + "\\n")
        for i in range(5):
            row(kind="sample", iterations=10, wall_ns=int(10 * level), cpu_ns=None)
        if "--alloc" in a:
            row(kind="alloc", allocs_per_op=1, alloc_bytes_per_op=8, method="fake")
    time.sleep(float(os.environ.get("FAKE_MEASURE_S", "0")))
    call["t_end"] = time.monotonic()
    with open(calls, "a") as f:
        f.write(json.dumps(call) + "\\n")
    """
)


def _setup(tmp_path: Path, benches: list[str]):
    script = tmp_path / "fake.py"
    script.write_text(NOISY)
    (tmp_path / "d.json").write_text("{}")
    h = FakeHarness(tmp_path, script)
    ds = {"dataset": "d", "hash": "0" * 16, "files": {"json": {"file": "d.json"}}}
    bench = lambda b: {"id": b, "library": b, "version": "0", "formats": ["json"], "tests": ["tree"]}  # noqa: E731
    cells = [runner.Cell(h, bench(b), "tree", ds, "json", tmp_path, None) for b in benches]
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [ds]})
    return cells, store


def _calls(tmp_path: Path) -> list[dict]:
    return [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text().splitlines()]


def _rounds(store: Store) -> dict[str, int]:
    return {c["bench"]: len([r for r in store.done_rounds(c["id"]) if r >= 0]) for c in store.cells("r")}


ADAPTIVE = runner.Mode(
    "test", rounds=3, budget_ms=1, min_samples=1, timeout_s=20, n_boot=20, max_rounds=12, target_rel_ci=0.01
)


def test_adaptive_rounds_stop_tight_cells_and_spend_the_rest_where_the_noise_is(tmp_path):
    cells, store = _setup(tmp_path, ["steady", "noisy"])
    runner.run_cells(store, "r", cells, ADAPTIVE, seed=1, progress=lambda *a: None)
    got = _rounds(store)
    assert got["steady"] == 3  # tight after the minimum: no extra pass
    assert got["noisy"] == 12  # 5% between processes never gets within 1% in 12: the cap stops it
    calls = _calls(tmp_path)
    # pass order: the 3 minimum rounds of both cells (the first of each counts allocations after its
    # samples), then the extra passes
    assert [c["alloc"] for c in calls[:6]] == [True] * 2 + [False] * 4
    assert all(c["bench"] == "noisy" and not c["alloc"] for c in calls[6:])
    runner.finalize(store, "r", 20, 1)
    by = {c["bench"]: c for c in store.cells("r")}
    assert by["noisy"]["n_rounds"] == 12 and by["steady"]["n_rounds"] == 3 and by["steady"]["rel_ci"] < 0.01


def test_a_time_budget_gives_the_extra_rounds_to_the_noisiest_cells_first(tmp_path):
    cells, store = _setup(tmp_path, ["steady", "noisy", "noisier"])
    clock = iter(range(0, 10**6, 100)).__next__  # a fake clock: each reading 100 "seconds" later
    # Budget so small that one extra process fits: it goes to the noisiest cell.
    picked = runner.pick_extra([(1, 0.02, 1.0), (2, 0.09, 1.0), (3, 0.05, 1.0)], remaining_s=1.5)
    assert picked == [2]
    assert runner.pick_extra([(1, 0.02, 1.0), (2, 0.09, 5.0), (3, 0.05, 1.0)], remaining_s=2.5) == [3, 1]
    # A spent budget stops the extra passes after the minimum rounds (the fake clock runs fast).
    mode = runner.Mode(**{**ADAPTIVE.__dict__, "time_budget_s": 5})
    runner.run_cells(store, "r", cells, mode, seed=1, progress=lambda *a: None, clock=clock)
    assert _rounds(store) == {"steady": 3, "noisy": 3, "noisier": 3}


def test_extra_rounds_are_planned_on_the_noise_of_net_times_for_rows_and_their_baselines():
    # cell 1: a row at 110 ns (±1%) over baseline 2 at 100 ns (±1%): a net of 10 ns whose CI is about
    # ±1.1 ns each side, so both are charged ~11% of the net; cell 3: a row far above its baseline 4.
    tight = lambda m: {0: m * 0.99, 1: m, 2: m * 1.01}  # noqa: E731
    meds = {1: tight(110.0), 2: tight(100.0), 3: tight(10_000.0), 4: tight(100.0), 5: tight(50.0)}
    noise = runner.net_noise(meds, {1: 2, 2: None, 3: 4, 4: None, 5: 2})
    own = stats.rel_half_width(list(tight(1.0).values()))
    assert noise[1] == pytest.approx(own * 110 / 10) and noise[2] == pytest.approx(own * 100 / 10)
    assert noise[3] == pytest.approx(own * 10_000 / 9_900)  # the baseline is 1% of it: about its own CI
    assert noise[5] == pytest.approx(own)  # below its baseline: no net to sharpen, so its own CI only
    assert noise[4] == pytest.approx(own)  # a row of 9,900 ns net charges its baseline 1% of its CI
    near = runner.net_noise({1: tight(100.5), 2: tight(100.0)}, {1: 2, 2: None})
    assert near == {1: runner.NET_NOISE_CAP, 2: runner.NET_NOISE_CAP}  # a net of 0.5 ns: the cap
    assert runner.net_noise({1: {0: 5.0}}, {1: None})[1] == float("inf")  # one process: no CI yet
    # a row that dropped out (incorrect, failed) is not planned, nor charged to its baseline
    assert runner.net_noise({2: tight(100.0)}, {1: 2, 2: None}) == {2: pytest.approx(own)}


def test_a_per_cell_cap_stops_a_cell_whose_processes_took_long(tmp_path):
    cells, store = _setup(tmp_path, ["noisy"])
    mode = runner.Mode(**{**ADAPTIVE.__dict__, "cell_cap_s": 1e-9})
    runner.run_cells(store, "r", cells, mode, seed=1, progress=lambda *a: None)
    assert _rounds(store) == {"noisy": 3}


def test_a_resumed_run_continues_the_extra_pass_it_stopped_in(tmp_path):
    cells, store = _setup(tmp_path, ["steady", "noisy", "noisier"])

    class Stop(Exception):
        pass

    seen = []

    def progress(done, total, label):
        seen.append(label)
        if len(seen) == 11:  # 9 minimum rounds, then 2 into the first extra pass
            raise Stop

    with pytest.raises(Stop):
        runner.run_cells(store, "r", cells, ADAPTIVE, seed=1, progress=progress)
    before = {(c["id"], r) for c in store.cells("r") for r in store.done_rounds(c["id"])}
    runner.run_cells(store, "r", cells, ADAPTIVE, seed=1, progress=lambda *a: None)
    after = {(c["id"], r) for c in store.cells("r") for r in store.done_rounds(c["id"])}
    assert before < after
    got = _rounds(store)
    assert got["steady"] == 3 and got["noisier"] == 12
    for c in store.cells("r"):  # rounds stay 0..n-1: nothing skipped, nothing run twice
        timed = sorted(r for r in store.done_rounds(c["id"]) if r >= 0)
        assert timed == list(range(len(timed)))
    assert len(_calls(tmp_path)) == len(after)  # no process ran twice


# --- pinning -------------------------------------------------------------------------------------------


def test_pinning_takes_two_cores_from_the_affinity_mask_or_says_why_not(monkeypatch):
    monkeypatch.setattr(pinning.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert pinning.choose(True) == pinning.Pinning(3, 0)
    monkeypatch.setattr(pinning.os, "sched_getaffinity", lambda pid: {2})
    p = pinning.choose(True)
    assert not p.on and p.facts() == {"pinned": False, "why": "only one CPU is available (CPU 2)"}
    assert pinning.choose(False).facts() == {"pinned": False, "why": "turned off (--no-pin)"}


def test_the_orchestrator_is_pinned_while_cells_run_then_restored(monkeypatch):
    calls = []
    monkeypatch.setattr(pinning.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(pinning.os, "sched_setaffinity", lambda pid, cpus: calls.append((pid, set(cpus))))
    with pinning.orchestrator_on(pinning.Pinning(1, 0)):
        assert calls == [(0, {0})]
    assert calls == [(0, {0}), (0, {0, 1})]
    calls.clear()
    with pinning.orchestrator_on(pinning.Pinning(None, None, "one CPU")):
        pass
    assert calls == []


@pytest.mark.skipif(len(pinning.os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_harness_processes_run_on_the_harness_core_only(tmp_path):
    cells, store = _setup(tmp_path, ["steady"])
    pin = pinning.choose(True)
    mode = runner.Mode("test", rounds=2, budget_ms=1, min_samples=1, timeout_s=20, n_boot=20)
    runner.run_cells(store, "r", cells, mode, seed=1, progress=lambda *a: None, pin=pin)
    assert {tuple(c["cpus"]) for c in _calls(tmp_path)} == {(pin.harness_cpu,)}


@pytest.mark.skipif(len(pinning.os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
@pytest.mark.parametrize(("prestart", "depth"), [(True, 1), (True, 2), (False, 2)])
def test_prestarted_processes_start_on_the_orchestrators_core_and_time_one_at_a_time_on_the_harness_core(
    tmp_path, monkeypatch, prestart, depth
):
    monkeypatch.setenv("FAKE_MEASURE_S", "0.3")  # long enough for the next processes to start meanwhile
    cells, store = _setup(tmp_path, ["steady", "noisy", "noisier", "calm"])
    pin = pinning.choose(True)
    mode = runner.Mode("test", rounds=2, budget_ms=1, min_samples=1, timeout_s=20, n_boot=20)
    runner.run_cells(
        store, "r", cells, mode, seed=1, progress=lambda *a: None, pin=pin, prestart=prestart, prestart_depth=depth
    )
    calls = sorted(_calls(tmp_path), key=lambda c: c["t_go"])
    assert len(calls) == 8 and {tuple(c["cpus"]) for c in calls} == {(pin.harness_cpu,)}
    # the first process of each pass of 4 starts when its turn comes; the others were held
    assert [c["held"] for c in calls] == [False, prestart, prestart, prestart] * 2
    assert all(c["start_cpus"] == [pin.orchestrator_cpu] for c in calls if c["held"])
    for before, after in pairwise(calls):
        assert after["t_go"] >= before["t_end"]  # never two processes timing at once
        # prestarted: it was up while the one before it measured
        assert (after["t_start"] < before["t_end"]) == (prestart and after["held"])
    for p in range(2):  # `depth` processes ahead, and no more
        one = calls[4 * p : 4 * p + 4]
        ahead = [sum(c["held"] and c["t_start"] < one[i]["t_end"] for c in one[i + 1 :]) for i in range(3)]
        assert ahead == ([min(depth, 3 - i) for i in range(3)] if prestart else [0, 0, 0])


class _Stop(Exception):
    pass


def _raise_stop(signum, frame):
    raise _Stop()


def test_a_stop_signal_just_after_a_process_started_leaves_no_process_or_folder_behind(tmp_path, monkeypatch):
    # SIGTERM between start() returning and run_pass holding the process: the process must still be
    # killed and its temporary folder removed (runner._stop_signals_held)
    monkeypatch.setenv("FAKE_MEASURE_S", "0.05")
    cells, store = _setup(tmp_path, ["steady", "noisy", "noisier", "calm"])
    mode = runner.Mode("test", rounds=2, budget_ms=1, min_samples=1, timeout_s=20, n_boot=20)
    started, real_start = [], runner.start

    def start_then_signal(*args, **kwargs):
        s = real_start(*args, **kwargs)
        started.append(s)
        if len(started) == 3:  # the second held process of the first pass
            os.kill(os.getpid(), signal.SIGTERM)
        return s

    monkeypatch.setattr(runner.passes, "start", start_then_signal)
    previous = signal.signal(signal.SIGTERM, _raise_stop)
    try:
        with pytest.raises(_Stop):
            runner.run_cells(
                store, "r", cells, mode, seed=1, progress=lambda *a: None, pin=pinning.choose(True), prestart=True
            )
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert len(started) == 3 and started[2].held
    assert all(s.proc.returncode is not None for s in started)  # killed (or ended) and reaped
    assert [Path(s.tmp.name).exists() for s in started] == [False, False, False]


# --- the command line ----------------------------------------------------------------------------------


def test_rounds_and_budget_options_refine_the_modes_knobs():
    def mode(*argv):
        return mode_from_args(parser().parse_args(["run", *argv]))

    q = mode()
    assert (q.rounds, q.cap_rounds, q.budget_ms, q.target_rel_ci) == (3, 20, 25, 0.01)
    assert mode("--rounds", "7", "--max-rounds", "7").cap_rounds == 7  # a fixed count
    assert mode("--rounds", "30").cap_rounds == 30  # a minimum above the cap raises the cap
    assert mode("--max-rounds", "2").rounds == 2
    assert mode("--target-ci", "0.5").target_rel_ci == 0.005
    assert mode("--time-budget-s", "60").run_budget_s(864) == 60
    assert q.run_budget_s(700) == pytest.approx(0.9 * 700)
    assert mode("--time-budget-s", "0").run_budget_s(864) == math.inf
    assert mode("--mode", "full").run_budget_s(864) <= 2 * 3600
    # the mode's promise holds however many cells the harnesses add: quick 12 min, full 1 h 50 min
    assert q.run_budget_s(5000) == 12 * 60 and mode("--mode", "full").run_budget_s(5000) == 110 * 60
    assert parser().parse_args(["run", "--no-pin"]).pin is False and parser().parse_args(["run"]).pin is True


def test_the_progress_names_each_pass_and_in_extra_passes_the_time_budget_left(tmp_path):
    # the extra passes' totals are each pass's own (how many follow depends on what they measure), so
    # the label says which pass a process is in and how much of the budget is left
    cells, store = _setup(tmp_path, ["steady", "noisy"])
    seen = []
    mode = runner.Mode(**{**ADAPTIVE.__dict__, "max_rounds": 4, "time_budget_s": 600})
    runner.run_cells(store, "r", cells, mode, seed=1, progress=lambda d, t, label: seen.append((d, t, label)))
    phases = [label.split(": ")[0] for _, _, label in seen[:-1]]
    assert phases[:6] == ["round 1 of 3"] * 2 + ["round 2 of 3"] * 2 + ["round 3 of 3"] * 2
    # the minimum rounds share one total (a process is counted once stored, after the next has begun)
    done = [d for d, _, _ in seen]
    assert {t for _, t, _ in seen[:6]} == {6} and done == sorted(done)
    # the noisy cell's one extra pass (the cap of 4), its total that pass's
    assert re.fullmatch(r"extra pass 1, 1 cell, \d+\.\d min of the time budget left", phases[6])  # of 10 min
    assert seen[6][:2] == (6, 7) and len(phases) == 7 and seen[-1] == (7, 7, "")
    assert runner._left(math.inf) == "no time budget" and runner._left(-5) == "0 s of the time budget left"
    assert runner._left(89.4) == "89 s of the time budget left"
