"""What every report of a run states, computed once for the Markdown and the HTML report: the time or
count of a cell, whether it is within the baseline's noise, the ranking, the run's precision and warnings,
its commit, rounds and wall time (DESIGN §7, §11)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from statistics import median

from .. import contracts, envinfo
from ..stats import ESTIMATOR, NOISY_REL_CI, NOISY_RUN_RCV, NOISY_RUN_REL_CI
from .units import fmt_count

TEST_TITLES = [
    ("write", "Write"),
    ("tree", "Tree"),
    ("incremental", "Incremental"),
    ("typed-encode", "Typed encode"),
    ("typed-decode", "Typed decode"),
    ("typed-access", "Typed access"),
]


def has_current_estimator(run) -> bool:
    """The run was finalized with today's estimator (`stats.ESTIMATOR`, recorded from 2026-11-27 evening)."""
    return json.loads(run["env_json"]).get("estimator") == ESTIMATOR


# Each estimator a run can have been finalized with (`env_json.estimator`): how it computed a cell's time,
# and the docs/methodology.md section that says why. A run that recorded none used the fast half (or,
# before 2026-11-27, the 20% trimmed mean).
ESTIMATORS = {
    "fast quarter of the processes at the run's clean canary speed, of process means for a collected runtime": (
        "the mean of the fastest quarter of a cell's processes' times (the fastest of up to 4; beyond, the "
        "process at the boundary counts by its fraction: (4·x₁ + x₂)/5 of 5, the two fastest of 8), of the "
        "processes whose canary ran within 5% of the run's clean canary time when a cell has two or more, else of all "
        "its processes each corrected by its canary; a process's time the median of its samples, or their mean "
        "for a runtime whose collector runs inside the timed batches (Go, Java); one process: the median "
        "(mean) of its samples",
        "Choosing clean processes instead of correcting them",
    ),
    "fast quarter, of process means for a collected runtime": (
        "the mean of the fastest quarter of a cell's processes' times (the fastest of up to 4; beyond, the "
        "process at the boundary counts by its fraction: (4·x₁ + x₂)/5 of 5, the two fastest of 8), a process's "
        "time the median of its samples, or their mean for a runtime whose collector runs inside the timed "
        "batches (Go, Java); one process: the median (mean) of its samples",
        "A process's mean for a collected runtime",
    ),
    "fast quarter": (
        "the mean of the fastest quarter of a cell's processes' medians (the fastest of up to 4; beyond, the "
        "process at the boundary counts by its fraction: (4·x₁ + x₂)/5 of 5, the two fastest of 8; one "
        "process: the median of its samples)",
        "The fast quarter",
    ),
    "fast third": (
        "the mean of the fastest third of a cell's processes' medians (the fastest of up to 3; beyond, the "
        "process at the boundary counts by its fraction: (3·x₁ + x₂)/4 of 4, the two fastest of 6; one "
        "process: the median of its samples)",
        "The fast third",
    ),
}
FAST_HALF = (
    "the mean of the faster half of a cell's processes' medians (the fastest of 2 or 3; one process: the "
    "median of its samples)",
    "The fast half",
)


def estimator_of(run) -> tuple[str, str]:
    """(how the run's cell times were computed, the docs/methodology.md section that says why)."""
    return ESTIMATORS.get(json.loads(run["env_json"]).get("estimator"), FAST_HALF)


def time_of(c):
    return c["net_ns"] if c["net_ns"] is not None else c["median_ns"]


def within_baseline(c) -> bool:
    """The net time's CI reaches zero: the library's own cost cannot be told apart from the baseline's
    at this precision, and a negative net is noise, not speed. BenchmarkDotNet's ZeroMeasurementAnalyser
    warns the same way when a benchmark is indistinguishable from its empty-method overhead."""
    return c["net_ci_low_ns"] is not None and c["net_ci_low_ns"] <= 0


def ranked(rows: list) -> tuple[list, list]:
    """(rows ranked by time, rows within baseline noise): a row whose net CI reaches zero is never
    ranked, so it can never look like a winner (a negative net is noise, not speed); those come after
    the ranked rows, by time too. Rows whose loop does other work than their test's contract are in
    neither (`apart`)."""
    rows = sorted(contracts.split(rows)[0], key=time_of)
    return [c for c in rows if not within_baseline(c)], [c for c in rows if within_baseline(c)]


def apart(rows: list) -> list:
    """Rows whose loop does other work than their test's contract (contracts.py), by time: shown after
    the ranked rows, with their steps, never ranked beside them (spec/fairness.md rule 12)."""
    return sorted(contracts.split(rows)[1], key=lambda c: time_of(c) if time_of(c) is not None else 0)


