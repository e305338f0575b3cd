"""Harness processes: started (held for prestart, or at once), pinned, waited for with a timeout, and
killed with their process group whatever stops the run."""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import pinning, threads
from .modes import LATENCY_ROUND, Mode
from .outcome import Outcome, _outcome, _read_rows
from .plan import Cell

#: how much of a harness's stderr is kept for a failed cell's reason
STDERR_TAIL_BYTES = 16_384


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
