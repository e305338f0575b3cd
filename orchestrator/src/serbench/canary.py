"""The canary: taking the host's slowdowns of a whole process out of its times (docs/methodology.md,
"The canary"; spec/protocol.md, `run` step 4).

Before each timed batch a harness runs a fixed loop that allocates nothing and stays in registers and L1
(four multiply-add chains over 256 bytes) and reports its time as the sample's `canary_ns`. On a shared
VM the host slows the guest's core for seconds to minutes at a time (other guests on the sibling
threads, "The two cores are slowed apart"), and a process measured in such a stretch is slower from
start to end. The canary, timed a few microseconds before each batch on the same core, sees the same
slowdown: each sample's time is multiplied by `(reference / median(canary_ns of the WINDOW samples
around it)) ** slope`, i.e. brought to the speed at which the harness's canary takes `reference` ns.

A cell's time comes from its processes at the run's clean speed (`brought`, ZONE) when it has two or more,
as measured but for one factor per run that brings its clean speed to the machine's reference; the
correction below, process by process, is for a cell that has fewer.

This is a control variate on the log scale (Glasserman, *Monte Carlo Methods in Financial Engineering*,
2004, section 4.1; Lavenberg and Welch, "A perspective on the use of control variables", Management
Science 27(3), 1981): log time minus `slope` times the canary's log slowdown. With a slope of 1 it is
the ratio estimator (Cochran, *Sampling Techniques*, 3rd ed., 1977, ch. 6), which the runs used until
2026-12-03: the library's slowdown assumed equal to the canary's. It is not: a slowdown that costs the
multiply-add loop 50% costs a library whose time goes to memory less (docs/methodology.md, "How much of
the canary's slowdown a library feels"), so the ratio over-corrects it and a process slowed by the host
could come out faster than a clean one. The slope is each harness's in the run (`slope`): the pooled
within-cell least-squares slope of a process's log time on its canary's, the textbook estimate of the
optimal control coefficient, held to at most 1. The reference is fixed per machine and harness in the
store (the first run that measures it), so two runs of the same store are brought to the same speed
instead of each to its own cleanest moment, which itself moves by several per cent from one
quarter-hour to the next.
"""

from __future__ import annotations

import math
import statistics
from typing import NamedTuple

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
# The largest slope a harness's times are given (`slope`). A library can feel more of a slowdown than the
# canary does, but dividing by more than the canary's slowdown multiplies the canary's own noise, and on
# the five pairs the slope was chosen on (docs/methodology.md, "How much of the canary's slowdown a
# library feels") a slope held to 1 agreed on 0-1.8 points more cells than the free fit (Go's and Rust's
# fitted 0.93-1.25).
MAX_SLOPE = 1.0
# How far from the clean canary time (log scale) a canary is taken for its own noise rather than the
# host's: a sample's canary this close to the reference leaves it as measured, and one further out is
# corrected for the part beyond (`factor`: soft thresholding, Donoho and Johnstone, "Ideal spatial
# adaptation by wavelet shrinkage", Biometrika 81(3), 1994). 0: every canary's distance is corrected.
# Measured on two quick pairs (docs/studies/canary-deadzone.md, "A deadzone around the clean canary time"), a quiet
# one and a noisy one: every width tried (0.02, 0.05, 0.1) agreed on fewer cells than none, by 1.4-6.5
# points, so runs use none; research/canary_effect.py --deadzone measures it again on a stored pair.
DEADZONE = 0.0
# How far above the run's own clean canary time (`reference` of its processes) a process's canary median may be
# for the process to count as clean (`brought`): a cell's time then comes from its clean processes, brought
# to the machine's speed by one factor for the run, and only a cell with fewer than MIN_CLEAN has each process
# corrected by its own canaries. A correction adds the canary's own noise to every process, and over-corrects a library
# that feels less of the host's slowdown than its harness's fitted slope says, which the fast quarter then
# picks; choosing does neither. On the eight quick pairs of 2026-12-04 (docs/methodology.md, "Choosing
# clean processes instead of correcting them"; `serbench compare` of the same samples) it agreed on 0.5 to
# 5.4 points more cells than correcting every process (2.0 on average; 0.5 and 2.4 on the two pairs the
# zone was not chosen on), and on 0.2 fewer on the first pair made with it, a quiet one; in
# research/select_study.py 5% agreed on more cells than 3% and as many as 10%.
ZONE = 0.05
# The fewest clean processes a cell's time is computed from (`brought`): with one, its interval would be that
# process's samples alone and say nothing of the spread between processes, so such a cell is corrected.
MIN_CLEAN = 2
# While a run is under way, times are brought to a canary of this many ns: only ratios within a harness
# (a cell against its own processes and its baseline) are used then, so any constant will do.
PROVISIONAL_NS = 20_000.0


