"""The HTML report of a run (issue 16, DESIGN §7, §11): one self-contained file, charts drawn by a pinned
charting library from npm (plotly.js, basic bundle: docs/report.md says why) that is read from
orchestrator/web/node_modules at report time and inlined, so the page needs no network when it is viewed.

Every chart has a table beside it with the same numbers, rendered here (readable without JavaScript,
copyable); the page's own small script only draws the charts from the embedded data, filters and sorts.
When the library is not installed and cannot be, the report is still written, with its tables and a
one-line note that says how to get the charts."""

from __future__ import annotations

import html
import json
import math
import subprocess
from collections.abc import Callable
from pathlib import Path

from .. import contracts
from . import reference
from .facts import (
    TEST_TITLES,
    apart,
    estimator_of,
    has_current_estimator,
    instr_of,
    latency_ops,
    ranked,
    run_header,
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


def _bars_section(cells: list, manifest: dict, counting: bool, charts: _Charts) -> list[str]:
    out = ['<section id="times"><h2>' + ("Instructions per operation" if counting else "Net time") + "</h2>"]
    by_ds: dict[str, list] = {}
    for c in cells:
        by_ds.setdefault(c["dataset"], []).append(c)
    for entry in manifest["datasets"]:
        ds = entry["dataset"]
        if ds not in by_ds:
            continue
        out.append(f'<h3 id="ds-{_e(ds)}">{_e(ds)}</h3>')
        for test, title in TEST_TITLES:
            rows = _ordered([c for c in by_ds[ds] if c["test"] == test], counting)
            if not rows:
                continue
            cid = charts.add({"kind": "bars", "rows": [c["id"] for c in rows], "counting": counting})
            out.append(
                _figure(
                    cid,
                    f"{ds} · {title}",
                    _time_table(rows, counting),
                    attrs={"test": test, "dataset": ds},
                )
            )
    out.append("</section>")
    return out


def _cross_section(cells: list, counting: bool, charts: _Charts) -> list[str]:
    """One format and test on one dataset, every library that reads it from every language: the view that
    exists nowhere else (DESIGN §11). A menu picks the combination; the default is the one with the
    most languages, then the most rows."""
    combos: dict[tuple[str, str, str], list] = {}
    for c in cells:
        combos.setdefault((c["format"], c["test"], c["dataset"]), []).append(c)
    if not combos:
        return []

    def weight(item):
        (fmt, test, ds), rows = item
        langs = len({c["harness"] for c in rows})
        preferred = (fmt, test, ds) == ("msgpack", "tree", "size-4")
        return (-langs, not preferred, -len(rows), ds, fmt, test)

    ordered = sorted(combos.items(), key=weight)
    out = [
        '<section id="cross"><h2>Cross-language view</h2>',
        "<p>One format and one test on one dataset: every library that reads it, from every language, on one "
        "chart. <em>Baseline share</em> is the baseline's time over the gross time: how much of what was "
        "measured is the harness's own loop rather than the library.</p>",
        '<label>Format, test, dataset: <select id="cross-pick" data-group="cross">',
    ]
    for i, ((fmt, test, ds), rows) in enumerate(ordered):
        langs = sorted({c["harness"] for c in rows})
        label = f"{fmt} · {TEST_TITLE.get(test, test)} · {ds} ({len(rows)} rows, {', '.join(langs)})"
        out.append(f'<option value="{i}"{" selected" if i == 0 else ""}>{_e(label)}</option>')
    out.append("</select></label>")
    for i, ((fmt, test, ds), rows) in enumerate(ordered):
        rows = _ordered(rows, counting)
        cid = charts.add({"kind": "bars", "rows": [c["id"] for c in rows], "counting": counting})
        fig = _figure(
            cid,
            f"{fmt} · {TEST_TITLE.get(test, test)} · {ds}",
            _time_table(rows, counting, show_share=not counting),
            attrs={"group": "cross", "choice": i},
        )
        out.append(fig if i == 0 else fig.replace('<figure class="view"', '<figure class="view" hidden', 1))
    out.append("</section>")
    return out


def _scaling_section(cells: list, manifest: dict, counting: bool, charts: _Charts) -> list[str]:
    """Net time against the document's size in its format (sizes 1-5, log-log), one line per library
    row, per test: which libraries degrade on big documents. Rows within baseline noise, and those
    not ok, have no point (a log axis has no place for zero or a negative net)."""
    size_of = {
        (d["dataset"], fmt): f["bytes"]
        for d in manifest["datasets"]
        if d["dataset"].startswith(SCHEMALESS_PREFIX)
        for fmt, f in d["files"].items()
    }
    sizes = sorted({ds for ds, _ in size_of}, key=lambda s: int(s[len(SCHEMALESS_PREFIX) :]))
    out = ['<section id="scaling"><h2>Scaling: time against document size</h2>']
    drawn = False
    for test, title in TEST_TITLES:
        series: dict[tuple, dict] = {}
        for c in cells:
            if c["test"] != test or (c["dataset"], c["format"]) not in size_of or c["status"] != "ok":
                continue
            v = _value(c, counting)
            if v is None or v <= 0 or (not counting and within_baseline(c)):
                continue
            s = series.setdefault((c["harness"], c["bench"], c["format"]), {"cell": c, "points": {}})
            s["points"][c["dataset"]] = v
        series = {k: s for k, s in series.items() if len(s["points"]) >= 2}
        if not series:
            continue
        drawn = True
        used = [ds for ds in sizes if any(ds in s["points"] for s in series.values())]
        spec_series = []
        rows = []
        for (lang, bench, fmt), s in sorted(series.items()):
            pts = [[size_of[(ds, fmt)], s["points"][ds], ds] for ds in used if ds in s["points"]]
            spec_series.append({"label": f"{lang}/{bench} ({fmt})", "lang": lang, "format": fmt, "points": pts})
            c = s["cell"]
            cols = [(lang, lang), (f"{c['library']} ({c['version']})", c["library"]), (bench, bench), (fmt, fmt)]
            for ds in used:
                v = s["points"].get(ds)
                cols.append((_fmt(v, counting) if v is not None else "–", v))
            first, last = pts[0], pts[-1]
            # the slope on log-log axes: 1 is linear in the size, above 1 degrades on big documents
            slope = _log_slope(first[0], first[1], last[0], last[1])
            cols.append((f"{slope:.2f}" if slope is not None else "–", slope))
            rows.append(({**_attrs(c), "cell": ""}, cols))
        cid = charts.add({"kind": "scaling", "series": spec_series, "counting": counting})
        header = ["Lang", "Library (version)", "Benchmark", "Format", *used, "log-log slope"]
        out.append(
            _figure(
                cid,
                f"Scaling · {title}",
                _table(header, rows),
                note="x: the document's bytes in the row's format; y: "
                + ("net instructions per operation" if counting else "net time per operation")
                + ". Slope: growth between the smallest and the largest size on log-log axes (1: linear).",
                attrs={"test": test},
            )
        )
    if not drawn:
        out.append("<p>This run has no library measured at two or more of the sizes 1–5.</p>")
    out.append("</section>")
    return out


def _log_slope(x0, y0, x1, y1):
    if x0 <= 0 or x1 <= 0 or y0 <= 0 or y1 <= 0 or x0 == x1:
        return None
    return (math.log(y1) - math.log(y0)) / (math.log(x1) - math.log(x0))


def _typed_sizes(d: dict, cells: list, charts: _Charts) -> list[str]:
    """A typed dataset's encoded size per (library, wire format), from its typed-encode rows, against the
    theoretical payload (spec/typed.md)."""
    enc = sorted(
        (c for c in cells if c["test"] == "typed-encode" and c["status"] == "ok" and c["output_bytes"]),
        key=lambda c: (c["output_bytes"], c["harness"], c["bench"]),
    )
    if not enc:
        return []
    payload = d.get("payload_bytes")
    labels = [f"{c['harness']}/{c['bench']} ({c['format']})" for c in enc]
    cid = charts.add(
        {
            "kind": "sizes",
            "formats": labels,
            "keys": [_row(c, False) for c in enc],
            "raw": [c["output_bytes"] for c in enc],
            "gzip": [c["output_gzip_bytes"] for c in enc],
            "zstd": [c["output_zstd_bytes"] for c in enc],
            "payload": payload,
        }
    )
    rows = []
    for c in enc:
        over = c["output_bytes"] / payload if payload else None
        rows.append(
            (
                _attrs(c),
                [
                    (c["harness"], c["harness"]),
                    (f"{c['library']} ({c['version']})", c["library"]),
                    (c["format"], c["format"]),
                    (fmt_count(c["output_bytes"]), c["output_bytes"]),
                    (fmt_count(c["output_gzip_bytes"]), c["output_gzip_bytes"]),
                    (fmt_count(c["output_zstd_bytes"]), c["output_zstd_bytes"]),
                    (f"{over:.2f}×" if over else "–", over),
                ],
            )
        )
    title = f"Sizes · {d['dataset']} ({d.get('records', '?')} {d.get('schema')} records"
    title += f", theoretical payload {fmt_count(payload)} B)" if payload else ")"
    header = ["Lang", "Library (version)", "Format", "Bytes", "gzip", "zstd", "vs payload"]
    return [_figure(cid, title, _table(header, rows), attrs={"test": "typed-encode"})]


LATENCY = (
    ("p50_ns", "p50"),
    ("p99_ns", "p99"),
    ("p999_ns", "p99.9"),
    ("p9999_ns", "p99.99"),
    ("p99999_ns", "p99.999"),  # only where a harness gives it (Java): shown when a row of the dataset has it
    ("max_ns", "max"),
)


def _latency_section(cells: list, charts: _Charts) -> list[str]:
    """One record at a time: the percentiles of a typed row's per-record latency (p50 to the worst), in
    the style of HdrHistogram's plots, one line per row, per dataset."""
    lat = [c for c in cells if c["status"] == "ok" and c["lat_p50_ns"] is not None]
    if not lat:
        return []
    out = [
        '<section id="latency"><h2>Latency per record</h2>',
        "<p>Per-record latency percentiles of the typed rows, from a log-bucketed histogram (< 1.6% error); "
        "y is logarithmic, so a long tail shows as a steep rise on the right.</p>",
    ]
    for ds in dict.fromkeys(c["dataset"] for c in lat):
        rows = sorted((c for c in lat if c["dataset"] == ds), key=lambda c: (c["test"], c["lat_p50_ns"]))
        pcts = [(k, n) for k, n in LATENCY if k != "p99999_ns" or any(c["lat_p99999_ns"] is not None for c in rows)]
        series = [
            {
                **{k: v for k, v in _row(c, False).items() if k in ("lang", "format", "test", "lib")},
                "label": f"{c['harness']}/{c['bench']} ({c['format']}) {c['test']}",
                "points": [c[f"lat_{k}"] for k, _ in pcts],
            }
            for c in rows
        ]
        cid = charts.add({"kind": "latency", "series": series, "names": [n for _, n in pcts]})
        table = _table(
            ["Lang", "Benchmark", "Format", "Test", *(n for _, n in pcts), "ops"],
            [
                (
                    _attrs(c),
                    [(c["harness"], c["harness"]), (c["bench"], c["bench"]), (c["format"], c["format"])]
                    + [(c["test"], c["test"])]
                    + [(fmt_ns(c[f"lat_{k}"]), c[f"lat_{k}"]) for k, _ in pcts]
                    + [(latency_ops(c), c["lat_count"])],
                )
                for c in rows
            ],
        )
        out.append(_figure(cid, f"Latency · {ds}", table))
    out.append("</section>")
    return out


def _reference_section(run, cells: list) -> list[str]:
    """Issue 19: Chronicle Wire's published table beside the Java rows (report/reference.py), no chart."""
    tables = reference.tables(run, cells)
    if not tables:
        return []
    out = ['<section id="reference"><h2>Beside Chronicle Wire\'s published comparison</h2>']
    out.append(f"<p>{_e(reference.intro().replace('`', ''))}</p>")
    for t in tables:
        out += [f"<h3>{_e(t.dataset)}</h3>", f'<p class="note">{_e(t.intro.replace("`", ""))}</p>']
        out.append(_table(t.header, [({}, row) for row in t.rows]))  # no filter attributes: always shown
    return out + [f'<p class="note">{_e(reference.method_note(run).replace("*", ""))}</p>', "</section>"]


def _sizes_section(manifest: dict, cells: list, used: set[str], charts: _Charts) -> list[str]:
    out = [
        '<section id="sizes"><h2>Object sizes</h2>',
        "<p>Raw payload: numbers 8 B, booleans 1 B, null 0 B, strings, keys and binary their byte length. "
        "gzip level 9, zstd level 19.</p>",
    ]
    for d in manifest["datasets"]:
        if d["kind"] == "typed" and d["dataset"] in used:
            out += _typed_sizes(d, [c for c in cells if c["dataset"] == d["dataset"]], charts)
            continue
        if d["dataset"] not in used or not d.get("files"):
            continue
        payload = (d.get("stats") or {}).get("payload_bytes") or d.get("payload_bytes")
        fmts = list(d["files"])
        cid = charts.add(
            {
                "kind": "sizes",
                "formats": fmts,
                "raw": [d["files"][f]["bytes"] for f in fmts],
                "gzip": [d["files"][f].get("gzip_bytes") for f in fmts],
                "zstd": [d["files"][f].get("zstd_bytes") for f in fmts],
            }
        )
        rows = []
        for f in fmts:
            x = d["files"][f]
            over = x["bytes"] / payload if payload else None
            rows.append(
                (
                    {"format": f},
                    [
                        (f, f),
                        (fmt_count(x["bytes"]), x["bytes"]),
                        (fmt_count(x.get("gzip_bytes")), x.get("gzip_bytes")),
                        (fmt_count(x.get("zstd_bytes")), x.get("zstd_bytes")),
                        (f"{over:.2f}×" if over else "–", over),
                    ],
                )
            )
        out.append(
            _figure(
                cid,
                f"Sizes · {d['dataset']}" + (f" (payload {fmt_count(payload)} B)" if payload else ""),
                _table(["Format", "Bytes", "gzip", "zstd", "vs payload"], rows),
            )
        )
    out.append("</section>")
    return out


def same_machine_runs(store, run) -> list[tuple]:
    """(run, cells) of every finished stored run made on this run's machine (same CPU model and cores)
    that measured the same thing (time or instructions), oldest first, this run included: the trend."""
    env = json.loads(run["env_json"])
    measure = json.loads(run["args_json"]).get("measure") or "time"
    out = []
    for r in store.runs():
        e, a = json.loads(r["env_json"]), json.loads(r["args_json"])
        same = (e.get("cpu_model"), e.get("cores")) == (env.get("cpu_model"), env.get("cores"))
        if same and (a.get("measure") or "time") == measure and (r["status"] == "done" or r["id"] == run["id"]):
            out.append((r, store.cells(r["id"])))
    return out


def _trend_section(run, cells: list, history: list[tuple], counting: bool, charts: _Charts) -> list[str]:
    """One cell's net time across the stored runs of this machine: did a library update make it faster?
    Only cells measured (ok) in two runs or more have a trend; a menu picks the cell."""
    key = ("harness", "bench", "test", "dataset", "format")
    points: dict[tuple, list[dict]] = {}
    # the section of docs/methodology.md naming how each run computed its times; a count has no estimator
    estimator = {r["id"]: "" if counting else estimator_of(r)[1] for r, _ in history}
    mixed = len(set(estimator.values())) > 1
    for r, cs in history:
        for c in cs:
            if c["is_baseline"] or c["status"] != "ok" or _value(c, counting) is None:
                continue
            row = _row(c, counting)
            points.setdefault(tuple(c[k] for k in key), []).append(
                {
                    "run": f"{r['id']}",
                    "value": row["value"],
                    "lo": row["lo"],
                    "hi": row["hi"],
                    "text": row["text"],
                    "version": c["version"],
                    "estimator": estimator[r["id"]] if mixed else "",  # named where the runs differ
                }
            )
    mine = [tuple(c[k] for k in key) for c in cells if c["status"] == "ok"]
    keys = [k for k in dict.fromkeys(mine) if len(points.get(k, [])) >= 2]
    out = [
        '<section id="trend"><h2>Trend across runs of this machine</h2>',
        f"<p>{len(history)} stored {'run' if len(history) == 1 else 'runs'} of this machine (same CPU and cores) "
        f"measured {'instruction counts' if counting else 'time'}; a cell's net "
        f"{'count' if counting else 'time'} in each of them, with the library's version.</p>",
    ]
    if mixed:
        # Each earlier estimator sits above the one after it on the same samples (the fast half above the fast
        # third by 0-1%, the fast third above the quarter by 0.4-1.2%: docs/methodology.md, "The fast third",
        # "The fast quarter"), except that Go's and Java's processes count their collections since 2026-12-04
        # (a process's mean, not its median: up to 34% more time, "A process's mean for a collected
        # runtime"); a trend across a change shows it.
        old = sum(not has_current_estimator(r) for r, _ in history)
        out.append(
            f"<p>{old} of these runs computed a cell's time with an earlier estimator (its column below; "
            'docs/methodology.md, "The fast half", "The fast third", "The fast quarter" and "A process\'s mean '
            "for a collected runtime\"), which gives a little more time from the same samples, and Go's and "
            "Java's rows less (their processes' medians left out some of their collections): a step where the "
            "estimator changes is the estimator's, not the library's.</p>"
        )
    if not keys:
        out.append("<p>No cell of this run was measured in another stored run of this machine.</p></section>")
        return out
    out.append('<label>Cell: <select id="trend-pick" data-group="trend">')
    for i, k in enumerate(keys):
        out.append(f'<option value="{i}"{" selected" if i == 0 else ""}>{_e(" · ".join(k))}</option>')
    out.append("</select></label>")
    for i, k in enumerate(keys):
        pts = points[k]
        cid = charts.add({"kind": "trend", "points": pts, "counting": counting, "lang": k[0], "label": "/".join(k)})
        table = _table(
            ["Run", "Version", "Net instr/op" if counting else "Net time", "95% CI"] + (["Estimator"] if mixed else []),
            [
                (
                    {},
                    [
                        (p["run"], p["run"]),
                        (p["version"], p["version"]),
                        (p["text"], p["value"]),
                        (f"{fmt_ns(p['lo'])} – {fmt_ns(p['hi'])}" if p["lo"] is not None else "–", p["lo"]),
                    ]
                    + ([(p["estimator"].lower(), p["estimator"])] if mixed else []),
                )
                for p in pts
            ],
        )
        fig = _figure(cid, " · ".join(k), table, attrs={"group": "trend", "choice": i})
        out.append(fig if i == 0 else fig.replace('<figure class="view"', '<figure class="view" hidden', 1))
    out.append("</section>")
    return out


def _bad_section(cells: list) -> list[str]:
    bad = [c for c in cells if c["status"] in ("incorrect", "failed")]
    out = ['<section id="bad"><h2>Incorrect and failed cells</h2>']
    if not bad:
        out.append("<p>None: every measured cell reproduced the manifest hash.</p>")
    else:
        rows = [
            (
                _attrs(c),
                [(c[k], c[k]) for k in ("harness", "bench", "test", "dataset", "format", "status")]
                + [((c["reason"] or "")[:300], "")],
            )
            for c in bad
        ]
        out.append(_table(["Lang", "Benchmark", "Test", "Dataset", "Format", "Status", "Reason"], rows))
    out.append("</section>")
    return out


def _header(run, cells, h: dict) -> list[str]:
    counting = h["counting"]
    facts = [
        ("Run", run["id"]),
        ("Started", h["started"]),
        ("Measure", h["how"]),
        ("Status", run["status"]),
        ("CPU", h["cpu_model"]),
        ("Cores", h["cores"]),
        ("Governor", h["governor"]),
        ("Kernel", h["kernel"]),
        ("Compilers and runtimes", "; ".join(h["runtimes"]) or "–"),
        ("Languages", ", ".join(h["langs"])),
        ("Wall time", h["wall"] + " (cells only)"),
    ]
    if not counting:
        facts.append(("Median robust CV", f"{h['median_rcv']:.1%}" if h["median_rcv"] is not None else "–"))
        facts.append(("Noisy cells", f"{h['noisy']} of {h['measured']}"))
    facts.append(("Incorrect or failed", str(h["failed"])))
    facts.append(("Cells", ", ".join(f"{n} {s}" for s, n in sorted(h["counts"].items()))))
    facts.append(("Commit", h["commit"].replace("**", "")))
    out = [f"<h1>serbench results: run {_e(run['id'])}</h1>"]
    if h["unfinished"]:
        out.append(f'<p class="warn">{_e(h["unfinished"])}</p>')
    out.append('<dl class="facts">' + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in facts) + "</dl>")
    for line in h["provenance"]:
        out.append(f'<p class="small">{_e(line.replace("`", "").replace("**", ""))}</p>')
    if h["precision"]:
        out.append(f"<p>{_e(h['precision'].replace('**', ''))}</p>")
    for w in h["warnings"]:
        out.append(f'<p class="warn">⚠ {_e(w[0].upper() + w[1:])}</p>')
    libs = sorted({(c["harness"], c["library"], c["version"]) for c in cells if not c["is_baseline"]})
    if libs:
        out.append(
            "<details><summary>Library versions</summary><p>"
            + "; ".join(f"{_e(h_)}/{_e(lib)} {_e(v)}" for h_, lib, v in libs)
            + "</p></details>"
        )
    how, why = estimator_of(run)
    legend = (
        "Net instructions per operation (gross − the baseline's count), counted under valgrind; exact, so no CI."
        if counting
        else f'A cell\'s time is {how} (the host only adds time; docs/methodology.md, "{why}"). Net time = '
        "gross − the baseline's time; whiskers: the 95% CI of the net time. Faded grey bars are "
        "within baseline noise (their CI reaches zero), or rows whose loop does other work than the test's "
        "contract (spec/fairness.md rule 12; their steps in the table): not ranked, drawn after the ranked rows. "
        "Incorrect and failed rows are named, never drawn as bars."
    )
    out.append(f'<p class="legend">{_e(legend)} Colour: language; hatching: format.</p>')
    return out


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


