"""The reference's table beside serbench's (issue 19): Chronicle Wire's published comparison of wire
formats, whose figures are kept as data in spec/references/chronicle-wire.json, set line by line
beside the Java rows that measure the same thing on `trade` and `trade-seed`.

The Markdown and HTML reports both draw from `tables()`; each cell of a table is (text, sort value),
so the HTML page can sort by number while the Markdown report prints the text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .units import fmt_count, fmt_ns

REFERENCE_FILE = Path(__file__).resolve().parents[4] / "spec" / "references" / "chronicle-wire.json"
DATASETS = ("trade", "trade-seed")
TESTS = (("typed-encode", "encode"), ("typed-decode", "decode"))
# the reference's columns (p99.9 and worst) and serbench's (issue 19's Done-when: p50 to the worst)
PCTS = (("p50_ns", "p50"), ("p999_ns", "p99.9"), ("p9999_ns", "p99.99"), ("p99999_ns", "p99.999"), ("max_ns", "worst"))

Cell = tuple[str, object]  # (text, sort value)


@dataclass
class Table:
    dataset: str
    intro: str
    header: list[str]
    rows: list[list[Cell]]


def load_reference(path: Path = REFERENCE_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _us(v: float | None) -> Cell:
    """A reference figure, published in µs, in the units serbench's columns use (fmt_ns)."""
    return ("–", None) if v is None else (fmt_ns(v * 1e3), v * 1e3)


def _ref_p999(row: dict) -> Cell:
    v = row.get("p999_us")
    if isinstance(v, list):  # the range for a group of rows (the note names the groups)
        lo, hi = v
        return f"{fmt_ns(lo * 1e3)} – {fmt_ns(hi * 1e3)}", lo * 1e3
    text, key = _us(v)
    return ("≈ " + text if row.get("p999_about") and v is not None else text), key


def _why_not(c) -> str | None:
    """None when the cell has latency figures to show; otherwise what happened to it."""
    if c is None:
        return "not in this run"
    if c["status"] != "ok":
        reason = (c["reason"] or "").strip().splitlines()
        return c["status"] + (f": {reason[0][:160]}" if reason else "")
    if c["lat_p50_ns"] is None:
        return "no latency pass"
    return None


def _bytes(enc, records: int | None, per_record: bool) -> Cell:
    if enc is None or enc["status"] != "ok" or enc["output_bytes"] is None:
        return "–", None
    if not per_record:
        return fmt_count(enc["output_bytes"]), enc["output_bytes"]
    if not records:
        return "–", None
    mean = enc["output_bytes"] / records
    return f"{mean:,.1f}", mean


def _status(whys: list[tuple[str, str | None]]) -> str:
    bad = [(t, w) for t, w in whys if w]
    if not bad:
        return "ok"
    if len(bad) == len(whys) and len({w for _, w in bad}) == 1:
        return bad[0][1]  # the same for encode and decode: say it once
    return "; ".join(f"{t} {w}" for t, w in bad)