def _has(c, key: str) -> bool:
    return key in c.keys() and c[key] is not None


def wall_s(run, env: dict) -> float | None:
    """The time the run's cells took, builds excluded: the load segments (one per invocation, resumes
    included), else start to finish."""
    segs = [s.get("wall_s") for s in env.get("load") or [] if s.get("wall_s") is not None]
    if segs:
        return sum(segs)
    return run["finished_at"] - run["started_at"] if run["finished_at"] else None


def duration(s: float) -> str:
    m, sec = divmod(round(s), 60)
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min" if h else (f"{m} min {sec:02d} s" if m else f"{sec} s")


def measured_cells(cells) -> list:
    """The cells a run's precision is judged on: measured and correct, baselines included."""
    return [c for c in cells if c["status"] == "ok" and c["rcv"] is not None]


@dataclass(frozen=True)
class RunNoise:
    """How noisy a time run was as a whole: its measured cells' median robust CV and median 95% CI
    half-width (None for runs stored before cells had one)."""

    cells: int
    rcv: float
    rel_ci: float | None

    @property
    def wide(self) -> bool:
        return self.rel_ci is not None and self.rel_ci > NOISY_RUN_REL_CI

    @property
    def noisy(self) -> bool:
        return self.rcv > NOISY_RUN_RCV or self.wide

    def figures(self) -> str:
        ci = f", median 95% CI half-width {self.rel_ci:.1%}" if self.rel_ci is not None else ""
        return f"median robust CV {self.rcv:.1%}{ci}"


def run_noise(cells) -> RunNoise | None:
    cells_ok = measured_cells(cells)
    if not cells_ok:
        return None
    rel = [c["rel_ci"] for c in cells_ok if _has(c, "rel_ci")]  # runs before 2026-11-25 have none
    return RunNoise(len(cells_ok), median(c["rcv"] for c in cells_ok), median(rel) if rel else None)


def precision_line(run, cells) -> str:
    """The run's wall time, its median robust CV and its noisy cells, for the top of the report."""
    env = json.loads(run["env_json"])
    measured = measured_cells(cells)
    noise = run_noise(cells)
    parts = []
    w = wall_s(run, env)
    if w is not None:
        parts.append(f"wall time {duration(w)} (cells only, builds excluded)")
    if noise:
        rcv = f"median robust CV {noise.rcv:.1%} (all samples of a cell pooled"
        within = [c["rcv_within"] for c in measured if _has(c, "rcv_within")]
        between = [c["cv_between"] for c in measured if _has(c, "cv_between")]
        if within and between:
            rcv += f"; within a process {median(within):.1%}, between processes {median(between):.1%}"
        parts.append(rcv + ")")
        if noise.rel_ci is not None:
            parts.append(f"median 95% CI half-width {noise.rel_ci:.2%} of the time")
            rounds = [c["n_rounds"] for c in measured if _has(c, "n_rounds")]
            lo, hi = min(rounds), max(rounds)
            parts.append(
                f"{lo} process{'es' * (lo != 1)} per cell"
                if lo == hi
                else f"{lo} to {hi} processes per cell (median {median(rounds):g})"
            )
        noisy = sum(1 for c in measured if c["noisy"] and c["noisy"] & 1)
        what = f"95% CI half-width above {NOISY_REL_CI:.0%}" if noise.rel_ci is not None else "robust CV above 5%"
        parts.append(f"{noisy} of {len(measured)} cells noisy ({what})")
    canary = canary_text(env)
    if canary and parts:
        parts.append(canary)
    return ("**Precision:** " + "; ".join(parts) + ".") if parts else ""


def canary_text(env: dict) -> str:
    """How far the canary (protocol 1.9) brought the run's times: each harness's median process slowdown."""
    if env.get("canary_off"):
        return "times as measured (`--no-canary`)"
    facts = env.get("canary") or {}
    used = {h: f for h, f in facts.items() if "median_slowdown" in f}
    unused = sorted(h for h, f in facts.items() if "unused" in f)
    out = ""
    if used:
        slow = ", ".join(f"{h} {f['median_slowdown'] - 1:+.1%}" for h, f in sorted(used.items()))
        slopes = ", ".join(f"{h} {f['slope']:.2f}" for h, f in sorted(used.items()) if "slope" in f)
        clean = ", ".join(f"{h} {f['clean_share']:.0%}" for h, f in sorted(used.items()) if "clean_share" in f)
        zone = next((f["zone"] for f in used.values() if "zone" in f), None)
        fewest = next((f["min_clean"] for f in used.values() if "min_clean" in f), 2)
        out = (
            "times brought to each harness's clean speed by the canary timed before each batch "
            f"(median process against the machine's reference: {slow}"
            + (
                f"; a cell's time from its processes whose canary is within {zone:.0%} of the run's clean "
                f"canary time (of all processes: {clean}), each process corrected only in a cell with fewer than "
                f"{fewest} such"
                if clean
                else ""
            )
            + (f"; share of the canary's slowdown the times feel, fitted on the run: {slopes}" if slopes else "")
            + "; docs/methodology.md, 'The canary')"
        )
    if unused:
        out += ("; " if out else "") + f"{', '.join(unused)} as measured (its canary is not used: see the methodology)"
    return out