def render(run, cells: list, library_js: str | None, library_note: str = "", history: list[tuple] | None = None) -> str:
    """The report as one HTML page. library_js is the charting library's script (chart_library());
    None writes the page without charts, with library_note at the top. history: same_machine_runs(),
    for the trend (None: no trend section)."""
    h = run_header(run, cells)
    counting = h["counting"]
    manifest = json.loads(run["manifest_json"])
    real = [c for c in cells if not c["is_baseline"] and c["status"] in ("ok", "incorrect", "failed")]
    charts = _Charts()
    body = _header(run, cells, h)
    if library_js is None:
        body.append(f'<p class="warn" id="no-charts">{_e(library_note)}</p>')
    body.append(_filters([{"lang": c["harness"], "format": c["format"], "test": c["test"]} for c in real]))
    body.append(
        '<nav><a href="#times">Times</a> · <a href="#cross">Cross-language</a> · <a href="#scaling">Scaling</a> · '
        '<a href="#sizes">Sizes</a> · <a href="#latency">Latency</a> · <a href="#trend">Trend</a> · '
        '<a href="#bad">Incorrect and failed</a></nav>'
    )
    body += _bars_section(real, manifest, counting, charts)
    body += _cross_section(real, counting, charts)
    body += _scaling_section(real, manifest, counting, charts)
    body += _sizes_section(manifest, real, {c["dataset"] for c in cells}, charts)
    body += _latency_section(real, charts)
    body += _reference_section(run, cells)
    if history is not None:
        body += _trend_section(run, real, history, counting, charts)
    body += _bad_section(cells)
    data = {"run": run["id"], "counting": counting, "rows": {str(c["id"]): _row(c, counting) for c in real}}
    return _page(f"serbench run {run['id']}", body, charts, h["langs"], library_js, data)


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


