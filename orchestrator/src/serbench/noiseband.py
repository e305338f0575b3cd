"""Which cells of a comparison lie outside the two runs' own noise, for `compare` in quick mode.

Three processes a cell cannot make a rank test significant (the smallest possible p of a Mann-Whitney
test on 3 and 3 round medians is 0.1), so a quick comparison's verdicts are all "not significant"
whatever happened. What a quick pair can still say is which cells moved by more than the runs'
noise explains. A cell's band comes from two sources:

- its own processes: the spread of its bootstrap ratio B/A (compare's CI, over both runs' processes
  and samples), as a standard error on the log scale;
- the host, which no run sees from inside (Kalibera & Jones 2013, "Rigorous benchmarking in
  reasonable time": a level of variation above processes): measured on the pair itself, as the
  robust spread (1.4826 × median absolute deviation) of all cells' log ratios around their median,
  less the part the cells' own errors already explain.

A cell is outside when its log ratio, with the pair's common shift (the machine's, compare's
`common_shift`) taken out, exceeds Z standard errors, Z set so that among as many cells of two runs
of one build the expected number outside is 0.05 (Bonferroni), and moves by more than compare's ±5%
agreement. The median and the MAD are robust, so a library that really changed, a few cells of many,
does not widen the band it is judged by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist, median

#: the expected number of cells outside the band between two runs of one build
FALSE_CELLS = 0.05
#: z of a 95% interval, to turn compare's CI into a standard error
Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Outside:
    row: object  # compare.Row
    z: float  # the cell's log ratio over its band's standard error
    ratio: float  # B/A with the common shift taken out

    @property
    def word(self) -> str:
        return "probably slower" if self.ratio > 1 else "probably faster"


@dataclass(frozen=True)
class Band:
    z: float  # how many standard errors the band is wide
    host_sd: float  # the host's share of the log-ratio spread
    shift: float  # the pair's median B/A, taken out
    outside: list[Outside]  # furthest first
    cells: int


def cell_sd(ci: tuple[float, float]) -> float | None:
    """A cell's standard error of log(B/A) from its 95% bootstrap CI; None when it has none."""
    lo, hi = ci
    if not (lo > 0 and hi > 0) or math.isnan(lo) or math.isnan(hi):
        return None
    return (math.log(hi) - math.log(lo)) / (2 * Z95)


def band(rows: list, floor: float) -> Band | None:
    """The cells outside the noise band among `rows` (compare.Row, with a ratio and CI), or None with
    fewer than 10 cells: too few to measure the host's share. `floor` is the smallest move named (compare's
    agreement, ±5%)."""
    usable = [(r, cell_sd(r.ci)) for r in rows if r.ratio > 0 and not r.noise and math.isfinite(r.ratio)]
    usable = [(r, sd) for r, sd in usable if sd is not None]
    if len(usable) < 10:
        return None
    logs = [math.log(r.ratio) for r, _ in usable]
    center = median(logs)
    spread = 1.4826 * median(abs(x - center) for x in logs)
    own = median(sd * sd for _, sd in usable)
    host = math.sqrt(max(0.0, spread * spread - own))
    z = NormalDist().inv_cdf(1 - FALSE_CELLS / (2 * len(usable)))
    out = []
    for (r, sd), x in zip(usable, logs, strict=True):
        d = x - center
        score = d / math.sqrt(sd * sd + host * host) if sd or host else math.inf
        if abs(score) > z and abs(math.exp(d) - 1) > floor:
            out.append(Outside(r, score, math.exp(d)))
    out.sort(key=lambda o: -abs(o.z))
    return Band(z, host, math.exp(center), out, len(usable))
