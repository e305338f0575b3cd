"""The markup base of the HTML pages (the run report, compare, robustness): the pinned charting
library, a cell as the page's script sees it, sortable tables, figures, filters, and the page shell with
its style (page.css) and script (page.js)."""

from __future__ import annotations

import html
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from .. import contracts
from .facts import (
    TEST_TITLES,
    apart,
    instr_of,
    ranked,
    time_of,
    within_baseline,
)
from .units import fmt_bytes, fmt_count, fmt_instr, fmt_ns

WEB_DIR = Path(__file__).resolve().parents[3] / "web"
LIBRARY = "plotly.js-basic-dist-min"
LIBRARY_FILE = Path("node_modules") / LIBRARY / "plotly-basic.min.js"
SCHEMALESS_PREFIX = "size-"

# Fixed colours per language, so one language has one colour in every chart of every report.
LANG_COLOURS = {
    "python": "#3776ab",
    "native": "#d6336c",
    "rust": "#b7410e",
    "go": "#00add8",
    "java": "#5c8a00",
}
SPARE_COLOURS = ["#6f42c1", "#20c997", "#fd7e14", "#343a40", "#17a2b8"]
TEST_TITLE = dict(TEST_TITLES)


# --- the charting library ---------------------------------------------------------------------------


def _pinned_version(web_dir: Path) -> str | None:
    try:
        return json.loads((web_dir / "package.json").read_text())["dependencies"][LIBRARY]
    except (OSError, ValueError, KeyError):
        return None


