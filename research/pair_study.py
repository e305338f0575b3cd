"""Why do two quick runs of the same build disagree? Reads two runs from the store and prints, from
their process medians (docs/methodology.md, "What limits a quick pair's agreement"). It reads the
samples as measured, without the canary of protocol 1.9 but in part 6 (`research/canary_effect.py` shows
what the canary changes):

1. run effects: per group, the RMS of each cell's B/A log-difference against the RMS its own
   processes' spread predicts (a ratio near 1: the runs differ only by process noise);
2. drift: the machine's speed over each run, as the mean residual (a process against its cell's mean)
   in 30-second bins, per group, and how the groups' bins correlate (near 1: common to all cells);
3. a correction for that drift (a moving median of the residuals of the processes around each one):
   how much it narrows the spread of B/A;
4. how many processes per cell the agreement goal needs: both runs redrawn (with replacement) from the
   pooled process medians of each cell in A and B, n processes a cell, their fast quarter net of its
   baseline's, counted within +-5%;
5. other estimators over the same samples (each process's steady state): the share of cells whose
   gross times agree within +-5%, the share of rows whose net times do (as `compare` counts them:
   rows within baseline noise in either stored run left out), and how far each estimate sits below
   the fast quarter (the runs' estimator) in run A, per harness (median and 5th percentile over cells): a low quantile
   inside a process agrees better on a noisy host but drops the collections of a garbage-collected
   library's slow batches;
6. how much a process's sample count matters: the share of cells whose gross times agree within
   +-5%, per harness, with each process's median taken over all of its steady samples and over only
   its last 5 or 10 (a Go process of quick mode has 5 samples of 10 ms, the others 15-18 of 1-2 ms),
   as measured and, where the run has canaries, with each sample multiplied by its canary factor as
   `compare` reads the run (canary.factors: the running median of canary.WINDOW, the run's reference
   and slope).

    .venv/bin/python research/pair_study.py RUN_A RUN_B [--db results/serbench.db]

Read-only; safe beside anything but a benchmark (it computes for a few seconds: 7 s on two runs of
1,955 cells).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import math
import random
import sqlite3
import statistics as st
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "orchestrator" / "src"))

from serbench import canary, pipes, stats  # noqa: E402


def group(key: tuple) -> str:
    """A cell key's group: its harness and its dataset, every typed dataset as one."""
    h, _, test, ds, _ = key
    return f"{h} {'typed' if test.startswith('typed-') else ds}"


class Run(NamedTuple):
    """One run as the parts read it."""

    procs: list[list]  # [finished_at, cell key, log process median], by finished_at
    base: dict  # {cell key: its baseline's key, or None}
    steady: dict  # {cell key: each process's per-iteration times from its steady state on}
    factors: dict  # {cell key: each process's canary factors (protocol 1.9) over the same samples, as
    # `compare` reads the run}, for the cells whose every sample has a canary and whose harness the run
    # has a reference for; {} for a store from before protocol 1.9 or a run made with --no-canary


def load(db: sqlite3.Connection, run: str) -> Run:
    """Every measured process of `run`, in one pass over its samples."""
    procs, base, steady, factors = [], {}, {}, {}
    try:
        row = db.execute("select env_json from runs where id=?", (run,)).fetchone()
    except sqlite3.OperationalError:  # a store with no runs table: only samples to read
        row = None
    speeds = canary.recorded(json.loads(row[0])) if row else {}  # as the run's finalize recorded them
    cells = db.execute(
        "select id, harness, bench, baseline_bench, test, dataset, format from cells where run_id=? and status='ok'",
        (run,),
    ).fetchall()
    try:
        db.execute("select canary_ns from samples limit 0")
        column = "canary_ns"
    except sqlite3.OperationalError:  # a store from before protocol 1.9
        column = "NULL"
    for cid, h, bench, bb, test, ds, fmt in cells:
        key = (h, bench, test, ds, fmt)
        base[key] = (h, bb, ds, fmt) if bb else None
        per, can = collections.defaultdict(list), collections.defaultdict(list)
        for rnd, it, w, c in db.execute(
            f"select round, iterations, wall_ns, {column} from samples"
            " where cell_id=? and round>=0 order by round, idx",
            (cid,),
        ):
            per[rnd].append(w / it)
            can[rnd].append(c)
        fin = dict(db.execute("select round, finished_at from rounds where cell_id=? and round>=0", (cid,)))
        procs += [[fin[r], key, math.log(st.median(v))] for r, v in per.items() if v and r in fin]
        rounds = [r for r, v in sorted(per.items()) if v]
        cuts = [stats.steady_state(per[r]) for r in rounds]
        steady[key] = [per[r][i:] for r, i in zip(rounds, cuts, strict=True)]
        if rounds and h in speeds and all(c for r in rounds for c in can[r]):
            # over all of a process's samples, as Store.samples takes them, then cut where the steady state
            # of the times as measured starts (a run cuts its times divided: the same cut, or near it)
            fs = [canary.factors(can[r], speeds[h].reference_ns, canary.WINDOW, speeds[h].slope) for r in rounds]
            factors[key] = [f[i:] for f, i in zip(fs, cuts, strict=True)]
    procs.sort(key=lambda p: p[0])
    return Run(procs, base, steady, factors)


