"""The canary: taking the host's slowdowns of a whole process out of its times (docs/methodology.md,
"The canary"; spec/protocol.md, `run` step 4).

Before each timed batch a harness runs a fixed loop that allocates nothing and stays in registers and L1
(four multiply-add chains over 256 bytes) and reports its time as the sample's `canary_ns`. On a shared
VM the host slows the guest's core for seconds to minutes at a time (other guests on the sibling
threads, "The two cores are slowed apart"), and a process measured in such a stretch is slower from
start to end. The canary, timed a few microseconds before each batch on the same core, sees the same
slowdown: each sample's time is multiplied by `reference / median(canary_ns of the WINDOW samples around
it)`, i.e. brought to the speed at which the harness's canary takes `reference` ns.

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
# Each sample is divided by the median of this many canaries centred on it, a running median of 5 (Tukey,
# *Exploratory Data Analysis*, 1977, ch. 7): the host's slowdowns change within a process's 25 ms, which
# one median per process misses, and a single 20 us canary is noisier than the batch it divides, which a
# window of 1 adds to every sample. On three pairs of quick runs (docs/methodology.md, "A running median
# of the canary") 5 gained 2.4-6.0 points of agreement over the process's median at +0.1-0.4 points of
# median robust CV, 1 gained 0.9-6.6 at +1.6-2.4, 3 and 9 less than 5; on the next two pairs, run with
# 5, it gained 2.3 and 1.5 points at -0.1 to +0.2.
WINDOW = 5
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


def factors(canaries: list[int | None], ref: float | None, window: int | None = None) -> list[float]:
    """What each sample of one process is multiplied by: with `window` = k, each by `factor` of the median
    of the k canaries centred on it (1: the canary timed just before it; cut short at a process's ends;
    a canary whose clock read zero is skipped, a sample with none left in its window stays as measured);
    with None, all by the process's median. As measured when any sample has no canary (a harness before
    protocol 1.9, or the instruction-count mode)."""
    if window is None or any(c is None for c in canaries):
        return [factor(process_median(canaries), ref)] * len(canaries)
    h = window // 2
    out = []
    for i in range(len(canaries)):
        near = [c for c in canaries[max(0, i - h) : i + h + 1] if c]
        out.append(factor(float(statistics.median(near)) if near else None, ref))
    return out


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
