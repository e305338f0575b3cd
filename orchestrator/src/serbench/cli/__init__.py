"""The `serbench` command. `main` reads as a table of contents; each subcommand is one function.

Exit codes: 0 done; 1 a check failed (doctor, test); 2 bad input (usage, unknown library or dataset,
malformed --data file, a robustness --cases path with no case file, a --db that is not a writable
store or, for report and compare, no store at all, an --out, --corpus or --output that cannot be
written, a run another process is executing); 3 a toolchain is missing or a harness does not
build; 130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM (the run is kept: `serbench run --resume`
finishes it).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import secrets
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from .. import contracts, envinfo, instructions, pinning, pipes, runner
from ..compare import NotComparable, compare
from ..compare import render as render_compare
from ..compare import to_json as compare_json
from ..corpus import build as corpus
from ..corpus.formats import FormatError
from ..corpus.generator import DEFAULT_SEED
from ..harnesses import (
    BuildOptions,
    HarnessError,
    UnknownHarness,
    check_names,
    harness_classes,
    make,
    release_harness_locks,
)
from ..progress import ProgressBar
from ..report import export, facts, markdown
from ..report import html as html_report
from ..store import Store, StoreError

ROOT = Path(__file__).resolve().parents[4]
EXIT_OK, EXIT_CHECK, EXIT_INPUT, EXIT_TOOLCHAIN, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 3, 130, 143
TESTS = ("write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access")


class UserError(Exception):
    """One clear line for the user, and an exit code."""

    def __init__(self, message: str, code: int = EXIT_INPUT):
        super().__init__(message)
        self.code = code


class Terminated(KeyboardInterrupt):
    """SIGTERM (sent by `timeout`, CI cancellation, service managers): handled like Ctrl-C, so
    the run is marked interrupted, its harness process killed and temporary files removed."""


def _on_sigterm(signum, frame):
    raise Terminated()


def _interrupted_code(e: KeyboardInterrupt) -> int:
    return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED


def say(msg: str) -> None:
    """Human output goes to stderr; stdout carries results (tables, JSON)."""
    print(msg, file=sys.stderr, flush=True)


# --- run ------------------------------------------------------------------------------------------


def _datasets(args, manifest: dict, user: list[corpus.UserFile]) -> list[str]:
    """The datasets the filters name; by default the schemaless sizes 1-5 and every typed dataset
    but those only measured when named (the manifest's `"default": false`, e.g. trade-seed)."""
    names = [f"size-{n}" for n in args.size] + list(args.dataset)
    names += corpus.user_dataset_names(user, getattr(args, "data_bytes", "both"))
    if names:
        return names
    typed = [d["dataset"] for d in manifest["datasets"] if d["kind"] == "typed" and d.get("default", True)]
    return [f"size-{n}" for n in range(1, 6)] + typed


def _usable_harnesses(args, options: BuildOptions, *, for_run: bool = False) -> list:
    hs = make(args.lang or None, ROOT, options)
    usable = []
    for h in hs:
        if for_run and not args.lang and h.not_in_default_run:
            say(f"{h.name} is not in the default run ({h.not_in_default_run}); run it with --lang {h.name}")
            continue
        missing = h.missing_toolchain()
        if missing and args.lang:
            raise UserError(missing[0], EXIT_TOOLCHAIN)
        if missing:
            say(f"skipping {h.name}: {missing[0]}")
            continue
        usable.append(h)
    if not usable:
        raise UserError("no harness can run here; `serbench doctor` says what is missing", EXIT_TOOLCHAIN)
    return usable


def _built_listings(options: BuildOptions, exclude) -> dict[str, dict]:
    """The `list` of every harness built here but not in `exclude`, for the hint that a --lib belongs
    to another language; a harness whose `list` fails is left out of the hint."""
    out = {}
    for h in make(None, ROOT, options):
        if h.name in exclude or h.missing_toolchain() or not h.is_built():
            continue
        with contextlib.suppress(HarnessError, OSError, subprocess.SubprocessError):
            out[h.name] = runner.listing(h)
    return out


def _build(hs: list) -> None:
    for h in hs:
        h.build_and_hold(say)


def cmd_run(args) -> int:
    db = Store(Path(args.db))
    try:
        return _run(args, db)
    finally:
        db.close()  # also gives up the run, whatever ended the command


def _run(args, db: Store) -> int:
    if args.resume is not None:
        prev = db.run(args.resume) if args.resume else db.resumable_run()
        if prev is None:
            raise UserError(f"no run {args.resume!r} in {args.db}" if args.resume else "no interrupted run to resume")
        if prev["status"] == "done":
            raise UserError(f"run {prev['id']} is finished; `serbench report {prev['id']}` shows it")
        db.claim(prev["id"])  # raises when another live process is executing it
        run_id, saved = prev["id"], json.loads(prev["args_json"])
        for k, v in runner.stored_settings(saved).items():
            setattr(args, k, v)
        say(f"resuming run {run_id}")
    else:
        run_id = None
    mode = mode_from_args(args)
    counting = getattr(args, "measure", "time") == "instructions"
    if counting:
        mode = instructions.mode_for(mode)
        valgrind = instructions.ensure_valgrind(ROOT, say)
    options = BuildOptions(
        profile=args.build_profile,
        compiler=args.compiler,
        verbose=args.verbose,
        code_size=args.code_size or mode.name == "full",
    )
    # before anything is measured: the report is written after minutes of measuring; and before the
    # harnesses are chosen, so that a bad --data file is the only line, not one after their notices
    check_names(args.lang)  # a mistyped --lang is one line at once, before the corpus is written
    corpus_dir, _ = _writable_folder(args.corpus, "--corpus"), _writable_folder(args.out, "--out")
    manifest, user = _corpus(corpus_dir, args.seed, args.data)  # before the build: a bad --data file fails fast
    datasets = _datasets(args, manifest, user)
    runner.check_datasets(manifest, datasets)  # and a mistyped --dataset
    hs = _usable_harnesses(args, options, for_run=True)
    if run_id is not None:
        _same_data(run_id, json.loads(prev["manifest_json"]), manifest)
    _build(hs)
    listings = {h.name: runner.listing(h) for h in hs}
    runner.check_filters(listings, args.lib, args.format, lambda: _built_listings(options, exclude=listings))
    cells = runner.plan(
        hs,
        listings,
        manifest,
        corpus_dir,
        libs=args.lib,
        formats=args.format,
        tests=args.test,
        datasets=datasets,
    )
    if run_id is None:
        run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)
        saved = {
            k: getattr(args, k)
            for k in (
                "lang",
                "lib",
                "format",
                "test",
                "size",
                "dataset",
                "data",
                "data_bytes",
                "mode",
                "seed",
                "corpus",
                "build_profile",
                "compiler",
                "code_size",
                "out",
                "rounds",
                "budget_ms",
                "pin",
                "prestart",
                "canary",
                "measure",
            )
        }
        saved |= {
            "rounds": mode.rounds,
            "budget_ms": mode.budget_ms,
            "max_rounds": mode.cap_rounds,
            "target_ci": mode.target_rel_ci,
            "cell_cap_s": mode.cell_cap_s if math.isfinite(mode.cell_cap_s) else None,
            # the whole budget, fixed when the run starts: a resumed run spends what is left of it
            "time_budget_s": _finite_or_zero(mode.run_budget_s(len(cells))),
            "warmup_k": mode.warmup_k,
            "latency_forks": mode.latency_forks,
        }
        saved |= _command_line(args)
        env = envinfo.collect(ROOT, hs)
        if not args.canary:
            env["canary_off"] = True  # runner.canary_on: the times stay as measured
        # harnesses whose canary does not divide their times, with why (runner.canary_references)
        env["canary_unused"] = {h.name: h.canary_unused for h in hs if h.canary_unused}
        if counting:
            env["valgrind"] = instructions.valgrind_version()
            # harnesses whose counts vary by design, with why: the run's warning says it of their cells
            env["instructions_varying"] = {h.name: h.instructions_varying for h in hs if h.instructions_varying}
        db.claim(run_id)  # before it is visible, so no `--resume` can take it
        db.create_run(run_id, mode.name, saved, env, manifest)
    n_real = sum(1 for c in cells if not c.bench.get("baseline"))
    pin = pinning.choose(args.pin)
    db.append_run_env(run_id, "pinning", {**pin.facts(), "prestart": bool(args.prestart and pin.on)})
    t0 = time.monotonic()
    if counting:
        varying = sorted({c.harness.name for c in cells if c.harness.instructions_varying})
        more = f", 4-5 for {', '.join(varying)}, whose counts vary" if varying else ""
        say(
            f"run {run_id}: {n_real} cells + {len(cells) - n_real} baselines, "
            f"instructions counted under valgrind (3 processes per cell{more})"
        )
    else:
        budget = mode.run_budget_s(len(cells))
        say(
            f"run {run_id}: {n_real} cells + {len(cells) - n_real} baselines, {mode.name} mode: {mode.rounds} to "
            f"{mode.cap_rounds} rounds per cell (to a 95% CI within ±{mode.target_rel_ci:.1%}), "
            + (f"time budget {budget / 60:.1f} min" if math.isfinite(budget) else "no time budget")
            + (f"; harness on CPU {pin.harness_cpu}, orchestrator on CPU {pin.orchestrator_cpu}" if pin.on else "")
        )
    try:
        with runner.recording_load(db, run_id, _command_line(args)["argv"]):
            if counting:
                instructions.run_cells(db, run_id, cells, mode, args.seed, ProgressBar(), valgrind)
            else:
                runner.run_cells(db, run_id, cells, mode, args.seed, ProgressBar(), pin=pin, prestart=args.prestart)
        _compress_outputs(db, run_id)
        if counting:
            instructions.finalize(db, run_id)
        else:
            runner.finalize(db, run_id, mode.n_boot, args.seed, mode.warmup_k)
    except KeyboardInterrupt as e:
        db.finish_run(run_id, "interrupted")
        say(f"\ninterrupted; finished cells are saved. Continue with: ./serbench run --resume {run_id}")
        return _interrupted_code(e)
    db.finish_run(run_id)
    out = Path(args.out) / run_id
    run_row, cell_rows = db.run(run_id), db.cells(run_id)
    fix = f"the run is stored, and `serbench report {run_id} --output FILE` writes it"
    _write_or_warn(out / "report.md", markdown.render(run_row, cell_rows), fix)
    try:
        _write_html(db, run_row, cell_rows, out / "report.html", tell=False)  # the run's last line names it
    except Exception as e:  # the run is stored and report.md written: a page must not lose them
        say(f"warning: report.html not written ({e!r}); `serbench report {run_id} --format html` tries again")
    print(markdown.summary(run_row, cell_rows))
    for warning in markdown.run_warnings(run_row, cell_rows):
        say(f"warning: {warning}")
    say(
        f"done in {time.monotonic() - t0:.0f} s; report: {out / 'report.md'} and report.html; "
        f"store: {args.db} (run {run_id})"
    )
    return EXIT_OK


