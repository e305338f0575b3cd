"""`serbench compare`: two runs, cell by cell, with significance."""

from __future__ import annotations

import sys
from pathlib import Path

from ..compare import NotComparable, compare
from ..compare_text import render as render_compare
from ..compare_text import to_json as compare_json
from ..progress import ProgressBar
from ..report import html as html_report
from .common import EXIT_OK, ROOT, UserError, _pick_run, _reading_store
from .output import _chart_library, _write_output


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
    text = compare_json(result) + "\n" if args.format == "json" else render_compare(result, every=args.all)
    if args.output:
        _write_output(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def add_parser(command) -> None:
    s = command(
        "compare",
        help="two runs: agreement, the cells that moved, ratio, CI and significance per cell",
        description="Quick runs (too few processes a cell for a significance test): how many cells agree within "
        "±5%, then the cells outside the pair's noise band (each cell's own spread plus the host's, measured on "
        "the pair) as 'probably faster/slower', at most 30 lines; --all lists every cell. Full-mode runs, or "
        "--all: per cell measured in both runs, B/A of net time with a 95% bootstrap CI and a verdict "
        "(two-sided Mann-Whitney U on round medians, Holm-adjusted); how many cells agree within ±5%, "
        "a shift of the whole run (and the verdicts with "
        "it taken out) and datasets that moved together; the geometric mean per library; the cells it could "
        "not compare, and what differs "
        "between the runs' machines, settings, commits and library versions. A cell whose net is within its "
        "baseline's noise in either run is marked ‡ and not counted. Instruction-count runs compare counts "
        "exactly (identical, fewer or more instructions). docs/methodology.md explains each figure.",
    )
    s.add_argument("run_a", help="run id of A (`serbench history` lists them)")
    s.add_argument("run_b", help="run id of B, compared against A (below 1: B is faster)")
    s.add_argument("--format", choices=("md", "json", "html"), default="md", help="Markdown (default), JSON or HTML")
    s.add_argument(
        "--all",
        action="store_true",
        help="every cell with its CI and verdict, and the geometric means (also for quick runs)",
    )
    s.add_argument("--output", help="file to write (default: stdout; html: results/compare-<run-a>-vs-<run-b>.html)")
    s.set_defaults(fn=cmd_compare)
