"""The writers' part of the robustness report (issue 73, docs/robustness.md "Writers"): the writers'
table (write rows x cases), their crashes, hangs, memory blow-ups and wrong outputs, the cases not run
and why, and the counts per language with decoders and writers apart (Markdown and HTML)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from ..robustness.run import ACCEPTED_MALFORMED, FAIL, REJECTED_VALID, WRONG

WRITE = "write"
#: a writer's outcome in one cell of the writers' table
SHORT = {
    "accepted": "ok",
    "other-hash": "WRONG",
    "rejected": "ref",
    "crashed": "CRASH",
    "hung": "HANG",
    "oom": "OOM",
    "harness": "hns",
}
LEGEND = (
    "ok = wrote it right (the reference decoder reads the output back with the document's hash), ref = refused "
    "cleanly (exit 3), WRONG = wrong output (another hash, or output the reference decoder cannot read), CRASH = "
    "signal or exit outside the protocol, HANG = killed at the time limit, OOM = out of the memory limit, hns = "
    "not judged (the harness's own limit or reference decoder), – = not run (see below)."
)
LIST_LIMIT = 200


def split(results: list[dict]) -> tuple[list[dict], list[dict]]:
    """(decoder results, writer results)."""
    return [r for r in results if r.get("test") != WRITE], [r for r in results if r.get("test") == WRITE]


#: the other cases' columns, in this order, with their headings
OTHER_COLUMNS = {
    "long-string-16777216": "str 16 MiB",
    "long-key-1048576": "key 1 MiB",
    "int64-limits": "int64",
    "uint64-limits": "uint64",
    "negative-zero": "-0.0",
    "float-limits": "floats",
}
_SUP = dict(enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _columns(writers: list[dict]) -> list[str]:
    """The case names in the table's order: nesting by kind and depth, then OTHER_COLUMNS' order."""
    order = list(OTHER_COLUMNS)

    def key(name: str) -> tuple:
        if name.startswith("deep-"):
            kind, n = name[5:].rsplit("-", 1)
            return (0, kind, int(n))
        return (1, str(order.index(name)).zfill(3) if name in order else name, 0)

    return sorted({r["case_name"] for r in writers}, key=key)


def _header(name: str) -> str:
    if name.startswith("deep-"):
        kind, n = name[5:].rsplit("-", 1)
        k = len(n) - 1
        return f"{'[ ]' if kind == 'array' else '{ }'} 10{_SUP[k]}" if n == "1" + "0" * k else f"{kind} {n}"
    return OTHER_COLUMNS.get(name, name)


def _rows(writers: list[dict]) -> dict[tuple, list[dict]]:
    rows: dict[tuple, list[dict]] = defaultdict(list)
    for r in writers:
        rows[(r["harness"], r["bench"], r["format"])].append(r)
    return rows


def per_language(results: list[dict]) -> list[tuple[str, str, int, int, list[int]]]:
    """(language, role, rows, processes, [crash, hang, oom, wrong, accepts invalid, refuses valid, not
    judged]) per language and role (decoders, writers), in the store's order of languages."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        groups[(r["harness"], "writers" if r.get("test") == WRITE else "decoders")].append(r)
    out = []
    for (lang, role), rs in sorted(groups.items()):
        o, v = Counter(r["outcome"] for r in rs), Counter(r["verdict"] for r in rs)
        rows = len({(r["bench"], r.get("test"), r["format"]) for r in rs})
        counts = [o["crashed"], o["hung"], o["oom"], v[WRONG], v[ACCEPTED_MALFORMED], v[REJECTED_VALID], o["harness"]]
        out.append((lang, role, rows, len(rs), counts))
    return out


PER_LANGUAGE_HEADER = [
    "Language", "Role", "Rows", "Processes", "Crash", "Hang", "Memory blow-up", "Wrong value or output",
    "Accepts invalid", "Refuses valid", "Not judged",
]  # fmt: skip


def per_language_md(results: list[dict]) -> list[str]:
    out = [
        "## Per language",
        "",
        "Decoders and writers apart. Wrong value or output: a decoder's other hash on valid input, a writer's "
        "output that does not read back as the document; accepts invalid: a decoder's acceptance of malformed "
        "input (writers are given valid documents only); refuses valid: a clean refusal of what must be read or "
        "written.",
        "",
        "| " + " | ".join(PER_LANGUAGE_HEADER) + " |",
        "|---" * len(PER_LANGUAGE_HEADER) + "|",
    ]
    for lang, role, rows, n, counts in per_language(results):
        cells = [str(c) for c in counts]
        if role == "writers":
            cells[4] = "–"
        out.append(f"| {lang} | {role} | {rows} | {n} | " + " | ".join(cells) + " |")
    return out + [""]