def per_cell(procs: list[list], corr: list[float] | None = None) -> dict:
    out = collections.defaultdict(list)
    for i, (_, key, lm) in enumerate(procs):
        out[key].append(lm - (corr[i] if corr else 0.0))
    return out


def run_effects(a: dict, b: dict) -> None:
    print("1. B/A of each cell against its processes' spread (log scale)")
    print(f"   {'group':16} {'cells':>5} {'rms B/A':>8} {'predicted':>9} {'ratio':>6}")
    agg = collections.defaultdict(list)
    for k in a.keys() & b.keys():
        pa, pb = a[k], b[k]
        if len(pa) < 2 or len(pb) < 2:
            continue
        d = st.mean(pb) - st.mean(pa)
        s2 = ((len(pa) - 1) * st.variance(pa) + (len(pb) - 1) * st.variance(pb)) / (len(pa) + len(pb) - 2)
        se2 = s2 * (1 / len(pa) + 1 / len(pb))
        for g in ("all", k[0], group(k)):
            agg[g].append((d * d, se2))
    for g in sorted(agg, key=lambda g: (g != "all", g)):
        v = agg[g]
        rd, rs = math.sqrt(st.mean(x for x, _ in v)), math.sqrt(st.mean(y for _, y in v))
        print(f"   {g:16} {len(v):5} {rd:8.2%} {rs:9.2%} {rd / rs:6.2f}")


def residuals(procs: list[list], corr: list[float] | None = None) -> list[float]:
    means = {k: st.mean(v) for k, v in per_cell(procs, corr).items()}
    return [lm - (corr[i] if corr else 0.0) - means[k] for i, (_, k, lm) in enumerate(procs)]


