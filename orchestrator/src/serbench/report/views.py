"""The views of a run's HTML report below the answer: the cross-language view, net time per dataset and
test, scaling over sizes 1-5, object sizes, latency, the Chronicle Wire reference, the trend across runs
and the incorrect and failed cells. A view with nothing to show returns no markup (html.ABSENT says why)."""

from __future__ import annotations

import json
import math

from . import reference
from .facts import (
    TEST_TITLES,
    compression_sentence,
    estimator_of,
    has_current_estimator,
    latency_ops,
    sized_datasets,
    within_baseline,
)
from .markup import (
    SCHEMALESS_PREFIX,
    TEST_TITLE,
    _attrs,
    _Charts,
    _e,
    _figure,
    _fmt,
    _ordered,
    _row,
    _table,
    _time_table,
    _value,
)
from .units import fmt_count, fmt_ns


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
            cid = charts.add({"kind": "bars", "view": "times", "rows": [c["id"] for c in rows], "counting": counting})
            out.append(
                _figure(
                    cid,
                    f"{ds} · {title}",
                    _time_table(rows, counting),
                    attrs={"test": test, "dataset": ds},
                )
            )
    out.append("</section>")
    return out if len(out) > 2 else []


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
        cid = charts.add({"kind": "bars", "view": "cross", "rows": [c["id"] for c in rows], "counting": counting})
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
        return []  # named as absent, with why, under the page's links (ABSENT)
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
    sized = sized_datasets(manifest, used)
    out = [
        '<section id="sizes"><h2>Object sizes</h2>',
        "<p>Raw payload: numbers 8 B, booleans 1 B, null 0 B, strings, keys and binary their byte length. "
        f"{_e(compression_sentence(manifest, sized))}</p>",
    ]
    if not sized:
        return []
    for d in sized:
        if d["kind"] == "typed":
            out += _typed_sizes(d, [c for c in cells if c["dataset"] == d["dataset"]], charts)
            continue
        if not d.get("files"):
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
        return []  # named as absent, with why, under the page's links (ABSENT)
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
        table = _table(["Lang", "Benchmark", "Test", "Dataset", "Format", "Status", "Reason"], rows)
        out.append(f'<div class="table wide">{table}</div>')
    out.append("</section>")
    return out
