"""`serbench compare RUN_A RUN_B`: per-cell ratio with a CI, a significance verdict, and the geometric
mean per library (DESIGN §6)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from statistics import median

from . import stats
from .report.units import fmt_ns
from .store import Store

ALPHA = 0.05
KEY = ("harness", "bench", "test", "dataset", "format")


@dataclass
class Row:
    key: tuple
    library: str
    a_ns: float
    b_ns: float
    ratio: float
    ci: tuple[float, float]
    p: float
    p_adj: float = 1.0
    verdict: str = ""


def _value(rounds, base, rng):
    v = median(stats._resample(rounds, rng))
    return v - median(stats._resample(base, rng)) if base else v


def compare(store: Store, run_a: str, run_b: str, n_boot: int = 500, seed: int = 1) -> tuple[list[Row], dict]:
    def cells(run_id):
        rows = store.cells(run_id)
        by_bench = {(r["harness"], r["bench"], r["dataset"], r["format"]): r for r in rows}
        out = {}
        for r in rows:
            if r["status"] != "ok" or r["is_baseline"] or r["median_ns"] is None:
                continue
            base = by_bench.get((r["harness"], r["baseline_bench"], r["dataset"], r["format"]))
            out[tuple(r[k] for k in KEY)] = (r, base)
        return out

    ca, cb = cells(run_a), cells(run_b)
    rows: list[Row] = []
    for key in sorted(ca.keys() & cb.keys()):
        (ra, ba), (rb, bb) = ca[key], cb[key]
        sa, sb = list(store.samples(ra["id"]).values()), list(store.samples(rb["id"]).values())
        bsa = list(store.samples(ba["id"]).values()) if ba else None
        bsb = list(store.samples(bb["id"]).values()) if bb else None
        a_ns = ra["net_ns"] if ra["net_ns"] is not None else ra["median_ns"]
        b_ns = rb["net_ns"] if rb["net_ns"] is not None else rb["median_ns"]
        rng = random.Random(seed)
        boots = []
        for _ in range(n_boot):
            va, vb = _value(sa, bsa, rng), _value(sb, bsb, rng)
            if va > 0:
                boots.append(vb / va)
        boots.sort()
        ci = (stats._percentile(boots, 0.025), stats._percentile(boots, 0.975)) if boots else (float("nan"),) * 2
        # The test compares round medians: rounds are the independent units (fresh processes).
        p = stats.mann_whitney_p([median(r) for r in sa], [median(r) for r in sb])
        rows.append(Row(key, ra["library"], a_ns, b_ns, b_ns / a_ns if a_ns > 0 else float("nan"), ci, p))
    for row, adj in zip(rows, stats.holm([r.p for r in rows]), strict=True):
        row.p_adj = adj
        if adj < ALPHA:
            row.verdict = "faster" if row.ratio < 1 else "slower"
        else:
            row.verdict = "not significant"
    geo: dict[str, float] = {}
    for lib in sorted({r.library for r in rows}):
        geo[lib] = stats.geomean([r.ratio for r in rows if r.library == lib])
    return rows, geo


def render(rows: list[Row], geo: dict, run_a: str, run_b: str, rounds: tuple[int, int]) -> str:
    out = [
        f"# serbench compare: {run_a} (A) vs {run_b} (B)",
        "",
        "Ratio = B / A of net time per operation (below 1: B is faster). CI: 95% bootstrap. "
        "Significance: two-sided Mann-Whitney U on round medians, Holm-adjusted over all "
        f"{len(rows)} cells, α = {ALPHA}.",
        "",
    ]
    floor = stats.min_possible_p(*rounds)
    if floor >= ALPHA:
        out += [
            f"Note: with {rounds[0]} and {rounds[1]} rounds the smallest possible p is {floor:.3f}, so no cell "
            "can be significant; run both in full mode (`--mode full`) for a verdict.",
            "",
        ]
    out += [
        "| Lang | Benchmark | Test | Dataset | Format | A | B | B/A | 95% CI | p (adj.) | Verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        h, b, t, d, f = r.key
        out.append(
            f"| {h} | {b} | {t} | {d} | {f} | {fmt_ns(r.a_ns)} | {fmt_ns(r.b_ns)} | {r.ratio:.3f} | "
            f"{r.ci[0]:.3f} – {r.ci[1]:.3f} | {r.p_adj:.3g} | {r.verdict} |"
        )
    out += ["", "Geometric mean of B/A per library:", "", "| Library | Geomean B/A |", "|---|---|"]
    out += [f"| {lib} | {g:.3f} |" for lib, g in geo.items()]
    return "\n".join(out) + "\n"