VERDICT_COLOURS = {
    "faster": "#2b8a3e",
    "fewer instructions": "#2b8a3e",
    "slower": "#c92a2a",
    "more instructions": "#c92a2a",
    "not deterministic": "#e8590c",
}


def _ratio_row(r, counting: bool) -> dict:
    h, b, t, d, f = r.key
    fmt = fmt_instr if counting else fmt_ns
    # a ratio of nets within their baseline's noise is not drawn (compare.within_noise)
    ci = None if counting or r.noise or any(math.isnan(x) for x in r.ci) else r.ci
    finite = math.isfinite(r.ratio) and not r.noise
    return {
        "lang": h,
        "bench": b,
        "test": t,
        "dataset": d,
        "format": f,
        "lib": r.library,
        "label": f"{h}/{b} ({f})",
        "ratio": r.ratio if finite else None,
        "lo": ci[0] if ci else None,
        "hi": ci[1] if ci else None,
        "verdict": r.verdict
        + (f" {r.mark}" if r.mark else "")
        + (f", within baseline noise in {r.noise}" if r.noise else ""),
        "colour": VERDICT_COLOURS.get(r.verdict, "#868e96"),
        "text": (f"{r.ratio:.3f}" if finite else "–")
        + (f" (95% CI {ci[0]:.3f} – {ci[1]:.3f})" if ci else "")
        + f", {r.verdict}",
        "a": fmt(r.a_ns),
        "b": fmt(r.b_ns),
        "p": None if counting else r.p_adj,
    }