def is_instruction_run(run) -> bool:
    """A run of `serbench run --measure instructions` (runs before that option measured time)."""
    return json.loads(run["args_json"]).get("measure") == "instructions"


def instr_of(c):
    return c["instr_net"] if c["instr_net"] is not None else c["instructions_per_op"]


def cell_label(c) -> str:
    return f"{c['harness']} {c['bench']} {c['test']} {c['dataset']} {c['format']}"


def _cells_are(n: int) -> str:
    return "cell is" if n == 1 else "cells are"


def run_warnings(run: sqlite3.Row, cells: list[sqlite3.Row]) -> list[str]:
    """What makes this run's numbers less trustworthy, one sentence each with what to do: a busy
    machine, a noisy run, bimodal cells. The report puts them at the top; `run` prints them too."""
    env = json.loads(run["env_json"])
    out = []
    if is_instruction_run(run):
        # counts do not depend on the machine's load; what makes them less trustworthy is a cell
        # whose repeat counted differently
        varied = [c for c in cells if c["instr_deterministic"] == 0 and c["status"] == "ok" and not c["is_baseline"]]
        expected = env.get("instructions_varying") or {}
        for h, why in sorted(expected.items()):
            n = sum(1 for c in varied if c["harness"] == h)
            if n:
                out.append(f"{n} {h} {_cells_are(n)} not deterministic, as expected: {why}.")
        varied = [c for c in varied if c["harness"] not in expected]
        if varied:
            names = ", ".join(cell_label(c) for c in varied[:5]) + (", …" if len(varied) > 5 else "")
            out.append(
                f"{len(varied)} {_cells_are(len(varied))} not deterministic ({names}): the "
                "same process counted differently twice (or its baseline did), so its count may differ on the next "
                "run too; a library that seeds a hash table from the OS does this."
            )
        return out
    load = envinfo.load_summary(env.get("load") or [])
    if load and load["busy"]:
        cores = env.get("cores") or 1
        out.append(
            f"the machine was busy: other processes took {load['other_share']:.0%} of its CPU time while the cells "
            f"ran (on average {load['other_share'] * cores:.1f} of its {cores} cores), so times are slower and "
            "noisier than on a quiet machine. Stop other work (builds, browsers, other benchmarks) and run again."
        )
    outrun = _budget_outrun(run, cells, load)
    if outrun:
        out.append(outrun)
    noise = run_noise(cells)
    if noise and noise.noisy:
        ci = (  # runs stored before cells had an interval have none
            f" and its median 95% CI half-width {noise.rel_ci:.1%} of the time (noisy above {NOISY_RUN_REL_CI:.0%})"
            if noise.rel_ci is not None
            else ""
        )
        small = f"differences under about {noise.rel_ci:.0%}" if noise.wide else "small differences"
        noisy = (
            f"this run is noisy: over its {noise.cells} measured cells the median robust CV is {noise.rcv:.1%} (noisy "
            f"above {NOISY_RUN_RCV:.0%}){ci}, so {small} between its cells, or between it and another run, mean "
            "little. "
        )
        if load and load["other_share"] is not None and not load["busy"]:
            # Nothing here competed, so the noise came from outside the machine: on this project's VMs
            # the host's other guests, which take no CPU time from this guest (0% steal) but share its
            # caches, memory bandwidth and, it seems, its physical cores (docs/methodology.md, "Noise
            # sources")
            out.append(
                noisy + f"Other processes took only {load['other_share']:.1%} of this machine's CPU time, so the "
                "noise came from outside it (on a virtual machine, other guests of its host sharing its cores, caches "
                "or memory bandwidth). Run again at another time, use `--mode full` (more and longer processes), or "
                "count instructions (`--measure instructions`, compiled harnesses), which no host changes."
            )
        else:
            out.append(
                noisy + "Quiet the machine (`serbench doctor` checks the CPU governor) and run again, or use "
                "`--mode full`."
            )
    bimodal = [c for c in cells if c["bimodal"] and c["status"] == "ok"]
    if bimodal:
        names = ", ".join(cell_label(c) for c in bimodal[:5]) + (", …" if len(bimodal) > 5 else "")
        out.append(
            f"{len(bimodal)} {_cells_are(len(bimodal))} bimodal ({names}): their samples fall "
            "into two clusters at least 10% apart, so the median sits in one of them and another run may pick the "
            "other. Look at their samples (`serbench report --format json`) or run them again with more rounds."
        )
    return out


