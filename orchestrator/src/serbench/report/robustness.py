"""The robustness report (`results/<run>/robustness.md`, docs/robustness.md): a one-line verdict per
decoder row, the matrix of rows x case classes with counts per outcome, and every crash, hang and
memory blow-up with its case file."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import datetime, timezone

from ..robustness.cases import folder_of
from ..robustness.run import ACCEPTED_MALFORMED, FAIL, REJECTED_VALID, WRONG, summary_line, totals
from . import robustness_scan as scan

ABBREV = {
    "accepted": "acc",
    "other-hash": "HASH",
    "rejected": "rej",
    "crashed": "CRASH",
    "hung": "HANG",
    "quadratic": "QUAD",
    "oom": "OOM",
    "harness": "hns",
}
#: how many wrong-value and accepted-malformed lines are listed before "and N more"
LIST_LIMIT = 200


def _row_key(r: dict) -> tuple:
    return (r["harness"], r["bench"], r["test"], r["format"])


def _row_label(key: tuple, version: str) -> str:
    h, b, t, f = key
    return f"{h}/{b} {t} ({version})"


def _cell(results: list[dict]) -> str:
    o = Counter(r["outcome"] for r in results)
    bad = sum(1 for r in results if r["verdict"] in (WRONG, ACCEPTED_MALFORMED, REJECTED_VALID, FAIL))
    text = " ".join(f"{o[k]} {ABBREV[k]}" for k in ABBREV if o[k])
    return f"**{text}** ✗{bad}" if bad else text


def _esc(s: str | None) -> str:
    return (s or "").replace("|", "\\|").replace("\n", " ")[:300]


def case_folder(run: dict) -> str:
    """Where the run's case files are, from its stored manifest: the built-in cases or your own."""
    return f"corpus/{folder_of(json.loads(run['cases_json']))}"


def _cases_line(cases: dict, case_dir: str) -> str:
    where = f"from {cases['source']}" if cases.get("source") else f"seed {cases.get('seed')}"
    return f"{len(cases.get('cases', []))} in {case_dir} ({where})"


