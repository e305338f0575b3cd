"""The timed loop of the Python harness (spec/protocol.md, `run` steps 3-4), and the fixed-count loop
of step 9 (`--iterations N`).

Clocks (and the canary, canary.py) are parameters so that tests can drive the loop with a fake clock
and get exact numbers.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from .canary import CANARY, WARMUP

MIN_BATCH_NS = 1_000_000  # a sample lasts at least 1 ms: perf_counter's resolution is far finer


def hold(stdin_fd: int = 0) -> None:
    """`run --hold` (protocol.md step 10): wait for one byte on standard input, or its end, before
    anything is timed. The orchestrator sends it when this process has been moved to the harness
    core; an error reading means the same as the end: go on."""
    try:
        os.read(stdin_fd, 1)
    except OSError:
        pass


@dataclass(frozen=True)
class Sample:
    iterations: int
    wall_ns: int
    cpu_ns: int | None
    canary_ns: int | None = None  # the canary's time just before the batch (step 4); None under --iterations


def _batch(op: Callable, arg, n: int) -> None:
    for _ in range(n):
        op(arg)


@contextmanager
def _no_gc():
    """The cyclic GC is off while a batch is timed and runs, untimed, before it. As in the standard
    library's timeit (https://docs.python.org/3/library/timeit.html: "By default, timeit() temporarily
    turns off garbage collection during the timing"): when a collection lands depends on the heap the
    process happens to have, not on the library, and with it on, decoders that build many containers
    show bimodal samples (robust CV of 20-40% at size 4). Reference counting still frees every result."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def calibrate(op: Callable, arg, target_ns: int, clock: Callable[[], int]) -> tuple[int, int]:
    """Double the batch from 1 until one batch lasts target_ns; this is also the warm-up.
    Returns (batch, ns spent calibrating)."""
    start = clock()
    batch = 1
    while True:
        with _no_gc():
            t0 = clock()
            _batch(op, arg, batch)
            t1 = clock()
        if t1 - t0 >= target_ns:
            return batch, clock() - start
        batch *= 2


def sample(
    op: Callable,
    arg,
    budget_ns: int,
    min_samples: int,
    clock: Callable[[], int] = time.perf_counter_ns,
    cpu_clock: Callable[[], int] | None = time.thread_time_ns,
    canary: Callable[[], int] = CANARY,
) -> tuple[list[Sample], dict]:
    """Calibrate, then take samples until budget_ns has passed and min_samples exist. Each batch is
    preceded by one run of the canary, timed alone with the same clock (step 4, canary.py).

    Everything the process made before timing (modules, the document, the prepared input) is moved to
    the collector's permanent generation first (`gc.freeze`, Python 3.7+), so the untimed collection
    before each batch scans only what the batches made. Without it that collection re-scanned the
    whole heap before every 1 ms batch: 43 ms of a 200 ms process on the 10,000 trade records,
    more than the 25 ms of samples (`python -m cProfile -s cumtime -m serbench_py run ...`)."""
    gc.collect()
    gc.freeze()
    try:
        return _sample(op, arg, budget_ns, min_samples, clock, cpu_clock, canary)
    finally:
        gc.unfreeze()


def _sample(op, arg, budget_ns, min_samples, clock, cpu_clock, canary) -> tuple[list[Sample], dict]:
    batch, cal_ns = calibrate(op, arg, max(MIN_BATCH_NS, budget_ns // 50), clock)
    for _ in range(WARMUP):  # untimed, before the first sample: its code and table warm
        canary()
    samples: list[Sample] = []
    start = clock()
    while clock() - start < budget_ns or len(samples) < min_samples:
        with _no_gc():  # the collection runs before the canary, so nothing lands between it and the batch
            # Once untimed first: the batch before evicted what the canary touches (its 16 KiB table, and
            # for the interpreted canary before protocol 1.10 its code, frame and ints, which timed cold
            # read 33 µs after a size-5 batch and 23 µs after a size-1 one: docs/methodology.md, "The
            # canary"), a slowdown of the data, not of the core.
            canary()
            k0 = clock()
            canary()
            k1 = clock()
            c0 = cpu_clock() if cpu_clock else None
            t0 = clock()
            _batch(op, arg, batch)
            t1 = clock()
            c1 = cpu_clock() if cpu_clock else None
        samples.append(Sample(batch, t1 - t0, None if c0 is None else c1 - c0, k1 - k0))
    return samples, {"batch": batch, "calibration_ns": cal_ns}


def fixed(op: Callable, arg, n: int) -> Sample:
    """Step 9: one untimed warm-up iteration, then exactly n iterations as one batch, with no clock
    read (wall_ns 0, cpu_ns None), as in the compiled harnesses, where even the digits of a measured
    time would vary the count of instructions. The orchestrator counts compiled harnesses only."""
    _batch(op, arg, 1)
    with _no_gc():
        _batch(op, arg, n)
    return Sample(n, 0, None)