def _compress_outputs(db: Store, run_id: str) -> None:
    """The gzip and zstd sizes of the encoder outputs the run kept, once its cells are done: at the
    corpus levels they take seconds per large output, so they are never computed beside a benchmark,
    and every core takes part (store.compress_pending)."""
    n = db.pending_output_count(run_id)
    if not n:
        return
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    say(f"compressed sizes of {n} distinct encoder outputs (gzip -9, zstd -19), {workers} at a time")
    bar = ProgressBar()
    db.compress_pending(run_id, workers=workers, progress=lambda done, total: bar(done, total, "compressed sizes"))


def _finite_or_zero(x: float) -> float:
    return x if math.isfinite(x) else 0.0


def mode_from_args(args) -> runner.Mode:
    """The mode's preset refined by explicit options (all saved with the run for --resume):
    --rounds N sets the minimum processes per cell (and raises the cap to N if it was lower);
    --max-rounds M the cap (M = N: a fixed count, the classic method); --target-ci PCT the CI
    half-width at which a cell stops (0: no extra rounds); --cell-cap-s and --time-budget-s the
    per-cell and whole-run wall budgets (0: none); --budget-ms the sampling time of each process;
    --warmup-k the steady-state rule (0: keep every sample); --latency-forks the latency processes
    pooled per cell."""
    m = runner.MODES[args.mode]
    get = lambda name: getattr(args, name, None)  # noqa: E731
    rounds = m.rounds if get("rounds") is None else args.rounds
    cap = m.cap_rounds if get("max_rounds") is None else args.max_rounds
    if get("max_rounds") is not None and get("rounds") is None:
        rounds = min(rounds, cap)
    m = dataclasses.replace(
        m,
        rounds=rounds,
        max_rounds=max(rounds, cap),
        budget_ms=m.budget_ms if get("budget_ms") is None else args.budget_ms,
        target_rel_ci=m.target_rel_ci if get("target_ci") is None else args.target_ci,
        warmup_k=m.warmup_k if get("warmup_k") is None else args.warmup_k,
        latency_forks=m.latency_forks if get("latency_forks") is None else args.latency_forks,
    )
    if get("cell_cap_s") is not None:
        m = dataclasses.replace(m, cell_cap_s=args.cell_cap_s or math.inf)
    if get("time_budget_s") is not None:
        m = dataclasses.replace(m, time_budget_s=args.time_budget_s)
    return m


