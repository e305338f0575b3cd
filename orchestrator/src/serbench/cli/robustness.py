"""`serbench robustness`: every decoder row against malformed and hostile input, and every writer
against hostile but valid documents."""

from __future__ import annotations

import json
import secrets
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from .. import envinfo, runner
from ..corpus import formats as F
from ..corpus.generator import DEFAULT_SEED
from ..harnesses import BuildOptions, HarnessError, make
from ..progress import ProgressBar
from ..report import html as html_report
from ..store import Store
from .common import (
    EXIT_OK,
    ROOT,
    SEED,
    UserError,
    _command_line,
    _int_at_least,
    _interrupted_code,
    _non_negative,
    _resume_option,
    _writable_folder,
    say,
)
from .output import _write_or_warn

#: what a robustness run saves and `--resume` continues with (the limits besides)
RESUMED = ("lang", "lib", "format", "test", "case", "cases", "seed", "corpus", "out", "jobs")


def cmd_robustness(args) -> int:
    """Every decoder row against the robustness cases, each case in its own limited process
    (docs/robustness.md). Builds every harness first, as `run` does (`--no-build`: only those built)."""
    import fnmatch

    from ..report import robustness as robustness_report
    from ..report import robustness_scan, robustness_writers
    from ..robustness import cases as rcases
    from ..robustness import growth, own_cases, writer_cases, writers
    from ..robustness import run as rrun
    from ..robustness.limits import MIB, Limits, default_jobs

    db, prev = None, None
    if args.resume is not None:  # the interrupted run's own settings and cases, its finished cases kept
        db = Store(Path(args.db))
        prev = db.robustness_run(args.resume) if args.resume else db.resumable_run("robustness_runs")
        if prev is None:
            raise UserError(
                f"no robustness run {args.resume!r} in {args.db}"
                if args.resume
                else "no interrupted robustness run to resume"
            )
        if db.status(prev) == "done":
            raise UserError(
                f"robustness run {prev['id']} is finished; `serbench report --robustness {prev['id']}` shows it"
            )
        db.claim(prev["id"])  # raises when another live process is executing it
        saved = json.loads(prev["args_json"])
        for k in RESUMED:
            setattr(args, k, saved.get(k, getattr(args, k)))
        limits = Limits(**saved["limits"])
        say(f"resuming robustness run {prev['id']} with its own filters and limits")
    else:
        limits = Limits(timeout_s=args.timeout_s, memory_bytes=args.memory_mib * MIB, stack_bytes=args.stack_mib * MIB)
    args.jobs = args.jobs or default_jobs(limits.memory_bytes)
    corpus_dir, _ = _writable_folder(args.corpus, "--corpus"), _writable_folder(args.out, "--out")
    own = None  # your own cases (--cases PATH), read before anything is built: a bad path fails at once
    if args.cases:
        try:
            own = own_cases.user_cases(Path(args.cases))
        except own_cases.CaseFolderError as e:
            raise UserError(str(e)) from None
    # Every check that needs no harness comes before the build, which takes minutes the first time:
    # a mistyped --format or --case is one line at once, as a bad --db or --cases is.
    # writers (the write test) run unless --test names decoder tests only, and not on your own cases
    with_writers = own is None and (not args.test or writers.WRITE in args.test)
    for f in args.format:
        if f not in rcases.FORMATS and not (with_writers and f in F.FORMATS):
            raise UserError(f"no robustness cases for format {f!r}; there are: {', '.join(rcases.FORMATS)}")
    t0 = time.monotonic()
    if own is None:
        manifest = rcases.write_cases(corpus_dir, args.seed)
    else:
        manifest = own_cases.write_user_cases(corpus_dir, Path(args.cases), own[0])
    case_root = corpus_dir / rcases.folder_of(manifest)
    say(f"{len(manifest['cases'])} robustness cases in {case_root} ({time.monotonic() - t0:.1f} s)")
    if with_writers:
        t0 = time.monotonic()
        manifest = manifest | {"write": writer_cases.write_cases(corpus_dir)}
        say(f"{len(manifest['write']['cases'])} writer cases in {corpus_dir / writer_cases.FOLDER} "
            f"({time.monotonic() - t0:.1f} s)")  # fmt: skip
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

    def picked(c: dict) -> bool:
        return not pats or any(
            fnmatch.fnmatch(x, p) for p in pats for x in (c["name"], f"{c['format']}/{c['name']}", c["class"])
        )

    cases = [c for c in manifest["cases"] if picked(c)]
    if not cases and not (with_writers and any(picked(c) for c in manifest["write"]["cases"])):
        raise UserError(f"--case {' '.join(pats)} selects no case; see {case_root / 'manifest.json'}")
    if prev is not None and json.loads(prev["cases_json"]) != json.loads(json.dumps(manifest)):
        raise UserError(
            f"the cases differ from those robustness run {prev['id']} started with (other serbench code, or "
            "--cases files changed since); its finished cases judged the old ones: start a new run instead of --resume"
        )
    db = db or Store(Path(args.db))  # a --db that is not a store is one line before the build, as in `run`
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
    wrows, wcases = [], {}
    if with_writers:  # each write row's cases, from the file format it reads (writer_cases.row_cases)
        wrows = writers.plan_rows(hs, listings, args.lib, args.format)
        wcases = writers.row_case_lists(wrows, manifest["write"], picked)
        wrows = [r for r in wrows if wcases.get(r.format)]
    if not rows and not wrows:
        raise UserError(
            "the filters select no decoder row (tree or incremental) and no writer; `serbench list` shows the rows"
        )
    done = frozenset()
    if prev is None:
        run_id = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-rb") + secrets.token_hex(2)
        saved = {k: getattr(args, k) for k in RESUMED}
        saved |= {"limits": limits.as_dict(), "limits_text": limits.describe()} | _command_line(args)
        db.create_robustness_run(run_id, saved, envinfo.collect(ROOT, hs), manifest)
        db.claim(run_id)  # --resume never takes a live run, and tells a killed one by its free lock
    else:
        run_id = prev["id"]
        done = frozenset(rrun.result_key(r) for r in db.robustness_results(run_id))
        db.reopen_robustness_run(run_id)
    n1 = sum(len(rrun.remaining(r, cases, done)) for r in rows)
    n = n1 + sum(len(rrun.remaining(r, wcases[r.format], done)) for r in wrows)
    say(
        f"robustness run {run_id}: {len(rows)} decoder rows, {len(wrows)} writer rows, {n} processes"
        + (f" ({len(done)} finished before)" if done else "")
        + f", {args.jobs} at a time; limits per process: {limits.describe()}"
    )
    bar = ProgressBar()
    t0 = time.monotonic()

    def row_done(row, results, wall_s) -> None:
        say(f"  {row.label}: {len(results)} cases in {wall_s:.1f} s: {rrun.summary_line(results)}")

    status, code = "done", EXIT_OK
    try:
        rrun.run_rows(
            rows, cases, case_root, limits, lambda r: db.record_robustness(run_id, r),
            lambda d, _, label: bar(d, n, label), row_done, jobs=args.jobs, finished=done,
        )  # fmt: skip
        if wrows:  # the writers after the decoders; their case files are named from the corpus folder
            rrun.run_rows(
                wrows, [c for cs in wcases.values() for c in cs], corpus_dir, limits,
                lambda r: db.record_robustness(run_id, r), lambda d, _, label: bar(n1 + d, n, label), row_done,
                jobs=args.jobs, finished=done,
            )  # fmt: skip
    except KeyboardInterrupt as e:
        status, code = "interrupted", _interrupted_code(e)
        say(
            "\ninterrupted; the finished cases are stored and reported. "
            f"Continue with: ./serbench robustness --resume {run_id}"
        )
    except BaseException:
        db.finish_robustness_run(run_id, "interrupted")  # an orchestrator error: never left "running"
        raise
    db.finish_robustness_run(run_id, status)
    growth.record_reclassified(db, run_id, limits.timeout_s)  # hangs that the row's growth explains
    run, results = db.robustness_run(run_id), db.robustness_results(run_id)
    out = Path(args.out) / run_id
    fix = f"the run is stored, and `serbench report --robustness {run_id} --output FILE` writes it"
    md = robustness_writers.render_md(dict(run), results, robustness_report.render)
    _write_or_warn(out / "robustness.md", md, fix)
    page = robustness_writers.render_html(dict(run), results, html_report.render_robustness)
    _write_or_warn(out / "robustness.html", page, fix)
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
    if rows:
        say(robustness_scan.closing_line(robustness_writers.split(results)[0]))
    if wrows:
        say(robustness_writers.closing_line(results))
    return code


