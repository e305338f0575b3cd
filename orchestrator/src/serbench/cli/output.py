"""What the commands write: report and comparison files, the HTML report with its charting library, and
columns of text."""

from __future__ import annotations

from pathlib import Path

from ..report import html as html_report
from ..store import Store
from .common import UserError, say


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


def _write_or_warn(path: Path, text: str, fix: str) -> bool:
    """A run's own report at its end: the --out folder took a file when the run started, and a disk that
    filled since must not lose what follows (the summary, the run's last line); `fix` says how to get it.
    Whether it was written."""
    try:
        _write_output(path, text, tell=False, fix=fix)
    except UserError as e:
        say(f"warning: {e}")
        return False
    return True


def _print_columns(lines: list[list[str]], indent: str = "") -> None:
    """Lines of text cells, each column as wide as its widest cell, two spaces apart."""
    widths = [max(len(x[i]) for x in lines) for i in range(len(lines[0]))]
    for line in lines:
        print(indent + "  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip())
