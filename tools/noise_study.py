"""Where does a cell's noise come from? Runs one harness cell in many fresh processes under several
conditions, interleaved round-robin so that drift of the machine hits every condition alike, and
prints, per condition: the within-process robust CV (median over processes), the between-process
spread of the process medians (robust CV and max/min), and the grand median.

    .venv/bin/python tools/noise_study.py --harness native --bench msgpack-c --test tree \\
        --format msgpack --dataset size-4 --processes 15 --budget-ms 100

Conditions: plain; pinned (harness on the last allowed core, this process on the first); no-aslr
(`setarch -R`: the same address-space layout in every process); pinned+no-aslr. `--neighbour
HARNESS:BENCH:TEST:FORMAT:DATASET` adds "pinned+neighbour": each of its processes runs right after a
process of that other cell, as a process of a quick run follows a shuffled neighbour, where "pinned"
follows a process of its own cell. `--alt-binary PATH`
(repeatable) runs every condition again with another build of the harness's executable (for example the
one before a change, copied aside), interleaved with the first, to measure what a remedy bought. docs/methodology.md
("Noise sources") reports what it found. Never run it beside another benchmark or a build.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))

from serbench.harnesses import BuildOptions, make  # noqa: E402
from serbench.stats import robust_cv  # noqa: E402

CONDITIONS = ("plain", "pinned", "no-aslr", "pinned+no-aslr")


def one_process(argv: list[str], env, cond: str, cores: list[int]) -> list[float]:
    prefix = ["setarch", "-R"] if "no-aslr" in cond else []
    pin = (lambda: os.sched_setaffinity(0, {cores[-1]})) if "pinned" in cond else None
    with tempfile.TemporaryDirectory() as tmp:
        res = Path(tmp) / "r.jsonl"
        subprocess.run(prefix + argv + ["--results", str(res)], env=env, check=True, preexec_fn=pin)
        rows = [json.loads(line) for line in res.read_text().splitlines()]
    return [r["wall_ns"] / r["iterations"] for r in rows if r.get("kind") == "sample"]


def cell_argv(manifest: dict, harness, bench, test, fmt, dataset, budget_ms, min_samples) -> tuple:
    """(the harness, the argv of a `run` of that cell without --results)."""
    ds = next(d for d in manifest["datasets"] if d["dataset"] == dataset)
    (h,) = make([harness], ROOT, BuildOptions())
    # typed tests read the canonical JSON; --format names the wire format (spec/typed.md)
    data = ds["files"]["json" if test.startswith("typed-") else fmt]["file"]
    argv = h.command() + ["run", "--bench", bench, "--test", test, "--format", fmt]
    argv += ["--file", str(ROOT / "corpus" / data), "--expect-hash", ds["hash"]]
    argv += ["--budget-ms", str(budget_ms), "--no-check"]
    if min_samples is not None:
        argv += ["--min-samples", str(min_samples)]
    return h, argv


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--harness", required=True)
    p.add_argument("--bench", required=True)
    p.add_argument("--test", required=True)
    p.add_argument("--format", required=True)
    p.add_argument("--dataset", required=True)
    p.add_argument("--processes", type=int, default=15)
    p.add_argument("--budget-ms", type=int, default=100)
    p.add_argument("--min-samples", type=int, help="passed to the harness (quick mode uses 5)")
    p.add_argument(
        "--alt-binary", type=Path, action="append", default=[], help="another build of the executable (repeatable)"
    )
    p.add_argument("--conditions", default=",".join(CONDITIONS))
    p.add_argument(
        "--neighbour",
        metavar="HARNESS:BENCH:TEST:FORMAT:DATASET",
        help='add the condition "pinned+neighbour": a process of this cell runs before each of its processes',
    )
    a = p.parse_args()
    manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
    h, argv = cell_argv(manifest, a.harness, a.bench, a.test, a.format, a.dataset, a.budget_ms, a.min_samples)
    # (its harness, its argv), run before each process of the condition "pinned+neighbour"
    neighbour = cell_argv(manifest, *a.neighbour.split(":"), a.budget_ms, a.min_samples) if a.neighbour else None
    cores = sorted(os.sched_getaffinity(0))
    conds = a.conditions.split(",") + (["pinned+neighbour"] if neighbour else [])
    argvs = {c: argv for c in conds}
    # the executable is the last word of the harness's command before "run" (an interpreter may precede it)
    exe = len(h.command()) - 1
    for i, alt in enumerate(a.alt_binary, 1):
        argvs |= {f"{c} (alt {i})": argv[:exe] + [str(alt)] + argv[exe + 1 :] for c in conds}
    conds = list(argvs)
    per: dict[str, list[list[float]]] = {c: [] for c in conds}
    for i in range(a.processes):
        for c in conds:
            if "pinned" in c:
                os.sched_setaffinity(0, {cores[0]})
            if c.endswith("+neighbour"):
                one_process(neighbour[1], neighbour[0].env(), "pinned", cores)
            per[c].append(one_process(argvs[c], h.env(), c, cores))
            os.sched_setaffinity(0, set(cores))
        print(f"\r{i + 1}/{a.processes}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print("condition              within-rCV  between-rCV  max/min  median_ns")
    for c in conds:
        meds = [median(s) for s in per[c]]
        within = median(robust_cv(s) for s in per[c])
        print(f"{c:22} {within:10.2%} {robust_cv(meds):12.2%} {max(meds) / min(meds):8.3f} {median(meds):10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