def _esc(s: str | None) -> str:
    return (s or "").replace("|", "\\|").replace("\n", " ")[:300]


def not_run(run: dict) -> list[dict]:
    return json.loads(run["cases_json"]).get("write", {}).get("not_run", [])


def writers_md(run: dict, writers: list[dict]) -> list[str]:
    """The writers' table and their failures, or nothing when the run ran no writer."""
    from ..robustness.writers import summary_line

    if not writers:
        return []
    cols = _columns(writers)
    rows = _rows(writers)
    out = [
        "## Writers",
        "",
        f"Every write row's `verify` on hostile but valid documents: {len(rows)} writer rows, {len(writers)} "
        'processes (docs/robustness.md, "Writers"). ' + LEGEND,
        "",
        "| Row | Format | " + " | ".join(_header(c) for c in cols) + " | Verdict |",
        "|---|---|" + "---|" * len(cols) + "---|",
    ]
    for (h, b, f), rs in rows.items():
        by = {r["case_name"]: r for r in rs}
        cells = [
            (f"**{SHORT[by[c]['outcome']]}**" if by[c]["verdict"] in (FAIL, WRONG) else SHORT[by[c]["outcome"]])
            if c in by
            else "–"
            for c in cols
        ]
        out.append(f"| {h}/{b} ({rs[0]['version']}) | {f} | " + " | ".join(cells) + f" | {_esc(summary_line(rs))} |")
    out.append("")
    fails = [r for r in writers if r["verdict"] == FAIL]
    out += ["### Writers' crashes, hangs and memory blow-ups", ""]
    if fails:
        out += _failures_table(fails)
    else:
        out.append("None.")
    out.append("")
    for title, pick in (
        ("wrong output", lambda r: r["verdict"] == WRONG),
        ("valid documents refused", lambda r: r["verdict"] == REJECTED_VALID),
        ("not judged, the harness's own limits", lambda r: r["outcome"] == "harness"),
    ):
        picked = [r for r in writers if pick(r)]
        if not picked:
            continue
        out += [f"### Writers: {title}", ""]
        out += [
            f"- {r['harness']}/{r['bench']} {r['format']}: `corpus/{r['file']}`: {_esc(r['reason'])}"
            for r in picked[:LIST_LIMIT]
        ]
        if len(picked) > LIST_LIMIT:
            out.append(f"- and {len(picked) - LIST_LIMIT} more (the store has them all)")
        out.append("")
    skipped = not_run(run)
    if skipped:
        out += ["### Writer cases not run", ""]
        out += [f"- `{s['case']}` ({'every format' if s['format'] == '*' else s['format']}): {s['reason']}"
                for s in skipped]  # fmt: skip
        out.append("")
    return out


def per_language_html(results: list[dict]) -> str:
    from .markup import _table

    rows = []
    for lang, role, n_rows, n, counts in per_language(results):
        cells = [(lang, lang), (role, role), (str(n_rows), n_rows), (str(n), n)]
        cells += [("–", -1) if role == "writers" and i == 4 else (str(c), c) for i, c in enumerate(counts)]
        rows.append(({"lang": lang}, cells))
    return '<section id="per-language"><h2>Per language</h2>' + _table(PER_LANGUAGE_HEADER, rows) + "</section>"


