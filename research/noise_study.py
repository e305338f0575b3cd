"""Where does a cell's noise come from? Runs one harness cell in many fresh processes under several
conditions, interleaved round-robin so that drift of the machine hits every condition alike, and
prints, per condition: the within-process robust CV (median over processes), the between-process
spread of the process medians (robust CV and max/min), that spread after dividing each sample by a
running median of its process's canaries as runs do ("÷canary", protocol 1.9, canary.factors), the
grand median and the minor page faults.

    .venv/bin/python research/noise_study.py --harness native --bench msgpack-c --test tree \\
        --format msgpack --dataset size-4 --processes 15 --budget-ms 100

Conditions: plain; pinned (harness on the last allowed core, this process on the first); no-aslr
(`setarch -R`: the same address-space layout in every process); pinned+no-aslr. `--neighbour
HARNESS:BENCH:TEST:FORMAT:DATASET` adds "pinned+neighbour": each of its processes runs right after a
process of that other cell, as a process of a quick run follows a shuffled neighbour, where "pinned"
follows a process of its own cell. `--beside CELL` (same form, repeatable) runs a pinned process of
each such cell after each round and prints how much of the host's slowdown the two cells share: each
one's spread between processes, the spread of the ratio of the two processes of one round (what a run
would measure between them at that moment) and the correlation of their logs; a slowdown common to
every cell would leave the ratio steady. `--concurrent CELL` (same form) adds "pinned+concurrent": a process
of that other cell starts on the first core as each of its processes starts on the last, as a quick
run's prestart loads the next processes on the orchestrator's core while one measures. `--alt-binary PATH`
(repeatable) runs every condition again with another build of the harness's executable (for example the
one before a change, copied aside), interleaved with the first, to measure what a remedy bought;
`--alt-env NAME=VALUE` (repeatable) does the same with one environment variable set (or, with an
empty VALUE, removed) in the harness's environment. docs/methodology.md
("Noise sources") reports what it found. Never run it beside another benchmark or a build.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import correlation, median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))

from serbench import canary, pipes  # noqa: E402
from serbench.harnesses import BuildOptions, HarnessError, UnknownHarness, make  # noqa: E402
from serbench.stats import robust_cv  # noqa: E402

CONDITIONS = ("plain", "pinned", "no-aslr", "pinned+no-aslr")


class StudyError(Exception):
    """Bad input or a failed harness process: one line on stderr, exit status 2."""


def one_process(argv: list[str], env, cond: str, cores: list[int]) -> tuple[list[float], int]:
    """The process's per-iteration sample times and its minor page faults (the whole process's,
    loading included: getrusage of the reaped child; a page fault costs about 1.5 µs on this VM)."""
    rows, faults = process_rows(argv, env, cond, cores)
    return [r["wall_ns"] / r["iterations"] for r in rows], faults


def divided_median(times: list[float], canaries: list[int | None]) -> float | None:
    """A process's median with each sample divided as the orchestrator divides it (canary.factors, the
    runs' window, a reference of 1 ns); None without a canary in every sample."""
    if not times or any(c is None for c in canaries):
        return None
    return median(x * f for x, f in zip(times, canary.factors(canaries, 1.0, canary.WINDOW), strict=True))


def divided_spread(divided: list[float | None]) -> float | None:
    """The robust CV of the processes' divided medians: the spread the canary leaves; None without a
    canary."""
    if not divided or any(d is None for d in divided):
        return None
    return robust_cv(divided)


def process_rows(argv: list[str], env, cond: str, cores: list[int]) -> tuple[list[dict], int]:
    """The process's `sample` rows, as the harness wrote them, and its minor page faults."""
    prefix = ["setarch", "-R"] if "no-aslr" in cond else []
    pin = (lambda: os.sched_setaffinity(0, {cores[-1]})) if "pinned" in cond else None
    with tempfile.TemporaryDirectory() as tmp:
        res = Path(tmp) / "r.jsonl"
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
        done = subprocess.run(prefix + argv + ["--results", str(res)], env=env, preexec_fn=pin)
        if done.returncode != 0:
            raise StudyError(f"the harness exited with {done.returncode} (its stderr is above): {' '.join(argv)}")
        faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - before
        rows = [json.loads(line) for line in res.read_text().splitlines()]
    return [r for r in rows if r.get("kind") == "sample"], faults


