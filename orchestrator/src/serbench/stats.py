"""Statistics of a cell and of a comparison (docs/methodology.md cites the sources).

Everything random takes a `random.Random`, seeded by the caller, so results are reproducible and the
tests are exact.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from statistics import fmean, median

#: What one process's samples (per-operation times of equal batches) give as its time: their median, or
#: their mean, which is its total time over its operations. The median is the default: every batch of a
#: steady process pays the same costs, so it equals the mean to within 1% (median 0.7% in a quick run of
#: every harness, 2026-12-04) and leaves out a batch the host stalled. A runtime whose collector runs
#: inside the timed batches pays for a collection in some batches and not in others, every few
#: operations (fairness.md rule 6): the median of its batches leaves that cost out whenever collections
#: fall in fewer than half of them, and the mean is what a user pays per operation, as `go test -bench`
#: and JMH report it (docs/methodology.md, "A process's mean for a collected runtime"). A harness says
#: which it needs (`Harness.process_mean`).
Center = Callable[[list[float]], float]


def center_for(mean: bool) -> Center:
    """A process's time from its samples: their mean when `mean`, else their median (`Center`)."""
    return fmean if mean else median


MAD_SCALE = 1.4826  # makes the MAD a consistent estimator of sigma under normality (Rousseeuw & Croux 1993)
OUTLIER_K = 3.0  # "moderately conservative" cut-off of Leys et al. 2013
NOISY_RCV = 0.05  # the per-cell robust CV that older runs flagged as noisy (kept for the run-level warning)
NOISY_RUN_RCV = 2 * NOISY_RCV  # a run whose median robust CV is above this is called noisy as a whole
NOISY_REL_CI = 0.03  # a cell whose 95% CI half-width exceeds 3% of its time is flagged noisy
# A run whose median cell has a 95% CI half-width above 6% is called noisy as a whole, whatever its
# robust CV: the robust CV pools a library's own spread (a Go collector's) with the host's, the
# interval is what says whether another run would repeat the figures. Pairs of quick runs of the
# default matrix had medians of 2.4-5.1% where they repeated within +-5% on 79-93% of cells (most on
# 89-93%), and of 8.0-18.1% where they repeated on 33-73% (among them runs at robust CVs of 5.4-8.5%,
# which the 10% rule let pass; docs/methodology.md, "A noisy run").
NOISY_RUN_REL_CI = 2 * NOISY_REL_CI
ROUND_UNIT_MIN = 2  # from this many rounds on, the process (round) is the unit of replication
WARMUP_K = 3.0  # steady state: leading samples more than 3 robust SDs above the rest are warm-up
WARMUP_FLOOR = 0.005  # ... where the robust SD is at least 0.5% of the median (ties give a MAD of 0)


# Bimodality (`bimodal`): tuned by simulation (tests/test_trust.py pins the rates).
BIMODAL_MIN_SAMPLES = 20  # below this a gap between clusters cannot be told from chance
BIMODAL_MIN_SHARE = 0.10  # each cluster holds at least 10% of the samples (and 3): not a few outliers
BIMODAL_GAP_SD = 2.0  # the empty gap spans at least 2 robust SDs of the wider cluster
BIMODAL_MIN_RATIO = 1.10  # the clusters' medians differ by 10% or more: enough to move a median


def mad(xs: list[float]) -> float:
    m = median(xs)
    return median(abs(x - m) for x in xs)


def robust_cv(xs: list[float]) -> float:
    """MAD-based coefficient of variation: 1.4826 * MAD / median."""
    m = median(xs)
    return MAD_SCALE * mad(xs) / m if m else 0.0


def count_outliers(xs: list[float]) -> int:
    """Values further than 3 scaled MADs from the median (Leys et al. 2013). Kept, only counted."""
    m, s = median(xs), MAD_SCALE * mad(xs)
    return sum(1 for x in xs if s and abs(x - m) > OUTLIER_K * s)


def _resample(rounds: list[list[float]], rng: random.Random) -> list[float]:
    """Two-level bootstrap: rounds with replacement, then samples within each chosen round
    (Davison & Hinkley 1997, §3.8, resampling hierarchical data)."""
    out: list[float] = []
    for _ in range(len(rounds)):
        r = rounds[rng.randrange(len(rounds))]
        out.extend(r[rng.randrange(len(r))] for _ in range(len(r)))
    return out


