"""What would make a Java cell cheaper without changing what it measures (issue 72)? Runs Java cells in
fresh processes under several JVM start-up conditions, interleaved round-robin so that the machine's
drift hits every condition alike, pinned to the last core as runs pin harness processes, and prints per
cell and condition: the process's wall time (start to exit), its warm-up (Measure.sample's JIT-settling
windows), how often warm-up settled before its cap, and the process median of the samples, with the
ratio of each condition's median of process medians to the plain one's (what a run would report).

    .venv/bin/python research/jvm_levers.py --dataset size-2 --processes 4 \\
        --cell jackson:tree:json --cell kryo:typed-decode:kryo --conditions plain,aot-selftest

Conditions:
- plain: the harness's command as runs start it (60 ms of JIT quiet since 2026-12-05); plain-again:
  the same once more, so that the ratio between two identical conditions shows the noise a lever's
  ratio has to clear.
- aot-selftest: JDK 25's ahead-of-time cache (JEP 483 class loading and linking, JEP 514 one-step
  `-XX:AOTCacheOutput`, JEP 515 method profiles) trained once by `selftest` (every row, briefly), then
  `-XX:AOTCache` in every timed process.
- aot-noprofile: the selftest cache with its method profiles left unused
  (`-XX:+UnlockDiagnosticVMOptions -XX:-AOTReplayTraining`): classes loaded and linked ahead of time
  only, the JIT left to profile as without a cache.
- quiet-10, quiet-5, quiet-3: the warm-up ends after 10, 5 or 3 quiet windows of 20 ms
  (`-Dserbench.warmQuietWindows`, Measure.java; runs wait for 3 since 2026-12-05, 10 before).
- aot-cell: the aot-selftest lever, trained by a quick `run` of the cell itself (a cache per row and dataset).
- jit-beside: the JVM's compiler threads ("C1 CompilerThre", "C2 CompilerThre") moved to the other core
  as soon as they appear (polled every 2 ms), the timed thread and everything else left on the harness
  core: the JIT compiles beside the warm-up instead of taking turns with it on one core, as it does on
  any machine with a core to spare. jit-beside-quiet-3: that and quiet-3.

`--rows BENCH:TEST:FORMAT --datasets size-1,size-2,...` measures the other lever instead: several cells
of one row in one JVM (`run-cells`, each cell with its own check, calibration and warm-up, in a
shuffled order, or `--order ascending|descending` as --datasets lists them), against one process per
cell as runs start them, round by round (which goes first alternates); it prints each cell's ratio of
median process medians (many / single), how many are within ±5%, and the wall time of each way.

Never run it beside another benchmark or a build. docs/methodology.md ("A JVM process's cost") reports
what it found.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))
sys.path.insert(0, str(ROOT / "research"))

from noise_study import StudyError, cell_argv  # noqa: E402

CONDITIONS = (
    "plain",
    "plain-again",
    "aot-selftest",
    "aot-noprofile",
    "aot-cell",
    "quiet-10",
    "quiet-5",
    "quiet-3",
    "jit-beside",
    "jit-beside-quiet-3",
)
#: the names (comm, 15 bytes) HotSpot gives its JIT compiler threads
COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")


def _with_flags(argv: list[str], flags: list[str]) -> list[str]:
    """argv with JVM `flags` after the java; a system property they set replaces the command's own
    (the orchestrator always gives -Dserbench.warmQuietWindows, and the JVM takes the last one)."""
    keys = {f.split("=", 1)[0] for f in flags if f.startswith("-D")}
    rest = [a for a in argv[1:] if not (a.startswith("-D") and a.split("=", 1)[0] in keys)]
    return [argv[0], *flags, *rest]


def train(h, argv: list[str], how: str, cache: Path) -> float:
    """Make the AOT cache `cache` by a training run (`selftest`, or the cell's own `run`); its wall seconds."""
    base = h.command()
    if how == "aot-selftest":
        work = base + ["selftest", "--vectors", str(ROOT / "vectors")]
    else:
        work = argv + ["--results", os.devnull]
    t0 = time.monotonic()
    done = subprocess.run(_with_flags(work, [f"-XX:AOTCacheOutput={cache}"]), env=h.env(), capture_output=True,
                          text=True, cwd=h.dir)  # fmt: skip
    if done.returncode != 0 or not cache.exists():
        raise StudyError(f"training run for {how} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return time.monotonic() - t0


def _cores() -> tuple[int, int]:
    """The harness core (the last, as runs pin) and the other, where this script then runs, as a run's
    orchestrator does, so that its polling never takes the timed thread's core."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise StudyError("needs two CPUs: one for the timed JVM, one for this script and the compilers beside it")
    os.sched_setaffinity(0, {cpus[0]})
    return cpus[-1], cpus[0]


def _move_compilers(pid: int, core: int, moved: set[int]) -> None:
    """Put the JIT compiler threads of `pid` not moved yet on `core` (a thread may end while read)."""
    try:
        tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return
    for tid in tids:
        if tid in moved:
            continue
        try:
            name = Path(f"/proc/{pid}/task/{tid}/comm").read_text().strip()
            if name in COMPILER_THREADS:
                os.sched_setaffinity(tid, {core})
                moved.add(tid)
        except OSError:
            continue


def _pinned(h, argv: list[str], core: int, beside: int | None = None) -> float:
    """Run argv on `core` to its end, with its JIT compiler threads on `beside` when given; its wall
    seconds (a non-zero exit is the study's error)."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, env=h.env(), stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=lambda: os.sched_setaffinity(0, {core}))  # fmt: skip
        moved: set[int] = set()
        while beside is not None and proc.poll() is None:  # without compilers to move: just wait
            _move_compilers(proc.pid, beside, moved)
            time.sleep(0.002)
        proc.wait()
        wall = time.monotonic() - t0
        if proc.returncode != 0:
            err.seek(0)
            raise StudyError(f"exit {proc.returncode}: {err.read().decode(errors='replace').strip()[-400:]}")
    return wall


def _cell_figures(results: Path) -> dict:
    """One cell's results file: its warm-up (seconds, settled or capped) and its process median."""
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    info = next((r for r in rows if r.get("kind") == "info" and "warmup_ns" in r), {})
    per_op = [r["wall_ns"] / r["iterations"] for r in rows if r.get("kind") == "sample"]
    return {
        "warmup_s": info.get("warmup_ns", 0) / 1e9,
        "settled": bool(info.get("warmup_settled")),
        "median_ns": statistics.median(per_op),
    }


def one_process(h, argv: list[str], flags: list[str], core: int, beside: int | None = None) -> dict:
    """One cell in its own JVM (its compiler threads on `beside` when given): its wall seconds and
    _cell_figures."""
    with tempfile.TemporaryDirectory() as tmp:
        res = Path(tmp) / "r.jsonl"
        wall = _pinned(h, _with_flags(argv, flags) + ["--results", str(res)], core, beside)
        return {"wall_s": wall, **_cell_figures(res)}


def _row_process(h, argvs: list[list[str]], core: int) -> tuple[float, list[dict]]:
    """One JVM running the cells `argvs` (run arguments without --results) in order: its wall time
    and each cell's _cell_figures."""
    with tempfile.TemporaryDirectory() as tmp:
        lines, paths = [], []
        skip = len(h.command()) + 1  # the run's own arguments: without the JVM's command line and "run"
        for i, argv in enumerate(a[skip:] for a in argvs):
            paths.append(Path(tmp) / f"r{i}.jsonl")
            lines.append("\t".join(argv + ["--results", str(paths[-1])]))
        cells = Path(tmp) / "cells.tsv"
        cells.write_text("\n".join(lines) + "\n")
        wall = _pinned(h, h.command() + ["run-cells", "--cells", str(cells)], core)
        return wall, [_cell_figures(path) for path in paths]


def rows_study(args) -> int:
    import random

    manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
    core, other = _cores()
    datasets = args.datasets.split(",")
    rng = random.Random(72)
    single: dict = {}
    many: dict = {}
    warm = {"single": [], "many-first": [], "many-later": []}
    wall = {"single": 0.0, "many": 0.0}
    rows = {}  # spec -> (the harness, {dataset: the run's argv})
    for spec in args.rows:
        bench, test, fmt = parse_row(spec)
        argvs = {ds: cell_argv(manifest, "java", bench, test, fmt, ds, args.budget_ms, None) for ds in datasets}
        rows[spec] = (argvs[datasets[0]][0], {ds: argv for ds, (_, argv) in argvs.items()})
    for rnd in range(args.rounds):
        for spec, (h, cells) in rows.items():
            order = datasets[:]
            if args.order == "shuffled":
                rng.shuffle(order)
            elif args.order == "descending":
                order.reverse()
            for mode in ("single", "many") if rnd % 2 == 0 else ("many", "single"):
                if mode == "single":
                    for ds in order:
                        p = one_process(h, cells[ds], [], core)
                        wall["single"] += p["wall_s"]
                        warm["single"].append(p["warmup_s"])
                        single.setdefault((spec, ds), []).append(p["median_ns"])
                else:
                    w, got = _row_process(h, [cells[ds] for ds in order], core)
                    wall["many"] += w
                    for i, (ds, g) in enumerate(zip(order, got, strict=True)):
                        warm["many-first" if i == 0 else "many-later"].append(g["warmup_s"])
                        many.setdefault((spec, ds), []).append(g["median_ns"])
            print(f"# round {rnd + 1} {spec}: done", file=sys.stderr)
    print("cell | single ns/op | many ns/op | many / single")
    within = 0
    for key in single:
        s1, m1 = statistics.median(single[key]), statistics.median(many[key])
        within += abs(m1 / s1 - 1) <= 0.05
        print(f"{key[0]} {key[1]} | {s1:,.0f} | {m1:,.0f} | {m1 / s1:.3f}")
    print(f"within ±5%: {within} of {len(single)} cells")
    print(
        f"wall: one process per cell {wall['single']:.0f} s, one per row {wall['many']:.0f} s "
        f"({wall['single'] / wall['many']:.2f}x)"
    )
    for k, v in warm.items():
        print(f"warm-up {k}: median {statistics.median(v):.2f} s over {len(v)} cells")
    return 0


def parse_row(spec: str) -> tuple[str, str, str]:
    """BENCH:TEST:FORMAT, as --cell and --rows take a Java row."""
    parts = spec.split(":")
    if len(parts) != 3 or not all(parts):
        raise StudyError(f"{spec!r} is not a row; give BENCH:TEST:FORMAT (e.g. jackson:tree:json)")
    return parts[0], parts[1], parts[2]


def main() -> int:
    try:
        return study()
    except StudyError as e:
        print(f"jvm_levers: {e}", file=sys.stderr)
        return 2


def study() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", action="append", default=[], metavar="BENCH:TEST:FORMAT")
    ap.add_argument("--rows", action="append", default=[], metavar="BENCH:TEST:FORMAT")
    ap.add_argument("--datasets", default="size-1,size-2,size-3,size-4")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--order",
        choices=("shuffled", "ascending", "descending"),
        default="shuffled",
        help="the order of a row's cells in its one JVM (--rows): shuffled per round, or as --datasets gives them, "
        "or the reverse",
    )
    ap.add_argument("--dataset", default="size-2")
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--budget-ms", type=int, default=25)
    ap.add_argument("--conditions", default="plain,aot-selftest")
    args = ap.parse_args()
    for spec in args.cell + args.rows:
        parse_row(spec)  # every one checked before anything runs
    if args.rows:
        return rows_study(args)
    if not args.cell:
        raise StudyError("give --cell (start-up conditions) or --rows (several cells in one process)")
    conds = args.conditions.split(",")
    if bad := [c for c in conds if c not in CONDITIONS]:
        raise StudyError(f"unknown condition {bad[0]!r}; there are: {', '.join(CONDITIONS)}")
    manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
    core, other = _cores()
    print("cell | condition | wall s (median) | warm-up s (median) | settled | median ns/op | vs plain")
    with tempfile.TemporaryDirectory() as tmp:
        shared: dict[str, Path] = {}
        for spec in args.cell:
            bench, test, fmt = parse_row(spec)
            h, argv = cell_argv(manifest, "java", bench, test, fmt, args.dataset, args.budget_ms, None)
            flags: dict[str, list[str]] = {}
            for c in conds:
                if c.startswith("plain"):
                    flags[c] = []
                    continue
                if "quiet-" in c or c == "jit-beside":
                    quiet = c.rsplit("-", 1)[1] if "quiet-" in c else None
                    flags[c] = [f"-Dserbench.warmQuietWindows={quiet}"] if quiet else []
                    continue
                how = "aot-cell" if c == "aot-cell" else "aot-selftest"  # aot-noprofile: the selftest cache
                if how in shared:
                    cache = shared[how]
                else:
                    cache = Path(tmp) / f"{how}-{bench}-{test}-{fmt}.aot"
                    took = train(h, argv, how, cache)
                    print(f"# {spec} {how}: trained in {took:.1f} s, cache {cache.stat().st_size / 1e6:.0f} MB")
                    if how == "aot-selftest":
                        shared[how] = cache
                flags[c] = [f"-XX:AOTCache={cache}"]
                if c == "aot-noprofile":
                    flags[c] += ["-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTReplayTraining"]
            got: dict[str, list[dict]] = {c: [] for c in conds}
            for i in range(args.processes):
                for c in conds if i % 2 == 0 else reversed(conds):  # ABBA: drift hits both alike
                    beside = other if c.startswith("jit-beside") else None
                    got[c].append(one_process(h, argv, flags[c], core, beside))
            plain = statistics.median(p["median_ns"] for p in got[conds[0]])
            for c in conds:
                ps = got[c]
                med = statistics.median(p["median_ns"] for p in ps)
                print(
                    f"{spec} | {c} | {statistics.median(p['wall_s'] for p in ps):.2f} | "
                    f"{statistics.median(p['warmup_s'] for p in ps):.2f} | {sum(p['settled'] for p in ps)}/{len(ps)} | "
                    f"{med:,.0f} | {med / plain:.3f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
