"""The cells of a run: the harnesses' listings, the filters checked against them, and the plan."""

from __future__ import annotations

import difflib
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import contracts
from ..harnesses import Harness, HarnessError


@dataclass
class Cell:
    harness: Harness
    bench: dict
    test: str
    dataset: dict  # manifest entry
    format: str
    corpus_dir: Path
    baseline_bench: str | None
    id: int = 0
    key: tuple = field(default=())
    # The corpus format of the file read, where it is not `format`: a row of a format only its library
    # has (go-codec's Binc) reads another format's file (its `reads` in `list`, spec/protocol.md), and
    # so does the baseline cell netted against it, which is stored under the row's format.
    input_format: str | None = None

    @property
    def typed(self) -> bool:
        return self.test.startswith("typed-")

    @property
    def source_format(self) -> str:
        return self.input_format or self.format

    @property
    def harness_format(self) -> str:
        """The --format the harness gets: the row's own format for a row that reads another's file
        (it knows what to do with it), the file's format for everything else (baselines included)."""
        return self.format if self.format in (self.bench.get("reads") or {}) else self.source_format

    @property
    def file(self) -> Path:
        # Typed tests read the canonical JSON; --format names the library's wire format (spec/typed.md).
        return self.corpus_dir / self.dataset["files"]["json" if self.typed else self.source_format]["file"]

    @property
    def label(self) -> str:
        return f"{self.harness.name} {self.bench['id']} {self.test} {self.dataset['dataset']} {self.format}"

    def row(self) -> dict:
        return {
            "harness": self.harness.name,
            "bench": self.bench["id"],
            "test": self.test,
            "dataset": self.dataset["dataset"],
            "format": self.format,
            "library": self.bench["library"],
            "version": self.bench["version"],
            "notes": self.bench.get("notes", ""),
            "is_baseline": int(bool(self.bench.get("baseline"))),
            "baseline_bench": self.baseline_bench,
            "measures": (self.bench.get("measures") or {}).get(self.test),
            "code_size_bytes": self.bench.get("code_size_bytes"),
            "code_size_method": self.bench.get("code_size_method"),
            "build": self.bench.get("build"),
            "steps": contracts.stored_steps(self.bench, self.test),
        }


class PlanError(ValueError):
    """The filters select nothing, or name something unknown."""


def listing(h: Harness) -> dict:
    """The harness's `list` output (spec/protocol.md)."""
    res = subprocess.run(h.command() + ["list"], capture_output=True, text=True, env=h.env(), timeout=120)
    if res.returncode != 0:
        tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise HarnessError(f"{h.name}: `list` failed (exit {res.returncode}): {tail}")
    try:
        return json.loads(res.stdout)
    except ValueError as e:
        raise HarnessError(f"{h.name}: `list` printed invalid JSON: {e}") from e


def _matches(bench: dict, libs: list[str]) -> bool:
    names = {bench["id"].lower(), bench["library"].lower()}
    return any(lib.lower() in names for lib in libs)


def _did_you_mean(word: str, choices) -> str:
    """ "did you mean 'orjson'? " for a near miss among choices, else "" (difflib's ratio, 0.6 and up)."""
    near = difflib.get_close_matches(word.lower(), sorted(set(choices)), n=1)
    return f"did you mean {near[0]!r}? " if near else ""


def check_datasets(manifest: dict, datasets: list[str]) -> dict[str, dict]:
    """The manifest's datasets by name, or a PlanError naming the first of `datasets` it lacks (the
    run checks them before it builds: they come from the corpus, not from the harnesses)."""
    known_ds = {d["dataset"]: d for d in manifest["datasets"]}
    for name in datasets:
        if name not in known_ds:
            raise PlanError(f"unknown dataset {name!r}; {_did_you_mean(name, known_ds)}known: {', '.join(known_ds)}")
    return known_ds


