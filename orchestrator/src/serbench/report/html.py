"""The HTML report of a run (issue 16, DESIGN §7, §11): one self-contained file, charts drawn by a pinned
charting library from npm (plotly.js, basic bundle: docs/report.md says why) that is read from
orchestrator/web/node_modules at report time and inlined, so the page needs no network when it is viewed.

Every chart has a table beside it with the same numbers, rendered here (readable without JavaScript,
copyable); the page's own small script only draws the charts from the embedded data, filters and sorts.
When the library is not installed and cannot be, the report is still written, with its tables and a
one-line note that says how to get the charts."""

from __future__ import annotations

import json
import math

from . import answer
from .facts import (
    TEST_TITLES,
    estimator_of,
    run_header,
)
from .markup import (
    LIBRARY,
    LIBRARY_FILE,
    SCRIPT,
    TEST_TITLE,
    WEB_DIR,
    _Charts,
    _e,
    _figure,
    _filters,
    _page,
    _row,
    _table,
    chart_library,
)
from .units import fmt_instr, fmt_ns
from .views import (
    _bad_section,
    _bars_section,
    _cross_section,
    _latency_section,
    _reference_section,
    _scaling_section,
    _sizes_section,
    _trend_section,
    same_machine_runs,
)

# names other modules and the tests take from here
__all__ = [
    "LIBRARY",
    "LIBRARY_FILE",
    "SCRIPT",
    "WEB_DIR",
    "chart_library",
    "render",
    "render_compare",
    "render_robustness",
    "same_machine_runs",
]


def _header(run, cells, h: dict) -> list[str]:
    """The first lines: what was run, where, and how far to trust it, in two short lines (DESIGN §13)."""
    out = [f"<h1>serbench results: run {_e(run['id'])}</h1>"]
    if h["unfinished"]:
        out.append(f'<p class="warn">{_e(h["unfinished"])}</p>')
    out.append(
        f'<p class="lede">{_e(h["how"])}, started {_e(h["started"])}; {_e(h["cpu_model"])}, {_e(h["cores"])} '
        f"cores; {_e(', '.join(h['langs']))}; commit {_e(_short_commit(run))}.</p>"
    )
    short = answer.precision_short(run, cells) if not h["counting"] else ""
    n = len(h["warnings"])
    warned = f' <a class="warn-link" href="#method">⚠ {n} warning{"s" * (n != 1)}</a>' if n else ""
    if short or warned:
        out.append(f'<p class="precision">{_e(short)}{warned} <a href="#method">How this run was measured</a></p>')
    return out


def _short_commit(run) -> str:
    """The commit in a dozen characters, and whether the tree was dirty; the files are under the method."""
    env = json.loads(run["env_json"])
    return (env.get("git_commit") or "unknown")[:12] + (" (dirty working tree)" if env.get("git_dirty") else "")


def _method_section(run, cells, h: dict) -> list[str]:
    """How the run was measured, one click away: the machine, the full precision line, the warnings, the
    library versions and how to read a chart."""
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
    opened = " open" if h["warnings"] else ""
    out = [f'<details id="method"{opened}><summary>How this run was measured</summary>']
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
    out.append(
        f'<p class="legend">{_e(legend)} Colour: language; hatching: format (the key under each chart). '
        "A chart whose times span more than 10× has a logarithmic axis.</p>"
    )
    return out + ["</details>"]


def _answer_section(run, cells) -> list[str]:
    """The answer table (report/answer.py), first on the page: one row per language per dataset and test."""
    header, rows = answer.rows_table(run, cells)
    out = ['<section id="answer"><h2>The answer</h2>']
    out += [f'<p class="user">{_e(line)}</p>' for line in answer.user_lines(run, cells)]
    if not rows:
        return out + ['<p>No correct row to rank: see <a href="#bad">Incorrect and failed cells</a>.</p></section>']
    out.append(f'<p class="note">{_e(answer.INTRO)}</p>')
    out.append('<div class="table"><table class="answer"><thead><tr>')
    out.append("".join(f"<th>{_e(x)}</th>" for x in header) + "</tr></thead><tbody>")
    for r in rows:
        first = ' class="group"' if r[0] else ""
        tds = "".join(f"<td{' class=num' if i == 5 else ''}>{_e(x)}</td>" for i, x in enumerate(r))
        out.append(f"<tr{first}>{tds}</tr>")
    return out + ["</tbody></table></div></section>"]


