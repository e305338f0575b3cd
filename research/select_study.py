"""Should the canary choose a cell's processes instead of correcting them? Reads two runs of one build
from the store and counts, for three ways of using each process's canary, the share of rows whose net
(and gross) times agree within +-5% (docs/methodology.md, "Choosing clean processes instead of
correcting them"):

- raw: the canary unused, each process as measured;
- ratio: each process multiplied by reference / its canary's median (the ratio estimator, slope 1);
- select: the processes whose canary's median is within ZONE of the reference, as measured; a cell
  with none falls back to ratio.

The reference is each harness's clean canary time in the run (canary.reference over its processes'
canary medians, canary.process_median). A process's time is the mean (Go, Java:
harnesses.process_center) or median of its samples from its steady state on (stats.steady_state), a
cell's the fast quarter of its processes (stats.fast_mean), a row's net its time less its baseline
cell's (same harness, dataset and format), rows at or below their baseline left out; a row agrees
within compare.AGREE. This approximates what `runner.finalize` does (which also applies the running
median of canary.WINDOW and each harness's fitted slope, against the store's reference), so compare
its "ratio" with `research/canary_effect.py` before reading a difference.

    .venv/bin/python research/select_study.py RUN_A RUN_B [--db results/serbench.db] [--zone 0.05 ...]

Read-only; about a second for two quick runs of the default matrix.
"""

from __future__ import annotations

import argparse
import collections
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "orchestrator" / "src"))

from serbench import canary, harnesses, pipes, stats  # noqa: E402
from serbench.compare import AGREE  # noqa: E402

#: a process: (its time per operation, its canary's median or None)
Proc = tuple[float, float | None]
#: (harness, bench, test, dataset, format)
Key = tuple[str, str, str, str, str]


def load(db: sqlite3.Connection, run: str) -> tuple[dict[Key, list[Proc]], dict[Key, str | None], dict[str, float]]:
    """Each cell's processes, each cell's baseline bench ("" for a baseline cell), and each harness's
    reference canary time."""
    meta, base = {}, {}
    for cid, *key, is_baseline, baseline in db.execute(
        "SELECT id, harness, bench, test, dataset, format, is_baseline, baseline_bench FROM cells"
        " WHERE run_id=? AND status='ok'",
        (run,),
    ):
        meta[cid] = tuple(key)
        base[tuple(key)] = "" if is_baseline else baseline
    per: dict[int, dict[int, list[tuple[float, int | None]]]] = collections.defaultdict(
        lambda: collections.defaultdict(list)
    )
    for cid, rnd, iterations, wall, can in db.execute(
        "SELECT s.cell_id, s.round, s.iterations, s.wall_ns, s.canary_ns FROM samples s JOIN cells c ON c.id=s.cell_id"
        " WHERE c.run_id=? AND c.status='ok' AND s.round>=0 ORDER BY s.cell_id, s.round, s.idx",
        (run,),
    ):
        per[cid][rnd].append((wall / iterations, can))
    procs: dict[Key, list[Proc]] = {}
    canaries: dict[str, list[float]] = collections.defaultdict(list)
    for cid, rounds in per.items():
        key, out = meta[cid], []
        for samples in rounds.values():
            times = [t for t, _ in samples]
            times = times[stats.steady_state(times) :]
            if not times:
                continue
            center = harnesses.process_center(key[0])(times)  # a collected runtime's by its mean
            can = canary.process_median([c for _, c in samples])
            out.append((center, can))
            if can is not None:
                canaries[key[0]].append(can)
        procs[key] = out
    return procs, base, {h: canary.reference(v) for h, v in canaries.items()}


def cell_time(procs: list[Proc], ref: float | None, way: str, zone: float) -> float:
    if way == "raw" or ref is None:
        return stats.fast_mean([t for t, _ in procs])
    corrected = [t * canary.factor(c, ref) for t, c in procs]
    clean = [t for t, c in procs if c and c <= ref * (1 + zone)]
    return stats.fast_mean(clean if way == "select" and clean else corrected)


def times(procs, base, ref, way: str, zone: float) -> dict[Key, tuple[float, float]]:
    """Each row's (gross, net) time, a baseline cell's left out; a row without a baseline has its gross
    as its net. A row's baseline is the cell of its baseline bench with its harness, dataset and format
    (as runner.finalize pairs them)."""
    gross = {k: cell_time(p, ref.get(k[0]), way, zone) for k, p in procs.items() if p}
    by_bench = {(h, b, d, f): g for (h, b, _, d, f), g in gross.items()}
    out = {}
    for k, g in gross.items():
        b = base.get(k)
        if b == "":  # a baseline cell (load marks them)
            continue
        bt = by_bench.get((k[0], b, k[3], k[4])) if b else None
        out[k] = (g, g - bt if bt is not None else g)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_a")
    p.add_argument("run_b")
    p.add_argument("--db", default="results/serbench.db")
    p.add_argument("--zone", type=float, action="append", help="select's zone around the reference (default 0.05)")
    args = p.parse_args()
    try:
        db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
        a, b = load(db, args.run_a), load(db, args.run_b)
    except sqlite3.Error as e:
        print(f"select_study: cannot read {args.db}: {e}", file=sys.stderr)
        return 2
    if not a[0] or not b[0]:
        print(f"select_study: no measured cells in {args.run_a if not a[0] else args.run_b}", file=sys.stderr)
        return 2
    ways = [("raw", 0.0), ("ratio", 0.0)] + [("select", z) for z in args.zone or [0.05]]
    for way, zone in ways:
        ta, tb = times(*a, way, zone), times(*b, way, zone)
        rows = [k for k in ta.keys() & tb.keys() if ta[k][1] > 0 and tb[k][1] > 0]
        net = collections.Counter(k[0] for k in rows if abs(tb[k][1] / ta[k][1] - 1) <= AGREE)
        gross = sum(abs(tb[k][0] / ta[k][0] - 1) <= AGREE for k in rows)
        total = collections.Counter(k[0] for k in rows)
        label = f"select {zone:g}" if way == "select" else way
        by = ", ".join(f"{h} {100 * net[h] / count:.1f}%" for h, count in sorted(total.items()))
        share, gshare = (100 * x / max(len(rows), 1) for x in (sum(net.values()), gross))
        print(f"{label:>12}: net {share:.1f}%, gross {gshare:.1f}% of {len(rows)} rows ({by})")
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
