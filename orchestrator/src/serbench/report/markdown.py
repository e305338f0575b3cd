"""The Markdown report, in the style of the classic schemaless tables (DESIGN §7)."""

from __future__ import annotations

import json
import re
import sqlite3

from .. import contracts
from ..stats import NOISY_REL_CI
from . import answer, reference
from .facts import (
    TEST_TITLES,
    apart,
    compression_sentence,
    estimator_of,
    instr_of,
    latency_ops,
    ranked,
    run_header,
    run_warnings,
    sized_datasets,
    time_of,
    unfinished_note,
    within_baseline,
)
from .units import fmt_bytes, fmt_count, fmt_instr, fmt_ns

# run_warnings and unfinished_note live in facts (the HTML report states them too); `run`, `report`
# and the tests call them from here
__all__ = ["render", "summary", "run_warnings", "unfinished_note", "TEST_TITLES"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _ci(c) -> str:
    lo, hi = (c["net_ci_low_ns"], c["net_ci_high_ns"]) if c["net_ns"] is not None else (c["ci_low_ns"], c["ci_high_ns"])
    return f"{fmt_ns(lo)} – {fmt_ns(hi)}" if lo is not None else "–"


def _time_cell(c) -> str:
    """A time with its warnings, as every table and the summary print it."""
    return (
        fmt_ns(time_of(c))
        + (" ⚠ noisy" if c["noisy"] else "")
        + (" ⚠ bimodal" if c["bimodal"] else "")
        + (" ⚠ within baseline noise" if within_baseline(c) else "")
        + (" ⚠ other work" if not contracts.keeps_contract(c) else "")
    )


def _apart_lines(rows: list, time_text) -> list[str]:
    """The rows shown apart from a table: their loops do other work than the test's contract."""
    if not rows:
        return []
    head = "Shown apart, not ranked: their loops do other work than the test's contract (spec/fairness.md rule 12):"
    return ["", head, ""] + [
        f"- {c['harness']}/{c['bench']} ({c['format']}) {time_text(c)}: {contracts.deviation(c)}" for c in rows
    ]


def _instr_cell(c) -> str:
    """Net instructions per operation with its warning: a count that a repeat did not reproduce."""
    return fmt_instr(instr_of(c)) + (" ⚠ not deterministic" if c["instr_deterministic"] == 0 else "")


def _instr_row(c, show_lang: bool, show_code: bool) -> list[str]:
    base = c["instr_baseline"]
    row = [
        f"{c['library']} ({c['version']})",
        c["bench"],
        c["format"],
        _instr_cell(c),
        fmt_instr(c["instructions_per_op"]),
        fmt_instr(base),
        f"{c['instructions_per_op'] / base:.2f}×" if base else "–",
    ]
    if show_code:
        row.append(fmt_bytes(c["code_size_bytes"]))
    if show_lang:
        row.insert(0, c["harness"])
    return row


INSTR_NOTE = (
    "Instructions per operation, counted by valgrind's cachegrind (no hardware counters): each cell runs "
    "as three processes with the fixed-count loop (spec/protocol.md `run --iterations N`), N = n1, n2 and n1 "
    "again, and (I(n2) − I(n1)) / (n2 − n1) is the count of one operation; start-up, loading, the check and "
    "the warm-up cancel. **Net** = gross − the baseline's count (spec/fairness.md). A count is exact, so it "
    "needs one round and has no CI; the repeat of N = n1 must count the same, or the cell is marked "
    "*⚠ not deterministic*. A harness whose counts vary by design (Go) counts n2 again, and a third time if "
    "the two differ by more than 1% an operation, and uses their median. What a count does not capture: "
    "memory stalls, cache misses, branch mispredictions, "
    "the cost of system calls (only the user-space instructions around them are counted), instruction-level "
    "parallelism and the CPU's frequency. A library that executes fewer, slower instructions (divisions, "
    "cache-missing loads) can rank better here than in time; read counts beside a time run of the same build."
)


def _builds(cells) -> list[str]:
    """How each library was compiled, where its harness says (`list`'s `build`): the native harness
    compiles header-only libraries itself and links the others from Debian's packages, built with
    Debian's flags (docs/libraries.md, "How each library was compiled")."""
    by: dict[tuple[str, str], set[str]] = {}
    for c in cells:
        if "build" in c.keys() and c["build"] and not c["is_baseline"]:
            by.setdefault((c["harness"], c["build"]), set()).add(c["library"])
    if not by:
        return []
    out = ["", "How the libraries were compiled (docs/libraries.md):", ""]
    out += [f"- {h}, {b}: {', '.join(sorted(libs))}" for (h, b), libs in sorted(by.items())]
    return out


def _user_data(manifest: dict, used: set[str]) -> list[str]:
    """Which file each user dataset came from, and what was measured: re-encoded, or the exact bytes."""
    by_path: dict[str, list[dict]] = {}
    for e in manifest["datasets"]:
        if e.get("source") and e["dataset"] in used:
            by_path.setdefault(e["source"]["path"], []).append(e)
    if not by_path:
        return []
    out = ["", "## Your data", ""]
    for entries in by_path.values():
        src = entries[0]["source"]
        size = f"{src['bytes']:,} B" + (f" ({fmt_bytes(src['bytes'])})" if src["bytes"] >= 1000 else "")
        kind = {"json": "JSON", "msgpack": "MessagePack", "cbor": "CBOR"}.get(src["format"], src["format"])
        out.append(f"- `{src['path']}`: {size} of {kind}, SHA-256 `{src['sha256']}`.")
        for e in entries:
            if e.get("original"):
                out.append(
                    f"  - `{e['dataset']}`: the file's exact bytes, measured as they are, in its own format "
                    f"({src['format']}) only."
                )
                continue
            skipped = "; ".join(f"{f}: {why}" for f, why in e.get("skipped", {}).items())
            out.append(
                f"  - `{e['dataset']}`: re-encoded. serbench decoded the file and wrote it again with its reference "
                f"encoders: as compact JSON (not the file's own bytes: no white space, serbench's own escapes and "
                f"number forms) and in every other format that can carry it ({', '.join(e['files'])}). These rows "
                "measure those files, not the file itself" + (f" (not written: {skipped})." if skipped else ".")
            )
    return out


def alloc_methods(cells) -> dict[str, str]:
    """How each harness counted allocations, once per harness: a harness that fits as many operations
    as a time allows says how many in each cell ("mean of 9 ops"), which is one method, not ten."""
    by: dict[str, set[str]] = {}
    for c in cells:
        if c["alloc_method"] and not c["is_baseline"]:
            method = re.sub(r"mean of \d+ ops", "mean of N ops", c["alloc_method"].strip())
            by.setdefault(c["harness"], set()).add(method)
    return {h: "; or ".join(sorted(ms)) for h, ms in sorted(by.items())}


def _alloc_methods(cells) -> list[str]:
    methods = alloc_methods(cells)
    if not methods:
        return []
    return ["", "How allocations were counted (Allocs/op):", ""] + [f"- {h}: {m}" for h, m in methods.items()]


def _allocs(c) -> str:
    """Allocations per op; a runtime that counts only bytes (the JVM's per-thread allocated-bytes
    counter, protocol.md `alloc` row) shows its bytes instead of a dash."""
    if c["allocs_per_op"] is None and c["alloc_bytes_per_op"] is not None:
        return fmt_bytes(c["alloc_bytes_per_op"])
    return fmt_count(c["allocs_per_op"])


def _row(c, show_lang: bool, show_code: bool) -> list[str]:
    ratio = f"{c['median_ns'] / c['baseline_ns']:.2f}×" if c["baseline_ns"] else "–"
    row = [
        f"{c['library']} ({c['version']})",
        c["bench"],
        c["format"],
        _time_cell(c),
        _ci(c),
        fmt_ns(c["median_ns"]),
        fmt_ns(c["baseline_ns"]),
        ratio,
        _allocs(c),
    ]
    if show_code:
        row.append(fmt_bytes(c["code_size_bytes"]))
    if show_lang:
        row.insert(0, c["harness"])
    return row


def _typed_section(entry: dict, cells: list, show_lang: bool, show_code: bool) -> list[str]:
    """One row per (benchmark, wire format): serialize, deserialize and access side by side, with the
    encoded size against the theoretical payload (spec/typed.md)."""
    payload = entry.get("payload_bytes")
    rows: dict[tuple, dict] = {}
    for c in cells:
        rows.setdefault((c["harness"], c["bench"], c["format"]), {})[c["test"]] = c
    out = [
        f"{entry.get('records', '?')} `{entry.get('schema')}` records; theoretical payload "
        f"{fmt_bytes(payload)} (raw field sizes, strings at their UTF-8 length). Times are net per batch of all "
        "records.",
        "",
    ]
    header = [
        "Library (version)",
        "Benchmark",
        "Format",
        "Serialize",
        "Deserialize",
        "Access",
        "Size",
        "vs payload",
        "gzip",
        "zstd",
        "Allocs/op (ser / de / access)",
        "Alloc bytes/op (ser / de / access)",
    ] + (["Code size"] if show_code else [])
    if show_lang:
        header.insert(0, "Lang")
    table = []

    def key(item):
        tests = item[1]
        c = tests.get("typed-decode") or tests.get("typed-access") or tests.get("typed-encode")
        # rows whose loops do other work, then rows within baseline noise, are never ranked: last
        return (not all(contracts.keeps_contract(x) for x in tests.values()), within_baseline(c), time_of(c))

    def per_test(tests_of_row, column: str, fmt) -> str:
        return " / ".join(fmt(c[column] if c else None) for c in tests_of_row)

    for (harness, bench, fmt), tests in sorted(rows.items(), key=key):
        enc, dec, acc = (tests.get(t) for t in ("typed-encode", "typed-decode", "typed-access"))
        any_c = enc or dec or acc
        size = enc["output_bytes"] if enc else None
        row = [
            f"{any_c['library']} ({any_c['version']})",
            bench,
            fmt,
            *(_time_cell(c) if c else "–" for c in (enc, dec, acc)),
            fmt_count(size),
            f"{size / payload:.2f}×" if size and payload else "–",
            *(fmt_count(enc[f"output_{z}_bytes"] if enc else None) for z in ("gzip", "zstd")),
            per_test((enc, dec, acc), "allocs_per_op", fmt_count),
            per_test((enc, dec, acc), "alloc_bytes_per_op", fmt_bytes),
        ]
        if show_code:
            row.append(fmt_bytes(any_c["code_size_bytes"]))
        if show_lang:
            row.insert(0, harness)
        table.append(row)
    out += _table(header, table)
    out += _apart_lines(apart(cells), _time_cell)
    lat = sorted((c for c in cells if c["lat_p50_ns"] is not None), key=lambda c: c["lat_p999_ns"])
    if lat:
        out += ["", "One record at a time (latency percentiles from a log-bucketed histogram, < 1.6% error):", ""]
        # p99.999 only where a harness gives it (Java pools its forks' operations; issue 19)
        pcts = [("p50_ns", "p50"), ("p99_ns", "p99"), ("p999_ns", "p99.9"), ("p9999_ns", "p99.99")]
        pcts += [("p99999_ns", "p99.999")] if any(c["lat_p99999_ns"] is not None for c in lat) else []
        pcts += [("max_ns", "worst")]
        out += _table(
            (["Lang"] if show_lang else []) + ["Benchmark", "Format", "Test", *(n for _, n in pcts), "ops"],
            [
                ([c["harness"]] if show_lang else [])
                + [
                    c["bench"],
                    c["format"],
                    c["test"],
                    *(fmt_ns(c[f"lat_{k}"]) for k, _ in pcts),
                    latency_ops(c),
                ]
                for c in lat
            ],
        )
    return out + [""]


def render(run: sqlite3.Row, cells: list[sqlite3.Row]) -> str:
    manifest = json.loads(run["manifest_json"])
    h = run_header(run, cells)
    show_lang = len(h["langs"]) > 1
    show_code = any(c["code_size_bytes"] is not None for c in cells)
    counts = h["counts"]
    counting = h["counting"]
    out = [f"# serbench results: run {run['id']}", ""]
    if h["unfinished"]:
        out += ["**" + h["unfinished"] + "**", ""]
    out.append(f"{h['how']}, started {h['started']}, status {run['status']}. Machine: {h['machine']}. {h['commit']}.")
    short = answer.precision_short(run, cells) if not counting else ""
    if short or h["warnings"]:
        n = len(h["warnings"])
        warned = f" **⚠ {n} warning{'s' * (n != 1)}** under *How this run was measured*." if n else ""
        out += ["", (f"**{short}**" if short else "") + warned]
    out.append("")
    out += answer.markdown(run, cells)
    out += ["## How this run was measured", ""]
    out += h["provenance"]
    if h["runtimes"]:  # compilers and runtimes are part of what is measured (a JDK 17 and a JDK 25 run differ)
        out.append("Compilers and runtimes: " + "; ".join(h["runtimes"]) + ".")
    if h["precision"]:
        out += ["", h["precision"]]
    for w in h["warnings"]:
        out += ["", f"> **⚠ Warning:** {w[0].upper() + w[1:]}"]
    out.append("")
    estimator = estimator_of(run)
    legend = (
        INSTR_NOTE + " Incorrect and failed cells are never ranked; they are listed at the end with their reasons."
        if counting
        else f"Times are per operation: {estimator[0]}, warm-up samples dropped: the host only ever adds "
        f'time, so the undisturbed processes are the fast ones (docs/methodology.md, "{estimator[1]}"). '
        "**Net** = gross − the baseline's time (spec/fairness.md); the CI is the 95% bootstrap CI of the net "
        "time over processes and their samples. "
        "*Gross/base* is gross time over the baseline's. "
        f"*⚠ noisy*: the 95% CI half-width is above {NOISY_REL_CI:.0%} of the time. *⚠ bimodal*: the "
        "samples fall into two clusters at least 10% apart, and the median may sit in either. *⚠ within "
        "baseline noise*: the net time's CI reaches zero, so the library's own cost is lost in the baseline's "
        "noise (a negative net is noise, not speed); such rows are not ranked and come after the ranked ones. "
        "Incorrect and failed cells are never ranked; they are listed at the end with their reasons."
    )
    out.append("Cells: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ". " + legend)
    measures = sorted(
        {(c["harness"], c["test"], c["measures"]) for c in cells if c["measures"] and not c["is_baseline"]}
    )
    if measures:
        out += ["", "What each timed loop does:", ""]
        out += [f"- {h} {t}: {m}" for h, t, m in measures]
    out += _alloc_methods(cells)
    out += _builds(cells)
    out += _user_data(manifest, {c["dataset"] for c in cells})
    header = [
        "Library (version)",
        "Benchmark",
        "Format",
        "Net time",
        "95% CI",
        "Gross",
        "Baseline",
        "Gross/base",
        "Allocs/op (or bytes)",
    ] + (["Code size"] if show_code else [])
    row_of, key = _row, time_of
    if counting:
        header = ["Library (version)", "Benchmark", "Format", "Net instr/op", "Gross instr/op", "Baseline instr/op"]
        header += ["Gross/base"] + (["Code size"] if show_code else [])
        row_of, key = _instr_row, instr_of
    if show_lang:
        header.insert(0, "Lang")
    ok = [c for c in cells if c["status"] == "ok" and not c["is_baseline"] and key(c) is not None]
    for entry in manifest["datasets"]:
        ds = entry["dataset"]
        in_ds = [c for c in ok if c["dataset"] == ds]
        if not in_ds:
            continue
        out += ["", f"## {ds}", ""]
        if entry["kind"] == "typed" and not counting:
            out += _typed_section(entry, in_ds, show_lang, show_code)
            continue
        for test, title in TEST_TITLES:
            rows = [c for c in in_ds if c["test"] == test]
            good, noise = (sorted(contracts.split(rows)[0], key=key), []) if counting else ranked(rows)
            other = apart(rows)
            if good or noise or other:
                out += [f"### {title}", ""] + _table(header, [row_of(c, show_lang, show_code) for c in good + noise])
                if noise:
                    out.append("")
                    out.append(
                        f"Not ranked, within baseline noise (listed last): {', '.join(c['bench'] for c in noise)}."
                    )
                out += _apart_lines(other, _instr_cell if counting else _time_cell)
                out.append("")
    out += reference.markdown_section(run, cells)  # issue 19: Chronicle Wire's table beside the Java rows
    used = {c["dataset"] for c in cells}
    out += [
        "",
        "## Object sizes",
        "",
        "Raw payload: numbers 8 B, booleans 1 B, null 0 B, strings, keys and binary their byte length. "
        + compression_sentence(manifest, sized_datasets(manifest, used)),
        "",
    ]
    rows = []
    for d in sized_datasets(manifest, used):
        payload = d["stats"].get("payload_bytes")
        for fmt, f in d["files"].items():
            over = f"{f['bytes'] / payload:.2f}×" if payload else "–"
            rows.append(
                [d["dataset"], fmt, fmt_count(f["bytes"]), fmt_count(f["gzip_bytes"]), fmt_count(f["zstd_bytes"]), over]
            )
    out += _table(["Dataset", "Format", "Bytes", "gzip", "zstd", "vs payload"], rows)
    bad = [c for c in cells if c["status"] in ("incorrect", "failed")]
    out += ["", "## Incorrect and failed cells", ""]
    if bad:
        out += _table(
            ["Lang", "Benchmark", "Test", "Dataset", "Format", "Status", "Reason"],
            [
                [
                    c["harness"],
                    c["bench"],
                    c["test"],
                    c["dataset"],
                    c["format"],
                    c["status"],
                    (c["reason"] or "").replace("|", "\\|").replace("\n", " ")[:300],
                ]
                for c in bad
            ],
        )
    else:
        out.append("None: every measured cell reproduced the manifest hash.")
    unsupported = [c for c in cells if c["status"] == "unsupported"]
    if counting:
        # a harness that cannot be counted says why (its class's instructions_unsupported)
        whole = sorted({(c["harness"], c["reason"]) for c in unsupported if (c["reason"] or "").startswith("instr")})
        if whole:
            out += ["", "Harnesses not counted:", ""] + [f"- {h}: {why}" for h, why in whole]
        unsupported = [c for c in unsupported if not (c["reason"] or "").startswith("instr")]
    if unsupported:
        out += ["", f"{len(unsupported)} cells were unsupported by their library (see the JSON export)."]
    # one blank line between blocks, however the sections above end
    out = [line for i, line in enumerate(out) if line or not i or out[i - 1]]
    return "\n".join(out) + "\n"


def summary(run: sqlite3.Row, cells: list[sqlite3.Row]) -> str:
    """What `run` prints last (DESIGN §13): the answer table (report/answer.py), the run's precision in
    one line, and how many cells were incorrect or failed, counted as the report's "Cells:" line counts
    them (baselines apart), so the two agree."""
    lines = [answer.text(run, cells)]
    bad = [c for c in cells if c["status"] in ("incorrect", "failed")]
    n_base = sum(1 for c in bad if c["is_baseline"])
    if bad:
        also = f" (and {n_base} baseline cells)" if n_base else ""
        lines.append(f"{len(bad) - n_base} cells incorrect or failed{also}: see the report")
    return "\n".join(lines)
