"""The answer a user came for, before any method (DESIGN §13): for each dataset and test, the fastest
correct row of each language, its time, its ratio to that language's reference library, the size of
what it reads or writes, and a one-word trust mark; the fastest language's row first. `run` prints it
last, and both reports start with it.

Which rows may answer is the ranking's rule (facts.ranked): correct, measured, keeping the test's
work contract (spec/fairness.md rule 12) and outside the baseline's noise. The reference of a
language is the first of its harness's `reference_rows` for the test that has such a row in the same
cell group (harnesses/base.py): the standard library where the language has one (Python's json, Go's
encoding/json), else the library its users reach for first (serde_json, RapidJSON, Jackson).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..harnesses import harness_classes
from .facts import TEST_TITLES, instr_of, is_instruction_run, ranked, run_noise, sized_datasets, time_of
from .units import fmt_bytes, fmt_instr, fmt_ns

TITLES = dict(TEST_TITLES)
#: what each test's size column is the size of
SIZE_OF = {"write": "output", "typed-encode": "output"}


@dataclass(frozen=True)
class Entry:
    """One language's answer for one (dataset, test)."""

    cell: object
    reference: object | None  # the language's reference row in the same group, or None
    size_bytes: int | None

    @property
    def lang(self) -> str:
        return self.cell["harness"]

    @property
    def ratio(self) -> float | None:
        """The row's time over its reference's (1.0 when the reference is the fastest)."""
        if self.reference is None:
            return None
        a, b = time_of(self.cell), time_of(self.reference)
        return a / b if a is not None and b else None

    @property
    def trust(self) -> str:
        c = self.cell
        if c["bimodal"]:
            return "⚠ bimodal"
        if c["noisy"] and c["noisy"] & 1:
            return "⚠ noisy"
        return "ok"


@dataclass(frozen=True)
class Group:
    dataset: str
    test: str
    entries: list[Entry]  # fastest language first
    user_file: str | None  # the user's file this dataset comes from (`--data`), else None

    @property
    def title(self) -> str:
        return TITLES.get(self.test, self.test)


def reference_names(harness: str, test: str) -> tuple[str, ...]:
    """The benchmarks that stand for `harness`'s reference library in `test`, in order of preference."""
    cls = harness_classes().get(harness)
    rows = getattr(cls, "reference_rows", {}) if cls else {}
    return tuple(rows.get(test) or rows.get("typed" if test.startswith("typed") else test) or ())


def _size(c, files: dict, written: dict) -> int | None:
    """What the row reads or writes: its output, the corpus file of its format, or, for a typed format
    the corpus has no file of (Thrift, speedy), what the same benchmark's encoder wrote."""
    if SIZE_OF.get(c["test"]) == "output" and c["output_bytes"] is not None:
        return c["output_bytes"]
    f = files.get(c["format"])
    return f["bytes"] if f else written.get((c["harness"], c["bench"], c["dataset"], c["format"]))


def _user_path(entry: dict) -> str | None:
    src = entry.get("source")
    return src["path"] if src else None


def groups(run, cells) -> list[Group]:
    """Every (dataset, test) of the run with at least one rankable row: user files first, then the
    manifest's order; within a group, each language's fastest row, the fastest language first."""
    manifest = json.loads(run["manifest_json"])
    key = instr_of if is_instruction_run(run) else time_of
    ok = [c for c in cells if c["status"] == "ok" and not c["is_baseline"] and key(c) is not None]
    by: dict[tuple[str, str], list] = {}
    for c in ok:
        by.setdefault((c["dataset"], c["test"]), []).append(c)
    written = {
        (c["harness"], c["bench"], c["dataset"], c["format"]): c["output_bytes"]
        for c in ok
        if SIZE_OF.get(c["test"]) == "output" and c["output_bytes"] is not None
    }
    entries = sorted(manifest["datasets"], key=lambda d: _user_path(d) is None)  # stable: user files first
    out = []
    for d in entries:
        for test, _ in TEST_TITLES:
            rows = by.get((d["dataset"], test))
            if not rows:
                continue
            good = ranked(rows)[0]
            if is_instruction_run(run):
                good = sorted(good, key=key)
            best: dict[str, Entry] = {}
            for c in good:
                if c["harness"] in best:
                    continue
                names = reference_names(c["harness"], test)
                ref = next(
                    (r for n in names for r in good if r["harness"] == c["harness"] and r["bench"] == n),
                    None,
                )
                best[c["harness"]] = Entry(c, ref, _size(c, d["files"], written))
            if best:
                out.append(Group(d["dataset"], test, list(best.values()), _user_path(d)))
    return out


