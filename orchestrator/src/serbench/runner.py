"""Plans the cells of a run and executes them in passes, each cell in a fresh process per round, the
order shuffled within each pass (DESIGN §6): first the mode's minimum rounds of every cell, then extra
passes for the cells whose CI is not yet tight, while the run's time budget lasts (docs/methodology.md,
"Adaptive rounds"). Each finished process is committed to the store at once."""

from __future__ import annotations

import collections
import contextlib
import ctypes
import difflib
import functools
import json
import math
import os
import random
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import canary, contracts, diff, envinfo, explain, locate, pinning, stats, threads
from .corpus.formats import DECODERS
from .harnesses import Harness, HarnessError, process_center
from .rows import fault as row_fault
from .store import Store

# Exit codes of spec/protocol.md -> cell status.
EXIT_STATUS = {0: "ok", 2: "failed", 3: "failed", 4: "incorrect", 5: "unsupported", 6: "failed"}
#: how much of a harness's stderr is kept for a failed cell's reason
STDERR_TAIL_BYTES = 16_384


@dataclass(frozen=True)
class Mode:
    """How much to measure. `rounds` is the minimum number of fresh processes per cell (pass 1); a
    cell gets more, one per extra pass, while its 95% CI half-width is above `target_rel_ci` of its
    time, it has fewer than `max_rounds` and its processes took less than `cell_cap_s`, and the run's
    time budget lasts (`wall_per_cell_s` x the number of cells, or `time_budget_s` when set)."""

    name: str
    rounds: int  # minimum processes per cell
    budget_ms: int  # sampling time inside one process
    min_samples: int
    timeout_s: int
    n_boot: int
    max_rounds: int | None = None  # at most this many processes per cell (None: `rounds`, no extra passes)
    target_rel_ci: float = 0.0  # stop adding rounds at this CI half-width / time (0: never add)
    cell_cap_s: float = math.inf  # no more rounds for a cell whose processes took this long in all
    wall_per_cell_s: float = 0.0  # the run's time budget per cell (0: no budget)
    time_budget_s: float | None = None  # the run's whole time budget, instead of wall_per_cell_s x cells
    # At most this much for the whole run, however many cells: the mode's promise (quick: the default
    # matrix within 15 minutes) must hold as harnesses are added; more cells then get fewer extra passes.
    max_run_budget_s: float = math.inf
    warmup_k: float = stats.WARMUP_K  # steady-state rule (stats.steady_state); 0 keeps every sample
    # Latency passes per cell, each a fresh process (a JVM fork), pooled (latency.py): one process's
    # tail is one JIT's and one memory layout's, and the reference (Chronicle Wire) pools 10 forks
    latency_forks: int = 1

    def latency_rounds(self) -> list[int]:
        return [LATENCY_ROUND - k for k in range(max(1, self.latency_forks))]

    @property
    def cap_rounds(self) -> int:
        return max(self.rounds, self.max_rounds or self.rounds)

    def run_budget_s(self, n_cells: int) -> float:
        if self.time_budget_s is not None:
            return self.time_budget_s or math.inf
        return min(self.wall_per_cell_s * n_cells, self.max_run_budget_s) or math.inf


def stored_settings(saved: dict) -> dict:
    """A stored run's settings (its `args_json`), with the value each setting had in the runs made
    before it existed: what `run --resume` continues with and what `compare` reads its times by."""
    out = dict(saved)
    out.setdefault("data_bytes", "reencoded")  # before --data-bytes: the re-encoded data only
    if "target_ci" not in saved:  # before adaptive rounds: its fixed rounds, every sample kept
        out.update(target_ci=0.0, max_rounds=saved.get("rounds"), warmup_k=0.0)
    out.setdefault("prestart", False)  # before prestart: every process started when its turn came
    out.setdefault("latency_forks", 1)  # before pooled latency forks: one latency pass per cell
    return out


