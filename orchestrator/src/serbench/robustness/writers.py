"""The writers' robustness (issue 73): every row with the `write` test, driven through its `verify`
(spec/protocol.md) on the hostile but valid documents of writer_cases.py, each case in its own process
under the same limits as the decoders, classified as they are (run.classify), with two readings of
the write test:

| outcome | a writer's |
|---|---|
| `accepted` | wrote it right: the reference decoder reads the output back with the document's hash |
| `other-hash` | wrong output: another hash, exit 4, or output the reference decoder cannot read |
| `rejected` | refused cleanly (exit 3 with the library's message) |
| `crashed`, `hung`, `oom`, `harness` | as for decoders |
"""

from __future__ import annotations

import re
import signal
from collections import Counter
from dataclasses import replace
from pathlib import Path

from .. import locate
from ..corpus import formats as F
from .limits import Limits, run_limited
from .run import (
    IMPL_REJECTED,
    NOT_JUDGED,
    REJECTED_VALID,
    WRONG,
    Row,
    _explain,
    _n,
    classify,
    failure_parts,
    result_row,
    verify_argv,
)

WRITE = "write"
#: what each harness says when its reference decoder cannot read what the library wrote (exit 3):
#: the output is wrong, the library did not refuse (native: "output is not valid json: ...")
UNREADABLE_OUTPUT = re.compile(r"cannot read the library's output|^output is not valid ")
#: a wrong output is explained (which value, how) in cases up to this size (the small ones: integers,
#: floats); the deep and long ones would take the search's whole budget
EXPLAIN_BYTES = 1 << 16


def plan_rows(harnesses: list, listings: dict[str, dict], libs: list[str], formats: list[str]) -> list[Row]:
    """Every non-baseline row's write test on every format it writes, narrowed by --lib and --format."""
    from ..runner import _matches

    rows = []
    for h in harnesses:
        for b in listings[h.name]["benchmarks"]:
            if b.get("baseline") or WRITE not in b["tests"] or (libs and not _matches(b, libs)):
                continue
            rows += [Row(h, b, WRITE, f) for f in b["formats"] if not formats or f in formats]
    return rows


def row_case_lists(rows: list[Row], manifest: dict, pick) -> dict[str, list[dict]]:
    """Per row format, the cases its rows run (writer_cases.row_cases), narrowed by `pick(case)`."""
    from .writer_cases import row_cases

    out: dict[str, list[dict]] = {}
    for r in rows:
        if r.format not in out:
            out[r.format] = [c for c in row_cases(manifest, r.format, r.bench.get("reads")) if pick(c)]
    return out


def run_case(row: Row, case: dict, corpus_dir: Path, limits: Limits) -> dict:
    """One writer case in one process: the stored result row."""
    path = corpus_dir / case["file"]
    ex = run_limited(verify_argv(row, path, limits), row.harness.env(), limits)
    outcome, h, reason = classify(ex, case["hashes"], limits, row.harness.crash_in_own_code)
    if outcome == "rejected" and reason and UNREADABLE_OUTPUT.search(reason):
        outcome, reason = "other-hash", f"wrote output its reference decoder cannot read: {reason}"
    elif outcome == "harness" and ex.code == 4:
        outcome, reason = "other-hash", f"exit 4, wrong output: {reason}"
    elif outcome == "other-hash":
        reason = f"wrong output: {reason}"
        if path.stat().st_size <= EXPLAIN_BYTES:  # which value it wrote wrong (explain.py, locate.py)
            why = _explain(path, case["source_format"], h) or locate.locate_row(
                F.DECODERS[case["source_format"]](path.read_bytes()), row.harness, row.bench, WRITE, row.format,
                case["source_format"], limits=limits, max_calls=30, budget_s=20,
            ).message  # fmt: skip
            reason = f"{reason}; {why}" if why else reason
    elif outcome == "crashed" and ex.code in SEGV and "stack overflow" not in reason:
        reason += _stack_overflow(row, path, case, limits)
    return result_row(row, case, outcome, h, reason, ex)


#: the signals of a native stack overflow, which says nothing on stderr
SEGV = (-signal.SIGSEGV, -signal.SIGBUS)
#: the stack a crash is run again with, to tell a stack overflow from another fault
BIG_STACK = 32


def _stack_overflow(row: Row, path: Path, case: dict, limits: Limits) -> str:
    """ " (stack overflow: ...)" when the case that crashed with SIGSEGV runs through with a stack
    BIG_STACK times the limit (a frame per level needs more stack than the limit gives), else ""."""
    big = replace(limits, stack_bytes=limits.stack_bytes * BIG_STACK)
    again, _, _ = classify(run_limited(verify_argv(row, path, big), row.harness.env(), big), case["hashes"], big)
    if again in ("crashed", "hung", "oom", "harness"):
        return ""
    return f" (stack overflow: with a {big.stack_bytes >> 20} MiB stack it ends {again})"


def summary_line(results: list[dict]) -> str:
    """One line per write row: how many hostile documents it wrote right, refused or wrote wrong,
    and whether anything crashed, hung or ran out of memory."""
    v = Counter(r["verdict"] for r in results)
    o = Counter(r["outcome"] for r in results)
    judged = [r for r in results if r["verdict"] != NOT_JUDGED]
    parts = []
    if judged:
        ok = sum(1 for r in judged if r["outcome"] == "accepted")
        parts.append(f"writes all {len(judged)} documents right" if ok == len(judged)
                     else f"writes {ok} of {len(judged)} documents right")  # fmt: skip
    if v[IMPL_REJECTED]:
        parts.append(f"refuses {v[IMPL_REJECTED]} deep one{'s' if v[IMPL_REJECTED] != 1 else ''} cleanly")
    if v[REJECTED_VALID]:
        parts.append(f"refuses {v[REJECTED_VALID]} it must write")
    if v[WRONG]:
        parts.append(_n(v[WRONG], "wrong output").upper())
    return "; ".join(parts + failure_parts(o))


def is_writer(results: list[dict]) -> bool:
    return bool(results) and results[0].get("test") == WRITE