def _budget_outrun(run: sqlite3.Row, cells: list[sqlite3.Row], load: dict | None) -> str | None:
    """The minimum rounds alone took longer than the run's time budget (runner.run_cells runs them
    whatever it says), so no cell got the extra rounds its mode adds toward its CI target: on a slow
    host the default run's first 3 rounds took 16.5 of its 12 minutes (run 20261206-013409-5880)."""
    args = json.loads(run["args_json"])
    budget, rounds, target = args.get("time_budget_s"), args.get("rounds"), args.get("target_ci")
    if not (budget and rounds and target and load and load["wall_s"] > budget):
        return None
    ok = [c for c in cells if c["status"] == "ok" and c["n_rounds"] is not None]
    short = sum(1 for c in ok if c["rel_ci"] is not None and c["rel_ci"] > target)
    if not short or any(c["n_rounds"] > rounds for c in ok):
        return None
    return (
        f"the first {rounds} rounds of every cell took {load['wall_s'] / 60:.1f} min, past the run's "
        f"{budget / 60:.1f}-min time budget, so no cell got more: {short} of {len(ok)} cells are short of the "
        f"±{target:.1%} target their extra rounds would have aimed at. Fewer cells (`--lang`, `--lib`, `--size`, "
        "`--dataset`), more time (`--time-budget-s`) or a quieter host leave room for them."
    )


def commit_text(env: dict) -> str:
    text = f"Commit {env.get('git_commit')}"
    if env.get("git_dirty"):
        changed = env.get("git_status") or []
        n = env.get("git_status_count", len(changed))
        shown = ", ".join(f"`{line.strip()}`" for line in changed[:5]) + (", …" if n > 5 else "")
        return text + f" with a **dirty working tree** ({n} uncommitted {'change' if n == 1 else 'changes'}: {shown})"
    return text + (" (working tree clean)" if env.get("git_dirty") is False else "")


def rounds_text(args: dict) -> str:
    if args.get("target_ci"):
        return (
            f"{args.get('rounds')} to {args.get('max_rounds')} processes per cell, to a 95% CI within "
            f"±{args['target_ci']:.1%}; CPU pinning {'on' if args.get('pin') else 'off'}"
        )
    return f"{args.get('rounds')} rounds per cell"


def unfinished_note(run, cells) -> str:
    """One line for a run that did not finish: what is missing and the command that finishes it."""
    left = sum(1 for c in cells if c["status"] == "pending")
    how = (
        "it is still running" if run["status"] == "running" else f"finish it with: ./serbench run --resume {run['id']}"
    )
    return (
        f"⚠ run {run['id']} is unfinished ({run['status']}): {left} of {len(cells)} cells are not finished "
        f"and are left out of the tables; {how}"
    )


def sized_datasets(manifest: dict, used: set[str]) -> list[dict]:
    """The manifest entries whose sizes a report shows: the datasets measured, and for a user's file
    measured only as its exact bytes (`--data-bytes original`), its re-encoded entry too, so that the
    sizes answer "how big is my data in each format" whatever was timed."""
    sources = {d["source"]["path"] for d in manifest["datasets"] if d["dataset"] in used and d.get("source")}
    return [
        d for d in manifest["datasets"] if d["dataset"] in used or (d.get("source") and d["source"]["path"] in sources)
    ]


def compression_sentence(manifest: dict, datasets: list[dict]) -> str:
    """The levels the size tables' gzip and zstd columns were taken at: the manifest's, and the tools'
    own defaults for a user's file too big for level 19 in seconds (corpus/build.py, BIG_FILE_BYTES)."""
    levels = manifest.get("compression") or {"gzip_level": 9, "zstd_level": 19}
    out = f"gzip level {levels['gzip_level']}, zstd level {levels['zstd_level']}."
    other = [d for d in datasets if d.get("compression") and d["compression"] != levels]
    for pair in {tuple(sorted(d["compression"].items())) for d in other}:
        names = ", ".join(d["dataset"] for d in other if tuple(sorted(d["compression"].items())) == pair)
        got = dict(pair)
        out += (
            f" {names}: gzip level {got['gzip_level']}, zstd level {got['zstd_level']} (the tools' defaults: "
            "a file this big would take minutes at level 19)."
        )
    return out