def check_filters(
    listings: dict[str, dict], libs: list[str], formats: list[str], others: Callable[[], dict[str, dict]] = dict
) -> None:
    """A PlanError for the first --lib or --format that no selected harness's `list` has, with the near
    miss, or the other harness that has it ("serde_json is a rust library: add --lang rust"); `others`
    gives the listings of harnesses not selected (those built), asked only for that hint."""
    from ..corpus.formats import FORMATS

    everything = [b for lst in listings.values() for b in lst["benchmarks"]]
    for lib in libs:
        if any(_matches(b, [lib]) for b in everything):
            continue
        elsewhere = sorted(name for name, lst in others().items() if any(_matches(b, [lib]) for b in lst["benchmarks"]))
        if elsewhere:
            raise PlanError(
                f"{lib} is a {' and '.join(elsewhere)} library: add "
                + " ".join(f"--lang {n}" for n in elsewhere)
                + f" (selected: {', '.join(listings)})"
            )
        names = [n for b in everything for n in (b["id"], b["library"])]
        raise PlanError(f"unknown library {lib!r}; {_did_you_mean(lib, names)}`serbench list` shows what can run here")
    wire = {f for lst in listings.values() for b in lst["benchmarks"] for f in b["formats"]}
    for f in formats:
        if f not in FORMATS and f not in wire:
            known = sorted(set(FORMATS) | wire)
            raise PlanError(f"unknown format {f!r}; {_did_you_mean(f, known)}known: {', '.join(known)}")


def plan(
    harnesses: list[Harness],
    listings: dict[str, dict],
    manifest: dict,
    corpus_dir: Path,
    *,
    libs: list[str],
    formats: list[str],
    tests: list[str],
    datasets: list[str],
) -> list[Cell]:
    """The cells the filters select, plus the baseline cells their net times need."""
    known_ds = check_datasets(manifest, datasets)
    check_filters(listings, libs, formats)
    from ..corpus.formats import FORMATS

    use_formats = formats or [f for f, spec in FORMATS.items() if spec.default]
    cells: list[Cell] = []
    needed_baselines: set[tuple[str, str, str, str]] = set()
    for h in harnesses:
        benches = {b["id"]: b for b in listings[h.name]["benchmarks"]}
        for b in benches.values():
            # Baselines run where others need them, or when named explicitly (e.g. `--lib empty`).
            if (libs and not _matches(b, libs)) or (b.get("baseline") and not libs):
                continue
            for test in b["tests"]:
                if tests and test not in tests:
                    continue
                for ds_name in datasets:
                    ds = known_ds[ds_name]
                    # Typed tests read typed datasets only, schemaless tests everything else (spec/typed.md).
                    if test.startswith("typed-") != (ds["kind"] == "typed"):
                        continue
                    reads = b.get("reads") or {}
                    for fmt in b["formats"]:
                        # A format no corpus file is written in is read from the file `reads` names;
                        # it runs when named with --format, or by default when that file's format does.
                        src = reads.get(fmt)
                        if test.startswith("typed-"):
                            if formats and fmt not in formats:
                                continue
                        elif (src or fmt) not in ds["files"]:
                            continue
                        elif fmt not in formats if formats else (src or fmt) not in use_formats:
                            continue
                        base = b.get("baseline_for", {}).get(test)
                        cells.append(Cell(h, b, test, ds, fmt, corpus_dir, base, input_format=src))
                        if base:
                            needed_baselines.add((h.name, base, ds_name, fmt, src or ""))
        for hname, base, ds_name, fmt, src in sorted(needed_baselines):
            if hname != h.name:
                continue
            if base not in benches:
                raise HarnessError(f"{h.name}: baseline {base!r} is not in its `list`")
            bb = benches[base]
            cells.append(
                Cell(h, bb, bb["tests"][0], known_ds[ds_name], fmt, corpus_dir, None, input_format=src or None)
            )
    if not cells:
        raise PlanError("the filters select no benchmark; `serbench list` shows what can run here")
    return cells