def writers_html(run: dict, writers: list[dict]) -> str:
    """The writers' table (one sortable row per write row, one column per case) and their failures."""
    from ..robustness.writers import summary_line
    from .markup import _e, _table

    if not writers:
        return ""
    cols = _columns(writers)
    table = []
    for (h, b, f), rs in _rows(writers).items():
        by = {r["case_name"]: r for r in rs}
        cells = [(f"{h}/{b}", f"{h}/{b}"), (f, f), (rs[0]["version"], rs[0]["version"])]
        cells += [(SHORT[by[c]["outcome"]], by[c]["outcome"]) if c in by else ("–", "") for c in cols]
        cells.append((summary_line(rs), summary_line(rs)))
        table.append(({"lang": h, "format": f, "test": WRITE}, cells))
    fails = [r for r in writers if r["verdict"] in (FAIL, WRONG)]
    body = [
        '<section id="writers"><h2>Writer rows</h2>',
        f"<p>{_e(LEGEND)}</p>",
        _table(["Row", "Format", "Version", *(_header(c) for c in cols), "Verdict"], table),
        "<h3>Writers' crashes, hangs, memory blow-ups and wrong outputs</h3>",
    ]
    body.append(
        _table(
            ["Row", "Library (version)", "Case file", "Outcome", "Reason"],
            [
                (
                    {"lang": r["harness"], "format": r["format"], "test": WRITE},
                    [
                        (f"{r['harness']}/{r['bench']} {r['format']}", r["bench"]),
                        (f"{r['library']} ({r['version']})", r["library"]),
                        (f"corpus/{r['file']}", r["file"]),
                        (r["outcome"], r["outcome"]),
                        ((r["reason"] or "")[:300], r["reason"] or ""),
                    ],
                )
                for r in fails
            ],
        )
        if fails
        else "<p>None.</p>"
    )
    skipped = not_run(run)
    if skipped:
        body.append("<h3>Writer cases not run</h3><ul>")
        body += [
            f"<li><code>{_e(s['case'])}</code> ({_e('every format' if s['format'] == '*' else s['format'])}): "
            f"{_e(s['reason'])}</li>"
            for s in skipped
        ]
        body.append("</ul>")
    body.append("</section>")
    return "".join(body)


def _insert_before(text: str, marker: str, block: str) -> str:
    """`block` inserted before the first `marker` (a heading of the decoders' report), or appended."""
    i = text.find(marker)
    return text[:i] + block + text[i:] if i >= 0 else text.rstrip("\n") + "\n\n" + block


def render_md(run: dict, results: list[dict], decoders_md) -> str:
    """The robustness report: the decoders' (report/robustness.render on the decoder results), with
    the counts per language, decoders and writers apart, and the writers' table beside the decoders'
    matrix (before the decoders' crashes)."""
    decoders, writers = split(results)
    text = decoders_md(run, decoders)
    if not writers:
        return text
    text = _insert_before(text, "\n## Per library\n", "\n" + "\n".join(per_language_md(results)))
    return _insert_before(text, "\n## Crashes, hangs and memory blow-ups\n", "\n" + "\n".join(writers_md(run, writers)))


def render_html(run: dict, results: list[dict], decoders_html) -> str:
    decoders, writers = split(results)
    page = decoders_html(run, decoders)
    if not writers:
        return page
    block = per_language_html(results) + writers_html(run, writers)
    return _insert_before(page, '<section id="failures">', block)


def findings_md(run: dict, results: list[dict], decoders_findings) -> str:
    """The findings page: the decoders' per library, then every writer's crash, hang and memory blow-up."""
    decoders, writers = split(results)
    text = decoders_findings(run, decoders)
    fails = [r for r in writers if r["verdict"] == FAIL]
    if not writers:
        return text
    out = ["", "## Writers", "", f"{len(fails)} crashes, hangs and memory blow-ups of write rows "
           f"({len({(r['harness'], r['bench'], r['format']) for r in writers})} writer rows run).", ""]  # fmt: skip
    if fails:
        out += _failures_table(fails)
    return text.rstrip("\n") + "\n" + "\n".join(out) + "\n"


def closing_line(results: list[dict]) -> str:
    """The writers' counts per harness for the run's last line, as the decoders' (robustness_scan)."""
    parts = []
    for lang, role, _, n, c in per_language(results):
        if role != "writers":
            continue
        said = ", ".join(f"{k} {w}" for k, w in zip(c, ("crashed", "hung", "oom", "wrong output"), strict=False) if k)
        parts.append(f"{lang} {said or 'none'} ({n} processes)")
    return "writers per harness (crashed, hung, oom, wrong output): " + "; ".join(parts)


def _failures_table(fails: list[dict]) -> list[str]:
    """The writers' crashes, hangs and memory blow-ups, one row each with its case file and reason."""
    return [
        "| Row | Library (version) | Case file | Outcome | Reason |",
        "|---|---|---|---|---|",
        *(
            f"| {r['harness']}/{r['bench']} {r['format']} | {r['library']} ({r['version']}) | `corpus/{r['file']}` | "
            f"{r['outcome']} | {_esc(r['reason'])} |"
            for r in fails
        ),
    ]
