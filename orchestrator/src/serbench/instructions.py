"""The deterministic mode, `serbench run --measure instructions` (DESIGN §6, docs/methodology.md
"Instruction counts"): each cell runs under valgrind's cachegrind, which counts the instructions the
process executes without hardware counters, and the result is instructions per operation, net of
the baseline counted the same way.

A cell is run three times, each a fresh process with the same argv, environment and file paths,
under `setarch -R` (no address-space randomisation), with the fixed-count loop of spec/protocol.md
`run` step 9 (`--iterations N`):

    N = n1          -> I1      (start-up, load, check, one warm-up iteration, n1 iterations, exit)
    N = n2 = n1 + k -> I2
    N = n1 again    -> I1'     (the same process again: I1' == I1 or the cell is not deterministic)

instructions per operation = (I2 − I1) / k: everything but the k extra iterations is the same in both
runs and cancels. A count is exact, so a cell needs one such pair, not rounds, and has no CI; the
repeat proves the count reproduces (a library that seeds a hash function from the OS, say, does not).
A harness whose counts vary by design (Go's collector runs on timers) counts N2 again, and a third
time if the two disagree, and uses their median (next_round); when the spread of its counts is still
a large part of k operations' instructions, it counts N2 again with k eight times larger, up to twice
(stage_rounds, resolved).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from . import runner
from .harnesses import HarnessError
from .runner import Cell, Mode, Outcome
from .store import Store

#: the valgrind tool and options. cachegrind with the cache simulation off counts instructions
#: (the Ir event) and nothing else, which makes it the cheapest tool that prints a total: on a
#: size-2 native cell it ran in 0.85x callgrind's time (docs/methodology.md, "Instruction counts").
TOOL = ["--tool=cachegrind", "--cache-sim=no", "--branch-sim=no"]
#: follow the native driver's execve into its bench-<id> executable; each process writes its own file
VALGRIND_OPTS = ["--trace-children=yes"]
#: bytes of input the k extra iterations process together: enough that the per-iteration count is
#: averaged over many operations (heap state varies a little from one iteration to the next), few
#: enough that a size-5 cell is not minutes under valgrind
TARGET_BYTES = 1_000_000
MAX_EXTRA = 1000
N1 = 1
#: valgrind runs programs 20-100x slower (its manual; cachegrind without the cache simulation sits
#: at the low end): the cell timeout of the time mode is scaled by this
SLOWDOWN = 50
#: the environment of every counted process: fixed, so two runs start from the same initial stack
#: (valgrind counts the dynamic loader's and libc's start-up, which walk the environment)
FIXED_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C"}
#: Debian 12's valgrind, the version harnesses/native/setup.sh pins
VALGRIND_PIN = "valgrind=1:3.19.0-1"

#: rounds of a cell in the store: the two counts and the repeat, then, for a harness whose counts
#: vary (its instructions_varying), the second count again and, if need be, a third time
ROUND_N1, ROUND_N2, ROUND_REPEAT, ROUND_N2_AGAIN, ROUND_N2_THIRD = 0, 1, 2, 3, 4
N2_ROUNDS = (ROUND_N2, ROUND_N2_AGAIN, ROUND_N2_THIRD)
#: two N2 counts of a varying harness whose instructions per operation are within this of each other
#: are taken as they are (their mean); otherwise a third settles it (the median of three). What varies
#: in a Go count is the N2 process, whose k extra iterations run the collector a varying number of
#: times: the N1 process's repeat moved the per-operation figure by at most 180 instructions in two
#: size-2 runs, while one N2 count of msgp-tokens was 12% off the other run's (docs/methodology.md,
#: "Go: counted, not exactly").
AGREE_REL = 0.01
#: a varying harness's cell is resolved when the spread of its counts (the two N1 processes', plus
#: the spread of its N2 counts), over k, is at most this part of its per-operation figure; otherwise
#: its N2 counts are taken again with k ESCALATE times larger, at most MAX_STAGE times. A Go process
#: that builds a large document varies by a million instructions or more whatever k is (its collector
#: runs during the set-up too): the Go hash-data-typed baseline on `product` (k = 9) counted
#: 766,653 and then -44,870 instructions an operation in two runs, where C counts 265,483
#: (docs/methodology.md, "Go: counted, not exactly").
RESOLVE_REL = 0.05
ESCALATE = 8
MAX_STAGE = 2


class ValgrindMissing(HarnessError):
    """valgrind is not installed and could not be installed."""


def valgrind() -> str | None:
    return shutil.which("valgrind")


def ensure_valgrind(root: Path, say: Callable[[str], None]) -> str:
    """The path of valgrind, installing Debian 12's pinned package with the native harness's set-up
    script when it is missing (it uses sudo when not root)."""
    found = valgrind()
    if found:
        return found
    setup = root / "harnesses" / "native" / "setup.sh"
    say(f"valgrind not found: installing {VALGRIND_PIN} ({setup} --valgrind-only)")
    try:
        subprocess.run([str(setup), "--valgrind-only"], check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise ValgrindMissing(
            f"valgrind is needed for --measure instructions and could not be installed ({e}); "
            f"install it with: sudo apt-get install {VALGRIND_PIN}"
        ) from e
    found = valgrind()
    if not found:
        raise ValgrindMissing(f"valgrind is still not on PATH; install it with: sudo apt-get install {VALGRIND_PIN}")
    return found


def valgrind_version() -> str | None:
    exe = valgrind()
    if not exe:
        return None
    try:
        return subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


# --- parsing valgrind's output ------------------------------------------------------------------

_SUMMARY = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)
_EVENTS = re.compile(r"^events:\s+(.+)$", re.MULTILINE)


class CountError(ValueError):
    """An output file of valgrind without an instruction total."""


def parse_total(text: str) -> int:
    """The instructions (Ir) a cachegrind or callgrind output file counts: its `summary:` line
    (cachegrind; callgrind also writes `totals:`), whose first number is Ir when `events:` starts
    with Ir, as it does with the cache simulation off."""
    events = _EVENTS.search(text)
    if events is None or events.group(1).split()[0] != "Ir":
        raise CountError("no `events: Ir ...` line: not a cachegrind/callgrind output file")
    m = _SUMMARY.search(text)
    if m is None:
        raise CountError("no `summary:` or `totals:` line (the process did not finish writing it)")
    return int(m.group(1))


def total_of(folder: Path, prefix: str) -> int:
    """Instructions of every process a counted run started: one output file per process (the pid
    in its name). The native driver replaces itself with its benchmark (execve); valgrind counts the
    image before the exec in a file of its own or not at all, the same way in every run."""
    files = sorted(folder.glob(prefix + "*"))
    if not files:
        raise CountError("valgrind wrote no output file")
    return sum(parse_total(f.read_text(errors="replace")) for f in files)


# --- the arithmetic -----------------------------------------------------------------------------


def extra_iterations(input_bytes: int, scale: int = 1) -> int:
    """k, the extra iterations of the second run: about scale x TARGET_BYTES of input in all, 1 to
    scale x MAX_EXTRA (a harness whose count varies from run to run, Go's, averages it over more)."""
    return max(1, min(scale * MAX_EXTRA, round(scale * TARGET_BYTES / max(1, input_bytes))))


def stage_rounds(stage: int) -> tuple[int, int, int]:
    """The rounds of a stage's N2 counts (first, again, third): stage 0's are N2_ROUNDS, each later
    stage (k ESCALATE times larger) has three rounds of its own after them."""
    if stage == 0:
        return N2_ROUNDS
    first = ROUND_N2_THIRD + 1 + 3 * (stage - 1)
    return first, first + 1, first + 2


def stage_n2(n1: int, k: int, stage: int) -> int:
    """N2 of a stage: n1 + k, times ESCALATE for each stage after the first."""
    return n1 + k * ESCALATE**stage


def n2_counts(counts: dict, stage: int = 0) -> list[int]:
    """A cell's N2 counts of a stage: one, except for a harness whose counts vary, which has two that
    agree or three."""
    return [counts[str(r)] for r in stage_rounds(stage) if str(r) in counts]


def n2_total(counts: dict, stage: int = 0) -> float | None:
    """The N2 count a cell's figure uses: the median of its N2 counts of the stage, None without any."""
    got = n2_counts(counts, stage)
    return statistics.median(got) if got else None


def next_round(counts: dict, n1: int, n2: int, varying: bool, stage: int = 0) -> tuple[int, int] | None:
    """The next process of a cell, as (round, N), from the counts it has; None when it has them all.
    Every cell gets N1, N2 and N1 again; a cell of a harness whose counts vary gets N2 a second time,
    and a third when the two do not agree within AGREE_REL an operation. n2 is the stage's."""
    first_n2, again_n2, third_n2 = stage_rounds(stage)
    for rnd, n in ((ROUND_N1, n1), (first_n2, n2), (ROUND_REPEAT, n1)):
        if str(rnd) not in counts:
            return rnd, n
    if not varying:
        return None
    if str(again_n2) not in counts:
        return again_n2, n2
    if str(third_n2) in counts:
        return None
    first, again = (per_op(counts[str(ROUND_N1)], counts[str(r)], n1, n2) for r in (first_n2, again_n2))
    return None if abs(again - first) <= AGREE_REL * max(abs(first), abs(again)) else (third_n2, n2)


def noise_per_op(counts: dict, n1: int, n2: int, stage: int = 0) -> float:
    """How far the counts of a cell's processes spread, over k: the two N1 counts' difference plus the
    N2 counts' (of two, their difference; of three, the median's distance to the nearer other: the
    third count outvotes an outlier), divided by n2 − n1. A bound on the error of the per-operation
    figure; 0 for a count that reproduces."""
    ones = [counts[str(r)] for r in (ROUND_N1, ROUND_REPEAT) if str(r) in counts]
    twos = sorted(n2_counts(counts, stage))
    if len(twos) == 3:
        twos = min(twos[:2], twos[1:], key=lambda p: p[1] - p[0])
    spread = (max(ones) - min(ones) if ones else 0) + (twos[-1] - twos[0] if twos else 0)
    return spread / (n2 - n1)


def resolved(counts: dict, n1: int, n2: int, stage: int = 0) -> bool:
    """Whether a cell's figure is known to RESOLVE_REL: its counts' spread over k against the figure."""
    figure = per_op(counts[str(ROUND_N1)], n2_total(counts, stage), n1, n2)
    return noise_per_op(counts, n1, n2, stage) <= RESOLVE_REL * abs(figure)


def per_op(total_n1: float, total_n2: float, n1: int, n2: int) -> float:
    """(I(n2) − I(n1)) / (n2 − n1): the instructions of one operation."""
    if n2 <= n1:
        raise ValueError(f"n2 ({n2}) must exceed n1 ({n1})")
    return (total_n2 - total_n1) / (n2 - n1)


def iterations_arg(n: int, width: int) -> str:
    """N zero-padded to a fixed width, so both runs' argv, and so their initial stacks, have the same
    length (every harness parses "0401" as 401)."""
    return str(n).rjust(width, "0")


# --- running ------------------------------------------------------------------------------------


@contextlib.contextmanager
def work_dir():
    """The folder every counted process writes to: one fixed path per user, so argv and the files'
    paths are byte for byte the same in every run. A lock keeps two serbench processes out of it at
    once (the second waits)."""
    folder = Path(tempfile.gettempdir()) / f"serbench-instructions-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting: another serbench process counts instructions in {folder}", file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield folder
    finally:
        os.close(fd)


def _clear(folder: Path) -> None:
    for f in folder.iterdir():
        if f.name != ".lock":
            f.unlink()


def fixed_env(harness) -> dict:
    """FIXED_ENV plus what the harness sets itself (its env() minus ours) and what it needs to be
    counted (its instructions_env)."""
    own = harness.env() or {}
    mine = {k: v for k, v in own.items() if os.environ.get(k) != v and k not in FIXED_ENV}
    return FIXED_ENV | mine | harness.instructions_env


def count(cell: Cell, n: int, width: int, folder: Path, mode: Mode, seed: int, exe: str) -> tuple[Outcome, int | None]:
    """One counted process of a cell: (its outcome, the instructions valgrind counted or None)."""
    _clear(folder)
    results, out_prefix = folder / "results.jsonl", "cachegrind.out."
    argv = ["setarch", "-R", exe, *TOOL, *VALGRIND_OPTS]
    argv += [f"--cachegrind-out-file={folder / out_prefix}%p", f"--log-file={folder / 'valgrind.log'}"]
    argv += runner.run_argv(cell, results, seed=seed, iterations=iterations_arg(n, width))
    t0 = time.monotonic()
    code, stderr = runner.run_process(argv, fixed_env(cell.harness), mode.timeout_s)
    out = Outcome("ok", None, runner._read_rows(results), time.monotonic() - t0)
    log = (folder / "valgrind.log").read_text(errors="replace") if (folder / "valgrind.log").exists() else ""
    out.status, out.reason = runner._judge(out, code, stderr or log[-2000:], 0, mode)
    total = None
    if out.status == "ok":
        try:
            total = total_of(folder, out_prefix)
        except CountError as e:
            out.status, out.reason = "failed", f"valgrind: {e}"
    _clear(folder)
    return out, total


def mode_for(mode: Mode) -> Mode:
    """The instruction mode's settings: one counted pair per cell, the timeout scaled for valgrind."""
    return dataclasses.replace(mode, rounds=1, timeout_s=mode.timeout_s * SLOWDOWN)


def _counts(row) -> dict:
    return json.loads(row["instr_json"]) if row["instr_json"] else {}


def run_cells(
    store: Store,
    run_id: str,
    cells: list[Cell],
    mode: Mode,
    seed: int,
    progress: runner.Progress,
    exe: str,
) -> None:
    """Count every cell not yet counted, committing each process as it ends (so `--resume` works).
    Cells of a harness that cannot be counted are stored as unsupported, with the harness's reason."""
    for c in cells:
        c.id = store.add_cell(run_id, c.row())
    rows = {r["id"]: r for r in store.cells(run_id)}
    todo = []
    for c in cells:
        why = c.harness.instructions_unsupported
        if why and ROUND_N1 not in store.done_rounds(c.id):
            store.record_round(c.id, ROUND_N1, "unsupported", f"instruction counts: {why}", 0.0, [])
        elif not why:
            todo.append(c)
    # a varying harness's cell is at least four processes (N2 twice), five when they disagree, and
    # two or three more at each later stage
    finished, total = 0, sum(4 if c.harness.instructions_varying else 3 for c in todo)
    with work_dir() as folder:
        for c in todo:
            varying = bool(c.harness.instructions_varying)
            k = extra_iterations(c.file.stat().st_size, c.harness.instructions_scale)
            # one argv width for every process of the cell, whatever stage it reaches
            width = len(str(stage_n2(N1, k, MAX_STAGE if varying else 0)))
            state = _counts(rows[c.id]) or {"tool": "cachegrind", "n1": N1, "n2": N1 + k, "counts": {}}
            stage = state.get("stage", 0)
            n2 = stage_n2(N1, k, stage)
            done = store.done_rounds(c.id)
            # a count is kept only with its round (one stored before a crash, its round not, is redone)
            state["counts"] = {r: v for r, v in state["counts"].items() if int(r) in done}
            finished += len(state["counts"])
            while not any(r["status"] != "ok" for r in done.values()):
                step = next_round(state["counts"], N1, n2, varying, stage)
                if step is None and varying and stage < MAX_STAGE and not resolved(state["counts"], N1, n2, stage):
                    # the counts spread too far for k operations to tell: k eight times larger
                    stage += 1
                    n2 = stage_n2(N1, k, stage)
                    state["stage"], state["n2"] = stage, n2
                    store.update_cell(c.id, instr_json=json.dumps(state))
                    total += 2
                    continue
                if step is None:
                    break
                rnd, n = step
                if rnd == stage_rounds(stage)[2]:
                    total += 1
                progress(finished, total, f"{c.label} (valgrind, N={n})")
                out, instr = count(c, n, width, folder, mode, seed, exe)
                if instr is not None:
                    # the count first: a round is done only when its count is stored too
                    state["counts"][str(rnd)] = instr
                    store.update_cell(c.id, instr_json=json.dumps(state))
                store.record_round(
                    c.id, rnd, out.status, out.reason, out.wall_s, out.kept("sample"), check=out.first("check")
                )
                done[rnd] = {"status": out.status}
                finished += 1
    progress(finished, total, "")


def finalize(store: Store, run_id: str) -> None:
    """Instructions per operation of every counted cell, then net of its baseline."""
    for r in store.cells(run_id):
        state = _counts(r)
        got = state.get("counts", {})
        stage = state.get("stage", 0)
        if r["status"] not in ("pending", "ok") or not all(str(k) in got for k in (ROUND_N1, stage_rounds(stage)[0])):
            continue
        gross = per_op(got[str(ROUND_N1)], n2_total(got, stage), state["n1"], state["n2"])
        repeat = got.get(str(ROUND_REPEAT))
        same_n2 = len(set(n2_counts(got, stage))) == 1
        deterministic = None if repeat is None else int(repeat == got[str(ROUND_N1)] and same_n2)
        store.update_cell(r["id"], status="ok", instructions_per_op=gross, instr_deterministic=deterministic)
    rows = store.cells(run_id)
    by_key = {(r["harness"], r["bench"], r["dataset"], r["format"]): r for r in rows}
    for r in rows:
        if r["instructions_per_op"] is None or r["is_baseline"] or not r["baseline_bench"]:
            continue
        b = by_key.get((r["harness"], r["baseline_bench"], r["dataset"], r["format"]))
        if b is None or b["instructions_per_op"] is None:
            continue
        flags = [f for f in (r["instr_deterministic"], b["instr_deterministic"]) if f is not None]
        store.update_cell(
            r["id"],
            instr_baseline=b["instructions_per_op"],
            instr_net=r["instructions_per_op"] - b["instructions_per_op"],
            # the net count reproduces only if the cell's and its baseline's both do
            instr_deterministic=min(flags) if flags else None,
        )


def repeat_difference(c) -> str:
    """What the repeat of a not-deterministic cell counted, for its reason."""
    s = _counts(c)
    got = s.get("counts", {})
    a, b = got.get(str(ROUND_N1)), got.get(str(ROUND_REPEAT))
    if a is None or b is None:
        return ""
    return f"N={s['n1']} counted {a:,} then {b:,} instructions ({b - a:+,})"
