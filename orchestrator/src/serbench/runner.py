"""Plans the cells of a run and executes them: R rounds, each cell in a fresh process, the order
shuffled within each round (DESIGN §6), each finished process committed to the store at once."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import envinfo, stats
from .harnesses import Harness, HarnessError
from .store import Store

# Exit codes of spec/protocol.md -> cell status.
EXIT_STATUS = {0: "ok", 2: "failed", 3: "failed", 4: "incorrect", 5: "unsupported", 6: "failed"}
#: how much of a harness's stderr is kept for a failed cell's reason
STDERR_TAIL_BYTES = 16_384


@dataclass(frozen=True)
class Mode:
    name: str
    rounds: int
    budget_ms: int
    min_samples: int
    timeout_s: int
    n_boot: int


# Quick: the whole default matrix in minutes. Full: 7 rounds of 10 s, the classic suite's method
# (ludocode/schemaless-benchmarks ran each benchmark 7 times for 10 s), plus bootstrap CIs on top.
MODES = {
    "quick": Mode("quick", rounds=3, budget_ms=100, min_samples=3, timeout_s=180, n_boot=500),
    "full": Mode("full", rounds=7, budget_ms=10_000, min_samples=10, timeout_s=900, n_boot=2000),
}


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

    @property
    def typed(self) -> bool:
        return self.test.startswith("typed-")

    @property
    def file(self) -> Path:
        # Typed tests read the canonical JSON; --format names the library's wire format (spec/typed.md).
        return self.corpus_dir / self.dataset["files"]["json" if self.typed else self.format]["file"]

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
    known_ds = {d["dataset"]: d for d in manifest["datasets"]}
    for name in datasets:
        if name not in known_ds:
            raise PlanError(f"unknown dataset {name!r}; known: {', '.join(known_ds)}")
    if libs:
        everything = [b for lst in listings.values() for b in lst["benchmarks"]]
        for lib in libs:
            if not any(_matches(b, [lib]) for b in everything):
                raise PlanError(f"unknown library {lib!r}; `serbench list` shows what can run here")
    from .corpus.formats import FORMATS

    wire = {f for lst in listings.values() for b in lst["benchmarks"] for f in b["formats"]}
    for f in formats:
        if f not in FORMATS and f not in wire:
            raise PlanError(f"unknown format {f!r}; known: {', '.join(sorted(set(FORMATS) | wire))}")
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
                    for fmt in b["formats"]:
                        if test.startswith("typed-"):
                            if formats and fmt not in formats:
                                continue
                        elif fmt not in use_formats or fmt not in ds["files"]:
                            continue
                        base = b.get("baseline_for", {}).get(test)
                        cells.append(Cell(h, b, test, ds, fmt, corpus_dir, base))
                        if base:
                            needed_baselines.add((h.name, base, ds_name, fmt))
        for hname, base, ds_name, fmt in sorted(needed_baselines):
            if hname != h.name:
                continue
            if base not in benches:
                raise HarnessError(f"{h.name}: baseline {base!r} is not in its `list`")
            bb = benches[base]
            cells.append(Cell(h, bb, bb["tests"][0], known_ds[ds_name], fmt, corpus_dir, None))
    if not cells:
        raise PlanError("the filters select no benchmark; `serbench list` shows what can run here")
    return cells


# Extra passes after the timed rounds, stored as negative round numbers (spec/protocol.md `run` 6-7).
ALLOC_ROUND, LATENCY_ROUND = -1, -2


@dataclass
class Outcome:
    status: str
    reason: str | None
    rows: list[dict]
    wall_s: float
    output: bytes | None = None

    def rows_of(self, kind: str) -> list[dict]:
        return [r for r in self.rows if r.get("kind") == kind]

    def first(self, kind: str) -> dict | None:
        found = self.rows_of(kind)
        return found[0] if found else None


def execute(cell: Cell, mode: Mode, *, rnd: int, check: bool, seed: int) -> Outcome:
    """One fresh harness process for one (cell, round). Never raises for a misbehaving harness."""
    with tempfile.TemporaryDirectory(prefix="serbench-") as tmp:
        results, output = Path(tmp) / "results.jsonl", Path(tmp) / "output.bin"
        opts = {
            "bench": cell.bench["id"],
            "test": cell.test,
            "format": cell.format,
            "file": cell.file,
            "expect-hash": cell.dataset["hash"],
            "results": results,
            "budget-ms": mode.budget_ms,
            "min-samples": mode.min_samples,
            "seed": seed,
        }
        argv = cell.harness.command() + ["run"] + [a for k, v in opts.items() for a in (f"--{k}", str(v))]
        argv += {ALLOC_ROUND: ["--alloc"], LATENCY_ROUND: ["--latency"]}.get(rnd, [])
        argv += [] if check else ["--no-check"]
        # The encoded bytes of typed encoders are kept for their gzip and zstd sizes (spec/typed.md).
        keep_output = check and cell.test == "typed-encode" and not cell.bench.get("baseline")
        argv += ["--output-file", str(output)] if keep_output else []
        t0 = time.monotonic()
        code, stderr = run_process(argv, cell.harness.env(), mode.timeout_s)
        out = Outcome(
            "ok", None, _read_rows(results), time.monotonic() - t0, output.read_bytes() if output.exists() else None
        )
    out.status, out.reason = _judge(out, code, stderr, rnd, mode)
    return out


def run_process(argv: list[str], env: dict | None, timeout_s: float) -> tuple[int | None, str]:
    """One harness process: (exit code, or None on timeout; the tail of its stderr).

    The process gets its own process group, and the whole group is killed when it times out, when
    it is done (stragglers it left), and when we are interrupted (SIGINT, SIGTERM): no harness
    outlives the orchestrator. stdout goes nowhere (results have their own file) and stderr to a
    file, so a chatty harness can never block on a full pipe.
    """
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        try:
            code: int | None = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        size = err.seek(0, os.SEEK_END)
        err.seek(max(0, size - STDERR_TAIL_BYTES))
        return code, err.read().decode(errors="replace")


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL it if the orchestrator dies, even by SIGKILL, where no
    handler of ours runs (prctl(2) PR_SET_PDEATHSIG; Linux only, a no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


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
    expected = {ALLOC_ROUND: "alloc", LATENCY_ROUND: "latency"}.get(rnd, "sample")
    if not out.rows_of(expected):
        return "failed", f"exit 0 but no {expected} rows in the results file"
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


Progress = Callable[[int, int, str], None]


def _rounds_for(c: Cell, mode: Mode, allocs: bool) -> list[int]:
    """The timed rounds of a cell, then its extra passes: allocations (not for baselines), and
    one-record latency on datasets the manifest marks for it."""
    rounds = list(range(mode.rounds))
    if allocs and not c.bench.get("baseline"):
        rounds.append(ALLOC_ROUND)
    if c.typed and c.dataset.get("latency") and not c.bench.get("baseline") and c.test != "typed-access":
        rounds.append(LATENCY_ROUND)
    return rounds


def run_cells(
    store: Store, run_id: str, cells: list[Cell], mode: Mode, seed: int, progress: Progress, allocs: bool = True
) -> None:
    """Execute every (cell, round) not yet in the store, committing each as soon as it ends.
    Rounds go in order, cells shuffled within each; a cell that fails or is incorrect drops out."""
    for c in cells:
        c.id = store.add_cell(run_id, c.row())
    done = {c.id: store.done_rounds(c.id) for c in cells}
    plan = {c.id: _rounds_for(c, mode, allocs) for c in cells}

    def bad(c: Cell) -> bool:
        return any(r["status"] != "ok" for r in done[c.id].values())

    def left() -> int:
        return sum(1 for c in cells if not bad(c) for r in plan[c.id] if r not in done[c.id])

    finished, total = 0, left()
    for rnd in list(range(mode.rounds)) + [ALLOC_ROUND, LATENCY_ROUND]:
        order = [c for c in cells if rnd in plan[c.id] and rnd not in done[c.id] and not bad(c)]
        random.Random(seed * 1000 + rnd).shuffle(order)
        for c in order:
            progress(finished, total, c.label)
            # The hash is checked in the first process of a cell; later ones skip it.
            checked = any(r["status"] == "ok" for r in done[c.id].values())
            out = execute(c, mode, rnd=rnd, check=not checked, seed=seed)
            store.record_round(
                c.id,
                rnd,
                out.status,
                out.reason,
                out.wall_s,
                out.rows_of("sample"),
                alloc=out.first("alloc"),
                check=out.first("check"),
                latency=out.first("latency"),
                output=out.output,
            )
            done[c.id][rnd] = {"status": out.status}
            finished += 1
        total = finished + left()  # cells that dropped out no longer count
    progress(finished, total, "")


@contextmanager
def recording_load(store: Store, run_id: str, argv: list[str] | None = None, snapshot=None) -> Iterator[None]:
    """Store with the run what else the machine did while its cells ran (envinfo.load_between), even
    when the run is interrupted: one segment per invocation, so a resumed run has several."""
    snapshot = snapshot or envinfo.load_snapshot
    before = snapshot()
    try:
        yield
    finally:
        segment = envinfo.load_between(before, snapshot())
        store.append_run_env(run_id, "load", segment | ({"argv": argv} if argv is not None else {}))


def finalize(store: Store, run_id: str, n_boot: int, seed: int) -> None:
    """Statistics of every measured cell, then net times against their baselines."""
    rows = store.cells(run_id)
    rounds_of: dict[int, list[list[float]]] = {}
    for r in rows:
        if r["status"] in ("pending", "ok"):
            per_round = store.samples(r["id"])
            if not per_round:
                continue
            rounds_of[r["id"]] = list(per_round.values())
            s = stats.summarize(rounds_of[r["id"]], random.Random(seed + r["id"]), n_boot)
            store.update_cell(
                r["id"],
                status="ok",
                median_ns=s.median_ns,
                ci_low_ns=s.ci_low_ns,
                ci_high_ns=s.ci_high_ns,
                rcv=s.rcv,
                outliers=s.outliers,
                n_samples=s.n,
                noisy=int(s.noisy),
                bimodal=int(s.modes is not None),
            )
    rows = store.cells(run_id)  # again, now with the medians
    by_key = {(r["harness"], r["bench"], r["dataset"], r["format"]): r for r in rows}
    for r in rows:
        if r["status"] != "ok" or r["is_baseline"] or not r["baseline_bench"]:
            continue
        b = by_key.get((r["harness"], r["baseline_bench"], r["dataset"], r["format"]))
        if b is None or b["id"] not in rounds_of:
            continue
        bmed = b["median_ns"]
        lo, hi = stats.bootstrap_ci(rounds_of[r["id"]], random.Random(seed - r["id"]), n_boot, minus=rounds_of[b["id"]])
        store.update_cell(r["id"], baseline_ns=bmed, net_ns=r["median_ns"] - bmed, net_ci_low_ns=lo, net_ci_high_ns=hi)
