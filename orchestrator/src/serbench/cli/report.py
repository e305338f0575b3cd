"""`serbench report`: a stored run (or robustness run) as Markdown, JSON, CSV or HTML."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..report import export, markdown
from ..report import html as html_report
from ..store import Store
from .common import EXIT_OK, ROOT, UserError, _pick_run, _reading_store, say
from .output import _write_html, _write_output


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
    from ..report import robustness_writers

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
        text = robustness_writers.findings_md(dict(run), results, robustness_report.findings)
    elif args.format == "html":
        text = robustness_writers.render_html(dict(run), results, html_report.render_robustness)
    else:
        text = robustness_writers.render_md(dict(run), results, robustness_report.render)
    if args.output:
        _write_output(Path(args.output), text)
    elif args.format == "html":
        raise UserError("--format html writes a file: give --output")
    else:
        sys.stdout.write(text)
    return EXIT_OK


def add_parser(command) -> None:
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