def tables(run, cells: list, reference: dict | None = None) -> list[Table]:
    """One table per dataset of DATASETS on which the run has at least one of the reference's Java
    rows (in any status); none otherwise."""
    ref = reference or load_reference()
    harness = ref["serbench_harness"]
    ids = {b for row in ref["rows"] for b in row["serbench"]}
    manifest = json.loads(run["manifest_json"])
    entries = {d["dataset"]: d for d in manifest["datasets"]}
    by_key = {
        (c["bench"], c["test"], c["dataset"]): c
        for c in cells
        if c["harness"] == harness and c["bench"] in ids and c["dataset"] in DATASETS
    }
    msg = ", ".join(f"{k} {json.dumps(v)}" for k, v in ref["message"].items())
    out = []
    for ds in DATASETS:
        if not any(k[2] == ds for k in by_key):
            continue
        records = entries.get(ds, {}).get("records")
        per_record = ds != "trade-seed"
        if per_record:
            intro = (
                f"`{ds}`: {fmt_count(records) if records else '?'} generated trade records (texts of 8–40 "
                "characters), each encoded or decoded alone for the percentiles. Bytes/record is the "
                "typed-encode cell's output bytes divided by the records (a mean), so it differs from the "
                "reference's one message; `trade-seed` compares byte for byte."
            )
        else:
            intro = (
                f"`{ds}`: the reference's one message ({msg}). Bytes is the typed-encode cell's output for that "
                "message."
            )
        header = ["Reference row", "Ref bytes", "Ref p99.9", "Ref worst", "Benchmark"]
        header += ["Bytes/record" if per_record else "Bytes"]
        for _, short in TESTS:
            header += [f"{short.capitalize()} {name}" for _, name in PCTS]
        header += ["Ops (encode / decode)", "Status"]
        rows = []
        for row in ref["rows"]:
            ref_cells = [(row["name"], row["name"]), (fmt_count(row["bytes"]), row["bytes"]), _ref_p999(row)]
            ref_cells.append(_us(row.get("worst_us")))
            for bench in row["serbench"]:
                got = {t: by_key.get((bench, t, ds)) for t, _ in TESTS}
                whys = [(short, _why_not(got[t])) for t, short in TESTS]
                line = ref_cells + [(bench, bench), _bytes(got["typed-encode"], records, per_record)]
                for (t, _), (_, why) in zip(TESTS, whys, strict=True):
                    c = got[t]
                    line += [("–", None) if why else (fmt_ns(c[f"lat_{k}"]), c[f"lat_{k}"]) for k, _ in PCTS]
                counts = [None if why else got[t]["lat_count"] for (t, _), (_, why) in zip(TESTS, whys, strict=True)]
                line.append((" / ".join(fmt_count(n) for n in counts), counts[0]))
                status = _status(whys)
                line.append((status, status))
                rows.append(line)
        out.append(Table(ds, intro, header, rows))
    return out


def intro(reference: dict | None = None) -> str:
    ref = reference or load_reference()
    return (
        f"{ref['title']} (the OpenHFT/Chronicle-Wire microbenchmarks: one message, SBE, Jackson, BSON, "
        "SnakeYAML, Boon and Externalizable beside Chronicle's own wires), with its figures as issue 19 gives "
        "them (spec/references/chronicle-wire.json), beside this run's Java rows: one line per serbench row of "
        "each reference row. serbench's columns are one record at a time: typed-encode encodes it, "
        "typed-decode copies and decodes its bytes."
    )


def method_note(run) -> str:
    env = json.loads(run["env_json"])
    machine = env.get("cpu_model") or "this machine"
    # runs from before pooled latency forks saved no count: they ran one latency pass per cell
    forks = json.loads(run["args_json"] or "{}").get("latency_forks") or 1
    pooled = "its histograms pooled" if forks > 1 else "as one fork"
    return (
        "What differs in the method: the reference ran on an i7-3970X with an isolated CPU, -Xmx1g and 10 JVM "
        "forks, its percentiles over all forks; this run ran on "
        f"{machine} in {run['mode']} mode, one JVM per process (harnesses/java/jvm.args), "
        f"{fmt_count(forks)} JVM fork{'s' if forks > 1 else ''} per latency cell, {pooled}; *Ops* is the number "
        "of operations a row's percentiles cover over its forks "
        '(quick mode: 1, full mode: 5, `--latency-forks N`; docs/methodology.md, "Latency forks"). serbench\'s '
        "percentiles come from a log-bucketed histogram, each the highest value of its bucket (< 1.6% "
        "error). The reference counts a 4-byte length header in every row's bytes; serbench's Chronicle "
        "Wire rows write theirs, SBE its 8-byte message header, the other rows none (spec/typed.md). A "
        "range is the issue's figure for a group of rows (TextWire and JSONWire; BinaryWire's five "
        "variants; RawWire), ≈ its 'about', – a figure it does not give. Absolute values differ by "
        "machine: compare the order of the rows, not the figures."
    )


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


def markdown_section(run, cells: list) -> list[str]:
    """The report's section, or nothing when the run has none of the reference's rows."""
    ts = tables(run, cells)
    if not ts:
        return []
    out = ["", "## Beside Chronicle Wire's published comparison", "", intro(), ""]
    for t in ts:
        rows = [[text.replace("|", "\\|").replace("\n", " ") for text, _ in r] for r in t.rows]
        out += [f"### {t.dataset}", "", t.intro, ""] + _md_table(t.header, rows) + [""]
    return out + [method_note(run)]
