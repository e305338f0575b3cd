"""Statistics of a cell and of a comparison (docs/methodology.md cites the sources).

Everything random takes a `random.Random`, seeded by the caller, so results are reproducible and the
tests are exact.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from statistics import median

MAD_SCALE = 1.4826  # makes the MAD a consistent estimator of sigma under normality (Rousseeuw & Croux 1993)
OUTLIER_K = 3.0  # "moderately conservative" cut-off of Leys et al. 2013
NOISY_RCV = 0.05  # cells whose robust CV exceeds 5% are flagged noisy
NOISY_RUN_RCV = 2 * NOISY_RCV  # a run whose median robust CV is above this is called noisy as a whole


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
) -> tuple[float, float]:
    """Percentile bootstrap CI of median(rounds), or of median(rounds) - median(minus) when a
    baseline is given (the two resampled independently)."""
    stats = []
    for _ in range(n_boot):
        v = median(_resample(rounds, rng))
        if minus:
            v -= median(_resample(minus, rng))
        stats.append(v)
    stats.sort()
    a = (1 - level) / 2
    return _percentile(stats, a), _percentile(stats, 1 - a)


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


@dataclass(frozen=True)
class Summary:
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float
    rcv: float
    outliers: int
    n: int
    noisy: bool
    modes: Modes | None = None


def summarize(rounds: list[list[float]], rng: random.Random, n_boot: int = 1000) -> Summary:
    """Per-iteration times grouped by round -> median, 95% CI, robust CV, outliers."""
    pooled = [x for r in rounds for x in r]
    lo, hi = bootstrap_ci(rounds, rng, n_boot)
    rcv = robust_cv(pooled)
    return Summary(median(pooled), lo, hi, rcv, count_outliers(pooled), len(pooled), rcv > NOISY_RCV, bimodal(pooled))


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
