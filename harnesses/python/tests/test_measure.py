"""The timed loop under a fake clock: calibration and sampling are exact and deterministic."""

from __future__ import annotations

from serbench_py import measure
from serbench_py.adapters import load_all


class OpClock:
    """A clock that advances `per_op` ns for every call of the op, and nothing otherwise."""

    def __init__(self, per_op: int):
        self.now, self.per_op, self.calls = 0, per_op, 0

    def op(self, _arg) -> None:
        self.calls += 1
        self.now += self.per_op

    def __call__(self) -> int:
        return self.now


def test_calibration_doubles_the_batch_until_it_lasts_the_target():
    c = OpClock(per_op=300_000)  # 0.3 ms per op -> 4 ops reach 1 ms
    batch, spent = measure.calibrate(c.op, None, 1_000_000, c)
    assert batch == 4 and spent == (1 + 2 + 4) * 300_000


def test_samples_fill_the_budget_with_exact_per_iteration_times():
    c = OpClock(per_op=250_000)
    samples, info = measure.sample(c.op, None, budget_ns=20_000_000, min_samples=3, clock=c, cpu_clock=None)
    assert info["batch"] == 4  # 4 x 0.25 ms = 1 ms, the minimum batch length
    assert all(s.wall_ns == 1_000_000 and s.iterations == 4 and s.cpu_ns is None for s in samples)
    assert len(samples) == 20  # 20 ms budget / 1 ms per sample


def test_min_samples_wins_over_a_short_budget():
    c = OpClock(per_op=5_000_000)
    samples, _ = measure.sample(c.op, None, budget_ns=1, min_samples=5, clock=c, cpu_clock=None)
    assert len(samples) == 5 and all(s.iterations == 1 for s in samples)


def test_every_registered_benchmark_names_a_real_capability():
    benches = load_all()
    assert len([b for b in benches.values() if not b.baseline]) >= 10
    for b in benches.values():
        assert b.tests, b.id
        assert b.version != "not installed", b.id


def test_fixed_count_runs_one_warm_up_then_exactly_n_iterations_in_one_sample():
    c = OpClock(per_op=1_000)
    s = measure.fixed(c.op, None, 7)
    assert c.calls == 8  # the warm-up, then the batch
    assert s == measure.Sample(iterations=7, wall_ns=0, cpu_ns=None)  # no clock is read


def test_sampling_freezes_the_heap_so_the_collection_before_a_batch_skips_it_and_unfreezes_after():
    import gc

    seen = []

    def op(_arg):
        seen.append(gc.get_freeze_count())

    before = gc.get_freeze_count()
    c = OpClock(per_op=500_000)
    measure.sample(lambda a: (op(a), c.op(a)), None, budget_ns=2_000_000, min_samples=2, clock=c, cpu_clock=None)
    assert seen and min(seen) > before  # the objects made before timing sat in the permanent generation
    assert gc.get_freeze_count() == before  # and are back in the collector's care afterwards