def add_parser(command) -> None:
    s = command(
        "robustness",
        help="every decoder against malformed and hostile input, every writer against hostile documents, each case "
        "in its own limited process",
    )
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: all built)")
    s.add_argument("--lib", action="append", default=[], help="library or benchmark id (repeatable)")
    s.add_argument("--format", action="append", default=[], help="json, msgpack, cbor, bson, ubjson (repeatable)")
    s.add_argument(
        "--test",
        action="append",
        default=[],
        choices=("tree", "incremental", "write"),
        help="decode tests (tree, incremental) or the writers (write); repeatable, default: all",
    )
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
    s.add_argument(
        "--jobs",
        type=_int_at_least(1),
        default=None,
        help="processes at a time (default: one per CPU, as many as fit in memory at --memory-mib each)",
    )
    s.add_argument(
        "--no-build", dest="build", action="store_false", help="use the harnesses as built (default: build first)"
    )
    s.add_argument("--out", default=str(ROOT / "results"), help="where <run-id>/robustness.md goes")
    s.add_argument("--corpus", default=str(ROOT / "corpus"), help="corpus folder (cases go to its robustness/)")
    s.add_argument("--seed", type=SEED, default=DEFAULT_SEED, help="generator seed (0 to 2^64-1)")
    _resume_option(s, "robustness run with its own filters, cases and limits, running only the cases it did not finish")
    s.set_defaults(fn=cmd_robustness)