def _ratio_table(rs: list[dict], counting: bool) -> str:
    header = ["Lang", "Benchmark", "Format", "A", "B", "B/A"] + ([] if counting else ["95% CI", "p (adj.)"])
    rows = []
    for r in rs:
        cols = [(r["lang"], r["lang"]), (r["bench"], r["bench"]), (r["format"], r["format"])]
        cols += [(r["a"], ""), (r["b"], ""), (f"{r['ratio']:.3f}" if r["ratio"] is not None else "–", r["ratio"])]
        if not counting:
            ci = f"{r['lo']:.3f} – {r['hi']:.3f}" if r["lo"] is not None else "–"
            cols += [(ci, r["lo"]), (f"{r['p']:.3g}", r["p"])]
        cols.append((r["verdict"], r["verdict"]))
        rows.append(({"lang": r["lang"], "format": r["format"], "test": r["test"], "lib": r["lib"]}, cols))
    return _table(header + ["Verdict"], rows)


def render_compare(cmp, library_js: str | None, library_note: str = "") -> str:
    """`serbench compare A B --format html`: per dataset and test, B/A per cell with its 95% CI, coloured
    by verdict (green: B faster, red: slower, grey: not significant), beside the table; at the top the
    notes and warnings of the Markdown comparison (compare.render), so both say the same."""
    from ..compare import render as render_md

    counting = cmp.measure == "instructions"
    rows = [_ratio_row(r, counting) for r in cmp.rows]
    md = render_md(cmp).splitlines()
    charts = _Charts()
    body = [f"<h1>serbench compare: {_e(cmp.run_a)} (A) vs {_e(cmp.run_b)} (B)</h1>", f"<p>{_e(md[2])}</p>"]
    for line in md[3:]:
        if line.startswith(("> ", "Note:", "Commits:", "Library versions that differ", "Agreement")):
            text = line.removeprefix("> ").replace("**", "").replace("`", "")
            body.append(f'<p class="{"warn" if line.startswith(("> ", "Note:")) else "small"}">{_e(text)}</p>')
    if library_js is None:
        body.append(f'<p class="warn" id="no-charts">{_e(library_note)}</p>')
    body.append(_filters(rows))
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["dataset"], r["test"]), []).append(r)
    body.append('<section id="ratios"><h2>B / A per cell</h2>')
    test_order = {t: i for i, (t, _) in enumerate(TEST_TITLES)}
    for (ds, test), rs in sorted(groups.items(), key=lambda g: (g[0][0], test_order.get(g[0][1], 99), g[0][1])):
        # a cell whose net is within its baseline's noise in A or B has no ratio: listed last, never drawn
        rs = sorted(rs, key=lambda r: (r["ratio"] is None, r["ratio"] or 0.0))
        cid = charts.add({"kind": "ratios", "rows": rs, "counting": counting})
        title = f"{ds} · {TEST_TITLE.get(test, test)}"
        body.append(_figure(cid, title, _ratio_table(rs, counting), attrs={"test": test, "dataset": ds}))
    body.append("</section>")
    if cmp.geo:
        geo = [
            ({}, [(lib, lib), (str(g.cells), g.cells), (f"{g.value:.3f}", g.value), (_ci_text(g.ci), g.ci[0])])
            for lib, g in cmp.geo.items()
        ]
        body.append('<section id="geomean"><h2>Geometric mean of B/A per library</h2>')
        body += [_table(["Library", "Cells", "Geomean B/A", "95% CI"], geo), "</section>"]
    if cmp.not_compared:
        why = [({}, [(x, x) for x in (*k, reason)]) for k, reason in cmp.not_compared]
        body.append(f'<section id="not-compared"><h2>Not compared ({len(cmp.not_compared)} cells)</h2>')
        body += [_table(["Lang", "Benchmark", "Test", "Dataset", "Format", "Why"], why), "</section>"]
    langs = sorted({r["lang"] for r in rows})
    return _page(f"serbench compare {cmp.run_a} vs {cmp.run_b}", body, charts, langs, library_js, {"rows": {}})