def drift(run: str, procs: list[list], bin_s: float = 30.0) -> None:
    res, t0 = residuals(procs), procs[0][0]
    bins: dict = collections.defaultdict(lambda: collections.defaultdict(list))
    for (t, k, _), r in zip(procs, res, strict=True):
        bins[int((t - t0) // bin_s)][k[0]].append(r)
    names = sorted({h for b in bins.values() for h in b})
    series = {h: [st.mean(bins[i][h]) if len(bins[i][h]) >= 8 else math.nan for i in sorted(bins)] for h in names}
    print(f"2. drift of run {run}: mean residual per {bin_s:.0f} s bin, by harness (%)")
    for h in names:
        print(f"   {h:8} " + " ".join("   ." if math.isnan(x) else f"{x * 100:+4.1f}" for x in series[h]))
    cors = []
    for x, y in itertools.combinations(names, 2):
        pairs = [(p, q) for p, q in zip(series[x], series[y], strict=True) if not (math.isnan(p) or math.isnan(q))]
        if len(pairs) > 5:
            cors.append(st.correlation([p for p, _ in pairs], [q for _, q in pairs]))
    if cors:
        print(f"   correlation of the harnesses' bins: {min(cors):+.2f} to {max(cors):+.2f}")


def moving_drift(procs: list[list], half: int, iters: int = 2) -> list[float]:
    corr = [0.0] * len(procs)
    for _ in range(iters):
        res = residuals(procs, corr)
        corr = [c + st.median(res[max(0, i - half) : i] + res[i + 1 : i + half + 1]) for i, c in enumerate(corr)]
    return corr


def spread_of_ratio(a: dict, b: dict) -> float:
    return stats.MAD_SCALE * stats.mad([st.mean(b[k]) - st.mean(a[k]) for k in a.keys() & b.keys()])


def drift_correction(pa: list[list], pb: list[list]) -> None:
    print("3. the spread of B/A over cells (robust SD of log B/A), with the drift taken out")
    print(f"   as measured: {spread_of_ratio(per_cell(pa), per_cell(pb)):.2%}")
    for half in (50, 100, 300):
        a, b = per_cell(pa, moving_drift(pa, half)), per_cell(pb, moving_drift(pb, half))
        print(f"   moving median of +-{half} processes: {spread_of_ratio(a, b):.2%}")


def _baselines(cells, base: dict) -> dict:
    """{row: its baseline's cell key} for the rows among `cells` whose baseline is among them, in
    the order of `cells` (`base` maps a row to its baseline's (harness, bench, dataset, format))."""
    by_base = {(k[0], k[1], k[3], k[4]): k for k in cells}
    return {k: by_base[base[k]] for k in cells if base.get(k) in by_base}


def processes_needed(a: dict, b: dict, base: dict, reps: int = 20) -> None:
    # in sorted order: a set's order changes with PYTHONHASHSEED, and with it which draws each cell gets
    pooled = {k: [math.exp(x) for x in a.get(k, []) + b.get(k, [])] for k in sorted(a.keys() | b.keys())}
    rows = [(k, bk) for k, bk in _baselines(pooled, base).items() if len(pooled[k]) >= 4]
    rng = random.Random(1)

    def draw(k: tuple, n: int) -> float:  # the cell's time as a run gives it (stats.summarize)
        return stats.fast_mean([rng.choice(pooled[k]) for _ in range(n)])

    print("4. agreement within +-5% of net times, both runs redrawn with n processes per cell")
    for n in (3, 4, 5, 6, 8, 10):
        ok = total = 0
        for k, bk in rows:
            for _ in range(reps):
                x, y = draw(k, n) - draw(bk, n), draw(k, n) - draw(bk, n)
                if x > 0 and y > 0:
                    total += 1
                    ok += abs(y / x - 1) <= 0.05
        print(f"   n = {n:2}: {ok / total:.1%} of {len(rows)} cells")


def _quantile(xs: list[float], q: float) -> float:
    return stats._percentile(sorted(xs), q)  # type 7, as the runs' intervals


def _fast_half(xs: list[float]) -> float:
    """The mean of the floor(n/2) fastest (the fastest below 4): the runs' estimator until 2026-11-27."""
    k = max(1, len(xs) // 2)
    return sum(sorted(xs)[:k]) / k


def _pooled(rounds: list[list[float]], q: float) -> float:
    """The q quantile of a cell's samples pooled, each process weighted alike (101 quantiles each)."""
    points = []
    for r in rounds:
        s = sorted(r)
        points += [stats._percentile(s, i / 100) for i in range(101)]
    return _quantile(points, q)


ESTIMATORS = {
    "fast quarter of medians": lambda rs: stats.fast_mean([st.median(r) for r in rs]),  # the runs' (stats.ESTIMATOR)
    "fast third of medians": lambda rs: stats.fast_mean([st.median(r) for r in rs], 1 / 3),  # until 2026-12-03
    "fast half of medians": lambda rs: _fast_half([st.median(r) for r in rs]),  # the runs' until 2026-11-27
    "minimum of medians": lambda rs: min(st.median(r) for r in rs),
    "fast quarter of 25th pct": lambda rs: stats.fast_mean([_quantile(r, 0.25) for r in rs]),
    "fast quarter of 10th pct": lambda rs: stats.fast_mean([_quantile(r, 0.10) for r in rs]),
    "pooled 10th pct": lambda rs: _pooled(rs, 0.10),
}


def within_noise(db: sqlite3.Connection, run: str) -> set:
    """The run's rows whose stored net CI reaches zero: `compare` leaves them out of its agreement."""
    rows = db.execute(
        "select harness, bench, test, dataset, format from cells where run_id=? and net_ci_low_ns <= 0", (run,)
    )
    return {tuple(r) for r in rows}


def _nets(est: dict, base: dict) -> dict:
    """Net time per row (its estimate minus its baseline's, both by one estimator)."""
    return {k: est[k] - est[bk] for k, bk in _baselines(est, base).items()}


def estimators(sa: dict, sb: dict, base: dict | None = None, noise: set | None = None) -> None:
    keys = sorted(sa.keys() & sb.keys())
    print(
        f"5. other estimators: gross and net times within +-5% ({len(keys)} cells; nets as compare counts them), "
        "and estimate / fast quarter in A"
    )
    print(f"   {'estimator':24} {'gross':>6} {'net':>6}  per harness: median, 5th percentile of the ratio")
    ref = {k: ESTIMATORS["fast quarter of medians"](sa[k]) for k in keys}
    for name, f in ESTIMATORS.items():
        ea, eb = {k: f(sa[k]) for k in keys}, {k: f(sb[k]) for k in keys}
        ok = sum(abs(eb[k] / ea[k] - 1) <= 0.05 for k in keys)
        na, nb = _nets(ea, base or {}), _nets(eb, base or {})
        rows = [k for k in na if k in nb and k not in (noise or set()) and na[k] > 0 and nb[k] > 0]
        net = f"{sum(abs(nb[k] / na[k] - 1) <= 0.05 for k in rows) / len(rows):6.1%}" if rows else f"{'-':>6}"
        by = collections.defaultdict(list)
        for k in keys:
            by[k[0]].append(ea[k] / ref[k])
        ratios = "  ".join(f"{h} {st.median(r):.3f} {_quantile(r, 0.05):.3f}" for h, r in sorted(by.items()))
        print(f"   {name:24} {ok / len(keys):6.1%} {net}  {ratios}")


def sample_counts(sa: dict, sb: dict, ca: dict | None = None, cb: dict | None = None, counts=(None, 10, 5)) -> None:
    """Part 6, as measured and, where the runs have canaries, with each sample multiplied by its canary
    factor (`Run.factors`: as `compare` reads the runs)."""
    print("6. gross times within +-5% per harness, each process's median over its last k steady samples")
    ways = [("as measured", sa, sb, None, None)]
    if ca and cb:
        ways.append(("÷canary", sa, sb, ca, cb))
    for way, xa, xb, ya, yb in ways:
        keys = sorted(xa.keys() & xb.keys() & (ya.keys() & yb.keys() if ya is not None else xa.keys()))
        for k in counts:

            def f(rs: list[list[float]], cs: list[list[float]] | None, k=k) -> float:
                cut = (lambda xs: xs[-k:]) if k else (lambda xs: xs)
                if cs is not None:
                    rs = [[t * f for t, f in zip(r, c, strict=True)] for r, c in zip(rs, cs, strict=True)]
                return stats.fast_mean([st.median(cut(r)) for r in rs])

            by = collections.defaultdict(list)
            for key in keys:
                ea = f(xa[key], ya[key] if ya is not None else None)
                eb = f(xb[key], yb[key] if yb is not None else None)
                by[key[0]].append(abs(eb / ea - 1) <= 0.05)
            cells = "  ".join(f"{h} {sum(v) / len(v):6.1%}" for h, v in sorted(by.items()))
            print(f"   {way:12} {'all samples' if k is None else f'last {k}':12} {cells}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_a")
    p.add_argument("run_b")
    p.add_argument("--db", default="results/serbench.db")
    args = p.parse_args()
    try:
        db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
        ra = load(db, args.run_a)
    except sqlite3.Error as e:
        print(f"pair_study: cannot read {args.db}: {e}", file=sys.stderr)
        return 2
    rb = load(db, args.run_b)
    if not ra.procs or not rb.procs:
        print(f"pair_study: no measured cells in {args.run_a if not ra.procs else args.run_b}", file=sys.stderr)
        return 2
    pa, pb, base, sa, sb = ra.procs, rb.procs, ra.base | rb.base, ra.steady, rb.steady
    a, b = per_cell(pa), per_cell(pb)
    run_effects(a, b)
    drift(args.run_a, pa)
    drift(args.run_b, pb)
    drift_correction(pa, pb)
    processes_needed(a, b, base)
    estimators(sa, sb, base, within_noise(db, args.run_a) | within_noise(db, args.run_b))
    sample_counts(sa, sb, ra.factors, rb.factors)
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
