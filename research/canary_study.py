"""Does the canary (protocol 1.9) make processes of one cell, minutes apart, agree? Runs cells through
their harnesses in repetitions (each: `--processes` fresh processes of each cell, pinned to the last
allowed core, quick mode's 25 ms by default) for `--seconds`, then prints per cell, as measured and
divided by the canary as the orchestrator divides (canary.py; one reference per harness for the whole
study):

1. the robust CV of all the processes' medians, and the correlation of a process's log-median with
   its canary's;
2. how often the fast quarter of one repetition's processes (stats.fast_mean, the runs' estimator) is
   within ±5% of the one half the study later: two quick runs of one build stand to each other so.

    .venv/bin/python research/canary_study.py --cell native:msgpack-c:tree:msgpack:size-4 \\
        --cell native:jansson-load:tree:json:size-4 [--seconds 600] [--processes 4] [--budget-ms 25]

It is a benchmark: run nothing else meanwhile. The harnesses must be built (`./serbench build`) and the
corpus written (`./serbench corpus`). docs/methodology.md, "The canary", has what it measured.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics as st
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))
sys.path.insert(0, str(ROOT / "research"))

import noise_study  # noqa: E402
from serbench import canary, pipes, stats  # noqa: E402

AGREE = 0.05


def process(rows: list[dict]) -> tuple[float, float | None]:
    """(the process's median per-iteration time from its steady state on, its canary's median)."""
    xs = [r["wall_ns"] / r["iterations"] for r in rows]
    return st.median(xs[stats.steady_state(xs) :]), canary.process_median([r.get("canary_ns") for r in rows])


def report(reps: list[list[list[tuple[float, float | None]]]], names: list[str]) -> list[str]:
    """The study's lines from reps[repetition][cell] = [(process median, canary median), ...]."""
    # each harness's canary is its own code, so each has its own reference, as in a run
    harness = [n.split(":")[0] for n in names]
    meds: dict[str, list[float]] = {h: [] for h in harness}
    for rep in reps:
        for i, cell in enumerate(rep):
            meds[harness[i]] += [c for _, c in cell if c]
    refs = {h: canary.reference(m) for h, m in meds.items()}
    if all(r is None for r in refs.values()):
        return ["no process reported canary_ns: the harness predates protocol 1.9"]
    out = [
        f"{len(reps)} repetitions; canary reference "
        + ", ".join(f"{h} {r:.0f} ns (median process {st.median(meds[h]) / r - 1:+.1%})" for h, r in refs.items() if r)
    ]
    half = len(reps) // 2
    totals = {"as measured": [0, 0], "divided": [0, 0]}
    for i, name in enumerate(names):
        ref = refs[harness[i]]
        procs = [p for rep in reps for p in rep[i] if p[1] is not None]
        r = st.correlation([math.log(t) for t, _ in procs], [math.log(c) for _, c in procs]) if len(procs) > 2 else 0
        parts = []
        for way, f in (("as measured", lambda t, c: t), ("divided", lambda t, c, ref=ref: t * canary.factor(c, ref))):
            est = [stats.fast_mean([f(t, c) for t, c in rep[i]]) for rep in reps]
            agree = sum(abs(est[k + half] / est[k] - 1) <= AGREE for k in range(half))
            totals[way][0] += agree
            totals[way][1] += half
            spread = stats.robust_cv([f(t, c) for t, c in procs])
            parts.append(f"{way}: spread {spread:.2%}, agree {agree / max(half, 1):.1%}")
        out.append(f"{name}: {len(procs)} processes, log-correlation with the canary {r:+.2f}; " + "; ".join(parts))
    out.append(
        "all cells: fast quarter of a repetition within ±5% of the one half the study later: "
        + ", ".join(f"{way} {a / max(n, 1):.1%}" for way, (a, n) in totals.items())
    )
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cell", action="append", required=True, help="HARNESS:BENCH:TEST:FORMAT:DATASET (repeatable)")
    p.add_argument("--seconds", type=float, default=600.0)
    p.add_argument("--processes", type=int, default=4)
    p.add_argument("--budget-ms", type=int, default=25)
    a = p.parse_args()
    if a.seconds <= 0 or a.processes < 1 or a.budget_ms < 1:
        p.error("--seconds, --processes and --budget-ms must be positive")
    try:
        manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
        cells = [noise_study.parse_cell(c) for c in a.cell]
        made = [noise_study.cell_argv(manifest, *c, a.budget_ms, 5) for c in cells]
    except FileNotFoundError:
        print("canary_study: no corpus/manifest.json; run ./serbench corpus first", file=sys.stderr)
        return 2
    except noise_study.StudyError as e:
        print(f"canary_study: {e}", file=sys.stderr)
        return 2
    cores = sorted(os.sched_getaffinity(0))
    reps, end = [], time.monotonic() + a.seconds
    try:
        while time.monotonic() < end or len(reps) < 2:
            rep = []
            for h, argv in made:
                rows = [noise_study.process_rows(argv, h.env(), "pinned", cores)[0] for _ in range(a.processes)]
                rep.append([process(r) for r in rows])
            reps.append(rep)
            print(f"\r{len(reps)} repetitions", end="", file=sys.stderr, flush=True)
    except noise_study.StudyError as e:
        print(f"\ncanary_study: {e}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    print("\n".join(report(reps, a.cell)))
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
