"""How a decoder row's cost grows with the size of the depth and length families (issue 73), from the
wall times of the robustness run's own processes: no extra process is started.

Method. Each family (nested arrays, nested maps, string length, array length) has cases at sizes about
3x to 10x apart (cases.py, grammar_cases.py). A case's wall time is a whole `verify` process: start-up,
reading the file, the decode, the harness's hash walk, exit. The fixed part is estimated from the same
row's specification cases (every one under 1 KB, dozens per row): their median is the row's cost of a
process that decodes next to nothing, and the spread above it (90th percentile minus median) its noise.
With cases side by side (`--jobs`, one per CPU by default), the specification cases and the family
cases of a row run under the same concurrency, so the fixed cost subtracted is that of a process
sharing the machine as the family's did. A family case's net time is its wall time minus that median; a
point is used only when its net time is above both MIN_NET_S and NOISE_FACTOR times the noise, so
start-up jitter is not fitted. The exponent is the least-squares slope of log(net time) on log(size),
the power-law fit of Goldsmith, Aiken and Wilkerson, "Measuring Empirical Computational Complexity"
(ESEC/FSE 2007, §3), over the sizes the row read whole (accepted, with any hash); sizes it refused (a
depth limit) or failed on are not points. An exponent of QUADRATIC or more is "quadratic (or worse)
growth", and a case of the family that ran into the wall-clock limit at a size above every fitted one
is reported as that growth, not as a hang (`reclassify`): the time it would need follows from the fit.

A single process per size is one measurement, not a benchmark: an exponent is stated with the sizes
and net times it comes from, and only a slope over at least MIN_SPAN in size is claimed.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

#: (family, class, case name pattern, unit of size)
FAMILIES = (
    ("nesting depth (arrays)", "mutation/deep-nesting", re.compile(r"deep-(\d+)"), "depth"),
    ("nesting depth (maps)", "mutation/deep-nesting", re.compile(r"deep-map-(\d+)"), "depth"),
    ("string length", "mutation/long-string", re.compile(r"long-string-(\d+)"), "bytes"),
    ("array length", "mutation/many-items", re.compile(r"wide-(\d+)"), "items"),
)
QUADRATIC = 1.8
SUPERLINEAR = 1.3
MIN_NET_S = 0.010
NOISE_FACTOR = 3.0
#: the largest fitted size over the smallest: below it two noisy points could give any slope
MIN_SPAN = 3.0
#: how the outcome of a hang is named when the row's growth explains it (run.py's outcomes)
GROWTH_OUTCOME = "quadratic"
READ_WHOLE = ("accepted", "other-hash")
DECODE_TESTS = ("tree", "incremental")


@dataclass
class Fit:
    """One row's growth on one family."""

    family: str
    unit: str
    base_s: float  # the row's fixed cost per process (median of its specification cases)
    noise_s: float
    points: list[tuple[int, float]] = field(default_factory=list)  # (size, net seconds) fitted
    exponent: float | None = None
    hung: list[int] = field(default_factory=list)  # sizes killed at the time limit
    failed: dict[int, str] = field(default_factory=dict)  # size -> crashed / oom

    @property
    def kind(self) -> str | None:
        """ "quadratic", "superlinear", "linear" (or better), or None when there is no fit."""
        if self.exponent is None:
            return None
        if self.exponent >= QUADRATIC:
            return "quadratic"
        return "superlinear" if self.exponent >= SUPERLINEAR else "linear"

    def sizes_text(self) -> str:
        return ", ".join(f"{n:,}: {t:.3g} s" for n, t in self.points)

    def describe(self) -> str:
        """e.g. "time grows as depth^2.03 (net time at depth 1,000: 0.012 s, 3,000: 0.11 s, ...)"."""
        return f"time grows as {self.unit}^{self.exponent:.2f} (net time at {self.unit} {self.sizes_text()})"


def family_of(r: dict) -> tuple[str, str, int] | None:
    """(family, unit, size) of a result whose case is one of a family's sizes, or None."""
    for name, cls, pat, unit in FAMILIES:
        m = pat.fullmatch(r["case_name"])
        if r["class"] == cls and m:
            return name, unit, int(m.group(1))
    return None