def verdict(cells) -> str:
    """One word for the run as a whole: `quiet host` or `noisy host` (facts.RunNoise.noisy)."""
    noise = run_noise(cells)
    return "noisy host" if noise and noise.noisy else "quiet host"


def precision_short(run, cells) -> str:
    """One short line: how precise the run was, and where the details are."""
    noise = run_noise(cells)
    if noise is None:
        return ""
    measured = [c for c in cells if c["status"] == "ok" and c["rcv"] is not None]
    noisy = sum(1 for c in measured if c["noisy"] and c["noisy"] & 1)
    return (
        f"Precision: {verdict(cells)}: median robust CV {noise.rcv:.1%}, {noisy} of {len(measured)} cells noisy "
        f"({noisy / len(measured):.0%}); ⚠ marks a noisy or bimodal row."
    )


def _fmt_value(run):
    return (lambda c: fmt_instr(instr_of(c)) + " instr") if is_instruction_run(run) else (lambda c: fmt_ns(time_of(c)))


def _ratio_text(e: Entry) -> str:
    if e.reference is None or e.ratio is None:
        return "–"
    if e.reference is e.cell:
        return "is the reference"
    return f"{e.ratio:.2f}× {e.reference['bench']}"


def _format_sizes(run, dataset: str) -> str:
    """Every format's size of the user file behind `dataset`, whatever `--data-bytes` measured: the
    re-encoded entry has them even when only the exact bytes were timed."""
    files: dict = {}
    for d in sized_datasets(json.loads(run["manifest_json"]), {dataset}):
        for fmt, f in d["files"].items():
            files.setdefault(fmt, f["bytes"])
    return ", ".join(f"{fmt} {fmt_bytes(b)}" for fmt, b in sorted(files.items(), key=lambda kv: kv[1]))


def rows_table(run, cells) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the answer, one row per language per group, for text and Markdown."""
    value = _fmt_value(run)
    header = ["Dataset", "Test", "Lang", "Fastest correct", "Format", "Time", "vs reference", "Size", "Trust"]
    rows = []
    for g in groups(run, cells):
        for i, e in enumerate(g.entries):
            c = e.cell
            rows.append(
                [
                    g.dataset if i == 0 else "",
                    g.title if i == 0 else "",
                    c["harness"],
                    c["bench"],
                    c["format"],
                    value(c),
                    _ratio_text(e),
                    fmt_bytes(e.size_bytes) if e.size_bytes is not None else "–",
                    e.trust,
                ]
            )
    return header, rows


INTRO = (
    "Fastest correct row per language, for each dataset and test, the fastest language first "
    "(time per operation, net of the baseline; 'vs reference' is its time over its language's "
    "reference library, named; size is what it reads or writes)."
)


def user_lines(run, cells) -> list[str]:
    """For a `--data` run, one line per user file first: its name and every format's size."""
    out, seen = [], set()
    for g in groups(run, cells):
        if g.user_file and g.user_file not in seen:
            seen.add(g.user_file)
            sizes = _format_sizes(run, g.dataset)
            out.append(f"For {g.user_file}: fastest correct per language below; sizes: {sizes}.")
    return out


def text(run, cells) -> str:
    """The answer as `run` prints it last: aligned columns, a blank line between datasets."""
    header, rows = rows_table(run, cells)
    if not rows:
        return "No correct row to rank: see the report's incorrect and failed cells."
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {5}  # the time column reads best aligned on its unit

    def line(r):
        cols = enumerate(zip(r, widths, strict=True))
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in cols).rstrip()

    out = [*user_lines(run, cells), INTRO, "", line(header)]
    for r in rows:
        if r[0] and len(out) > 4:
            out.append("")
        out.append(line(r))
    short = precision_short(run, cells)
    return "\n".join(out + ([""] + [short] if short else []))


def markdown(run, cells) -> list[str]:
    """The answer as the Markdown report starts: one table, user files first."""
    header, rows = rows_table(run, cells)
    out = ["## The answer", ""] + [f"{line}" for line in user_lines(run, cells)]
    if out[-1]:
        out.append("")
    if not rows:
        return out + ["No correct row to rank: see *Incorrect and failed cells*.", ""]
    out += [INTRO, ""]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "|".join("---:" if i == 5 else "---" for i in range(len(header))) + "|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]