class Speed(NamedTuple):
    """What a harness's times are brought to the clean speed by (`factors`): the machine's clean canary time,
    how much of the canary's slowdown the harness's times feel (`slope`), how far from the clean time, on
    the log scale, a canary is taken for its own noise (`deadzone`, `factor`), and the run's own clean
    canary time with the zone above it within which a process is chosen as clean (`clean_ns`, `zone`,
    `brought`; None: every process corrected, as runs finalized before 2026-12-05)."""

    reference_ns: float
    slope: float = 1.0
    deadzone: float = 0.0
    clean_ns: float | None = None
    zone: float = ZONE

    @property
    def clean_limit_ns(self) -> float | None:
        """The slowest canary median a clean process may have (`clean_ns` raised by `zone`); None: no choice."""
        return None if self.clean_ns is None else self.clean_ns * (1 + self.zone)


def recorded(env: dict) -> dict[str, Speed]:
    """Each harness's Speed as a run's finalize recorded it in the run's env (runner.canary_references):
    none for a harness whose canary is unused or a run made with --no-canary, and the ratio's slope of 1
    for a run finalized before the slope was fitted."""
    facts = env.get("canary") or {}
    return {
        h: Speed(f["reference_ns"], f.get("slope", 1.0), f.get("deadzone", 0.0), f.get("clean_ns"), f.get("zone", ZONE))
        for h, f in facts.items()
        if "reference_ns" in f
    }


def process_median(canaries: list[int | None]) -> float | None:
    """The median canary time of one process, or None when any of its samples has none (a harness before
    protocol 1.9, or the instruction-count mode) or the clock read zero."""
    if not canaries or any(c is None for c in canaries):
        return None
    m = statistics.median(canaries)
    return float(m) if m > 0 else None


def factors(
    canaries: list[int | None],
    ref: float | None,
    window: int | None = None,
    slope: float = 1.0,
    deadzone: float = 0.0,
) -> list[float]:
    """What each sample of one process is multiplied by: with `window` = k, each by `factor` of the median
    of the k canaries centred on it (1: the canary timed just before it; cut short at a process's ends;
    a canary whose clock read zero is skipped, a sample with none left in its window stays as measured);
    with None, all by the process's median. As measured when any sample has no canary (a harness before
    protocol 1.9, or the instruction-count mode). Each factor is raised to `slope`, past `deadzone` (`factor`)."""
    if window is None or any(c is None for c in canaries):
        return [factor(process_median(canaries), ref, slope, deadzone)] * len(canaries)
    h = window // 2
    out = []
    for i in range(len(canaries)):
        near = [c for c in canaries[max(0, i - h) : i + h + 1] if c]
        out.append(factor(float(statistics.median(near)) if near else None, ref, slope, deadzone))
    return out


def adjusted(times: list[float], canaries: list[int | None], speed: Speed | None, window: int | None) -> list[float]:
    """One process's per-iteration times brought to `speed` by their canaries (`factors`); as measured
    without a speed (a harness whose canary is unused, or a run made with --no-canary). The one place
    both the finished run (Store.samples) and the run under way (runner.run_cells) correct a time."""
    if speed is None:
        return list(times)
    fs = factors(canaries, speed.reference_ns, window, speed.slope, speed.deadzone)
    return [t * f for t, f in zip(times, fs, strict=True)]