def _percentile(sorted_xs: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (Hyndman & Fan 1996, type 7)."""
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def bootstrap_ci(
    rounds: list[list[float]],
    rng: random.Random,
    n_boot: int = 1000,
    level: float = 0.95,
    minus: list[list[float]] | None = None,
    center: Center = median,
) -> tuple[float, float]:
    """Percentile bootstrap CI of center(rounds), or of center(rounds) - center(minus) when a
    baseline is given (the two resampled independently)."""
    stats = []
    for _ in range(n_boot):
        v = center(_resample(rounds, rng))
        if minus:
            v -= center(_resample(minus, rng))
        stats.append(v)
    return interval(stats, level)


@dataclass(frozen=True)
class Modes:
    """Two clusters of samples: their medians and the fast cluster's share of the samples."""

    fast_ns: float
    slow_ns: float
    fast_share: float

    @property
    def ratio(self) -> float:
        return self.slow_ns / self.fast_ns


def bimodal(xs: list[float]) -> Modes | None:
    """Two clusters, or None. A gap test on the sorted log-times, after Wainer & Schacht (1978,
    "Gapping", Psychometrika 43(2)): the widest gap between neighbours that leaves at least 10% of the
    samples (and 3) on each side splits them. The split is two clusters when that empty gap is at
    least 2 robust SDs (1.4826 MAD, Rousseeuw & Croux 1993) of the wider cluster, so Ashman's D
    (Ashman, Bird & Zepf 1994, AJ 108: D = sqrt(2)|m1-m2| / sqrt(s1^2+s2^2) > 2 for a clean
    separation) is above 2 even counting the gap alone, and when their medians differ by 10% or more.
    On a log scale the rule does not depend on units. Seeded simulations (tests/test_trust.py) pin its
    error rates: at most 3% of unimodal log-normal cells of 20 samples and 1% of 30 to 350 are flagged
    (CV 1% to 30%), and two clusters 2.4x apart holding a third or a half of 30+ samples are found in at
    least 97%."""
    n = len(xs)
    if n < BIMODAL_MIN_SAMPLES or min(xs) <= 0:
        return None
    xs = sorted(xs)
    ys = [math.log(x) for x in xs]
    m = max(3, math.ceil(BIMODAL_MIN_SHARE * n))
    if n < 2 * m:
        return None
    cut = max(range(m, n - m + 1), key=lambda i: ys[i] - ys[i - 1])
    gap = ys[cut] - ys[cut - 1]
    fast, slow = ys[:cut], ys[cut:]
    spread = max(MAD_SCALE * mad(fast), MAD_SCALE * mad(slow))
    if gap <= BIMODAL_GAP_SD * spread or gap <= 0:
        return None
    modes = Modes(median(xs[:cut]), median(xs[cut:]), cut / n)
    return modes if modes.ratio >= BIMODAL_MIN_RATIO else None


# --- the process as the unit of replication (Kalibera & Jones 2013) ---------------------------------

_T975 = {1: 12.7062047, 2: 4.30265273, 3: 3.18244631, 4: 2.77644511}


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with df degrees of freedom: from the tables for df 1 to 4, else
    the Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5), within 0.001 of the tables for df >= 4."""
    if df in _T975:
        return _T975[df]
    z = 1.959963984540054
    g = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))


#: the share of process medians trimmed from each end before averaging them (Wilcox 2012,
#: *Introduction to Robust Estimation and Hypothesis Testing*, 3rd ed., §3.2 and §4.4: 20% keeps
#: nearly the mean's efficiency when the data are normal and resists the heavy tails they are not)
TRIM = 0.2


def trimmed(xs: list[float], gamma: float = TRIM) -> tuple[float, float, int]:
    """(gamma-trimmed mean, its squared standard error, degrees of freedom) of xs (2 or more): the
    floor(gamma n) smallest and largest values are left out of the mean, and the standard error comes
    from the winsorized variance (those values set to the nearest kept one), as Tukey & McLaughlin
    (1963) and Yuen (1974) define it: s_w^2 (n - 1) / (h (h - 1)) with h = n - 2g kept values and
    h - 1 degrees of freedom. Below 5 values nothing is trimmed and this is the mean, s^2 / n, n - 1."""
    n = len(xs)
    g = math.floor(gamma * n)
    h = n - 2 * g
    s = sorted(xs)
    kept = s[g : n - g]
    w = [kept[0]] * g + kept + [kept[-1]] * g
    mw = sum(w) / n
    sw2 = sum((x - mw) ** 2 for x in w) / (n - 1) if n > 1 else 0.0
    return sum(kept) / h, (n - 1) * sw2 / (h * (h - 1)) if h > 1 else 0.0, h - 1


def process_ci(medians: list[float]) -> tuple[float, float, float]:
    """(trimmed mean, CI low, CI high) from the processes' medians, the process being the unit of
    replication (Kalibera & Jones 2013, "Rigorous benchmarking in reasonable time", ISMM, §3): their 20%
    trimmed mean and its 95% Tukey-McLaughlin t interval (`trimmed`). The cell's time was this estimate
    until the fast half replaced it (`fast_mean`, then the fast third, now the fast quarter); the planning of
    extra rounds still reads the spread of the process medians through it (`rel_half_width`): it needs no
    samples, costs microseconds, and is wider than the fast quarter's interval on this machine, so it errs towards
    more rounds. A process whose whole run was slowed (a
    host stall, a collection at a bad time: 1.5-2x the others, a few in every run) moves a plain mean
    of five by 10-20%; trimmed, it moves it by a fraction of that (docs/methodology.md, "The
    estimator"). Needs 2 processes; below 5 it is the mean and the Student-t interval."""
    m, se2, df = trimmed(medians)
    half = t975(max(1, df)) * math.sqrt(se2)
    return m, m - half, m + half


#: the share of a cell's processes, the fastest, whose medians make its time (`fast_mean`): a third from
#: 2026-11-27 evening, a quarter from 2026-12-03 (docs/methodology.md, "The fast quarter")
FAST_SHARE = 1 / 4
#: what a run's cell times are, recorded with the run when it is finalized (`runner.finalize`), so that
#: `compare` can say when two runs' times come from different estimators
ESTIMATOR = "fast quarter of the processes at the run's clean canary speed, of process means for a collected runtime"
#: bootstrap medians drawn per process once, from which every replicate picks (`fast_replicates`)
MEDIAN_POOL = 100


def fast_weights(n: int, share: float | None = None) -> list[float]:
    """The weights fast_mean gives the n sorted process medians: each one's share of the lowest quarter
    (FAST_SHARE, or `share`) of the empirical distribution, whose points hold 1/n each (1 for the fastest
    up to 4 processes). The boundary process gets a fraction, so the estimate moves smoothly as processes
    are added instead of by a whole process at a time."""
    # rounded: a quarter of 12 must give 3 whole processes, not 2.999...
    pn = max(1.0, round((FAST_SHARE if share is None else share) * n, 9))
    return [min(1.0, max(0.0, pn - i)) for i in range(n)]


def fast_mean(xs: list[float], share: float | None = None) -> float:
    """The mean of the fastest quarter of n process medians: the mean of the empirical quantile function
    over [0, 1/4], the fastest alone up to 4 processes, (4 x1 + x2) / 5 at 5, (2 x1 + x2) / 3 at 6, the
    two fastest at 8 (x1 <= x2 <= ... sorted; `fast_weights`). It is the cell's time.

    Interference on a shared host only ever adds time, and on this VM it comes in episodes of
    0.1-17 s that slow a whole quick-mode process by 10-100% (docs/methodology.md, "The fast half",
    "The fast third", "The fast quarter"); the processes that ran undisturbed are the fast ones, so
    their mean is the estimate of what the library costs and the rest are the host's. The minimum is
    the estimator of Chen & Revels (2016, "Robust benchmarking in noisy environments", arXiv
    1608.04295) and of Python's timeit for the same reason; a mean over a fixed share keeps it from
    resting on one lucky process as processes are added, and does not drift lower with their number
    as a minimum does. The share has a fractional boundary (an L-estimator: the sample form of (1/p)
    times the integral of F^-1 over [0, p], as Acerbi & Tasche 2002, "On the coherence of expected
    shortfall", J. Banking & Finance 26(7), estimate a lower-tail mean). It was a half until
    2026-11-27 (whose parity made 4 processes agree less often than 3), a third until 2026-12-03, and
    is a quarter since: on seven noisy pairs of the default matrix of 2026-12-02/03 the second-fastest
    of 4 processes was still slowed often enough that a quarter agreed on 1.1-7.5 points more cells
    than a third from the same samples, at a cost of 1-2 points on the quiet pairs measured before
    (by the minimum, which the quarter is up to 4 processes). Each process median still holds what the
    library itself varies by within a process (its collections, its allocator), so those are part of
    the time. `share` computes another share's mean (the tools that compare estimators)."""
    return _weighted(sorted(xs), fast_weights(len(xs), share))


def _weighted(s: list[float], w: list[float]) -> float:
    """The mean of sorted values s under weights w (fast_mean's, also per bootstrap replicate)."""
    return sum(a * b for a, b in zip(w, s, strict=True) if a) / sum(w)


def fast_replicates(rounds: list[list[float]], rng: random.Random, n_boot: int, center: Center = median) -> list[float]:
    """Two-level bootstrap replicates of fast_mean (Davison & Hinkley 1997, §3.8): processes with
    replacement, then each chosen process's median from its samples resampled. The second level
    draws from MEDIAN_POOL bootstrap medians of each process made once, not fresh ones each time, so
    that a run's 1,900 cells take seconds. Without that level the interval misses the next run's
    estimate far more often than its 95% says (docs/methodology.md, "The fast half")."""
    pools = [[center(rng.choices(r, k=len(r))) for _ in range(MEDIAN_POOL)] for r in rounds]
    n = len(pools)
    w = fast_weights(n)  # fast_mean's, computed once for the n_boot replicates
    return [
        _weighted(sorted(pools[rng.randrange(n)][rng.randrange(MEDIAN_POOL)] for _ in range(n)), w)
        for _ in range(n_boot)
    ]


def time_replicates(rounds: list[list[float]], rng: random.Random, n_boot: int, center: Center = median) -> list[float]:
    """Bootstrap replicates of a cell's time as summarize estimates it: fast_replicates from
    ROUND_UNIT_MIN processes on, else the center of the one process's resampled samples."""
    if len(rounds) >= ROUND_UNIT_MIN:
        return fast_replicates(rounds, rng, n_boot, center)
    return [center(_resample(rounds, rng)) for _ in range(n_boot)]


def interval(replicates: list[float], level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap replicates (Hyndman & Fan type 7 percentiles)."""
    xs = sorted(replicates)
    a = (1 - level) / 2
    return _percentile(xs, a), _percentile(xs, 1 - a)


def percentile_ci(replicates: list[float], estimate: float, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap replicates, widened to hold the estimate itself (a
    minimum-like statistic's replicates can all lie on one side of it)."""
    lo, hi = interval(replicates, level)
    return min(estimate, lo), max(estimate, hi)


def rel_half_width(medians: list[float]) -> float:
    """The 95% CI half-width over the processes' medians relative to their time; inf below 2 processes
    (what adaptive rounds compare with the mode's target)."""
    if len(medians) < 2:
        return math.inf
    m, lo, hi = process_ci(medians)
    return (hi - lo) / 2 / m if m > 0 else math.inf


def net_replicates_ci(a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...]) -> tuple[float, float]:
    """95% percentile interval of a net time from the two cells' independent bootstrap replicates of
    their times (`fast_replicates`), paired by index: each difference is a draw of the net."""
    return interval([x - y for x, y in zip(a, b, strict=True)])


#: series longer than this use the steady half as the reference in steady_state (its cost, not its rule)
STEADY_EXACT_MAX = 2000


def steady_state(xs: list[float], k: float = WARMUP_K) -> int:
    """How many leading samples of one process are warm-up: drop sample i while it lies more than k
    robust SDs (1.4826 MAD, Rousseeuw & Croux 1993; k = 3 as Leys et al. 2013) above the median of the
    samples after it, and stop at the first that does not. At most half the samples are dropped. A
    one-sided, leading-only form of a changepoint rule: the steady-state detection of Barrett et al.
    (2017, "Virtual machine warmup blows hot and cold", OOPSLA) looks for the last changepoint of the
    series (PELT, Killick et al. 2012); warm-up makes the first samples slower, never faster. k <= 0
    keeps every sample."""
    if k <= 0 or len(xs) < 4:
        return 0
    if len(xs) > STEADY_EXACT_MAX:
        # The rule above recomputes the median and MAD of the rest for every sample it drops: O(n^2 log
        # n), minutes for one JVM process's 27,000 one-record samples that warm up for thousands of
        # them. For long series the reference is the half that is never dropped, computed once: the
        # same rule against the steady half's median and spread (the rest minus at most half of it).
        tail = xs[len(xs) // 2 :]
        m = median(tail)
        s = max(MAD_SCALE * mad(tail), WARMUP_FLOOR * m)
        dropped = 0
        while dropped < len(xs) // 2 and xs[dropped] - m > k * s:
            dropped += 1
        return dropped
    dropped = 0
    while dropped < len(xs) // 2:
        rest = xs[dropped + 1 :]
        m = median(rest)
        s = max(MAD_SCALE * mad(rest), WARMUP_FLOOR * m)
        if xs[dropped] - m <= k * s:
            break
        dropped += 1
    return dropped


@dataclass(frozen=True)
class Summary:
    median_ns: float  # the cell's time: fast_mean of the process medians (2+ rounds), else the median
    ci_low_ns: float
    ci_high_ns: float
    rcv: float  # robust CV of all the samples pooled (the figure older runs report)
    outliers: int
    n: int
    noisy: bool  # the CI half-width is above NOISY_REL_CI of the time
    modes: Modes | None = None
    rcv_within: float = 0.0  # median over processes of each process's robust CV
    cv_between: float = 0.0  # robust CV of the process medians
    rel_ci: float = 0.0  # 95% CI half-width / time
    rounds: int = 0
    warmup_dropped: int = 0  # leading samples dropped as warm-up (steady_state), over all processes
    replicates: tuple[float, ...] = ()  # the time's bootstrap replicates (2+ rounds), for net intervals


def trim(rounds: list[list[float]], warmup_k: float = WARMUP_K) -> tuple[list[list[float]], int]:
    """Each process's samples from its steady state on, and how many were dropped."""
    kept, dropped = [], 0
    for r in rounds:
        d = steady_state(r, warmup_k)
        kept.append(r[d:])
        dropped += d
    return kept, dropped


def time_of(rounds: list[list[float]], medians: list[float] | None = None, center: Center = median) -> float:
    """A cell's time from its samples per process, warm-up already dropped (trim), as summarize gives
    it: fast_mean of the process times (each its samples' `center`; `medians`, when the caller has them)
    from ROUND_UNIT_MIN processes on, else the center of the samples. `compare` computes it again for a
    run whose stored times come from another estimator."""
    if len(rounds) >= ROUND_UNIT_MIN:
        return fast_mean(medians if medians is not None else [center(r) for r in rounds])
    return center([x for r in rounds for x in r])


def summarize(
    rounds: list[list[float]],
    rng: random.Random,
    n_boot: int = 1000,
    warmup_k: float = WARMUP_K,
    center: Center = median,
) -> Summary:
    """Per-iteration times grouped by round (process) -> time, 95% CI, spreads, outliers.

    With ROUND_UNIT_MIN or more processes the process is the unit of replication: the time is the
    mean of the fastest quarter of the process medians (fast_mean) and the CI the percentile interval of its
    two-level bootstrap (fast_replicates), because the spread between fresh processes dominates on the
    reference machine and a resampling of the samples alone under-covers (tests/test_timing.py
    measures both). One process gets the two-level bootstrap over its samples,
    which says only how precisely that one process was measured. `center` is what a process's samples
    give as its time (`Center`: the median, or the mean for a collected runtime)."""
    rounds, dropped = trim(rounds, warmup_k)
    pooled = [x for r in rounds for x in r]
    meds = [center(r) for r in rounds]
    reps: list[float] = []
    mid = time_of(rounds, meds, center)
    if len(rounds) >= ROUND_UNIT_MIN:
        reps = time_replicates(rounds, rng, n_boot, center)
        lo, hi = percentile_ci(reps, mid)
    else:
        lo, hi = bootstrap_ci(rounds, rng, n_boot, center=center)
    rel = (hi - lo) / 2 / mid if mid > 0 else 0.0
    return Summary(
        mid,
        lo,
        hi,
        robust_cv(pooled),
        count_outliers(pooled),
        len(pooled),
        rel > NOISY_REL_CI,
        bimodal(pooled),
        rcv_within=median(robust_cv(r) for r in rounds),
        cv_between=robust_cv(meds) if len(meds) >= 2 else 0.0,
        rel_ci=rel,
        rounds=len(rounds),
        warmup_dropped=dropped,
        replicates=tuple(reps),
    )


def mann_whitney_p(a: list[float], b: list[float]) -> float:
    """Two-sided Mann-Whitney U test p-value (Mann & Whitney 1947). Exact by enumeration when
    C(n1+n2, n1) <= 200000 (ties handled by midranks), else the normal approximation with tie
    correction."""
    n1, n2 = len(a), len(b)
    if not n1 or not n2:
        return 1.0
    allv = sorted(a + b)
    ranks: dict[float, float] = {}
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1] == allv[i]:
            j += 1
        ranks[allv[i]] = (i + j) / 2 + 1
        i = j + 1
    pooled_ranks = [ranks[x] for x in a + b]
    r1 = sum(ranks[x] for x in a)
    u = r1 - n1 * (n1 + 1) / 2
    mean_u = n1 * n2 / 2
    if len(set(allv)) == len(allv) and n1 + n2 <= 120:
        counts = u_distribution(n1, n2)
        extreme = abs(u - mean_u)
        hits = sum(c for uu, c in enumerate(counts) if abs(uu - mean_u) >= extreme - 1e-9)
        return hits / sum(counts)
    if math.comb(n1 + n2, n1) <= 200_000:
        extreme = abs(u - mean_u)
        hits = total = 0
        for idx in combinations(range(n1 + n2), n1):
            uu = sum(pooled_ranks[k] for k in idx) - n1 * (n1 + 1) / 2
            total += 1
            hits += abs(uu - mean_u) >= extreme - 1e-9
        return hits / total
    n = n1 + n2
    ties = sum(c**3 - c for c in _tie_counts(allv))
    sd = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    if sd == 0:
        return 1.0
    z = (abs(u - mean_u) - 0.5) / sd
    return math.erfc(max(z, 0) / math.sqrt(2))


def u_distribution(n1: int, n2: int) -> list[int]:
    """How many of the C(n1+n2, n1) orderings without ties give U = 0, 1, ..., n1*n2: the coefficients
    of the Gaussian binomial [n1+n2 choose n1]_q = prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i)
    (Andrews 1976, The Theory of Partitions, §3.3). Exact integers, O(n1^2 n2) steps."""
    size = n1 * n2 + 1
    poly = [0] * size
    poly[0] = 1
    for i in range(1, n1 + 1):
        k = n2 + i
        for j in range(size - 1, k - 1, -1):  # times (1 - q^k)
            poly[j] -= poly[j - k]
        for j in range(i, size):  # divided by (1 - q^i): a running sum with stride i
            poly[j] += poly[j - i]
    return poly


def _tie_counts(sorted_xs: list[float]) -> list[int]:
    counts, i = [], 0
    while i < len(sorted_xs):
        j = i
        while j + 1 < len(sorted_xs) and sorted_xs[j + 1] == sorted_xs[i]:
            j += 1
        counts.append(j - i + 1)
        i = j + 1
    return counts


def holm(pvalues: list[float]) -> list[float]:
    """Holm-Bonferroni step-down adjusted p-values (Holm 1979), same order as given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def min_possible_p(n1: int, n2: int) -> float:
    """The smallest two-sided exact p the test can give: 2 / C(n1+n2, n1)."""
    return min(1.0, 2 / math.comb(n1 + n2, n1))


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
