"""Statistics: deterministic given a seed; exact values where they can be worked out by hand."""

from __future__ import annotations

import io
import random

import pytest
from serbench import stats
from serbench.progress import ProgressBar


class FakeClock:
    """Advances by a fixed step each time it is read."""

    def __init__(self, step: float):
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_robust_cv_of_a_known_sample():
    xs = [100, 102, 98, 101, 99]  # median 100, MAD 1
    assert stats.robust_cv(xs) == pytest.approx(0.014826)


def test_outliers_are_counted_not_removed():
    xs = [100, 101, 99, 100, 102, 98, 400]
    assert stats.count_outliers(xs) == 1
    assert stats.summarize([xs], random.Random(1), 200).n == 7


def test_bootstrap_ci_is_deterministic_for_a_seed_and_brackets_the_median():
    rounds = [[10, 11, 12, 13], [11, 12, 12, 14], [9, 12, 13, 12]]
    a = stats.bootstrap_ci(rounds, random.Random(42), 400)
    b = stats.bootstrap_ci(rounds, random.Random(42), 400)
    assert a == b
    assert a[0] <= 12 <= a[1]


def test_a_cell_without_noise_has_a_zero_width_ci_and_is_not_noisy():
    s = stats.summarize([[250.0] * 5] * 3, random.Random(0), 100)
    assert (s.median_ns, s.ci_low_ns, s.ci_high_ns, s.rcv, s.outliers, s.noisy) == (250, 250, 250, 0, 0, False)


def test_a_noisy_cell_is_flagged():
    s = stats.summarize([[100, 120, 80, 110, 90]], random.Random(0), 100)
    assert s.noisy and s.rcv == pytest.approx(1.4826 * 10 / 100)


def test_net_ci_subtracts_the_baseline():
    lo, hi = stats.bootstrap_ci([[110.0] * 4] * 3, random.Random(0), 50, minus=[[10.0] * 4] * 3)
    assert lo == hi == 100


def test_mann_whitney_exact_p_for_complete_separation():
    # U = 0 for 3 vs 3: two of the C(6,3) = 20 orderings are this extreme -> p = 0.1.
    assert stats.mann_whitney_p([1, 2, 3], [4, 5, 6]) == pytest.approx(0.1)
    assert stats.mann_whitney_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) == pytest.approx(2 / 252)


def test_mann_whitney_says_identical_samples_do_not_differ():
    assert stats.mann_whitney_p([5, 5, 5], [5, 5, 5]) == 1.0


def test_mann_whitney_normal_approximation_for_large_samples():
    rng = random.Random(3)
    a = [rng.gauss(0, 1) for _ in range(40)]
    b = [x + 3 for x in a]
    assert stats.mann_whitney_p(a, b) < 1e-6
    assert stats.mann_whitney_p(a, list(a)) > 0.5


def test_holm_adjusts_step_down_and_keeps_order():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_min_possible_p_explains_why_three_rounds_cannot_be_significant():
    assert stats.min_possible_p(3, 3) == pytest.approx(0.1)
    assert stats.min_possible_p(7, 7) < 0.001


def test_geomean():
    assert stats.geomean([0.5, 2.0]) == pytest.approx(1.0)


def test_progress_bar_eta_with_a_fake_clock():
    out = io.StringIO()
    bar = ProgressBar(out, clock=FakeClock(10.0), width=10)  # start at t=10
    assert bar.line(1, 4, "x") == "[##........] 1/4  25% ETA 30s  x"  # read at t=20: 10 s per item
    bar(4, 4, "")
    assert out.getvalue().startswith("[##########] 4/4 100%")


def test_steady_state_of_a_long_series_takes_the_steady_half_as_reference():
    import time

    from serbench.stats import STEADY_EXACT_MAX, steady_state

    rng = random.Random(7)
    steady = [100 + rng.random() for _ in range(27_000)]
    xs = [300 + rng.random() for _ in range(9_000)] + steady  # a JVM warming up for a third of its samples
    t0 = time.monotonic()
    assert steady_state(xs) == 9_000
    assert time.monotonic() - t0 < 2  # the exact rule took minutes on such a series
    assert steady_state(steady) == 0
    # never more than half, and short series keep the exact rule
    assert steady_state([300.0] * 20_000 + [100.0 + i / 1e4 for i in range(10_000)]) == 15_000
    short = [300.0, 301.0] + [100 + i / 100 for i in range(STEADY_EXACT_MAX - 2)]
    assert steady_state(short) == 2


def test_a_process_of_a_collected_runtime_counts_its_collections_by_its_mean():
    """Batches of a collected runtime pay for a collection in some and not others (here one in three, at
    three times the time): the median of the batches leaves the collections out, the mean is the total
    time over the operations, what a user pays (stats.Center, fairness.md rule 6). Without collections
    the two agree."""
    collected = [[100.0, 100.0, 300.0] * 4, [101.0, 300.0, 101.0] * 4, [300.0, 102.0, 102.0] * 4]
    assert stats.center_for(True) is stats.fmean and stats.center_for(False) is stats.median
    by_median = stats.summarize(collected, random.Random(1), n_boot=200, warmup_k=0)
    by_mean = stats.summarize(collected, random.Random(1), n_boot=200, warmup_k=0, center=stats.fmean)
    assert by_median.median_ns == 100.0  # the fastest process's median: no collection in it
    assert by_mean.median_ns == pytest.approx(500 / 3)  # the fastest process's mean: (100+100+300)/3
    assert by_mean.ci_low_ns <= by_mean.median_ns <= by_mean.ci_high_ns and by_mean.ci_low_ns > 110
    assert stats.time_of(collected, center=stats.fmean) == pytest.approx(by_mean.median_ns)
    one = [collected[0]]  # one process: the center of its samples
    assert stats.time_of(one, center=stats.fmean) == pytest.approx(500 / 3) and stats.time_of(one) == 100.0
    reps = sorted(stats.time_replicates(one, random.Random(2), 51, stats.fmean))
    assert reps[25] > 140 and sorted(stats.time_replicates(one, random.Random(2), 51))[25] == 100.0
    steady = [[100.0, 101.0, 99.0] * 4] * 3
    assert stats.time_of(steady, center=stats.fmean) == pytest.approx(stats.time_of(steady))
