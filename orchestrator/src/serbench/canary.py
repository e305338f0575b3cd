"""The canary: taking the host's slowdowns of a whole process out of its times (docs/methodology.md,
"The canary"; spec/protocol.md, `run` step 4).

Before each timed batch a harness runs a fixed loop that allocates nothing and stays in registers and L1
(four multiply-add chains over 256 bytes) and reports its time as the sample's `canary_ns`. On a shared
VM the host slows the guest's core for seconds to minutes at a time (other guests on the sibling
threads, "The two cores are slowed apart"), and a process measured in such a stretch is slower from
start to end. The canary, timed a few microseconds before each batch on the same core, sees the same
slowdown: a process's times are multiplied by `reference / median(canary_ns)`, i.e. brought to the
speed at which the harness's canary takes `reference` ns.

This is a control variate with a fixed coefficient of 1 (the ratio estimator; Cochran, *Sampling
Techniques*, 3rd ed., 1977, ch. 6): the library's slowdown is assumed proportional to the canary's.
Where the two are unrelated the ratio adds the canary's own process-to-process spread, which was a
quarter of the libraries' on this host; where they move together it takes out what they share. The
reference is fixed per machine and harness in the store (the first run that measures it), so two runs
of the same store are brought to the same speed instead of each to its own cleanest moment, which
itself moves by several per cent from one quarter-hour to the next.
"""

from __future__ import annotations

import statistics

# Part of the key of a stored reference (with the CPU model and core count): a change to the canary's loop
# or to R in any harness must bump it, so that no run is brought to a reference another loop measured.
VERSION = 3  # 2: Python times its canary warm (2026-12-03); 3: Python's canary is zlib.crc32 (protocol 1.10)
# The quantile of a run's per-process canary medians taken as the harness's clean canary time when the
# store has none yet: the core's speed in the run's fastest twentieth, robust to a single lucky process.
REFERENCE_QUANTILE = 0.05
# While a run is under way, times are brought to a canary of this many ns: only ratios within a harness
# (a cell against its own processes and its baseline) are used then, so any constant will do.
PROVISIONAL_NS = 20_000.0


def process_median(canaries: list[int | None]) -> float | None:
    """The median canary time of one process, or None when any of its samples has none (a harness before
    protocol 1.9, or the instruction-count mode) or the clock read zero."""
    if not canaries or any(c is None for c in canaries):
        return None
    m = statistics.median(canaries)
    return float(m) if m > 0 else None


def reference(medians: list[float]) -> float | None:
    """A harness's clean canary time from its processes' medians in one run (REFERENCE_QUANTILE, the
    lower order statistic)."""
    xs = sorted(m for m in medians if m and m > 0)
    if not xs:
        return None
    return xs[int(REFERENCE_QUANTILE * (len(xs) - 1))]


def factor(median: float | None, ref: float | None) -> float:
    """What a process's times are multiplied by: 1 without a canary or a reference."""
    if median is None or ref is None:
        return 1.0
    return ref / median