def cell_argv(manifest: dict, harness, bench, test, fmt, dataset, budget_ms, min_samples) -> tuple:
    """(the harness, the argv of a `run` of that cell without --results)."""
    ds = next((d for d in manifest["datasets"] if d["dataset"] == dataset), None)
    if ds is None:
        raise StudyError(f"no dataset {dataset!r} in corpus/manifest.json")
    try:
        (h,) = make([harness], ROOT, BuildOptions())
    except UnknownHarness as e:
        raise StudyError(str(e)) from None
    # typed tests read the canonical JSON; --format names the wire format (spec/typed.md)
    file = ds["files"].get("json" if test.startswith("typed-") else fmt)
    if file is None:
        raise StudyError(f"dataset {dataset!r} has no {fmt} file in corpus/manifest.json")
    data = file["file"]
    try:
        command = h.command()
    except HarnessError as e:  # not built yet: its message says how to build it
        raise StudyError(str(e)) from None
    argv = command + ["run", "--bench", bench, "--test", test, "--format", fmt]
    argv += ["--file", str(ROOT / "corpus" / data), "--expect-hash", ds["hash"]]
    argv += ["--budget-ms", str(budget_ms), "--no-check"]
    if min_samples is not None:
        argv += ["--min-samples", str(min_samples)]
    return h, argv


def parse_cell(spec: str) -> tuple[str, str, str, str, str]:
    """HARNESS:BENCH:TEST:FORMAT:DATASET, as --neighbour, --concurrent and --beside take a cell."""
    parts = spec.split(":")
    if len(parts) != 5 or not all(parts):
        raise StudyError(f"{spec!r} is not a cell; give HARNESS:BENCH:TEST:FORMAT:DATASET")
    return parts[0], parts[1], parts[2], parts[3], parts[4]


def shared_slowdown(mine: list[float], theirs: list[float]) -> tuple[float, float]:
    """(the robust CV of mine[i] / theirs[i], the correlation of their logs): process medians of two
    cells taken one after the other in each round. A slowdown of the host common to both cancels in the
    ratio and correlates their logs; one that differs by cell (or by moment) does neither."""
    ratio = robust_cv([m / t for m, t in zip(mine, theirs, strict=True)])
    logs = [math.log(x) for x in mine], [math.log(x) for x in theirs]
    try:
        return ratio, correlation(*logs)
    except ValueError:  # fewer than two rounds, or one cell's processes all equal
        return ratio, math.nan


def main() -> int:
    try:
        return study()
    except StudyError as e:
        print(f"noise_study: {e}", file=sys.stderr)
        return 2