def dataset_order(manifest: dict) -> list[str]:
    return [d["dataset"] for d in manifest["datasets"]]


def provenance(args: dict, env: dict) -> list[str]:
    """The command line and the machine's load, where the run stored them."""
    out = []
    if args.get("command_line"):
        line = f"Command: `{args['command_line']}` in `{args.get('cwd')}`"
        resumes = [s for s in env.get("load") or [] if s.get("argv") and "--resume" in s["argv"]]
        if resumes:
            line += f"; resumed {len(resumes)} {'time' if len(resumes) == 1 else 'times'}"
        out.append(line + ".")
    load = envinfo.load_summary(env.get("load") or [])
    if load:
        avg = [f"{a[0]:.2f}" if a else "?" for a in (load["loadavg_before"], load["loadavg_after"])]
        line = f"Load: load average {avg[0]} before the cells ran and {avg[1]} after"
        if load["other_share"] is not None:
            line += (
                f"; other processes took {load['other_share']:.1%} of the CPU time ({load['cpu_other_s']:.1f} CPU s"
                f" in {load['wall_s']:.0f} s)"
            )
        out.append(line + ".")
    if env.get("test_hooks"):
        hooks = ", ".join(f"{k}={v}" for k, v in env["test_hooks"].items())
        out.append(f"**Test hooks were set ({hooks}): this run is a test of the suite, not a measurement.**")
    return out


def runtimes(env: dict) -> list[str]:
    """Each harness's compiler or runtime as its `env_info` reports it (a build's flags excepted)."""
    out = []
    for name, info in sorted((env.get("harnesses") or {}).items()):
        if not isinstance(info, dict):
            continue
        seen: list[str] = []
        for key, value in info.items():
            if isinstance(value, str) and value and value not in seen and key != "flags":
                seen.append(value)
        if seen:
            out.append(f"{name}: {'; '.join(seen)}")
    return out


def run_header(run, cells) -> dict:
    """The facts at the top of every report of a run, as parts both exporters lay out."""
    env = json.loads(run["env_json"])
    args = json.loads(run["args_json"])
    counting = is_instruction_run(run)
    counts: dict[str, int] = {}
    for c in cells:
        if not c["is_baseline"]:
            counts[c["status"]] = counts.get(c["status"], 0) + 1
    how = (
        f"instruction counts ({env.get('valgrind') or 'valgrind'}, cachegrind)"
        if counting
        else f"{run['mode']} mode ({rounds_text(args)})"
    )
    measured = [c for c in cells if c["status"] == "ok" and c["rcv"] is not None]
    return {
        "started": datetime.fromtimestamp(run["started_at"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "how": how,
        "counting": counting,
        "machine": f"{env.get('cpu_model')}, {env.get('cores')} cores, governor {env.get('governor')}, "
        f"kernel {env.get('kernel')}",
        "cpu_model": env.get("cpu_model"),
        "cores": env.get("cores"),
        "governor": env.get("governor"),
        "kernel": env.get("kernel"),
        "commit": commit_text(env),
        "provenance": provenance(args, env),
        "precision": precision_line(run, cells),
        "warnings": run_warnings(run, cells),
        "unfinished": unfinished_note(run, cells) if run["status"] != "done" else "",
        "langs": sorted({c["harness"] for c in cells}),
        "counts": counts,
        "runtimes": runtimes(env),
        "wall_s": wall_s(run, env),
        "wall": duration(wall_s(run, env)) if wall_s(run, env) is not None else "–",
        "median_rcv": median(c["rcv"] for c in measured) if measured else None,
        "noisy": sum(1 for c in measured if c["noisy"] and c["noisy"] & 1),
        "measured": len(measured),
        "failed": sum(n for s, n in counts.items() if s in ("incorrect", "failed")),
    }


def latency_ops(c) -> str:
    """The operations a cell's latency percentiles cover, and over how many forks when they pool
    several (latency.py): "500,000 in 5 forks"."""
    forks = c["lat_forks"] if "lat_forks" in c.keys() else None  # noqa: SIM118 (sqlite3.Row has no `in`)
    return fmt_count(c["lat_count"]) + (f" in {forks} forks" if forks and forks > 1 else "")
