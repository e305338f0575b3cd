"""A harness process's exit code and results rows judged into a status and a reason, and a wrong
result explained (explain.py, locate.py, diff.py)."""

from __future__ import annotations

import functools
import json
import signal
from dataclasses import dataclass
from pathlib import Path

from .. import diff, explain, locate
from ..corpus.formats import DECODERS
from ..rows import fault as row_fault
from .modes import LATENCY_ROUND, Mode
from .plan import Cell

# Exit codes of spec/protocol.md -> cell status.
EXIT_STATUS = {0: "ok", 2: "failed", 3: "failed", 4: "incorrect", 5: "unsupported", 6: "failed"}


def _is_kind(row: object, kind: str) -> bool:
    """Whether a results line is a row of `kind` (a line that is not an object is no row)."""
    return isinstance(row, dict) and row.get("kind") == kind


@dataclass
class Outcome:
    status: str
    reason: str | None
    rows: list[dict]
    wall_s: float
    output: bytes | None = None

    def rows_of(self, kind: str) -> list[dict]:
        return [r for r in self.rows if _is_kind(r, kind)]

    @functools.cached_property
    def faults(self) -> list[str | None]:
        """Each row's fault against the schema (None: valid), checked once: `_judge` and every `kept`
        read them (about 4 µs a row)."""
        return [row_fault(r) for r in self.rows]

    def kept(self, kind: str) -> list[dict]:
        """The rows of `kind` the store can keep: a malformed one (a harness's bug, which `_judge` reports
        as the process's failure) is left out, so that nothing downstream divides by or pools it."""
        return [r for r, f in zip(self.rows, self.faults, strict=True) if f is None and _is_kind(r, kind)]

    def first(self, kind: str) -> dict | None:
        found = self.kept(kind)
        return found[0] if found else None


def _outcome(cell: Cell, out: Outcome, code: int | None, stderr: str, rnd: int, mode: Mode) -> Outcome:
    out.status, out.reason = _judge(out, code, stderr, rnd, mode)
    if out.status == "incorrect" and cell.test == "write" and out.output is not None:
        out.reason = f"{out.reason}; {explain_write(cell, out.output)}"
    elif out.status == "incorrect" and (out.first("check") or {}).get("hash"):
        why = explain_read(cell, out.first("check")["hash"])
        out.reason = f"{out.reason}; {why}" if why else out.reason
    if cell.test != "typed-encode":
        out.output = None  # only typed-encode sizes are stored (a write row's size is its corpus file's)
    return out


_EXPLAINERS: dict[str, explain.Explainer | None] = {}  # by the dataset's expected hash: one per document


def explain_read(cell: Cell, got_hash: str) -> str | None:
    """A wrong hash (a read row's, or a writer's whose bytes are not at hand) explained by a
    systematic change of the document, if one matches (explain.py): "every number read as a double
    (first at $.a: ...)". The document is decoded once per dataset, whichever format's file it is read
    from (they all carry it), and each change is hashed once, when first asked for.

    When no change matches a tree or incremental row's hash, the first differing path and both values
    are found through the row's own `verify` on cut-down documents (locate.py: at most
    locate.MAX_CALLS processes and locate.BUDGET_S seconds per cell, under robustness/limits.py)."""
    key = cell.dataset["hash"]
    if key not in _EXPLAINERS:
        fmt = "json" if cell.typed else cell.source_format
        try:
            _EXPLAINERS[key] = explain.Explainer(DECODERS[fmt](cell.file.read_bytes()))
        except Exception:  # no reference decoder, or an unreadable corpus file: no explanation
            _EXPLAINERS[key] = None
    found = _EXPLAINERS[key]
    why = found.explain(got_hash) if found else None
    if why or found is None or cell.test not in ("tree", "incremental") or cell.bench.get("baseline"):
        return why
    where = locate.locate_row(
        found.expected, cell.harness, cell.bench, cell.test, cell.harness_format, cell.source_format
    )
    return where.message


def explain_write(cell: Cell, output: bytes) -> str:
    """Where a write row's output differs from the document it was given (diff.py)."""
    decode_out, decode_in = DECODERS.get(cell.format), DECODERS.get(cell.source_format)
    if decode_out is None or decode_in is None:
        return f"(no diff: serbench has no reference decoder for {cell.format})"
    try:
        expected = decode_in(cell.file.read_bytes())
    except Exception as e:  # the corpus file: not the library's fault
        return f"(no diff: the corpus file {cell.file} does not decode: {e})"
    return diff.explain_output(decode_out, expected, output)


def _signal_name(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def _judge(out: Outcome, code: int | None, stderr: str, rnd: int, mode: Mode) -> tuple[str, str | None]:
    """Exit code and rows -> (status, reason), per spec/protocol.md's exit codes."""
    if code is None:
        return "failed", f"timeout after {mode.timeout_s} s (the process was killed)"
    status = EXIT_STATUS.get(code, "failed")
    if status == "incorrect":
        return status, (out.first("check") or {}).get("reason") or "hash mismatch"
    if status == "failed":
        error = out.first("error")
        tail = " | ".join(stderr.strip().splitlines()[-2:])
        if code == 6:
            # spec/protocol.md: the harness's reference decoder or its own limits refused the input.
            why = (error or {}).get("reason") or tail or "no reason given"
            return status, f"input rejected by the harness, not the library: {why}"
        if error:
            return status, error.get("reason")
        if code < 0:
            # A harness's own code never dies on its input (spec/protocol.md), so a signal is the
            # library's: it crashed, blew its stack or aborted.
            what = f"the library crashed ({_signal_name(-code)})"
            return status, what + (f": {tail}" if tail else "")
        return status, f"exit {code}" + (f": {tail}" if tail else "")
    if status == "unsupported":
        return status, stderr.strip().splitlines()[-1] if stderr.strip() else "not supported"
    expected = "latency" if rnd <= LATENCY_ROUND else "sample"
    if not out.rows_of(expected):
        return "failed", f"exit 0 but no {expected} rows in the results file"
    for i, (row, fault) in enumerate(zip(out.rows, out.faults, strict=True)):
        if fault:
            kind = row.get("kind", "?") if isinstance(row, dict) else "?"
            return "failed", f"the harness broke the protocol: line {i + 1} ({kind}) {fault}"
    return "ok", None


def _read_rows(path: Path) -> list[dict]:
    """Rows written before a crash are kept; a torn last line is dropped."""
    rows = []
    try:
        text = path.read_text()
    except OSError:
        return rows
    for line in text.splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows
