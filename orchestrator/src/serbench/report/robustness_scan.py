"""The robustness report's tables a user scans first (issue 73): per library, what it crashes on, hangs
on, grows quadratically on, runs out of memory on, which invalid input it accepts and where it answers
wrong, each library linked to its harness's section of docs/libraries.md; the counts per language; and
the rows whose time grows faster than linearly (robustness/growth.py)."""

from __future__ import annotations

import html
from collections import Counter, defaultdict

from ..robustness import growth
from ..robustness.run import ACCEPTED_MALFORMED, REJECTED_VALID, WRONG

#: each harness's section of docs/libraries.md, as GitHub makes a heading's anchor (lower case, the
#: punctuation dropped, spaces to hyphens); test_robustness_growth.py checks each against the headings
LIBRARY_SECTIONS = {
    "python": "python-harnessespython-pinned-in-requirementslock",
    "native": "native-cc-harness-harnessesnative",
    "rust": "rust-harness-harnessesrust",
    "go": "go-harness-harnessesgo",
    "java": "java-harness-harnessesjava",
    "js": "javascript-harness-harnessesjs",
    "js-bun": "bun-js-bun",
}
#: case names listed in a cell before "and N more"
CELL_NAMES = 4
DECODE_TESTS = ("tree", "incremental")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = heading.strip().lstrip("#").strip().lower()
    kept = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def libraries_link(harness: str, libraries_href: str) -> str:
    return f"{libraries_href}#{LIBRARY_SECTIONS.get(harness, '')}".rstrip("#")


def _names(keys: list[tuple[str, str]]) -> str:
    """'json: deep-1000000, deep-map-1000000; cbor: deep-1000000' from (format, case) pairs, cut short."""
    seen = sorted(set(keys))
    by_fmt: dict[str, list[str]] = defaultdict(list)
    for fmt, name in seen[:CELL_NAMES]:
        by_fmt[fmt].append(name)
    text = "; ".join(f"{fmt}: {', '.join(ns)}" for fmt, ns in by_fmt.items())
    return text + (f" and {len(seen) - CELL_NAMES} more" if len(seen) > CELL_NAMES else "")


def _classes(rs: list[dict]) -> str:
    """'12 (spec/structure 5, spec/number-grammar 4, …)': distinct cases, the commonest classes."""
    cases = {(r["format"], r["case_name"]): r["class"] for r in rs}
    top = Counter(cases.values()).most_common(3)
    more = "…" if len(Counter(cases.values())) > 3 else ""
    return f"{len(cases)} ({', '.join(f'{c} {n}' for c, n in top)}{', ' + more if more else ''})"


def scan(results: list[dict]) -> list[dict]:
    """One entry per library (harness, library, version), the libraries with anything to say first."""
    decode = [r for r in results if r["test"] in DECODE_TESTS]
    fits = growth.fits(decode)
    by_lib: dict[tuple, list[dict]] = defaultdict(list)
    for r in decode:
        by_lib[(r["harness"], r["library"], r["version"])].append(r)
    out = []
    for (h, lib, ver), rs in by_lib.items():

        def on(outcome: str, rs=rs) -> str:
            return _names([(r["format"], r["case_name"]) for r in rs if r["outcome"] == outcome])

        rows = sorted({growth.row_key(r) for r in rs})
        steep = [
            f"{k[3]} {f.family} ^{f.exponent:.2f} ({k[1]} {k[2]})"
            for k in rows
            for f in fits.get(k, [])
            if f.kind in ("quadratic", "superlinear")
        ]
        bad_in = [r for r in rs if r["verdict"] == ACCEPTED_MALFORMED]
        wrong = [r for r in rs if r["verdict"] == WRONG]
        refused = [r for r in rs if r["verdict"] == REJECTED_VALID]
        wrong_text = "; ".join(
            x
            for x in (
                f"{len({(r['format'], r['case_name']) for r in wrong})} wrong values" if wrong else "",
                f"{len({(r['format'], r['case_name']) for r in refused})} valid cases rejected" if refused else "",
            )
            if x
        )
        entry = {
            "harness": h,
            "library": lib,
            "version": ver,
            "rows": len(rows),
            "crashes": on("crashed"),
            "hangs": on("hung"),
            "quadratic": "; ".join(steep),
            "oom": on("oom"),
            "accepts_invalid": _classes(bad_in) if bad_in else "",
            "wrong": wrong_text,
        }
        entry["failing"] = any(entry[k] for k in ("crashes", "hangs", "quadratic", "oom"))
        out.append(entry)
    return sorted(out, key=lambda e: (not e["failing"], e["harness"], e["library"].lower()))


COLUMNS = (
    ("crashes", "Crashes on"),
    ("hangs", "Hangs on"),
    ("quadratic", "Grows faster than linearly"),
    ("oom", "Runs out of memory on"),
    ("accepts_invalid", "Accepts invalid input (cases)"),
    ("wrong", "Wrong answers"),
)


def _md(s: str) -> str:
    return s.replace("|", "\\|") or "–"


def scan_markdown(results: list[dict], libraries_href: str, findings_href: str | None = None) -> list[str]:
    """The per-library table in Markdown; `findings_href` links each library's findings section too."""
    from .robustness import anchor

    out = [
        "| Library (version) | " + " | ".join(t for _, t in COLUMNS) + " |",
        "|---" * (len(COLUMNS) + 1) + "|",
    ]
    for e in scan(results):
        name = f"[{e['harness']}: {e['library']} {e['version']}]({libraries_link(e['harness'], libraries_href)})"
        if findings_href is not None:
            name += f" ([findings]({findings_href}#{anchor(e['harness'], e['library'])}))"
        out.append(f"| {name} | " + " | ".join(_md(e[k]) for k, _ in COLUMNS) + " |")
    return out


def scan_html(results: list[dict], libraries_href: str) -> str:
    e_ = html.escape
    head = "".join(f"<th>{e_(t)}</th>" for _, t in COLUMNS)
    body = []
    for e in scan(results):
        link = e_(libraries_link(e["harness"], libraries_href))
        name = f'<a href="{link}">{e_(e["harness"])}: {e_(e["library"])} {e_(e["version"])}</a>'
        body.append(f"<tr><td>{name}</td>" + "".join(f"<td>{e_(e[k] or '–')}</td>" for k, _ in COLUMNS) + "</tr>")
    return f"<table><thead><tr><th>Library (version)</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


LANGUAGE_COLUMNS = ("crashed", "hung", "quadratic", "oom", "accepts invalid", "wrong answer")


def per_language(results: list[dict]) -> dict[str, dict[str, int]]:
    """Processes per harness with each failure outcome, and the verdicts accepted-malformed and wrong
    value (a valid case rejected counts as a wrong answer)."""
    out: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        if r["test"] not in DECODE_TESTS:
            continue
        c = out[r["harness"]]
        c["processes"] += 1
        if r["outcome"] in ("crashed", "hung", "quadratic", "oom"):
            c[r["outcome"]] += 1
        if r["verdict"] == ACCEPTED_MALFORMED:
            c["accepts invalid"] += 1
        if r["verdict"] in (WRONG, REJECTED_VALID):
            c["wrong answer"] += 1
    return {h: dict(c) for h, c in sorted(out.items())}


def language_markdown(results: list[dict]) -> list[str]:
    out = ["| Harness | Processes | " + " | ".join(LANGUAGE_COLUMNS) + " |", "|---" * (len(LANGUAGE_COLUMNS) + 2) + "|"]
    for h, c in per_language(results).items():
        out.append(
            f"| {h} | {c.get('processes', 0)} | " + " | ".join(str(c.get(k, 0)) for k in LANGUAGE_COLUMNS) + " |"
        )
    return out