def fixed_cost(results: list[dict]) -> tuple[float, float]:
    """(median, 90th percentile minus median) of the wall times of the row's specification cases that
    ended within the protocol: the cost of a process that decodes next to nothing, and its noise."""
    ok = ("accepted", "other-hash", "rejected")
    ws = sorted(r["wall_s"] for r in results if r["class"].startswith("spec/") and r["outcome"] in ok and r["wall_s"])
    if len(ws) < 5:  # your own cases (--cases) or a filtered run: the row's fastest processes instead
        ws = sorted(r["wall_s"] for r in results if r["outcome"] in ok and r["wall_s"])[:20]
    if not ws:
        return 0.0, 0.0
    med = ws[len(ws) // 2]
    return med, max(0.0, ws[int(0.9 * (len(ws) - 1))] - med)


def slope(points: list[tuple[int, float]]) -> float:
    """Least-squares slope of log(t) on log(n)."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def fit_row(results: list[dict]) -> list[Fit]:
    """The row's fit on each family it has cases of (one row: one harness, bench, test and format)."""
    base, noise = fixed_cost(results)
    floor = max(MIN_NET_S, NOISE_FACTOR * noise)
    fits: dict[str, Fit] = {}
    for r in results:
        fam = family_of(r)
        if fam is None:
            continue
        name, unit, n = fam
        f = fits.setdefault(name, Fit(name, unit, base, noise))
        if r["outcome"] in READ_WHOLE and r["wall_s"] is not None and r["wall_s"] - base >= floor:
            f.points.append((n, r["wall_s"] - base))
        elif r["outcome"] in ("hung", GROWTH_OUTCOME):
            f.hung.append(n)
        elif r["outcome"] in ("crashed", "oom"):
            f.failed[n] = r["outcome"]
    out = []
    for f in fits.values():
        f.points.sort()
        f.hung.sort()
        if len(f.points) >= 2 and f.points[-1][0] >= MIN_SPAN * f.points[0][0]:
            f.exponent = slope(f.points)
        out.append(f)
    return sorted(out, key=lambda f: [x[0] for x in FAMILIES].index(f.family))


def row_key(r: dict) -> tuple:
    return (r["harness"], r["bench"], r["test"], r["format"])


def fits(results: list[dict]) -> dict[tuple, list[Fit]]:
    """Every row's fits, by (harness, bench, test, format)."""
    rows: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        if r["test"] in DECODE_TESTS:  # the writers' cases have no growth families (yet)
            rows[row_key(r)].append(r)
    return {k: fit_row(rs) for k, rs in rows.items()}


def reclassify(results: list[dict], timeout_s: float) -> list[dict]:
    """The results to store again: each hang of a family, at a size above every size the row's fit
    used, in a row whose exponent there is QUADRATIC or more, becomes "quadratic" growth with a reason
    that gives the exponent, the sizes measured and the time the fit predicts at the hang's size."""
    by_row = fits(results)
    changed = []
    for r in results:
        fam = family_of(r)
        if r["outcome"] != "hung" or fam is None or row_key(r) not in by_row:
            continue
        f = next((x for x in by_row[row_key(r)] if x.family == fam[0]), None)
        if f is None or f.kind != "quadratic" or fam[2] <= f.points[-1][0]:
            continue
        n_top, t_top = f.points[-1]
        predicted = t_top * (fam[2] / n_top) ** f.exponent
        reason = (
            f"quadratic (or worse) growth, not a hang: {f.describe()}; at {f.unit} {fam[2]:,} that growth "
            f"predicts about {predicted:,.0f} s, past the {timeout_s:g} s limit, where the process was killed"
        )
        changed.append(dict(r, outcome=GROWTH_OUTCOME, reason=reason))
    return changed


def notable(by_row: dict[tuple, list[Fit]]) -> list[tuple[tuple, Fit]]:
    """The fits that grow faster than linearly, the steepest first."""
    out = [(k, f) for k, fs in by_row.items() for f in fs if f.kind in ("quadratic", "superlinear")]
    return sorted(out, key=lambda kf: (-kf[1].exponent, kf[0]))


def record_reclassified(db, run_id: str, timeout_s: float) -> int:
    """Store again the run's hangs that `reclassify` explains by growth; returns how many."""
    changed = reclassify(db.robustness_results(run_id), timeout_s)
    for r in changed:
        db.record_robustness(run_id, r)
    return len(changed)