def _ci_text(ci) -> str:
    return "–" if any(math.isnan(x) for x in ci) else f"{ci[0]:.3f} – {ci[1]:.3f}"


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

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;max-width:1400px;
padding:0 1.2em 3em;color:#1d2125;background:#fff}
h1{font-size:1.5em;margin:.8em 0 .4em}h2{margin-top:1.6em;border-bottom:2px solid #dee2e6}h3{margin:1.2em 0 .3em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.5em 0}
dl.facts dt{font-weight:600;color:#495057}dl.facts dd{margin:0}
.warn{background:#fff3cd;border-left:4px solid #e0a800;padding:.4em .7em}
.small,.note,.legend{color:#495057;font-size:.92em}
form#filters{position:sticky;top:0;background:#f8f9fa;border:1px solid #dee2e6;padding:.3em .6em;z-index:5;
display:flex;flex-wrap:wrap;gap:.4em 1em}
fieldset{border:0;padding:0;margin:0}legend{font-weight:600;float:left;margin-right:.5em}
fieldset label{margin-right:.6em;white-space:nowrap}
figure.view{margin:1em 0;border:1px solid #e9ecef;border-radius:4px;padding:.5em}
figure.view[hidden]{display:none}figcaption{font-weight:600}
.pair{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
.chart{flex:1 1 520px;min-width:360px}.table{flex:1 1 520px;overflow-x:auto}
table{border-collapse:collapse;font-size:.88em}th,td{border-bottom:1px solid #e9ecef;padding:.2em .5em;text-align:left;
white-space:nowrap}th{cursor:pointer;background:#f1f3f5;position:relative}th[aria-sort=ascending]:after{content:" ▲"}
th[aria-sort=descending]:after{content:" ▼"}tr[hidden]{display:none}
nav{margin:.6em 0}
"""

# The page's own script: draws each chart spec with Plotly from the embedded rows, applies the filters
# (also from the URL's #lang=…&format=…&test=…&lib=…, so a filtered view can be linked), sorts tables,
# and records what it drew on <body> (data-drawn, data-marks per chart, data-errors) for the browser test.
SCRIPT = r"""
(function(){
"use strict";
var errors=[];
function noteError(msg){errors.push(String(msg));document.body.dataset.errors=errors.join(" | ");}
window.addEventListener("error",function(e){noteError(e.message||e);});
document.addEventListener("securitypolicyviolation",function(e){noteError("blocked "+e.blockedURI);});
var D=JSON.parse(document.getElementById("serbench-data").textContent);
var PATTERNS=["","/","\\","x",".","+","-","|"];
var fmtPattern={},nextPattern=0;
function pattern(f){if(!(f in fmtPattern)){fmtPattern[f]=PATTERNS[nextPattern++%PATTERNS.length];}return fmtPattern[f];}
function state(){
  var s={lang:{},format:{},test:{},lib:document.getElementById("lib-filter").value.trim().toLowerCase()};
  document.querySelectorAll("input[data-filter]").forEach(function(b){if(b.checked){s[b.dataset.filter][b.value]=1;}});
  return s;
}
function libOk(name,s){return !s.lib||name.toLowerCase().indexOf(s.lib)>=0;}
function shown(r,s){return s.lang[r.lang]&&s.format[r.format]&&s.test[r.test]&&libOk(r.lib,s);}
function unitOf(max,counting){
  if(counting){return [1,"instructions per op"];}
  if(max>=1e9){return [1e9,"s"];}if(max>=1e6){return [1e6,"ms"];}if(max>=1e3){return [1e3,"µs"];}return [1,"ns"];
}
var hasPlotly=typeof Plotly!=="undefined";
// no tool bar over the bars: zoom by dragging, double-click to reset
var CONFIG={displayModeBar:false,responsive:true};
var marks={};
function drawBars(el,spec,s){
  var rows=spec.rows.map(function(id){return D.rows[id];}).filter(function(r){return shown(r,s);});
  var okRows=rows.filter(function(r){return r.status==="ok";});
  var max=Math.max.apply(null,okRows.map(function(r){return Math.abs(r.hi!=null?r.hi:r.value);}).concat([1]));
  var u=unitOf(max,spec.counting),div=u[0];
  var traces=[],byLang={};
  okRows.forEach(function(r){
    // one trace per language and format, so the legend shows each colour and hatching it uses
    var grey=r.noise||r.apart;
    var key=r.apart?"other work, not ranked":r.noise?"within baseline noise":r.lang+" · "+r.format;
    if(!byLang[key]){byLang[key]={type:"bar",orientation:"h",name:key,x:[],y:[],customdata:[],
      hovertemplate:"%{y}<br>%{customdata}<extra></extra>",
      marker:{color:grey?"#adb5bd":(D.langColours[r.lang]||"#666"),opacity:grey?0.6:1,pattern:{shape:[]}},
      error_x:{type:"data",symmetric:false,array:[],arrayminus:[],visible:!spec.counting,color:"#212529",thickness:1.2,width:3}};
      traces.push(byLang[key]);}
    var t=byLang[key];
    t.x.push(r.value/div);t.y.push(r.label);
    t.customdata.push(r.text+(r.ci_text?" (95% CI "+r.ci_text+")":"")+(r.noise?" ⚠ within baseline noise":"")
      +(r.apart?" ⚠ other work: "+r.apart:""));
    t.marker.pattern.shape.push(pattern(r.format));
    t.error_x.array.push(r.hi!=null?(r.hi-r.value)/div:0);t.error_x.arrayminus.push(r.lo!=null?(r.value-r.lo)/div:0);
  });
  var noise=okRows.filter(function(r){return r.noise;});
  if(noise.length){traces.push({type:"scatter",mode:"text",name:"not ranked",showlegend:false,hoverinfo:"skip",
    x:noise.map(function(r){return Math.max(r.value,0)/div;}),y:noise.map(function(r){return r.label;}),
    text:noise.map(function(){return "  ≈ 0: within baseline noise";}),textposition:"middle right",
    textfont:{color:"#495057"}});}
  var bad=rows.filter(function(r){return r.status!=="ok";});
  if(bad.length){traces.push({type:"scatter",mode:"text",name:"incorrect or failed",x:bad.map(function(){return 0;}),
    y:bad.map(function(r){return r.label;}),text:bad.map(function(r){return r.text;}),textposition:"middle right",
    textfont:{color:"#c92a2a"},hovertext:bad.map(function(r){return r.text+": "+r.reason;}),hoverinfo:"text"});}
  var labels=rows.map(function(r){return r.label;});
  var layout={height:Math.max(170,90+24*rows.length),margin:{l:10,r:20,t:30,b:40},barmode:"overlay",
    xaxis:{title:{text:(spec.counting?"net instructions per op":"net time ("+u[1]+")")},zeroline:true,
      rangemode:"tozero"},
    yaxis:{type:"category",categoryorder:"array",categoryarray:labels,autorange:"reversed",automargin:true},
    legend:{orientation:"h",x:0,y:1.01,yanchor:"bottom"},showlegend:true,bargap:0.25};
  marks[el.dataset.chart]=okRows.length;
  return Plotly.react(el,traces,layout,CONFIG);
}
function drawScaling(el,spec,s){
  var series=spec.series.filter(function(x){return s.lang[x.lang]&&s.format[x.format]&&libOk(x.label,s);});
  var n=0;
  var traces=series.map(function(x){n+=x.points.length;return {type:"scatter",mode:"lines+markers",name:x.label,
    x:x.points.map(function(p){return p[0];}),y:x.points.map(function(p){return p[1];}),
    text:x.points.map(function(p){return p[2];}),
    hovertemplate:x.label+"<br>%{text}: %{x} B, %{y:.4s}"+(spec.counting?" instr":" ns")+"<extra></extra>",
    line:{color:D.langColours[x.lang]||"#666",dash:["solid","dash","dot","dashdot","longdash"][series.indexOf(x)%5]}};});
  marks[el.dataset.chart]=n;
  return Plotly.react(el,traces,{height:420,margin:{l:60,r:10,t:10,b:50},
    xaxis:{type:"log",title:{text:"document size (bytes)"}},
    yaxis:{type:"log",title:{text:spec.counting?"net instructions per op":"net time per op (ns)"}},
    legend:{font:{size:10}}},CONFIG);
}
function drawSizes(el,spec,s){
  // a typed dataset's bars are library rows (spec.keys), filtered as rows; the others are formats
  var idx=spec.formats.map(function(f,i){return (spec.keys?shown(spec.keys[i],s):s.format[f])?i:-1;})
    .filter(function(i){return i>=0;});
  var pick=function(a){return idx.map(function(i){return a[i];});};
  var fm=pick(spec.formats);
  var traces=[["raw",spec.raw,"#495057"],["gzip",spec.gzip,"#74c0fc"],["zstd",spec.zstd,"#1864ab"]].map(function(t){
    return {type:"bar",name:t[0],x:fm,y:pick(t[1]),marker:{color:t[2]}};});
  marks[el.dataset.chart]=fm.length*3;
  var payload=spec.payload?[{type:"line",xref:"paper",x0:0,x1:1,y0:spec.payload,y1:spec.payload,
    line:{color:"#e8590c",dash:"dash",width:1.5}}]:[];
  return Plotly.react(el,traces,{height:spec.keys?380:300,barmode:"group",margin:{l:60,r:10,t:10,b:spec.keys?120:40},
    yaxis:{title:{text:"bytes"+(spec.payload?" (dashed: theoretical payload)":"")}},
    xaxis:{automargin:true},shapes:payload},CONFIG);
}
function drawTrend(el,spec){
  var p=spec.points,max=Math.max.apply(null,p.map(function(x){return Math.abs(x.hi!=null?x.hi:x.value);}).concat([1]));
  var u=unitOf(max,spec.counting),div=u[0];
  marks[el.dataset.chart]=p.length;
  return Plotly.react(el,[{type:"scatter",mode:"lines+markers",name:spec.label,x:p.map(function(x){return x.run;}),
    y:p.map(function(x){return x.value/div;}),
    text:p.map(function(x){return x.text+" ("+x.version+(x.estimator?", "+x.estimator.toLowerCase():"")+")";}),
    hovertemplate:"%{x}<br>%{text}<extra></extra>",line:{color:D.langColours[spec.lang]||"#666"},
    error_y:{type:"data",symmetric:false,visible:!spec.counting,color:"#212529",
      array:p.map(function(x){return x.hi!=null?(x.hi-x.value)/div:0;}),
      arrayminus:p.map(function(x){return x.lo!=null?(x.value-x.lo)/div:0;})}}],
    {height:320,margin:{l:60,r:60,t:10,b:90},xaxis:{type:"category",title:{text:"run (oldest first)"}},
     yaxis:{rangemode:"tozero",title:{text:spec.counting?"net instructions per op":"net time ("+u[1]+")"}}},CONFIG);
}
function drawRatios(el,spec,s){
  var rows=spec.rows.filter(function(r){return shown(r,s)&&r.ratio!=null;});
  marks[el.dataset.chart]=rows.length;
  var labels=rows.map(function(r){return r.label;});
  return Plotly.react(el,[{type:"bar",orientation:"h",base:1,x:rows.map(function(r){return r.ratio-1;}),y:labels,
    customdata:rows.map(function(r){return r.text;}),hovertemplate:"%{y}<br>%{customdata}<extra></extra>",
    marker:{color:rows.map(function(r){return r.colour;})},showlegend:false,
    error_x:{type:"data",symmetric:false,visible:!spec.counting,color:"#212529",
      array:rows.map(function(r){return r.hi!=null?r.hi-r.ratio:0;}),
      arrayminus:rows.map(function(r){return r.lo!=null?r.ratio-r.lo:0;})}},
    // a dot at each ratio, so a ratio of exactly 1 (an empty bar) still shows
    {type:"scatter",mode:"markers",x:rows.map(function(r){return r.ratio;}),y:labels,showlegend:false,hoverinfo:"skip",
     marker:{color:rows.map(function(r){return r.colour;}),size:7,symbol:"diamond"}}],
    {height:Math.max(170,80+24*rows.length),margin:{l:10,r:20,t:10,b:40},
     xaxis:{title:{text:"B / A (below 1: B is "+(spec.counting?"fewer instructions":"faster")+")"}},
     yaxis:{type:"category",categoryorder:"array",categoryarray:labels,autorange:"reversed",automargin:true},
     shapes:[{type:"line",x0:1,x1:1,yref:"paper",y0:0,y1:1,line:{color:"#212529",width:1}}]},CONFIG);
}
function drawLatency(el,spec,s){
  var series=spec.series.filter(function(x){return shown(x,s);}),n=0;
  var traces=series.map(function(x,i){n+=x.points.length;return {type:"scatter",mode:"lines+markers",name:x.label,
    x:spec.names,y:x.points,connectgaps:true,hovertemplate:x.label+"<br>%{x}: %{y:.4s} ns<extra></extra>",
    line:{color:D.langColours[x.lang]||"#666",dash:["solid","dash","dot","dashdot","longdash"][i%5]}};});
  marks[el.dataset.chart]=n;
  return Plotly.react(el,traces,{height:380,margin:{l:60,r:10,t:10,b:50},
    xaxis:{type:"category",title:{text:"percentile"}},yaxis:{type:"log",title:{text:"latency per record (ns)"}},
    legend:{font:{size:10}}},CONFIG);
}
var DRAW={latency:drawLatency,bars:drawBars,scaling:drawScaling,sizes:drawSizes,trend:drawTrend,ratios:drawRatios};
function visible(el){return !el.closest("[hidden]");}
function drawAll(){
  var s=state();
  document.querySelectorAll("tr[data-lang]").forEach(function(tr){
    tr.hidden=!shown({lang:tr.dataset.lang,format:tr.dataset.format,test:tr.dataset.test,lib:tr.dataset.lib},s);});
  document.querySelectorAll("figure[data-test]").forEach(function(f){f.hidden=!s.test[f.dataset.test];});
  if(!hasPlotly){return;}
  var jobs=[];
  document.querySelectorAll("div.chart").forEach(function(el){
    if(!visible(el)){return;}
    var spec=D.charts[+el.dataset.chart];
    try{jobs.push(Promise.resolve(DRAW[spec.kind](el,spec,s)).then(function(){el.dataset.marks=marks[el.dataset.chart];}));}
    catch(e){noteError(e&&e.stack||e);}
  });
  Promise.all(jobs).then(function(){
    document.body.dataset.drawn=document.querySelectorAll("div.chart[data-marks]").length;
    document.body.dataset.marks=Object.keys(marks).reduce(function(a,k){return a+marks[k];},0);
  },function(e){noteError(e&&e.stack||e);});
}
function fromHash(){
  var h=new URLSearchParams(location.hash.slice(1));
  ["lang","format","test"].forEach(function(k){
    if(!h.has(k)){return;}var want=h.get(k).split(",");
    document.querySelectorAll('input[data-filter="'+k+'"]').forEach(function(b){b.checked=want.indexOf(b.value)>=0;});});
  if(h.has("lib")){document.getElementById("lib-filter").value=h.get("lib");}
}
function toHash(){
  var p=[];["lang","format","test"].forEach(function(k){
    var all=document.querySelectorAll('input[data-filter="'+k+'"]'),on=[];
    all.forEach(function(b){if(b.checked){on.push(b.value);}});
    if(on.length!==all.length){p.push(k+"="+on.join(","));}});
  var lib=document.getElementById("lib-filter").value.trim();if(lib){p.push("lib="+encodeURIComponent(lib));}
  history.replaceState(null,"",p.length?"#"+p.join("&"):location.pathname);
}
function sortBy(th){
  var table=th.closest("table"),i=Array.prototype.indexOf.call(th.parentNode.children,th);
  var dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
  table.querySelectorAll("th").forEach(function(x){x.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",dir===1?"ascending":"descending");
  var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
  rows.sort(function(a,b){
    var x=a.cells[i].dataset.v,y=b.cells[i].dataset.v,nx=parseFloat(x),ny=parseFloat(y);
    if(x===""&&y!==""){return 1;}if(y===""&&x!==""){return -1;}
    if(!isNaN(nx)&&!isNaN(ny)){return dir*(nx-ny);}return dir*String(x).localeCompare(String(y));});
  rows.forEach(function(r){body.appendChild(r);});
}
document.querySelectorAll("table.sortable th").forEach(function(th){
  th.addEventListener("click",function(){sortBy(th);});});
document.getElementById("filters").addEventListener("input",function(){toHash();drawAll();});
// a menu shows one figure of its group (the cross-language combinations, the cells with a trend)
document.querySelectorAll("select[data-group]").forEach(function(pick){pick.addEventListener("change",function(){
  document.querySelectorAll('figure[data-group="'+pick.dataset.group+'"]').forEach(function(f){
    f.hidden=f.dataset.choice!==pick.value;});drawAll();});});
try{fromHash();drawAll();}catch(e){noteError(e&&e.stack||e);}
})();
"""


def render_robustness(run, results: list[dict]) -> str:
    """The robustness run as a page (docs/robustness.md): one sortable row per decoder with its outcome
    counts and verdict line, then every crash, hang and memory blow-up with its case file. No charts."""
    from ..robustness.run import FAIL, OUTCOMES, summary_line
    from .robustness import case_folder

    rows: dict[tuple, list[dict]] = {}
    for r in results:
        rows.setdefault((r["harness"], r["bench"], r["test"], r["format"]), []).append(r)
    table = []
    for (h, b, t, f), rs in rows.items():
        counts = [sum(1 for r in rs if r["outcome"] == o) for o in OUTCOMES]
        cells = [(f"{h}/{b}", f"{h}/{b}"), (t, t), (f, f), (rs[0]["version"], rs[0]["version"])]
        cells += [(str(n), n) for n in counts] + [(summary_line(rs), summary_line(rs))]
        table.append(({"lang": h, "format": f, "test": t}, cells))
    args = json.loads(run["args_json"])
    body = [
        f"<h1>serbench robustness run {_e(run['id'])}</h1>",
        f"<p>Command: <code>{_e(args.get('command_line'))}</code>. Limits per process: {_e(args.get('limits_text'))}."
        " Outcomes and verdicts: docs/robustness.md.</p>",
        '<section id="robustness"><h2>Decoder rows</h2>',
        _table(["Row", "Test", "Format", "Version", *OUTCOMES, "Verdict"], table),
        "</section>",
        '<section id="failures"><h2>Crashes, hangs and memory blow-ups</h2>',
    ]
    fails = [r for r in results if r["verdict"] == FAIL]
    folder = case_folder(run)
    body.append(
        _table(
            ["Row", "Library (version)", "Case file", "Class", "Outcome", "Reason"],
            [
                (
                    {"lang": r["harness"], "format": r["format"], "test": r["test"]},
                    [
                        (f"{r['harness']}/{r['bench']} {r['test']}", r["bench"]),
                        (f"{r['library']} ({r['version']})", r["library"]),
                        (f"{folder}/{r['file']}", r["file"]),
                        (r["class"], r["class"]),
                        (r["outcome"], r["outcome"]),
                        ((r["reason"] or "")[:300], r["reason"] or ""),
                    ],
                )
                for r in fails
            ],
        )
        if fails
        else "<p>None: every process ended with an exit code of the protocol within the limits.</p>"
    )
    body.append("</section>")
    return _page(f"serbench robustness {run['id']}", body, _Charts(), sorted({k[0] for k in rows}), None, {})