def growth_markdown(results: list[dict]) -> list[str]:
    """Every row and family whose time grows faster than linearly, with the exponent and the sizes."""
    by_row = growth.fits([r for r in results if r["test"] in DECODE_TESTS])
    fitted = sum(1 for fs in by_row.values() for f in fs if f.exponent is not None)
    steep = growth.notable(by_row)
    out = [
        f"Each decoder row's time on the depth and length families, net of its median process on the "
        f"specification cases, fitted as size^k (robustness/growth.py): {fitted} fits of "
        f"{sum(len(fs) for fs in by_row.values())} (the others had fewer than two sizes read whole with a "
        f"net time above {growth.MIN_NET_S * 1000:.0f} ms and the row's noise). k ≥ {growth.QUADRATIC} is "
        f"quadratic (or worse) growth; a hang of such a row at a larger size is counted as that growth.",
        "",
    ]
    if not steep:
        return out + ["No row grows faster than linearly (k < 1.3 wherever a fit was possible)."]
    out += ["| Row | Format | Family | k | Net time by size | Hung at | Failed at |", "|---|---|---|---|---|---|---|"]
    for (h, b, t, fmt), f in steep:
        hung = ", ".join(f"{n:,}" for n in f.hung) or "–"
        failed = ", ".join(f"{n:,} ({o})" for n, o in sorted(f.failed.items())) or "–"
        out.append(
            f"| {h}/{b} {t} | {fmt} | {f.family} | **{f.exponent:.2f}** ({f.kind}) | {f.unit} {f.sizes_text()} | "
            f"{hung} | {failed} |"
        )
    return out


def closing_line(results: list[dict]) -> str:
    """The decoders' counts per harness for the run's last line: 'decoders: go 9 crashed, 6 quadratic,
    ...; java ...' (harnesses with none of them say 'none')."""
    parts = []
    for h, c in per_language(results).items():
        said = ", ".join(f"{c[k]} {k}" for k in LANGUAGE_COLUMNS if c.get(k))
        parts.append(f"{h} {said or 'none'}")
    return "decoders per harness (crashed, hung, quadratic, oom, accepts invalid, wrong answer): " + "; ".join(parts)


def growth_html(results: list[dict]) -> str:
    """The Growth table and the counts per harness as HTML (the page has no Markdown)."""
    e_ = html.escape
    steep = growth.notable(growth.fits([r for r in results if r["test"] in DECODE_TESTS]))
    head = "".join(
        f"<th>{t}</th>" for t in ("Row", "Format", "Family", "k", "Net time by size", "Hung at", "Failed at")
    )
    body = "".join(
        f"<tr><td>{e_(f'{h}/{b} {t}')}</td><td>{e_(fmt)}</td><td>{e_(f.family)}</td>"
        f"<td><b>{f.exponent:.2f}</b> ({e_(f.kind)})</td><td>{e_(f.unit + ' ' + f.sizes_text())}</td>"
        f"<td>{e_(', '.join(f'{n:,}' for n in f.hung) or '–')}</td>"
        f"<td>{e_(', '.join(f'{n:,} ({o})' for n, o in sorted(f.failed.items())) or '–')}</td></tr>"
        for (h, b, t, fmt), f in steep
    )
    table = (
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        if steep
        else "<p>No row grows faster than linearly where a fit was possible.</p>"
    )
    lang_head = "".join(f"<th>{e_(t)}</th>" for t in ("Harness", "Processes", *LANGUAGE_COLUMNS))
    lang_body = "".join(
        f"<tr><td>{e_(h)}</td><td>{c.get('processes', 0)}</td>"
        + "".join(f"<td>{c.get(k, 0)}</td>" for k in LANGUAGE_COLUMNS)
        + "</tr>"
        for h, c in per_language(results).items()
    )
    return (
        f"<h3>Processes per harness with each outcome</h3><table><thead><tr>{lang_head}</tr></thead>"
        f"<tbody>{lang_body}</tbody></table><h3>Growth</h3><p>Time on the depth and length families fitted as "
        f"size^k, net of the row's start-up (docs/robustness.md, Growth); k ≥ {growth.QUADRATIC} is quadratic "
        f"(or worse) growth.</p>{table}"
    )