def _command_line(args) -> dict:
    """The exact command line, as typed (stored with the run and shown at the top of its report)."""
    argv = list(getattr(args, "invocation", None) or sys.argv[1:])
    return {"argv": argv, "command_line": shlex.join(["serbench", *argv]), "cwd": os.getcwd()}


# --- the other subcommands --------------------------------------------------------------------------


def cmd_list(args) -> int:
    """What is built answers; what is not built is named with the command that builds it. `list`
    never builds: a first build takes minutes, and nobody asked for it."""
    hs = make(args.lang or None, ROOT, BuildOptions(verbose=args.verbose))
    listings = {}
    for h in hs:
        if not h.is_built():
            how = h.missing_toolchain() or [f"`serbench build --lang {h.name}` builds it"]
            say(f"{h.name}: not built; {how[0]}")
            continue
        listings[h.name] = runner.listing(h)
    if not listings:
        raise UserError("no harness is built yet; `serbench build` builds them (minutes the first time)")
    if args.json:
        print(json.dumps(listings, indent=1))
        return EXIT_OK
    for name, lst in listings.items():
        print(f"{name} ({lst.get('runtime', '')})")
        # columns as wide as their widest entry (ids such as jdk-externalizable-cbytes-typed broke
        # fixed widths), the formats last: a typed baseline lists dozens
        rows = [
            [
                b["id"],
                b["library"],
                b["version"],
                "baseline" if b.get("baseline") else ", ".join(b["tests"]),
                "/".join(b["formats"]),
                contracts.listing_text(b),
            ]
            for b in lst["benchmarks"]
        ]
        if rows:
            # "work": the row's timed loop against its tests' contracts (spec/fairness.md rule 12), last
            # because a row off its contract spells its steps out
            _print_columns([["id", "library", "version", "tests", "formats", "work"], *rows], indent="  ")
    return EXIT_OK


def cmd_build(args) -> int:
    _build(_usable_harnesses(args, BuildOptions(verbose=args.verbose)))
    return EXIT_OK


def _corpus(dest: Path, seed: int, data: list[str]) -> tuple[dict, list[corpus.UserFile]]:
    """The corpus with the user's --data files: only what is missing is written, with progress."""
    user = corpus.open_user_files(data)
    bar = ProgressBar()

    def progress(done: int, total: int, label: str) -> None:
        nonlocal bar
        if done == 0:
            bar = ProgressBar()  # each step (standard corpus, each user file) has its own bar and ETA
        bar(done, total, label)

    return corpus.ensure_corpus(dest, seed, user, progress=progress, note=say), user


def _same_data(run_id: str, before: dict, now: dict) -> None:
    """A resumed run must measure the data its finished rounds measured (a --data file edited since, or
    a corpus made by other generator code, would mix two documents under one dataset name)."""
    old = {d["dataset"]: d for d in before.get("datasets", [])}
    for d in now["datasets"]:
        o = old.get(d["dataset"])
        if o is not None and o["hash"] != d["hash"]:
            source = (d.get("source") or {}).get("path")
            what = f"{source} changed" if source else f"dataset {d['dataset']} changed (other generator code or seed)"
            raise UserError(
                f"{what} since run {run_id} started (object hash {o['hash']} -> {d['hash']}); its finished rounds "
                "measured the old data: restore it, or start a new run instead of --resume"
            )