def render(
    run: dict, results: list[dict], case_dir: str | None = None, libraries_href: str = "../../docs/libraries.md"
) -> str:
    args, env = json.loads(run["args_json"]), json.loads(run["env_json"])
    cases = json.loads(run["cases_json"])
    case_dir = case_dir or case_folder(run)
    started = datetime.fromtimestamp(run["started_at"], timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    wall = (run["finished_at"] - run["started_at"]) if run["finished_at"] else None
    rows: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        rows[_row_key(r)].append(r)
    out = [f"# serbench robustness run {run['id']}", ""]
    out += [
        f"- Command: `{args.get('command_line', 'serbench robustness')}`",
        f"- Started {started}, status {run['status']}" + (f", {wall:.0f} s" if wall is not None else ""),
        f"- Machine: {env.get('cpu_model', '?')}, {env.get('cores', '?')} cores; commit {env.get('git_commit', '?')}"
        + (" (dirty tree)" if env.get("git_dirty") else ""),
        f"- Limits per process: {args.get('limits_text', '?')}",
        f"- Cases: {_cases_line(cases, case_dir)}; {len(rows)} decoder rows, {len(results)} processes",
        "",
        "Outcomes: acc = accepted with an allowed hash, HASH = accepted with another hash, rej = rejected "
        "cleanly (exit 3), CRASH = signal or exit outside the protocol, HANG = killed at the time limit, "
        "QUAD = killed at the time limit where the row's time grows as size^1.8 or faster (see Growth), "
        "OOM = out of the memory limit, hns = not judged (the harness's own limit or reference decoder, "
        "exit 6). ✗N: N outcomes a correct decoder would not give (docs/robustness.md).",
        "",
        "## At a glance",
        "",
        "Per library (decoder rows), each linked to its harness's section of docs/libraries.md; a cell lists "
        "the cases as format: name.",
        "",
        *_scan_and_growth(results, scan.scan_markdown(results, libraries_href)),
        "## Per library",
        "",
        "| Row | Format | Cases | Verdict |",
        "|---|---|---|---|",
    ]
    for key, rs in rows.items():
        out.append(f"| {_row_label(key, rs[0]['version'])} | {key[3]} | {len(rs)} | {_esc(summary_line(rs))} |")
    t = totals(results)
    out += ["", "Totals: " + ", ".join(f"{v} {k}" for k, v in t.items()), ""]
    out += ["## Matrix", ""]
    for fmt in sorted({k[3] for k in rows}):
        classes = sorted({r["class"] for k, rs in rows.items() if k[3] == fmt for r in rs})
        out += [f"### {fmt}", "", "| Row | " + " | ".join(classes) + " |", "|---" * (len(classes) + 1) + "|"]
        for key, rs in rows.items():
            if key[3] != fmt:
                continue
            by_class = defaultdict(list)
            for r in rs:
                by_class[r["class"]].append(r)
            cells = [_cell(by_class[c]) if by_class[c] else "–" for c in classes]
            out.append(f"| {_row_label(key, rs[0]['version'])} | " + " | ".join(cells) + " |")
        out.append("")
    failures = [r for r in results if r["verdict"] == FAIL]
    out += ["## Crashes, hangs and memory blow-ups", ""]
    if failures:
        out += [
            "| Row | Library (version) | Case file | Class | Outcome | Peak RSS | Reason |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in failures:
            rss = f"{r['maxrss_kb'] / 1024:.0f} MiB" if r.get("maxrss_kb") else "–"
            out.append(
                f"| {r['harness']}/{r['bench']} {r['test']} | {r['library']} ({r['version']}) | "
                f"`{case_dir}/{r['file']}` | {r['class']} | {r['outcome']} | {rss} | {_esc(r['reason'])} |"
            )
    else:
        out.append("None: every process ended with an exit code of the protocol within the limits.")
    out.append("")
    for title, verdicts in (
        ("Wrong values (accepted with a hash the case does not allow)", (WRONG,)),
        ("Malformed input accepted", (ACCEPTED_MALFORMED,)),
        ("Valid input rejected", (REJECTED_VALID,)),
    ):
        picked = [r for r in results if r["verdict"] in verdicts]
        out += [f"## {title}", ""]
        if not picked:
            out += ["None.", ""]
            continue
        for r in picked[:LIST_LIMIT]:
            out.append(
                f"- {r['harness']}/{r['bench']} {r['test']}: `{r['file']}` ({r['class']})"
                + (f": {_esc(r['reason'])}" if r.get("reason") else (f": hash {r['hash']}" if r.get("hash") else ""))
            )
        if len(picked) > LIST_LIMIT:
            out.append(f"- and {len(picked) - LIST_LIMIT} more (the store has them all)")
        out.append("")
    harness = [r for r in results if r["outcome"] == "harness"]
    if harness:
        out += ["## Not judged: the harness's own limits (never counted against the library)", ""]
        for r in harness[:LIST_LIMIT]:
            out.append(f"- {r['harness']}/{r['bench']} {r['test']}: `{r['file']}`: {_esc(r['reason'])}")
        out.append("")
    return "\n".join(out)


def anchor(harness: str, library: str) -> str:
    """The stable anchor of a library's section in the findings page (docs/libraries.md links to it)."""
    slug = "".join(ch if ch.isalnum() else "-" for ch in f"{harness}-{library}".lower())
    return "-".join(part for part in slug.split("-") if part)


def findings(run: dict, results: list[dict], case_dir: str | None = None) -> str:
    """Every crash, hang and memory blow-up of a robustness run, one section per library (each with an
    anchor, `anchor()`), and the one-line verdict of each of its rows: the page docs/libraries.md links
    to. Libraries with no failure are listed too, so a missing library is never read as a clean one."""
    case_dir = case_dir or case_folder(run)
    args = json.loads(run["args_json"])
    by_lib: dict[tuple, list[dict]] = defaultdict(list)
    for r in results:
        by_lib[(r["harness"], r["library"], r["version"])].append(r)
    failing = {k for k, rs in by_lib.items() if any(r["verdict"] == FAIL for r in rs)}
    out = [
        "# Robustness findings",
        "",
        f"From robustness run `{run['id']}` (`{args.get('command_line', 'serbench robustness')}`, status "
        f"{run['status']}; limits per process: {args.get('limits_text', '?')}). Regenerate with "
        f"`serbench report --robustness {run['id']} --findings`; what each outcome means: docs/robustness.md.",
        "",
        f"{len(failing)} of {len(by_lib)} libraries crashed, hung or ran out of memory on at least one case.",
        "",
        "Per library (decoder rows): the name links to its harness's section of docs/libraries.md, "
        "*findings* to its section below; a cell lists the cases as format: name.",
        "",
        *_scan_and_growth(results, scan.scan_markdown(results, "libraries.md", "")),
    ]
    for key in sorted(by_lib, key=lambda k: (k not in failing, k)):
        harness, library, version = key
        rs = by_lib[key]
        out += [f'<a id="{anchor(harness, library)}"></a>', "", f"## {harness}: {library} {version}", ""]
        rows: dict[tuple, list[dict]] = defaultdict(list)
        for r in rs:
            rows[_row_key(r)].append(r)
        out += [f"- `{h}/{b}` {t} {f}: {_esc(summary_line(x))}" for (h, b, t, f), x in rows.items()]
        bad = [r for r in rs if r["verdict"] == FAIL]
        if bad:
            out += ["", "| Row | Case file | Class | Outcome | Reason |", "|---|---|---|---|---|"]
            out += [
                f"| {r['bench']} {r['test']} | `{case_dir}/{r['file']}` | {r['class']} | {r['outcome']} | "
                f"{_esc(r['reason'])} |"
                for r in bad
            ]
        out.append("")
    return "\n".join(out)


def _scan_and_growth(results: list[dict], scan_table: list[str]) -> list[str]:
    """The at-a-glance table given, the processes per harness with each outcome, and the Growth
    section: what robustness.md and the findings page both open with."""
    return [
        *scan_table,
        "",
        "Processes per harness with each outcome:",
        "",
        *scan.language_markdown(results),
        "",
        "## Growth",
        "",
        *scan.growth_markdown(results),
        "",
    ]