# Quick: the whole default matrix (1,955 cells of the Python, native, Rust and Go harnesses) within
# 15 minutes with its report: 3 processes of 25 ms per cell (the spread between processes, not the
# sampling inside one, limits precision, and each process costs 20-130 ms of start-up and loading
# besides its sampling: docs/methodology.md, "Where a quick run's time goes"), the first of which
# also counts allocations; then extra passes for the cells not yet within 1%, and never more than
# 12 minutes of cells in all, so that the output sizes, statistics and report fit the rest as
# harnesses add cells (only the minimum rounds can go past it).
# Full: 10 processes of 0.3 s, then extra passes to 0.5%: about 6 s per cell, under a tenth of the
# classic 7 x 10 s, and at most 1 h 50 min for the cells, within 2 hours for the default matrix.
# 10 rounds, not the classic suite's 7 x 10 s: the spread between processes dominates, so precision
# comes from processes, and a rank test over ~800 cells needs 10 per side to reach a Holm-adjusted
# verdict (docs/methodology.md, "compare").
MODES = {
    "quick": Mode(
        "quick",
        rounds=3,
        budget_ms=25,
        min_samples=5,
        timeout_s=180,
        n_boot=500,
        max_rounds=20,
        target_rel_ci=0.01,
        cell_cap_s=8.0,
        wall_per_cell_s=0.9,
        max_run_budget_s=12 * 60,
    ),
    "full": Mode(
        "full",
        rounds=10,
        budget_ms=300,
        min_samples=10,
        timeout_s=900,
        n_boot=2000,
        max_rounds=50,
        target_rel_ci=0.005,
        cell_cap_s=30.0,
        wall_per_cell_s=6.0,
        max_run_budget_s=110 * 60,
        # 5 pooled latency forks: the reference pools 10, but every latency process of a JVM row
        # warms up for seconds, and full mode must stay within 2 hours (docs/methodology.md)
        latency_forks=5,
    ),
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
    from .corpus.formats import FORMATS

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
    from .corpus.formats import FORMATS

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


# Extra passes after the timed rounds, stored as negative round numbers (spec/protocol.md `run` 7).
# Round -1 was the allocation pass's own process until protocol 1.5 (now the first timed process runs
# it after its samples): older runs in a store still have it, and statistics skip it as any < 0.
LATENCY_ROUND = -2

#: how many processes of a pass are started ahead, held, while one measures (docs/methodology.md,
#: "Prestart"): with one, a short process followed by one that loads for long (a Python typed row
#: imports its library and builds 10,000 records: 150-300 ms) left the harness core waiting
PRESTART_DEPTH = 2


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


@dataclass
class Started:
    """A harness process of one (cell, round), from its start to its Outcome. Started with `--hold`
    (prestart, spec/protocol.md `run` step 10) it loads, checks and prepares on the orchestrator's
    core and waits; `go` moves it to the harness core and lets it time."""

    cell: Cell
    rnd: int
    proc: subprocess.Popen
    tmp: tempfile.TemporaryDirectory
    err: object  # the file its stderr goes to
    held: bool
    t0: float = 0.0

    @property
    def results(self) -> Path:
        return Path(self.tmp.name) / "results.jsonl"

    @property
    def output(self) -> Path:
        return Path(self.tmp.name) / "output.bin"

    def go(self, cpu: int | None) -> None:
        """Let it measure, on `cpu` (every thread it has): from now its timeout runs."""
        self.t0 = time.monotonic()
        if not self.held:
            return
        pinning.move(self.proc.pid, cpu)
        with contextlib.suppress(OSError):  # it may have exited already (its check failed): finish says how
            self.proc.stdin.write(b"g")
        with contextlib.suppress(OSError):
            self.proc.stdin.close()

    def finish(self, mode: Mode) -> Outcome:
        """Wait for it (killed at the timeout), then judge its exit code and rows. Never raises for a
        misbehaving harness."""
        try:
            code = wait_exit(self.proc, mode.timeout_s)
            stderr = self._reap()
            out = Outcome(
                "ok",
                None,
                _read_rows(self.results),
                time.monotonic() - self.t0,
                self.output.read_bytes() if self.output.exists() else None,
            )
        finally:
            self.cancel()
        return _outcome(self.cell, out, code, stderr, self.rnd, mode)

    def _reap(self) -> str:
        """Kill what is left of its process group (stragglers it left) and read the tail of stderr."""
        _kill_group(self.proc)
        return _stderr_tail(self.err)

    def cancel(self) -> None:
        """Kill it, if it still runs, and remove its files (idempotent)."""
        if self.proc.returncode is None:
            self._reap()
        for f in (self.proc.stdin, self.err):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()
        self.tmp.cleanup()


def start(
    cell: Cell,
    mode: Mode,
    *,
    rnd: int,
    check: bool,
    seed: int,
    cpu: int | None = None,
    alloc: bool = False,
    hold: bool = False,
) -> Started:
    """Start the harness process of one (cell, round) on `cpu`; with `hold`, it waits for `go`
    before timing. With `alloc`, a timed round also runs the allocation pass after its samples
    (spec/protocol.md `run` step 6)."""
    tmp = tempfile.TemporaryDirectory(prefix="serbench-")
    results, output = Path(tmp.name) / "results.jsonl", Path(tmp.name) / "output.bin"
    argv = run_argv(cell, results, **{"budget-ms": mode.budget_ms, "min-samples": mode.min_samples, "seed": seed})
    argv += ["--alloc"] if alloc else ["--latency"] if rnd <= LATENCY_ROUND else []
    argv += [] if check else ["--no-check"]
    # The encoded bytes of typed encoders are kept for their gzip and zstd sizes (spec/typed.md);
    # a writer's, to say where its output differs from the document when the check fails.
    keep_output = check and cell.test in ("typed-encode", "write") and not cell.bench.get("baseline")
    argv += ["--output-file", str(output)] if keep_output else []
    argv += ["--hold"] if hold else []
    err = tempfile.TemporaryFile()
    try:
        proc = _spawn(argv, cell.harness.env(), cpu, err, stdin=subprocess.PIPE if hold else subprocess.DEVNULL)
    except BaseException:
        err.close()
        tmp.cleanup()
        raise
    return Started(cell, rnd, proc, tmp, err, hold)


def run_argv(cell: Cell, results: Path, **opts) -> list[str]:
    """The harness's `run` command line for `cell` (spec/protocol.md), writing rows to `results`,
    with `opts` (option name without its dashes: value) after the options every run has."""
    opts = {
        "bench": cell.bench["id"],
        "test": cell.test,
        "format": cell.harness_format,
        "file": cell.file,
        "expect-hash": cell.dataset["hash"],
        "results": results,
        **opts,
    }
    return cell.harness.command() + ["run"] + [a for k, v in opts.items() for a in (f"--{k}", str(v))]


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


def run_process(argv: list[str], env: dict | None, timeout_s: float, cpu: int | None = None) -> tuple[int | None, str]:
    """One harness process: (exit code, or None on timeout; the tail of its stderr).

    The process gets its own process group, and the whole group is killed when it times out, when
    it is done (stragglers it left), and when we are interrupted (SIGINT, SIGTERM): no harness
    outlives the orchestrator. stdout goes nowhere (results have their own file) and stderr to a
    file, so a chatty harness can never block on a full pipe. With `cpu`, the process runs on that
    core only (pinning.py).
    """
    with tempfile.TemporaryFile() as err:
        proc = _spawn(argv, env, cpu, err)
        try:
            code = wait_exit(proc, timeout_s)
        finally:
            _kill_group(proc)
        return code, _stderr_tail(err)


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process's group (it and whatever it left running) and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _stderr_tail(err) -> str:
    """The last STDERR_TAIL_BYTES of the file a process's stderr went to."""
    size = err.seek(0, os.SEEK_END)
    err.seek(max(0, size - STDERR_TAIL_BYTES))
    return err.read().decode(errors="replace")


_STOP_SIGNALS = threads.STOP_SIGNALS


@contextmanager
def _stop_signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait while a started process passes into the hands that cancel it. Raised
    after start() returned and before run_pass held it, a stop signal left the process running and
    its temporary folder to the garbage collector, whose removal at exit could meet the harness still
    creating its files there. tests/test_cli_edges.py's SIGTERM test once found a folder left after a
    SIGTERM (one full run of the tests; six runs of it alone passed), and this window explains it. A
    signal that arrives meanwhile is raised when the mask is restored."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _spawn(argv: list[str], env: dict | None, cpu: int | None, err, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """A harness process in its own process group (killed as a whole), SIGKILLed if we die, on `cpu`.

    SIGINT and SIGTERM are blocked while it forks. A `preexec_fn` makes Popen fork and run the
    os.register_at_fork hooks in this process (logging's `_releaseLock`), and a stop signal handled
    inside one raises there, where Python prints "Exception ignored" and drops it: the run went on
    to the end and exited 0 (tests/test_cli_edges.py's SIGTERM test, about 1 run in 15 with a fork
    every few ms). Blocked, the signal waits and is raised when the mask is restored, here; the
    child restores the mask before it execs."""
    proc = None
    try:
        with _stop_signals_held():  # a pending stop signal is raised as it ends
            proc = subprocess.Popen(
                argv,
                stdin=stdin,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env=env,
                start_new_session=True,
                preexec_fn=lambda: _in_child(cpu),
            )
    except BaseException:
        if proc is not None:  # not handed to anyone yet: do not leave it running
            _kill_group(proc)
        raise
    return proc


def exited_within(pid: int, timeout_s: float) -> bool | None:
    """Whether child `pid` has exited within `timeout_s`, without reaping it; None where the kernel
    or Python has no pidfd (then the caller polls).

    Popen.wait(timeout) polls, sleeping 0.5 ms, 1, 2, ... up to 50 ms between looks, so it notices
    the end of a 45 ms harness process up to about 30 ms late: on quick mode's ~7,000 processes that
    idle time was minutes of the run's wall time, with neither core busy. A pidfd (Linux 5.3,
    pidfd_open(2)) becomes readable the moment the process exits, so poll(2) on it wakes us at once.
    """
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        # poll(2) is retried after a signal with the time left (PEP 475)
        return bool(poller.poll(max(0, math.ceil(timeout_s * 1000))))
    finally:
        os.close(fd)


def wait_exit(proc: subprocess.Popen, timeout_s: float) -> int | None:
    """The exit code of `proc`, or None when it is still running after `timeout_s`."""
    done = exited_within(proc.pid, timeout_s)
    if done is None:
        try:
            return proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return None
    return proc.wait() if done else None


def _in_child(cpu: int | None) -> None:
    """In the child before exec: the stop signals unblocked (a harness always receives them, whoever
    held them in the parent: _spawn, _stop_signals_held, a pool thread), death with the parent, and
    its core."""
    threads.unblock_in_child()
    _die_with_parent()
    pinning.pin_child(cpu)


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


Progress = Callable[[int, int, str], None]


def _wants_alloc(c: Cell, allocs: bool) -> bool:
    """Whether a cell's allocations are counted (not a baseline's): in its first timed process, after
    the samples (protocol 1.5), which saves the process per cell that a separate pass cost (about a
    tenth of a quick run's wall time, docs/methodology.md "Where a quick run's time goes")."""
    return allocs and not c.bench.get("baseline")


def _extra_rounds_for(c: Cell, latency_rounds: tuple[int, ...] = (LATENCY_ROUND,)) -> list[int]:
    """A cell's passes after its timed rounds: one-record latency on datasets the manifest marks for
    it, in as many forks as the mode pools."""
    rounds = []
    if c.typed and c.dataset.get("latency") and not c.bench.get("baseline") and c.test != "typed-access":
        rounds += list(latency_rounds)
    return rounds


def round_medians(
    per_round: dict[int, list[float]], warmup_k: float, center: stats.Center = stats.median
) -> dict[int, float]:
    """Each timed round's per-iteration time (its samples' `center`: the median, or the mean for a
    collected runtime, `Harness.process_mean`), from its steady state on (stats.steady_state)."""
    out = {}
    for rnd, xs in per_round.items():
        if rnd >= 0 and xs:
            out[rnd] = center(xs[stats.steady_state(xs, warmup_k) :])
    return out


def pick_extra(candidates: list[tuple[int, float, float]], remaining_s: float) -> list[int]:
    """Which cells get a round in an extra pass, from (cell id, CI half-width / time, cost of one of its
    processes in s): the noisiest first, as many as the remaining budget pays for (the rounds go where
    the noise is; Kalibera & Jones 2013 spend repetitions at the level that varies most)."""
    chosen, cost = [], 0.0
    for cid, _, c in sorted(candidates, key=lambda t: (-t[1], t[0])):
        if cost + c <= remaining_s:
            chosen.append(cid)
            cost += c
    return chosen


#: the largest share of a net time's CI that one cell is charged with when passes are planned: a net
#: near zero (a row almost within its baseline's noise) would otherwise outrank every other cell
NET_NOISE_CAP = 0.5


def net_noise(meds: dict[int, dict[int, float]], base_of: dict[int, int | None]) -> dict[int, float]:
    """Each cell's noise as the net times see it: for a row, the larger of its own CI half-width / time
    and that half-width / its net time; for a baseline, the largest half-width / net time among the rows
    netted against it (its noise enters every one of them). A quick run's figures are nets, and a row
    whose baseline is most of its time has a net CI many times its gross one (docs/methodology.md,
    "Adaptive rounds"). Cells with fewer than 2 processes are inf."""
    half, mean = {}, {}
    for cid, per in meds.items():
        xs = list(per.values())
        rel = stats.rel_half_width(xs)  # the spread of the medians: cheap, and wider than the fast quarter's CI
        mean[cid] = stats.fast_mean(xs) if xs else math.nan
        half[cid] = rel * mean[cid] if math.isfinite(rel) else math.inf
    noise = {cid: (half[cid] / mean[cid] if mean[cid] > 0 else math.inf) for cid in meds}
    for cid, b in base_of.items():
        if cid not in meds or b is None or b not in meds or not (math.isfinite(half[cid]) and math.isfinite(half[b])):
            continue
        net = mean[cid] - mean[b]
        if net <= 0:  # at or below its baseline: no number of rounds makes that net a figure
            continue
        for x in (cid, b):
            noise[x] = max(noise[x], min(NET_NOISE_CAP, half[x] / net))
    return noise


def run_cells(
    store: Store,
    run_id: str,
    cells: list[Cell],
    mode: Mode,
    seed: int,
    progress: Progress,
    allocs: bool = True,
    pin: pinning.Pinning | None = None,
    clock: Callable[[], float] = time.monotonic,
    prestart: bool = True,
    prestart_depth: int = PRESTART_DEPTH,
) -> None:
    """Execute the run in passes, committing each process as soon as it ends (docs/methodology.md,
    "Adaptive rounds"):

    1. the mode's minimum `rounds` of every cell, one pass per round, cells shuffled in each;
    2. the allocation and latency passes;
    3. extra passes, one more round each for the cells whose noise as the net times see it
       (`net_noise`: the CI over their process medians against their time and against the net times
       they enter) is above `target_rel_ci`, below `max_rounds` and `cell_cap_s`, the noisiest first as
       far as the run's time budget goes, shuffled.

    Pass k of step 3 gives round number k, so a resumed run continues the pass it stopped in. A cell
    that fails or is incorrect drops out. Baselines are cells like the others: their noise enters
    every net time subtracted from them, so they must reach the same target.
    """
    pin = pin or pinning.Pinning(None, None, "not asked")
    prestart = prestart and pin.on  # the next process needs a core of its own to start on
    for c in cells:
        c.id = store.add_cell(run_id, c.row())
    by_id = {c.id: c for c in cells}
    done = {c.id: store.done_rounds(c.id) for c in cells}
    # While the run is under way every process is brought to one provisional canary time: the rounds'
    # noise (net_noise) compares a cell only with itself and its baseline, so the constant cancels; the
    # slope is the ratio estimator's 1, since the run's own slope (canary.slope) needs the whole run, and
    # there is no deadzone: a zone is a distance from the clean canary time, which the constant is not.
    # (None for a harness whose canary is unused, and under --no-canary: as measured)
    on = canary_on(store, run_id)
    provisional = {
        c.id: canary.Speed(canary.PROVISIONAL_NS) if on and not c.harness.canary_unused else None for c in cells
    }
    center = {c.id: process_center(c.harness.name) for c in cells}
    meds = {c.id: round_medians(store.samples(c.id, provisional[c.id]), mode.warmup_k, center[c.id]) for c in cells}
    wall = {c.id: sum(r["wall_s"] or 0 for k, r in done[c.id].items() if k >= 0) for c in cells}
    extra = {c.id: _extra_rounds_for(c, tuple(mode.latency_rounds())) for c in cells}
    budget = mode.run_budget_s(len(cells))
    # each row's baseline cell, as finalize pairs them (same harness, dataset and format)
    cell_of = {(c.harness.name, c.bench["id"], c.dataset["dataset"], c.format): c.id for c in cells}
    base_of = {
        c.id: cell_of.get((c.harness.name, c.baseline_bench, c.dataset["dataset"], c.format))
        if c.baseline_bench
        else None
        for c in cells
    }
    spent_before, t0 = store.run_wall_s(run_id), clock()

    def spent() -> float:
        return spent_before + clock() - t0

    def bad(cid: int) -> bool:
        return any(r["status"] != "ok" for r in done[cid].values())

    def mandatory_left() -> int:
        need = list(range(mode.rounds))
        return sum(1 for cid in done if not bad(cid) for r in need + extra[cid] if r not in done[cid])

    finished, total = 0, mandatory_left()

    def begin(c: Cell, rnd: int, held: bool) -> Started:
        # The hash is checked in the first process of a cell, and its allocations counted after the
        # samples of its first timed one; later processes do neither. Within a pass a cell comes
        # once, so the process running while this one starts never changes what it must do.
        checked = any(r["status"] == "ok" for r in done[c.id].values())
        counted = any(k >= 0 and r["status"] == "ok" for k, r in done[c.id].items())
        alloc = rnd >= 0 and not counted and _wants_alloc(c, allocs)
        cpu = pin.orchestrator_cpu if held else pin.harness_cpu
        return start(c, mode, rnd=rnd, check=not checked, seed=seed, cpu=cpu, alloc=alloc, hold=held)

    def record(s: Started, out: Outcome) -> None:
        nonlocal finished
        c, rnd = s.cell, s.rnd
        samples = out.kept("sample")
        store.record_round(
            c.id,
            rnd,
            out.status,
            out.reason,
            out.wall_s,
            samples,
            alloc=out.first("alloc"),
            check=out.first("check"),
            latency=out.first("latency"),
            output=out.output,
        )
        done[c.id][rnd] = {"status": out.status, "wall_s": out.wall_s}
        if rnd >= 0:
            wall[c.id] += out.wall_s
            times = [s["wall_ns"] / s["iterations"] for s in samples]
            xs = canary.adjusted(times, [s.get("canary_ns") for s in samples], provisional[c.id], store.canary_window)
            if out.status == "ok" and xs:
                meds[c.id] |= round_medians({rnd: xs}, mode.warmup_k, center[c.id])
        finished += 1

    def run_pass(
        items: list[tuple[Cell, Callable[[], int]]], phase: Callable[[], str], stop: Callable[[], bool] = lambda: False
    ) -> None:
        """The processes of one pass, in order, each announced with its pass (`phase`: in an extra
        pass the progress's total is the pass's, since how many follow depends on what they measure,
        so the pass and the time budget left say where the run is). With prestart, the next
        `prestart_depth` processes of the pass are started (held, on the orchestrator's core) while
        the current one measures, so their start-up, loading and check overlap its measurement
        (docs/methodology.md, "Prestart"); and a finished process is stored after the next one is
        let go, so the harness core does not wait for the store either. A cell comes once in a
        pass, so nothing a held process is told depends on the processes before it."""
        cur: Started | None = None
        held: collections.deque[Started] = collections.deque()
        ended: tuple[Started, Outcome] | None = None  # finished, not stored yet
        try:
            for i, (c, rnd_of) in enumerate(items):
                if stop():
                    break
                progress(finished, total, f"{phase()}: {c.label}")
                with _stop_signals_held():
                    cur = held.popleft() if held else begin(c, rnd_of(), False)
                cur.go(pin.harness_cpu)
                if ended is not None:
                    record(*ended)
                    ended = None
                while prestart and len(held) < prestart_depth and i + 1 + len(held) < len(items):
                    nc, nrnd = items[i + 1 + len(held)]
                    with _stop_signals_held():
                        held.append(begin(nc, nrnd(), True))
                ended = (cur, cur.finish(mode))
        finally:
            if ended is not None:  # whatever stops the pass, a finished process is kept
                record(*ended)
            for s in (cur, *held):  # and none is left running (cancel is idempotent)
                if s is not None:
                    s.cancel()

    with pinning.orchestrator_on(pin):
        # 1-2: the minimum rounds (the first counts allocations), then latency: all of them, whatever
        # the budget.
        for rnd in list(range(mode.rounds)) + mode.latency_rounds():
            order = [c for c in cells if (rnd >= 0 or rnd in extra[c.id]) and rnd not in done[c.id] and not bad(c.id)]
            random.Random(seed * 1000 + rnd).shuffle(order)
            what = f"round {rnd + 1} of {mode.rounds}" if rnd >= 0 else "latency"
            run_pass([(c, lambda r=rnd: r) for c in order], lambda what=what: what)
            total = finished + mandatory_left()  # cells that dropped out no longer count
        # 3: extra passes while cells are not tight and the budget lasts.
        # Pass k offers each cell still short of the target its next round; a cell skipped by an
        # earlier pass (the budget did not reach it) gets a lower round number, so rounds stay 0..n-1.
        for rnd in range(mode.rounds, mode.cap_rounds if mode.target_rel_ci > 0 else mode.rounds):
            candidates = []
            noise = net_noise({cid: meds[cid] for cid in by_id if not bad(cid)}, base_of)
            for cid in by_id:
                n = len(meds[cid])
                if bad(cid) or n > rnd or n in done[cid] or wall[cid] >= mode.cell_cap_s:
                    continue
                rel = noise[cid]
                if rel > mode.target_rel_ci:
                    candidates.append((cid, rel, wall[cid] / max(1, n)))
            chosen = pick_extra(candidates, budget - spent())
            if not chosen:
                break
            order = [by_id[cid] for cid in chosen]
            random.Random(seed * 1000 + rnd).shuffle(order)
            total = finished + len(order)
            head = f"extra pass {rnd - mode.rounds + 1}, {len(order)} cell{'s' * (len(order) != 1)}"
            run_pass(
                [(c, lambda c=c: len(meds[c.id])) for c in order],
                lambda head=head: f"{head}, {_left(budget - spent())}",
                stop=lambda: spent() >= budget,
            )
    progress(finished, finished, "")


def _left(seconds: float) -> str:
    """The time budget left, as an extra pass's progress names it."""
    if not math.isfinite(seconds):
        return "no time budget"
    seconds = max(0.0, seconds)
    left = f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
    return f"{left} of the time budget left"


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


def canary_on(store: Store, run_id: str) -> bool:
    """Whether the run's times are brought to its harnesses' clean canary speed (not `--no-canary`)."""
    run = store.run(run_id)
    return run is not None and not json.loads(run["env_json"]).get("canary_off")


def canary_references(store: Store, run_id: str) -> dict[str, canary.Speed]:
    """The clean canary time of each harness the run measured with a canary (canary.py): the store's for
    this machine, else this run's own, which the store keeps for the runs after it; and the harness's slope
    in this run (canary.slope, or the store's `canary_slope` when set); and the run's own clean canary time,
    near which a process's times are taken as measured (canary.brought). Recorded in the run's env
    (`canary`), with each harness's median process slowdown, so that `compare` and the report use the same
    figures. Empty when the run was made with `--no-canary`."""
    if not canary_on(store, run_id):
        return {}
    env = json.loads(store.run(run_id)["env_json"])
    machine = f"{env.get('cpu_model')} / {env.get('cores')} cores / canary {canary.VERSION}"
    refs, facts = {}, {}
    unused = env.get("canary_unused") or {}
    for harness, cells in sorted(store.process_medians(run_id).items()):
        meds = [c for procs in cells.values() for _, c in procs]
        if harness in unused:
            facts[harness] = {"unused": unused[harness], "processes": len(meds)}
            continue
        own = canary.reference(meds)  # the run's clean canary time: the store's reference if it has none yet
        ref = store.canary_reference(machine, harness, run_id, own)
        if ref is None:
            continue
        slope = store.canary_slope if store.canary_slope is not None else canary.slope(list(cells.values()))
        dz = store.canary_deadzone if store.canary_deadzone is not None else canary.DEADZONE
        facts[harness] = {
            "reference_ns": round(ref, 1),
            "processes": len(meds),
            "median_slowdown": round(stats.median(meds) / ref, 4),
            "slope": round(slope, 4),
            "deadzone": dz,
        }
        zone = store.canary_zone
        speed = refs[harness] = canary.Speed(ref, slope, dz, own if zone is not None else None, zone or 0.0)
        if (limit := speed.clean_limit_ns) is not None:
            # the run's own clean time, and the share of its processes a cell's time may come from as measured
            facts[harness] |= {
                "clean_ns": round(own, 1),
                "zone": zone,
                "clean_share": round(sum(m <= limit for m in meds) / len(meds), 4),
                "min_clean": canary.MIN_CLEAN,
            }
    store.set_run_env(run_id, "canary", facts)
    return refs


def finalize(store: Store, run_id: str, n_boot: int, seed: int, warmup_k: float = stats.WARMUP_K) -> None:
    """Statistics of every measured cell, then net times against their baselines: with 2+ processes
    on each side, the percentile interval of the differences of the two cells' bootstrap replicates
    (stats.net_replicates_ci), else the two-level bootstrap of the medians over their samples. Every
    cell is computed again from its samples, so the run records the estimator its times now come from."""
    store.set_run_env(run_id, "estimator", stats.ESTIMATOR)
    refs = canary_references(store, run_id)
    rows = store.cells(run_id)
    rounds_of: dict[int, list[list[float]]] = {}
    reps_of: dict[int, tuple[float, ...]] = {}
    for r in rows:
        if r["status"] in ("pending", "ok"):
            per_round = store.samples(r["id"], refs.get(r["harness"]))
            if not per_round:
                continue
            rounds_of[r["id"]] = list(per_round.values())
            s = stats.summarize(
                rounds_of[r["id"]], random.Random(seed + r["id"]), n_boot, warmup_k, process_center(r["harness"])
            )
            reps_of[r["id"]] = s.replicates
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
                rcv_within=s.rcv_within,
                cv_between=s.cv_between,
                rel_ci=s.rel_ci,
                n_rounds=store.process_count(r["id"]),  # all it ran, also where its time uses fewer
                warmup_dropped=s.warmup_dropped,
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
        if reps_of[r["id"]] and reps_of[b["id"]]:
            lo, hi = stats.net_replicates_ci(reps_of[r["id"]], reps_of[b["id"]])
        else:
            mine, base = (stats.trim(rounds_of[x], warmup_k)[0] for x in (r["id"], b["id"]))
            lo, hi = stats.bootstrap_ci(
                mine, random.Random(seed - r["id"]), n_boot, minus=base, center=process_center(r["harness"])
            )
        store.update_cell(r["id"], baseline_ns=bmed, net_ns=r["median_ns"] - bmed, net_ci_low_ns=lo, net_ci_high_ns=hi)