def _writable_folder(folder: str, flag: str) -> Path:
    """`folder`, made if missing, once a file could be created in it: a folder that cannot take the
    corpus or the reports is the user's input, answered in one line before any work."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file, not a folder; pass {flag} with a writable folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as e:
        raise UserError(f"cannot write in {path}: {e.strerror or e}; pass {flag} with a writable folder") from None
    return path


def cmd_corpus(args) -> int:
    m, _ = _corpus(_writable_folder(args.out, "--out"), args.seed, args.data)
    w = max(14, *(len(d["dataset"]) for d in m["datasets"]))
    print(
        f"{'dataset':<{w}} {'hash':<16} " + " ".join(f"{f:>12}" for f in ("json", "msgpack", "cbor", "bson", "ubjson"))
    )
    for d in m["datasets"]:
        sizes = " ".join(
            f"{d['files'][f]['bytes'] if f in d['files'] else '-':>12}"
            for f in ("json", "msgpack", "cbor", "bson", "ubjson")
        )
        print(f"{d['dataset']:<{w}} {d['hash']:<16} {sizes}")
    say(f"{sum(len(d['files']) for d in m['datasets'])} files and manifest.json in {args.out}")
    return EXIT_OK


def _reading_store(args, missing_ok: bool = False) -> Store | None:
    """The store a command that only reads opens (report, history, compare). Such a command never
    creates one, or a mistyped --db would leave an empty store behind and be answered "no runs yet"
    as if it were the store meant: with no file at --db it is a UserError, or None if `missing_ok`."""
    path = Path(args.db)
    if path.exists():
        return Store(path)
    if missing_ok:
        return None
    raise UserError(_no_store(args))


def _no_store(args) -> str:
    return f"no results store at {args.db}; `serbench run` creates it (or pass --db with an existing store)"


def _pick_run(db: Store, run_id: str | None):
    row = db.run(run_id) if run_id else db.latest_run()
    if row is None:
        raise UserError(
            f"no run {run_id!r} in {db.path}; `serbench history` lists its runs"
            if run_id
            else f"the store {db.path} has no runs yet; try `serbench run`"
        )
    return row


def _write_html(db: Store, run, cells, path: Path, tell: bool = True) -> None:
    """The HTML report; without the charting library (no npm, no network) it is written with tables only."""
    page = html_report.render(run, cells, *_chart_library(), html_report.same_machine_runs(db, run))
    _write_output(path, page, tell)


def _chart_library() -> tuple[str | None, str]:
    """(the charting library's code or None, a note for the page when it is missing, also said here)."""
    library_js, note = html_report.chart_library(say=say)
    if note:
        say(f"warning: {note}")
    return library_js, note


def _write_output(
    path: Path, text: str, tell: bool = True, fix: str = "pass --output with a writable file path"
) -> None:
    """A report or comparison written to `path` (its folder made as needed), and said when `tell`; a
    path that cannot be written is the user's input, answered in one line that ends with `fix`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}; {fix}") from None
    if tell:
        say(f"wrote {path}")


def _write_or_warn(path: Path, text: str, fix: str) -> None:
    """A run's own report at its end: the --out folder took a file when the run started, and a disk that
    filled since must not lose what follows (the summary, the run's last line); `fix` says how to get it."""
    try:
        _write_output(path, text, tell=False, fix=fix)
    except UserError as e:
        say(f"warning: {e}")


def cmd_report(args) -> int:
    db = _reading_store(args)
    if args.robustness:
        return _robustness_report(db, args)
    if args.findings:
        raise UserError("--findings needs --robustness: it lists a robustness run's crashes, hangs and blow-ups")
    if args.list:
        for r in db.runs():
            started = datetime.fromtimestamp(r["started_at"], timezone.utc).strftime("%Y-%m-%d %H:%M")
            print(f"{r['id']}  {started}  {r['mode']:<5} {db.status(r):<11} {len(db.cells(r['id']))} cells")
        return EXIT_OK
    run = _pick_run(db, args.run)
    cells = db.cells(run["id"])
    run = {**dict(run), "status": db.status(run)}
    if run["status"] != "done":
        say(markdown.unfinished_note(run, cells))
    if args.format == "html":
        # a file, never stdout: the page inlines a 1 MB library; by default beside the run's report.md
        out_dir = Path(json.loads(run["args_json"]).get("out") or ROOT / "results") / run["id"]
        _write_html(db, run, cells, Path(args.output) if args.output else out_dir / "report.html")
        return EXIT_OK
    text = {"md": markdown.render, "json": export.to_json, "csv": export.to_csv}[args.format](run, cells)
    if args.output:
        _write_output(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _robustness_report(db: Store, args) -> int:
    """A stored robustness run again: its report (md or html), or with --findings the page of every
    crash, hang and memory blow-up per library (docs/robustness-findings.md is made with it)."""
    from ..report import robustness as robustness_report

    run = db.robustness_run(args.run) if args.run else db.robustness_run()
    if run is None:
        known = "" if args.run is None else f" {args.run!r}"
        raise UserError(f"no robustness run{known} in {args.db}; `serbench robustness` makes one")
    results = db.robustness_results(run["id"])
    if args.format not in ("md", "html"):
        raise UserError("a robustness run is reported as md or html")
    if args.findings:
        if args.format != "md":
            raise UserError("--findings is Markdown only")
        text = robustness_report.findings(dict(run), results)
    elif args.format == "html":
        text = html_report.render_robustness(dict(run), results)
    else:
        text = robustness_report.render(dict(run), results)
    if args.output:
        _write_output(Path(args.output), text)
    elif args.format == "html":
        raise UserError("--format html writes a file: give --output")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def history_rows(db: Store) -> list[dict]:
    """One row per stored run, oldest first: what `serbench history` prints."""
    out = []
    for r in db.runs():
        args, env = json.loads(r["args_json"]), json.loads(r["env_json"])
        cells = db.cells(r["id"])
        real = [c for c in cells if not c["is_baseline"]]
        wall = facts.wall_s(r, env)
        out.append(
            {
                "id": r["id"],
                "started": datetime.fromtimestamp(r["started_at"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "status": db.status(r),
                "mode": r["mode"],
                "measure": args.get("measure") or "time",
                "languages": sorted({c["harness"] for c in cells}),
                "cells": len(real),
                "ok": sum(1 for c in real if c["status"] == "ok"),
                "incorrect_or_failed": sum(1 for c in real if c["status"] in ("incorrect", "failed")),
                "wall_s": round(wall, 1) if wall is not None else None,
                "cpu_model": env.get("cpu_model"),
                "cores": env.get("cores"),
            }
        )
    return out


def cmd_history(args) -> int:
    db = _reading_store(args, missing_ok=True)
    rows = history_rows(db) if db is not None else []
    if args.format == "json":
        print(json.dumps({"schema": "serbench.history/1", "runs": rows}, indent=1))
        return EXIT_OK
    if not rows:
        say(_no_store(args) if db is None else "the store has no runs yet; try `serbench run`")
        return EXIT_OK
    header = ["Run", "Started", "Status", "Mode", "Measure", "Languages", "Cells", "Ok", "Bad", "Wall time", "Machine"]
    table = [
        [
            r["id"],
            r["started"],
            r["status"],
            r["mode"],
            r["measure"],
            ",".join(r["languages"]) or "–",
            str(r["cells"]),
            str(r["ok"]),
            str(r["incorrect_or_failed"]),
            facts.duration(r["wall_s"]) if r["wall_s"] is not None else "–",
            f"{r['cpu_model']}, {r['cores']} cores",
        ]
        for r in rows
    ]
    _print_columns([header, *table])
    return EXIT_OK


def _print_columns(lines: list[list[str]], indent: str = "") -> None:
    """Lines of text cells, each column as wide as its widest cell, two spaces apart."""
    widths = [max(len(x[i]) for x in lines) for i in range(len(lines[0]))]
    for line in lines:
        print(indent + "  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip())


def cmd_compare(args) -> int:
    db = _reading_store(args)
    a, b = _pick_run(db, args.run_a), _pick_run(db, args.run_b)
    try:
        result = compare(db, a["id"], b["id"], progress=ProgressBar())
    except NotComparable as e:
        raise UserError(str(e)) from None
    if not result.rows:
        raise UserError(
            f"runs {a['id']} and {b['id']} share no measured cell ({len(result.not_compared)} cells measured in one "
            "only); compare runs of the same benchmarks"
        )
    if args.format == "html":
        # a file, as the report's: the page inlines the charting library
        path = Path(args.output) if args.output else ROOT / "results" / f"compare-{a['id']}-vs-{b['id']}.html"
        _write_output(path, html_report.render_compare(result, *_chart_library()))
        return EXIT_OK
    text = compare_json(result) + "\n" if args.format == "json" else render_compare(result)
    if args.output:
        _write_output(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_doctor(args) -> int:
    ok = True
    print(f"python {sys.version.split()[0]}: ok" if sys.version_info >= (3, 10) else "python: 3.10+ needed")
    vg = instructions.valgrind_version()
    fix = f"sudo apt-get install {instructions.VALGRIND_PIN}"
    print(
        f"valgrind: {vg} (for --measure instructions)"
        if vg
        else f"valgrind: not found (for --measure instructions: {fix})"
    )
    gov = envinfo.governor()
    print(
        f"cpu governor: {gov}"
        + (
            "  (for stable timings: cpupower frequency-set -g performance)"
            if gov not in ("performance",) and not gov.startswith("unavailable")
            else ""
        )
    )
    for name, cls in harness_classes().items():
        h = cls(ROOT, BuildOptions())
        missing = h.missing_toolchain()
        ok &= not missing
        print(f"harness {name}: " + ("toolchain ok" if not missing else "; ".join(missing)))
    return EXIT_OK if ok else EXIT_CHECK


def cmd_test(args) -> int:
    """Every test of every part: the orchestrator's pytest, then each harness's own runner."""
    results = []
    say("== orchestrator (pytest)")
    results.append(
        (
            "orchestrator",
            subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "orchestrator" / "tests")]
            ).returncode,
        )
    )
    for h in make(args.lang or None, ROOT, BuildOptions(verbose=args.verbose)):
        missing = h.missing_toolchain()
        if missing:
            say(f"== {h.name}: cannot test, {missing[0]}")
            results.append((h.name, 1))
            continue
        say(f"== {h.name}: build and test")
        try:
            h.build_and_hold(say)
        except HarnessError as e:
            say(str(e))
            results.append((h.name, 1))
            continue
        cmd = h.test_command()
        if cmd:
            results.append((h.name, subprocess.run(cmd, cwd=h.dir, env=h.env()).returncode))
    failed = [n for n, rc in results if rc != 0]
    say("suites: " + ", ".join(f"{n} {'ok' if rc == 0 else 'FAILED'}" for n, rc in results))
    print(f"serbench-suites: {len(results) - len(failed)} passed, {len(failed)} failed")
    return EXIT_OK if not failed else EXIT_CHECK


def cmd_vectors(args) -> int:
    from ..corpus.conformance import write_conformance
    from ..corpus.vectors import write_vectors

    n = write_vectors(ROOT / "vectors")
    say(f"wrote {n} vectors to {ROOT / 'vectors'}")
    n = write_conformance(ROOT / "vectors" / "conformance")
    say(f"wrote {n} reference-decoder conformance cases to {ROOT / 'vectors' / 'conformance'}")
    return EXIT_OK


# --- robustness ------------------------------------------------------------------------------------


def cmd_robustness(args) -> int:
    """Every decoder row against the robustness cases, each case in its own limited process
    (docs/robustness.md). Builds every harness first, as `run` does (`--no-build`: only those built)."""
    import fnmatch

    from ..report import robustness as robustness_report
    from ..robustness import cases as rcases
    from ..robustness import run as rrun
    from ..robustness.limits import MIB, Limits

    limits = Limits(timeout_s=args.timeout_s, memory_bytes=args.memory_mib * MIB, stack_bytes=args.stack_mib * MIB)
    corpus_dir, _ = _writable_folder(args.corpus, "--corpus"), _writable_folder(args.out, "--out")
    own = None  # your own cases (--cases PATH), read before anything is built: a bad path fails at once
    if args.cases:
        try:
            own = rcases.user_cases(Path(args.cases))
        except rcases.CaseFolderError as e:
            raise UserError(str(e)) from None
    # Every check that needs no harness comes before the build, which takes minutes the first time:
    # a mistyped --format or --case is one line at once, as a bad --db or --cases is.
    for f in args.format:
        if f not in rcases.FORMATS:
            raise UserError(f"no robustness cases for format {f!r}; there are: {', '.join(rcases.FORMATS)}")
    t0 = time.monotonic()
    if own is None:
        manifest = rcases.write_cases(corpus_dir, args.seed)
    else:
        manifest = rcases.write_user_cases(corpus_dir, Path(args.cases), own[0])
    case_root = corpus_dir / rcases.folder_of(manifest)
    say(f"{len(manifest['cases'])} robustness cases in {case_root} ({time.monotonic() - t0:.1f} s)")
    if own is not None:
        kinds = Counter(c.expect for c in own[0])
        skipped = own[1]
        say(
            f"  from {args.cases}: "
            + ", ".join(f"{n} {e}" for e, n in sorted(kinds.items()))
            + (
                f"; {len(skipped)} file{'s' if len(skipped) != 1 else ''} of other extensions skipped "
                f"(e.g. {skipped[0]})"
                if skipped
                else ""
            )
        )
    pats = args.case
    cases = [
        c
        for c in manifest["cases"]
        if not pats
        or any(fnmatch.fnmatch(x, p) for p in pats for x in (c["name"], f"{c['format']}/{c['name']}", c["class"]))
    ]
    if not cases:
        raise UserError(f"--case {' '.join(pats)} selects no case; see {case_root / 'manifest.json'}")
    db = Store(Path(args.db))  # a --db that is not a store is one line before the build, as in `run`
    hs = []
    for h in make(args.lang or None, ROOT, BuildOptions(verbose=args.verbose)):
        missing = h.missing_toolchain()
        if args.build and not missing:
            h.build_and_hold(say)
        if not h.is_built():
            why = "; ".join(missing) if missing else f"not built; `serbench build --lang {h.name}` builds it"
            say(f"skipping {h.name}: {why}")
            continue
        hs.append(h)
    if not hs:
        raise UserError("no harness is built yet; `serbench build` builds them (minutes the first time)")
    listings = {}
    for h in list(hs):
        try:
            listings[h.name] = runner.listing(h)
        except HarnessError as e:
            say(f"skipping {h.name}: {e}")
            hs.remove(h)
    everything = [b for lst in listings.values() for b in lst["benchmarks"]]
    for lib in args.lib:
        if not any(runner._matches(b, [lib]) for b in everything):
            raise UserError(f"unknown library {lib!r}; `serbench list` shows what can run here")
    rows = rrun.plan_rows(hs, listings, {c["format"] for c in cases}, args.lib, args.format, args.test)
    if not rows:
        raise UserError("the filters select no decoder row (tree or incremental); `serbench list` shows the rows")
    run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-rb") + secrets.token_hex(2)
    saved = {
        k: getattr(args, k) for k in ("lang", "lib", "format", "test", "case", "cases", "seed", "corpus", "out", "jobs")
    }
    saved |= {"limits": limits.as_dict(), "limits_text": limits.describe()} | _command_line(args)
    n = sum(1 for r in rows for c in cases if c["format"] == r.format)
    say(
        f"robustness run {run_id}: {len(rows)} decoder rows, {n} processes, {args.jobs} at a time; "
        f"limits per process: {limits.describe()}"
    )
    db.create_robustness_run(run_id, saved, envinfo.collect(ROOT, hs), manifest)
    bar = ProgressBar()
    t0 = time.monotonic()

    def row_done(row, results, wall_s) -> None:
        say(f"  {row.label}: {len(results)} cases in {wall_s:.1f} s: {rrun.summary_line(results)}")

    status, code = "done", EXIT_OK
    try:
        rrun.run_rows(
            rows, cases, case_root, limits, lambda r: db.record_robustness(run_id, r), bar, row_done,
            jobs=args.jobs,
        )  # fmt: skip
    except KeyboardInterrupt as e:
        status, code = "interrupted", _interrupted_code(e)
        say("\ninterrupted; the finished cases are stored and reported")
    except BaseException:
        db.finish_robustness_run(run_id, "interrupted")  # an orchestrator error: never left "running"
        raise
    db.finish_robustness_run(run_id, status)
    run, results = db.robustness_run(run_id), db.robustness_results(run_id)
    out = Path(args.out) / run_id
    fix = f"the run is stored, and `serbench report --robustness {run_id} --output FILE` writes it"
    _write_or_warn(out / "robustness.md", robustness_report.render(dict(run), results), fix)
    _write_or_warn(out / "robustness.html", html_report.render_robustness(dict(run), results), fix)
    db.close()
    by_row: dict = {}
    for r in results:
        by_row.setdefault((r["harness"], r["bench"], r["test"], r["format"]), []).append(r)
    for (h, b, t, f), rs in by_row.items():
        print(f"{h}/{b} {t} {f}: {rrun.summary_line(rs)}")
    tot = rrun.totals(results)
    say(
        f"{len(results)} processes in {time.monotonic() - t0:.0f} s: "
        + ", ".join(f"{v} {k}" for k, v in tot.items() if v)
        + f"; report: {out / 'robustness.md'} and robustness.html; store: {args.db} (robustness run {run_id})"
    )
    return code


# --- arguments -------------------------------------------------------------------------------------


def _int_at_least(low: int, high: int | None = None):
    """An argparse type: an integer in [low, high], or a usage error (exit 2) that says so."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < low or (high is not None and v > high):
            bound = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{v} is out of range: it must be {bound}")
        return v

    return parse


SEED = _int_at_least(0, 2**64 - 1)


def _non_negative(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v >= 0 or math.isinf(v):
        raise argparse.ArgumentTypeError(f"{text} is out of range: it must be a finite number, 0 or more")
    return v


def _percent(text: str) -> float:
    """A percentage on the command line, a fraction inside."""
    return _non_negative(text) / 100


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="serbench",
        description="Cross-language serialization benchmarks.",
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # --db and -v are accepted before and after the subcommand: a parent parser gives each
    # subcommand the same options with SUPPRESS defaults, so a value given after the subcommand
    # overrides one given before it, and an absent one leaves the main parser's default.
    p.add_argument("--db", default=str(ROOT / "results" / "serbench.db"), help="results store (SQLite)")
    p.add_argument("-v", "--verbose", action="store_true", help="show build output")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help="results store (SQLite)")
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="show build output")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def command(name: str, **kw) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], **kw)

    left_out = sorted(n for n, c in harness_classes().items() if c.not_in_default_run)

    def filters(s, with_data=True):
        default = "all" + (f" but {', '.join(left_out)}, which `run` takes only when named" if left_out else "")
        s.add_argument("--lang", action="append", default=[], help=f"harness language (repeatable; default: {default})")
        s.add_argument("--lib", action="append", default=[], help="library or benchmark id (repeatable)")
        s.add_argument(
            "--format",
            action="append",
            default=[],
            help="corpus format (repeatable; default: json msgpack cbor bson ubjson)",
        )
        s.add_argument("--test", action="append", default=[], choices=TESTS, help="test kind (repeatable)")
        s.add_argument(
            "--size",
            action="append",
            default=[],
            type=int,
            choices=range(1, 6),
            metavar="{1..5}",
            help="schemaless size (repeatable; default: 1 to 5)",
        )
        s.add_argument(
            "--dataset", action="append", default=[], help="other dataset by name, e.g. micro-ints (repeatable)"
        )
        if with_data:
            s.add_argument(
                "--data",
                action="append",
                default=[],
                metavar="FILE",
                help="your own .json/.msgpack/.cbor document (a map at the root; repeatable)",
            )
            s.add_argument(
                "--data-bytes",
                choices=corpus.DATA_BYTES,
                default="both",
                help="measure each --data file re-encoded by serbench in every format (dataset user-NAME), "
                "its exact bytes in its own format (user-NAME.original), or both (default)",
            )

    s = command("run", help="build what is missing, write the corpus, run, store and report")
    filters(s)
    s.add_argument(
        "--mode",
        choices=runner.MODES,
        default="quick",
        help="quick (default): 3 to 20 processes of 25 ms per cell, to a CI within ±1%%, at most 12 min of cells; "
        "full: 10 to 50 processes of 0.3 s, to ±0.5%%, ~6 s per cell (docs/methodology.md)",
    )
    s.add_argument("--rounds", type=_int_at_least(1), help="minimum fresh processes per cell (overrides the mode's)")
    s.add_argument(
        "--max-rounds",
        type=_int_at_least(1),
        help="at most this many processes per cell (overrides the mode's; equal to --rounds: a fixed count)",
    )
    s.add_argument(
        "--measure",
        choices=("time", "instructions"),
        default="time",
        help="time: wall time per operation (default); instructions: instructions per operation counted "
        "under valgrind (cachegrind), net of the baseline, the same on every run of the same build and data; "
        "compiled harnesses only (native, rust, go; Go's vary, so its cells count n2 twice or three times and take "
        "the median); "
        "ignores --mode's rounds and budget, and skips the allocation pass",
    )
    s.add_argument("--budget-ms", type=_int_at_least(1), help="sampling time per process in ms (overrides the mode's)")
    s.add_argument(
        "--latency-forks",
        type=_int_at_least(1),
        metavar="N",
        help="latency passes per cell, each a fresh process, their histograms pooled (quick 1, full 5)",
    )
    s.add_argument(
        "--target-ci",
        type=_percent,
        metavar="PCT",
        help="add processes to a cell until its 95%% CI half-width is within PCT %% of its time "
        "(quick 1, full 0.5; 0: no extra processes)",
    )
    s.add_argument(
        "--cell-cap-s", type=_non_negative, metavar="S", help="no extra processes for a cell after S s (0: no cap)"
    )
    s.add_argument(
        "--time-budget-s",
        type=_non_negative,
        metavar="S",
        help="wall time for the whole run's cells, extra passes stop when it is spent "
        "(default: quick 0.9 s, full 6 s per cell; 0: no budget)",
    )
    s.add_argument(
        "--warmup-k",
        type=_non_negative,
        metavar="K",
        help="drop a process's leading samples more than K robust SDs above the rest (default 3; 0: keep all)",
    )
    s.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run each harness process on one core and the orchestrator on another (default: on)",
    )
    s.add_argument(
        "--prestart",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="start each next harness process on the orchestrator's core while the current one measures, "
        "and let it time only once moved to the harness core (needs --pin; default: on)",
    )
    s.add_argument(
        "--canary",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="use the canary timed before each batch: a cell's time from its processes whose canary ran within 5%% "
        "of the run's clean canary time (two or more), else each sample brought to the harness's clean speed by "
        "the canaries around it (a running median of 5, raised to the share of the canary's slowdown the "
        "harness's times feel, fitted on the run); docs/methodology.md, 'The canary', 'Choosing clean processes "
        "instead of correcting them'; default: on",
    )
    s.add_argument("--out", default=str(ROOT / "results"), help="where <run-id>/report.md goes")
    s.add_argument("--corpus", default=str(ROOT / "corpus"), help="corpus folder")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help="generator seed (0 to 2^64-1)")
    s.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="RUN_ID",
        help="finish an interrupted run (default: the latest unfinished one)",
    )
    s.add_argument(
        "--build-profile",
        choices=("speed", "size"),
        default="speed",
        help="native build profile: speed (-O3 -flto) or size (-Os); Rust always builds release with fat LTO",
    )
    s.add_argument(
        "--code-size",
        action="store_true",
        help="also build what per-library code size needs where it takes extra builds "
        "(Rust: one probe per crate, ~9 min the first time); always on in --mode full",
    )
    s.add_argument("--compiler", choices=("default", "gcc", "clang"), default="default", help="native compiler")
    s.set_defaults(fn=cmd_run)

    s = command(
        "robustness",
        help="every decoder against malformed and hostile input, each case in its own limited process",
    )
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: all built)")
    s.add_argument("--lib", action="append", default=[], help="library or benchmark id (repeatable)")
    s.add_argument("--format", action="append", default=[], help="json, msgpack, cbor, bson, ubjson (repeatable)")
    s.add_argument("--test", action="append", default=[], choices=("tree", "incremental"), help="decode test")
    s.add_argument(
        "--case", action="append", default=[], metavar="GLOB", help="cases by name, format/name or class (repeatable)"
    )
    s.add_argument(
        "--cases",
        metavar="PATH",
        help="a folder of your own case files, or one file, instead of the built-in cases (.json .msgpack .cbor "
        ".bson .ubjson); a name's prefix says what a decoder must do, as JSONTestSuite's: y_ accept, n_ reject, "
        "i_ either",
    )
    s.add_argument("--timeout-s", type=_non_negative, default=10.0, help="wall-clock limit per process (default 10)")
    s.add_argument("--memory-mib", type=_int_at_least(64), default=2048, help="RLIMIT_AS per process (default 2048)")
    s.add_argument("--stack-mib", type=_int_at_least(1), default=8, help="RLIMIT_STACK per process (default 8)")
    s.add_argument("--jobs", type=_int_at_least(1), default=1, help="processes at a time (default 1)")
    s.add_argument(
        "--no-build", dest="build", action="store_false", help="use the harnesses as built (default: build first)"
    )
    s.add_argument("--out", default=str(ROOT / "results"), help="where <run-id>/robustness.md goes")
    s.add_argument("--corpus", default=str(ROOT / "corpus"), help="corpus folder (cases go to its robustness/)")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help="generator seed (0 to 2^64-1)")
    s.set_defaults(fn=cmd_robustness)

    s = command("list", help="the benchmarks of the harnesses that are built (never builds)")
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: every one)")
    s.add_argument("--json", action="store_true", help="the harnesses' `list` output as JSON")
    s.set_defaults(fn=cmd_list)

    s = command("build", help="install what is missing and build the harnesses (minutes the first time)")
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: every one)")
    s.set_defaults(fn=cmd_build)

    s = command("corpus", help="write the data files and manifest.json")
    s.add_argument("--out", default=str(ROOT / "corpus"), help="folder to write (default: corpus/ of the checkout)")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help="generator seed (0 to 2^64-1)")
    s.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="FILE",
        help="also your own .json/.msgpack/.cbor document, as `run --data` writes it (repeatable)",
    )
    s.set_defaults(fn=cmd_corpus)

    s = command("report", help="a stored run as Markdown, JSON, CSV or a self-contained HTML page with charts")
    s.add_argument("run", nargs="?", help="run id (default: the latest)")
    s.add_argument(
        "--format",
        choices=("md", "json", "csv", "html"),
        default="md",
        help="default: md (Markdown); json and csv give every column of every cell (docs/report.md, Exports)",
    )
    s.add_argument(
        "--output", help="file to write (default: stdout; html: results/<run-id>/report.html, beside report.md)"
    )
    s.add_argument("--list", action="store_true", help="list the stored runs")
    s.add_argument(
        "--robustness", action="store_true", help="a stored robustness run instead (RUN: its id; default: the latest)"
    )
    s.add_argument(
        "--findings", action="store_true", help="with --robustness: every crash, hang and blow-up, per library"
    )
    s.set_defaults(fn=cmd_report)

    s = command("history", help="the runs in the store: id, date, mode, measure, languages, cells, wall time")
    s.add_argument("--format", choices=("table", "json"), default="table", help="default: table")
    s.set_defaults(fn=cmd_history)

    s = command(
        "compare",
        help="two runs: ratio, CI and significance per cell",
        description="Per cell measured in both runs: B/A of net time with a 95% bootstrap CI and a verdict "
        "(two-sided Mann-Whitney U on round medians, Holm-adjusted; quick runs rarely have the rounds for one: "
        "compare full-mode runs); how many cells agree within ±5%, a shift of the whole run (and the verdicts with "
        "it taken out) and datasets that moved together; the geometric mean per library; the cells it could "
        "not compare, and what differs "
        "between the runs' machines, settings, commits and library versions. A cell whose net is within its "
        "baseline's noise in either run is marked ‡ and not counted. Instruction-count runs compare counts "
        "exactly (identical, fewer or more instructions). docs/methodology.md explains each figure.",
    )
    s.add_argument("run_a", help="run id of A (`serbench history` lists them)")
    s.add_argument("run_b", help="run id of B, compared against A (below 1: B is faster)")
    s.add_argument("--format", choices=("md", "json", "html"), default="md", help="Markdown (default), JSON or HTML")
    s.add_argument("--output", help="file to write (default: stdout; html: results/compare-<run-a>-vs-<run-b>.html)")
    s.set_defaults(fn=cmd_compare)

    s = command("doctor", help="toolchains and machine settings, with the command that fixes each")
    s.set_defaults(fn=cmd_doctor)

    s = command("test", help="every test of every part")
    s.add_argument(
        "--lang",
        action="append",
        default=[],
        help="test the orchestrator and only this harness (repeatable; default: every harness)",
    )
    s.set_defaults(fn=cmd_test)

    s = command("vectors", help="rewrite vectors/ from the golden documents (maintainers)")
    s.set_defaults(fn=cmd_vectors)
    return p


def main(argv: list[str] | None = None) -> int:
    return pipes.exit_code(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    args = parser().parse_args(argv)
    args.invocation = list(sys.argv[1:] if argv is None else argv)  # not overwritten by --resume
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return args.fn(args)
    except StoreError as e:
        say(f"serbench: {e}")
        return EXIT_INPUT
    except UserError as e:
        say(f"serbench: {e}")
        return e.code
    except (FormatError, runner.PlanError, UnknownHarness) as e:
        say(f"serbench: {e}")
        return EXIT_INPUT
    except HarnessError as e:
        say(f"serbench: {e}")
        return EXIT_TOOLCHAIN
    except KeyboardInterrupt as e:
        say("serbench: interrupted")
        return _interrupted_code(e)
    finally:
        release_harness_locks()
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