def _installed_version(web_dir: Path) -> str | None:
    try:
        return json.loads((web_dir / "node_modules" / LIBRARY / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def chart_library(
    web_dir: Path | None = None, install: bool = True, say: Callable[[str], None] | None = None
) -> tuple[str | None, str]:
    """(the library's script, "") or (None, one line saying how to get the charts). Installs the
    pinned version with the folder's setup.sh (`npm ci`) when it is missing or another version is
    installed; a failed install is not an error: the report is written without charts."""
    web_dir = web_dir or WEB_DIR
    path = web_dir / LIBRARY_FILE
    pinned = _pinned_version(web_dir)
    stale = pinned is not None and _installed_version(web_dir) != pinned
    setup = web_dir / "setup.sh"
    if (stale or not path.exists()) and install and setup.exists():
        if say:
            say(f"installing the report's charting library ({LIBRARY} {pinned}): {setup}")
        try:
            res = subprocess.run([str(setup)], capture_output=True, text=True, timeout=600)
            if res.returncode != 0 and say:
                say(f"could not install it: {(res.stderr or res.stdout).strip().splitlines()[-1:]}")
        except (OSError, subprocess.SubprocessError) as e:
            if say:
                say(f"could not install it: {e}")
    if path.exists() and (pinned is None or _installed_version(web_dir) == pinned):
        return path.read_text(encoding="utf-8"), ""
    return None, (
        f"Charts are not drawn: the charting library ({LIBRARY} {pinned or ''}) is not installed. "
        f"Run `npm ci` in {web_dir}, then `serbench report --format html` again; the tables below have every number."
    )


# --- the data behind the charts and tables ---------------------------------------------------------


def _value(c, counting: bool):
    return instr_of(c) if counting else time_of(c)


def _fmt(v, counting: bool) -> str:
    return fmt_instr(v) if counting else fmt_ns(v)


def _row(c, counting: bool) -> dict:
    """One cell as the page's script and the tables see it."""
    ok = c["status"] == "ok"
    value = _value(c, counting) if ok else None
    lo = hi = None
    if ok and not counting:
        lo, hi = (
            (c["net_ci_low_ns"], c["net_ci_high_ns"]) if c["net_ns"] is not None else (c["ci_low_ns"], c["ci_high_ns"])
        )
    return {
        "id": c["id"],
        "lang": c["harness"],
        "lib": c["library"],
        "version": c["version"],
        "bench": c["bench"],
        "format": c["format"],
        "test": c["test"],
        "dataset": c["dataset"],
        "status": c["status"],
        "reason": (c["reason"] or "").splitlines()[0][:200] if c["reason"] else "",
        "value": value,
        "lo": lo,
        "hi": hi,
        "noise": bool(ok and not counting and within_baseline(c)),
        # its loop does other work than the test's contract: drawn apart, never ranked (contracts.py)
        "apart": contracts.deviation(c) if ok else None,
        "noisy": bool(c["noisy"]),
        "label": f"{c['harness']}/{c['bench']} ({c['format']})",
        "text": _fmt(value, counting) if ok else f"✗ {c['status']}",
        "ci_text": f"{fmt_ns(lo)} – {fmt_ns(hi)}" if lo is not None else "",
    }


def _ordered(cells: list, counting: bool) -> list:
    """Ranked rows by time, then rows within baseline noise (never ranked), then incorrect and failed
    rows (never drawn as bars): the order of every chart and table."""
    ok = [c for c in cells if c["status"] == "ok" and _value(c, counting) is not None]
    good, noise = (sorted(contracts.split(ok)[0], key=lambda c: _value(c, counting)), []) if counting else ranked(ok)
    bad = sorted((c for c in cells if c["status"] in ("incorrect", "failed")), key=lambda c: (c["harness"], c["bench"]))
    return good + noise + apart(ok) + bad


# --- markup ------------------------------------------------------------------------------------------


def _e(x) -> str:
    return html.escape("" if x is None else str(x))


def _num(v) -> str:
    """The sort key of a table cell: its number, so 2 µs sorts before 10 µs."""
    return "" if v is None else repr(float(v))


def _table(header: list[str], rows: list[tuple[dict, list[tuple[str, object]]]], caption: str = "") -> str:
    """A sortable table; each row is (its filter attributes, [(text, sort value)])."""
    out = ['<table class="sortable">']
    if caption:
        out.append(f"<caption>{_e(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr></thead><tbody>")
    for attrs, cells in rows:
        a = "".join(f' data-{k}="{_e(v)}"' for k, v in attrs.items())
        tds = "".join(f'<td data-v="{_e(_num(v) if isinstance(v, int | float) else v)}">{_e(t)}</td>' for t, v in cells)
        out.append(f"<tr{a}>{tds}</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _attrs(c) -> dict:
    return {"lang": c["harness"], "format": c["format"], "test": c["test"], "lib": c["library"], "cell": c["id"]}


def _time_table(cells: list, counting: bool, show_share: bool = False) -> str:
    """The numbers of one bar chart: a row per bar, in the chart's order, then incorrect and failed rows."""
    if counting:
        header = ["Lang", "Library (version)", "Benchmark", "Format", "Net instr/op", "Gross instr/op"]
        header += ["Baseline instr/op", "Code size", "Status"]
    else:
        header = ["Lang", "Library (version)", "Benchmark", "Format", "Net time", "95% CI", "Gross", "Baseline"]
        header += ["Baseline share"] if show_share else ["Gross/base"]
        header += ["Allocs/op", "Code size", "Status"]
    rows = []
    for c in cells:
        ok = c["status"] == "ok"
        status = c["status"] if not ok else ("within baseline noise" if _row(c, counting)["noise"] else "ok")
        if ok and not contracts.keeps_contract(c):
            status = "not ranked, other work: " + contracts.deviation(c)
        if ok and c["noisy"]:
            status += ", noisy"
        if ok and c["bimodal"]:
            status += ", bimodal"
        if not ok and c["reason"]:
            status += ": " + (c["reason"] or "").splitlines()[0][:160]
        first = [
            (c["harness"], c["harness"]),
            (f"{c['library']} ({c['version']})", c["library"]),
            (c["bench"], c["bench"]),
            (c["format"], c["format"]),
        ]
        if counting:
            base = c["instr_baseline"]
            rest = [
                (fmt_instr(instr_of(c)) if ok else "–", instr_of(c) if ok else None),
                (fmt_instr(c["instructions_per_op"]), c["instructions_per_op"]),
                (fmt_instr(base), base),
            ]
        else:
            r = _row(c, counting)
            base, gross = c["baseline_ns"], c["median_ns"]
            if show_share:
                ratio = (f"{base / gross:.1%}", base / gross) if base and gross and ok else ("–", None)
            else:
                ratio = (f"{gross / base:.2f}×", gross / base) if base and gross and ok else ("–", None)
            rest = [
                (fmt_ns(r["value"]) if ok else "–", r["value"]),
                (r["ci_text"] or "–", r["lo"]),
                (fmt_ns(gross) if ok else "–", gross if ok else None),
                (fmt_ns(base) if ok else "–", base if ok else None),
                ratio,
                (fmt_count(c["allocs_per_op"]), c["allocs_per_op"]),
            ]
        rows.append(
            (_attrs(c), first + rest + [(fmt_bytes(c["code_size_bytes"]), c["code_size_bytes"]), (status, status)])
        )
    return _table(header, rows)


def _figure(chart_id: int, title: str, table: str, note: str = "", attrs: dict | None = None) -> str:
    a = "".join(f' data-{k}="{_e(v)}"' for k, v in (attrs or {}).items())
    return (
        f'<figure class="view"{a}><figcaption>{_e(title)}</figcaption>'
        + (f'<p class="note">{_e(note)}</p>' if note else "")
        + f'<div class="pair"><div class="chart" id="chart-{chart_id}" data-chart="{chart_id}" role="img" '
        f'aria-label="{_e(title)}"></div><div class="table">{table}</div></div></figure>'
    )


class _Charts:
    """The chart specs the page's script draws, numbered in document order."""

    def __init__(self):
        self.specs: list[dict] = []

    def add(self, spec: dict) -> int:
        self.specs.append(spec)
        return len(self.specs) - 1


def _filters(rows: list[dict]) -> str:
    """Check boxes per language, format and test, and a library search; rows: dicts with those keys."""

    def boxes(name: str, values: list[str]) -> str:
        items = "".join(
            f'<label><input type="checkbox" data-filter="{name}" value="{_e(v)}" checked> {_e(v)}</label>'
            for v in values
        )
        return f"<fieldset><legend>{_e(name.capitalize())}</legend>{items}</fieldset>"

    tests = {r["test"] for r in rows}
    return (
        '<form id="filters" onsubmit="return false">'
        + boxes("lang", sorted({r["lang"] for r in rows}))
        + boxes("format", sorted({r["format"] for r in rows}))
        + boxes("test", [t for t, _ in TEST_TITLES if t in tests] + sorted(tests - set(TEST_TITLE)))
        + '<fieldset><legend>Library</legend><input type="search" id="lib-filter" '
        'placeholder="name contains…" aria-label="library name contains"></fieldset></form>'
    )


def _page(title: str, body: list[str], charts: _Charts, langs: list[str], library_js: str | None, data: dict) -> str:
    data = data | {"charts": charts.specs, "langColours": _lang_colours(langs)}
    lib = f"<script>{_script_safe(library_js)}</script>" if library_js else ""
    return PAGE.format(
        title=_e(title),
        style=STYLE,
        body="\n".join(body),
        data=_script_safe(json.dumps(data, separators=(",", ":"))),
        library=lib,
        script=SCRIPT,
        n_charts=len(charts.specs),
    )


def _lang_colours(langs: list[str]) -> dict[str, str]:
    spare = iter(SPARE_COLOURS * 4)
    return {lang: LANG_COLOURS.get(lang) or next(spare) for lang in langs}


def _script_safe(text: str) -> str:
    """Inline script text that cannot end its <script> element early."""
    return text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT").replace("<!--", "<\\!--")


# The page forbids every network request (CSP default-src 'none'): a chart or script that tried to fetch
# anything would fail visibly in the browser test instead of silently needing the network.
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; \
style-src 'unsafe-inline'; img-src data: blob:; font-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head><body data-charts="{n_charts}">
{body}
<script type="application/json" id="serbench-data">{data}</script>
{library}
<script>{script}</script>
</body></html>
"""

STYLE = (Path(__file__).with_name("page.css")).read_text(encoding="utf-8")

# The page's own script: draws each chart spec with Plotly from the embedded rows, applies the filters
# (also from the URL's #lang=…&format=…&test=…&lib=…, so a filtered view can be linked), sorts tables,
# and records what it drew on <body> (data-drawn, data-marks per chart, data-errors) for the browser test.
SCRIPT = (Path(__file__).with_name("page.js")).read_text(encoding="utf-8")