def brought(
    times: dict[int, list[float]], canaries: dict[int, list[int | None]], speed: Speed | None, window: int | None
) -> dict[int, list[float]]:
    """A cell's processes (per-iteration times by round) as its time is computed from them: with a
    `speed.clean_ns`, only the processes whose canary's median is within `speed.zone` above it, each
    brought to the machine's reference by the one factor of the run's clean time (so that runs of a store
    stay at one speed, and a process's own canary adds no noise); a cell with fewer than MIN_CLEAN such
    processes has each of its processes corrected by its own canaries (`adjusted`), as every process was
    before the choice.
    As measured without a speed."""
    if speed is not None and (limit := speed.clean_limit_ns) is not None:
        clean = [r for r, cs in canaries.items() if (m := process_median(cs)) is not None and m <= limit]
        if len(clean) >= MIN_CLEAN:
            f = factor(speed.clean_ns, speed.reference_ns, speed.slope, speed.deadzone)
            return {r: [t * f for t in times[r]] for r in clean}
    return {r: adjusted(xs, canaries[r], speed, window) for r, xs in times.items()}


def clean_times(medians: dict[str, dict[int, list[tuple[float, float]]]]) -> dict[str, float]:
    """Each harness's clean canary time in one run (`reference` over its processes' canary medians), from
    Store.process_medians: what `Speed.clean_ns` is."""
    out = {}
    for harness, cells in medians.items():
        ref = reference([c for procs in cells.values() for _, c in procs])
        if ref is not None:
            out[harness] = ref
    return out


def reference(medians: list[float]) -> float | None:
    """A harness's clean canary time from its processes' medians in one run (REFERENCE_QUANTILE, the
    lower order statistic)."""
    xs = sorted(m for m in medians if m and m > 0)
    if not xs:
        return None
    return xs[int(REFERENCE_QUANTILE * (len(xs) - 1))]


def factor(median: float | None, ref: float | None, slope: float = 1.0, deadzone: float = 0.0) -> float:
    """What a process's times are multiplied by: (ref / median) ** slope, with the canary's log distance from
    `ref` first brought `deadzone` closer to 0 (soft thresholding: within it, as measured); 1 without a
    canary or a reference."""
    if median is None or ref is None:
        return 1.0
    if deadzone <= 0:
        return (ref / median) ** slope  # exactly the plain ratio's power, as runs before the zone
    x = math.log(median / ref)
    x = math.copysign(max(0.0, abs(x) - deadzone), x)
    return math.exp(-slope * x)


def slope(cells: list[list[tuple[float, float]]]) -> float:
    """How much of the canary's slowdown a harness's times feel: the least-squares slope of log(process
    median time) on log(process median canary), each cell's processes taken against their own cell's
    means and the cells pooled (the within, or fixed-effects, estimator: a cell's own speed does not
    enter), held to [0, MAX_SLOPE]. `cells` holds each cell's (time, canary) process medians. MAX_SLOPE,
    the ratio estimator, when the canary did not move within any cell: nothing to fit, and then the
    slope changes no time by more than the canary's spread inside its cells."""
    sxy = sxx = 0.0
    for procs in cells:
        pts = [(math.log(t), math.log(c)) for t, c in procs if t > 0 and c > 0]
        if len(pts) < 2:
            continue
        mt = statistics.fmean(p[0] for p in pts)
        mc = statistics.fmean(p[1] for p in pts)
        sxy += sum((lt - mt) * (lc - mc) for lt, lc in pts)
        sxx += sum((lc - mc) ** 2 for _, lc in pts)
    if sxx <= 0:
        return MAX_SLOPE
    return min(MAX_SLOPE, max(0.0, sxy / sxx))
