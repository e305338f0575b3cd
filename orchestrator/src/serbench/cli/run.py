"""`serbench run`: set up what is missing, write the corpus, measure, store and report."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import secrets
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

from .. import envinfo, instructions, pinning, runner
from ..corpus import build as corpus
from ..corpus.generator import DEFAULT_SEED, micro_datasets
from ..corpus.typed import SCHEMAS as typed_schemas
from ..harnesses import BuildOptions, HarnessError, check_names, harness_classes, make
from ..progress import ProgressBar
from ..report import markdown
from ..store import Store
from .common import (
    EXIT_OK,
    ROOT,
    SEED,
    UserError,
    _build,
    _command_line,
    _corpus,
    _int_at_least,
    _interrupted_code,
    _jdk_option,
    _non_negative,
    _percent,
    _resume_option,
    _usable_harnesses,
    _writable_folder,
    say,
)
from .output import _write_html, _write_or_warn

TESTS = ("write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access")


def _datasets(args, manifest: dict, user: list[corpus.UserFile]) -> list[str]:
    """The datasets the filters name; by default the schemaless sizes 1-5 and every typed dataset
    but those only measured when named (the manifest's `"default": false`, e.g. trade-seed)."""
    names = [f"size-{n}" for n in args.size] + list(args.dataset)
    names += corpus.user_dataset_names(user, getattr(args, "data_bytes", "both"))
    if names:
        return names
    typed = [d["dataset"] for d in manifest["datasets"] if d["kind"] == "typed" and d.get("default", True)]
    return [f"size-{n}" for n in range(1, 6)] + typed


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


def _default_subset(args, cells: list) -> list:
    """The default run (no --lang, --size, --dataset or --data) measures a harness that declares
    `default_datasets` on those datasets only, and says which cells --lang adds (issue 71, 72)."""
    if args.lang or args.size or args.dataset or args.data:
        return cells
    keep: list = []
    left: dict = {}
    for c in cells:
        only = c.harness.default_datasets
        if only is None or c.dataset["dataset"] in only:
            keep.append(c)
        elif not c.bench.get("baseline"):
            left.setdefault(c.harness.name, (c.harness, []))[1].append(c)
    for h, dropped in left.values():
        say(
            f"{h.name} runs on {', '.join(h.default_datasets)} in the default run ({h.default_datasets_why}); "
            f"--lang {h.name} adds its other {len(dropped)} cells"
        )
    return keep


def _builtin_dataset_names() -> list[str]:
    """The corpus's own datasets, known without writing it (corpus/build.py builtin_datasets)."""
    return [f"size-{n}" for n in range(1, 6)] + list(micro_datasets()) + list(typed_schemas)


def _check_names_early(args, options: BuildOptions) -> None:
    """Issue 70: a mistake costs a second, not minutes. --dataset against the corpus's built-in names, and
    --lib and --format against the `list` of the harnesses as last built, before the corpus is written
    or anything built. Where a selected harness is not built yet (a fresh clone), its names are not
    known until it is: the check after the build says it then."""
    if args.dataset:  # the corpus's own names, as check_datasets checks them against a written manifest
        runner.check_datasets({"datasets": [{"dataset": n} for n in _builtin_dataset_names()]}, args.dataset)
    if not (args.lib or args.format):
        return
    selected = [h for h in make(args.lang or None, ROOT, options) if args.lang or not h.not_in_default_run]
    if not all(h.is_built() for h in selected if not h.missing_toolchain()):
        return
    listings = {h.name: runner.listing(h) for h in selected if not h.missing_toolchain()}
    try:
        runner.check_filters(listings, args.lib, args.format, lambda: _built_listings(options, exclude=listings))
    except runner.PlanError as e:
        stale = (
            " (as the harnesses were last built; `serbench build` rebuilds them)"
            if str(e).startswith("unknown")
            else ""
        )
        raise UserError(f"{e}{stale}") from None


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
        args.started_run = run_id  # what a failure's last line tells the user to resume
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
        jdk=args.jdk,
        jit_quiet_ms=args.jit_quiet_ms,
    )
    # before anything is measured: the report is written after minutes of measuring; and before the
    # harnesses are chosen, so that a bad --data file is the only line, not one after their notices
    check_names(args.lang)  # a mistyped --lang is one line at once, before the corpus is written
    _check_names_early(args, options)  # and a mistyped --dataset, --lib or --format, where it can be known
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
    cells = _default_subset(args, cells)
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
                "jdk",
                "code_size",
                "out",
                "rounds",
                "budget_ms",
                "pin",
                "prestart",
                "jit_quiet_ms",
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
        args.started_run = run_id
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
            # the minimum rounds run whatever the budget (runner.run_cells); on a slow host they outrun it
            + (
                f"rounds past {mode.rounds} while the {budget / 60:.1f}-min time budget lasts"
                if math.isfinite(budget)
                else "no time budget"
            )
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
    written = [out / "report.md"] if _write_or_warn(out / "report.md", markdown.render(run_row, cell_rows), fix) else []
    try:
        _write_html(db, run_row, cell_rows, out / "report.html", tell=False)  # the run's last line names it
        written.append(out / "report.html")
    except UserError as e:  # the folder could not take it (a full disk): said once, and the run goes on
        say(f"warning: {e}")
    except Exception as e:  # the run is stored and report.md written: a page must not lose them
        say(f"warning: report.html not written ({e!r}); `serbench report {run_id} --format html` tries again")
    print(markdown.summary(run_row, cell_rows))
    for warning in markdown.run_warnings(run_row, cell_rows):
        say(f"warning: {warning}")
    reports = " and ".join(str(p) for p in written) if written else f"not written (see the warnings above), {fix}"
    say(f"done in {time.monotonic() - t0:.0f} s; report: {reports}; store: {args.db} (run {run_id})")
    return EXIT_OK


def _compress_outputs(db: Store, run_id: str) -> None:
    """The gzip and zstd sizes of the encoder outputs the run kept, once its cells are done: at the
    corpus levels they take seconds per large output, so they are never computed beside a benchmark,
    and every core takes part (store.compress_pending)."""
    n = db.pending_output_count(run_id)
    if not n:
        return
    workers = pinning.usable_cpu_count()
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


# --- arguments -------------------------------------------------------------------------------------


def _filters(s, with_data=True):
    left_out = sorted(n for n, c in harness_classes().items() if c.not_in_default_run)
    default = "all" + (f" but {', '.join(left_out)}, which `run` takes only when named" if left_out else "")
    subset = sorted(n for n, c in harness_classes().items() if c.default_datasets and not c.not_in_default_run)
    default += "".join(f"; {n} on its default datasets only" for n in subset)
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
    s.add_argument("--dataset", action="append", default=[], help="other dataset by name, e.g. micro-ints (repeatable)")
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


def add_parser(command) -> None:
    s = command("run", help="build what is missing, write the corpus, run, store and report")
    _filters(s)
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
        help="wall time for the whole run's cells: extra passes stop when it is spent, the minimum rounds "
        "always run (default: "
        + ", ".join(
            f"{m.name} {m.wall_per_cell_s:g} s a cell up to {m.max_run_budget_s / 60:g} min"
            for m in runner.MODES.values()
        )
        + "; 0: no budget)",
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
        "--jit-quiet-ms",
        type=_int_at_least(1),
        metavar="MS",
        help="a harness that waits for its JIT (Java) starts sampling after this long without a compilation "
        "(default: 60)",
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
    _resume_option(s, "run")
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
    _jdk_option(s)
    s.set_defaults(fn=cmd_run)