#: why a view is absent, for the line under the page's links (a view with nothing to show is left out)
ABSENT = {
    "cross": "Cross-language (no measured row)",
    "times": "Net time (no measured row)",
    "scaling": "Scaling (no library measured at two or more of the sizes 1–5)",
    "sizes": "Sizes (no dataset measured)",
    "latency": "Latency (no typed dataset measured one record at a time)",
    "trend": "Trend (no cell of this run measured in another stored run of this machine)",
}
TITLES = {
    "cross": "Cross-language",
    "times": "Times",
    "scaling": "Scaling",
    "sizes": "Sizes",
    "latency": "Latency",
    "reference": "Chronicle Wire",
    "trend": "Trend",
    "bad": "Incorrect and failed",
}


def _nav(sections: dict[str, list[str]]) -> str:
    """Links to the views present, and one line naming each absent view with why (no dead link, no empty
    section)."""
    links = " · ".join(f'<a href="#{k}">{_e(TITLES[k])}</a>' for k, v in sections.items() if v)
    absent = [ABSENT[k] for k, v in sections.items() if not v and k in ABSENT]
    return f"<nav>{links}</nav>" + (f'<p class="small">Not shown: {_e("; ".join(absent))}.</p>' if absent else "")


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
    body += _answer_section(run, cells)
    body += _method_section(run, cells, h)
    used = {c["dataset"] for c in cells}
    sections = {
        "cross": _cross_section(real, counting, charts),
        "times": _bars_section(real, manifest, counting, charts),
        "scaling": _scaling_section(real, manifest, counting, charts),
        "sizes": _sizes_section(manifest, real, used, charts),
        "latency": _latency_section(real, charts),
        "reference": _reference_section(run, cells),
        "trend": _trend_section(run, real, history, counting, charts) if history is not None else [],
        "bad": _bad_section(cells),
    }
    if history is None:
        del sections["trend"]
    body.append(_filters([{"lang": c["harness"], "format": c["format"], "test": c["test"]} for c in real]))
    body.append(_nav(sections))
    for part in sections.values():
        body += part
    data = {"run": run["id"], "counting": counting, "rows": {str(c["id"]): _row(c, counting) for c in real}}
    return _page(f"serbench run {run['id']}", body, charts, h["langs"], library_js, data)


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
    notes and warnings of the Markdown comparison (compare_text.render), so both say the same."""
    from ..compare_text import render as render_md

    counting = cmp.measure == "instructions"
    rows = [_ratio_row(r, counting) for r in cmp.rows]
    md = render_md(cmp, every=True).splitlines()
    charts = _Charts()
    body = [f"<h1>serbench compare: {_e(cmp.run_a)} (A) vs {_e(cmp.run_b)} (B)</h1>", f"<p>{_e(md[2])}</p>"]
    # a quick pair's one finding: the cells outside its noise band (compare._quick); every cell is drawn below
    band = [line for line in render_md(cmp).splitlines() if "outside the noise band**" in line]
    body += [f'<p class="precision">{_e(line.replace("**", "").replace("`", ""))}</p>' for line in band]
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


def render_robustness(run, results: list[dict]) -> str:
    """The robustness run as a page (docs/robustness.md): one sortable row per decoder with its outcome
    counts and verdict line, then every crash, hang and memory blow-up with its case file. No charts."""
    from ..robustness.run import FAIL, OUTCOMES, summary_line
    from .robustness import case_folder
    from .robustness_scan import growth_html, scan_html

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
        '<section id="glance"><h2>At a glance</h2><p>Per library (decoder rows), each linked to its harness\'s '
        "section of docs/libraries.md.</p>",
        scan_html(results, "../../docs/libraries.md"),
        growth_html(results),
        "</section>",
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