def study() -> int:
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
    p.add_argument(
        "--alt-env", action="append", default=[], metavar="NAME=VALUE", help="another environment (repeatable)"
    )
    p.add_argument("--conditions", default=",".join(CONDITIONS))
    p.add_argument(
        "--neighbour",
        metavar="HARNESS:BENCH:TEST:FORMAT:DATASET",
        help='add the condition "pinned+neighbour": a process of this cell runs before each of its processes',
    )
    p.add_argument(
        "--concurrent",
        metavar="HARNESS:BENCH:TEST:FORMAT:DATASET",
        help='add the condition "pinned+concurrent": a process of this cell runs on the other core meanwhile',
    )
    p.add_argument(
        "--beside",
        metavar="HARNESS:BENCH:TEST:FORMAT:DATASET",
        action="append",
        default=[],
        help="after each round, a pinned process of this cell too (repeatable): how much of the slowdown is shared",
    )
    a = p.parse_args()
    others = {spec: parse_cell(spec) for spec in [a.neighbour, a.concurrent, *a.beside] if spec}
    try:
        manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
    except FileNotFoundError:
        raise StudyError("corpus/manifest.json is missing: write the corpus with ./serbench corpus") from None
    h, argv = cell_argv(manifest, a.harness, a.bench, a.test, a.format, a.dataset, a.budget_ms, a.min_samples)
    # (its harness, its argv), run before each process of the condition "pinned+neighbour"
    argv_of = {spec: cell_argv(manifest, *cell, a.budget_ms, a.min_samples) for spec, cell in others.items()}
    neighbour = argv_of.get(a.neighbour)
    cores = sorted(os.sched_getaffinity(0))
    concurrent = argv_of.get(a.concurrent)
    beside = {spec: argv_of[spec] for spec in a.beside}
    conds = a.conditions.split(",") + (["pinned+neighbour"] if neighbour else [])
    conds += ["pinned+concurrent"] if concurrent else []
    argvs = {c: argv for c in conds}
    # the executable is the last word of the harness's command before "run" (an interpreter may precede it)
    exe = len(h.command()) - 1
    for i, alt in enumerate(a.alt_binary, 1):
        argvs |= {f"{c} (alt {i})": argv[:exe] + [str(alt)] + argv[exe + 1 :] for c in conds}
    envs = {c: h.env() for c in argvs}
    for i, kv in enumerate(a.alt_env, 1):
        name, _, value = kv.partition("=")
        env = dict(h.env() or os.environ)
        env.pop(name, None)
        env |= {name: value} if value else {}
        for c in conds:
            argvs[f"{c} (env {i})"] = argv
            envs[f"{c} (env {i})"] = env
    conds = list(argvs)
    per: dict[str, list[list[float]]] = {c: [] for c in conds}
    faults: dict[str, list[int]] = {c: [] for c in conds}
    divided: dict[str, list[float | None]] = {c: [] for c in conds}  # each process as runs divide it
    besides: dict[str, list[float]] = {spec: [] for spec in beside}
    for i in range(a.processes):
        for c in conds:
            if "pinned" in c:
                os.sched_setaffinity(0, {cores[0]})
            if c.endswith("+neighbour"):
                one_process(neighbour[1], neighbour[0].env(), "pinned", cores)
            other = None
            if c.endswith("+concurrent"):  # on the first core, where this process is pinned now
                other = subprocess.Popen(concurrent[1] + ["--results", os.devnull], env=concurrent[0].env())
            rows, n = process_rows(argvs[c], envs[c], c, cores)
            per[c].append([r["wall_ns"] / r["iterations"] for r in rows])
            divided[c].append(divided_median(per[c][-1], [r.get("canary_ns") for r in rows]))
            faults[c].append(n)
            if other is not None:
                other.wait()
            os.sched_setaffinity(0, set(cores))
        os.sched_setaffinity(0, {cores[0]})
        for spec, (bh, bargv) in beside.items():
            besides[spec].append(median(one_process(bargv, bh.env(), "pinned", cores)[0]))
        os.sched_setaffinity(0, set(cores))
        print(f"\r{i + 1}/{a.processes}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    # "÷canary": the between-process spread left after dividing by the canary, as runs divide
    print("condition              within-rCV  between-rCV  ÷canary  max/min  median_ns  minflt (min-max)")
    for c in conds:
        meds = [median(s) for s in per[c]]
        within = median(robust_cv(s) for s in per[c])
        left = divided_spread(divided[c])
        f = faults[c]
        print(
            f"{c:22} {within:10.2%} {robust_cv(meds):12.2%} {'-' if left is None else f'{left:.2%}':>8}"
            f" {max(meds) / min(meds):8.3f} {median(meds):10.0f}  {median(f):.0f} ({min(f)}-{max(f)})"
        )
    if besides:
        # paired with the cell's processes of the same round, under its first condition
        mine = [median(s) for s in per[conds[0]]]
        print(f"\nbeside (each round, after the cell's {conds[0]!r} process)   between-rCV  ratio-rCV  corr(log)")
        for spec, theirs in besides.items():
            ratio, corr = shared_slowdown(mine, theirs)
            print(f"{spec:48} {robust_cv(theirs):11.2%} {ratio:10.2%} {corr:10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
