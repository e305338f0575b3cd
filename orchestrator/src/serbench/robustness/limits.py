"""One harness process under limits the orchestrator enforces, not the harness (issue 15: a hostile
case must never take down the run, fill the disk or exhaust the machine's memory).

- wall clock: the whole process group is killed (SIGKILL) when the limit passes, as runner/process.py does;
- memory: RLIMIT_AS, the virtual address space, set in the child before exec. A runtime that reserves a
  large address space up front (the JVM's heap, Go's arenas, sanitizers' shadow memory) can fail at
  start under it even though it would use little; such a harness needs its own bound (e.g. -Xmx)
  inside the limit. RLIMIT_AS also counts memory that is mapped but never touched, so it is stricter
  than resident memory, never looser;
- stack: RLIMIT_STACK, the main thread's stack (8 MiB, Linux's usual default, stated so that a depth
  limit reached by a library is comparable across runs). Threads a runtime starts size their own
  stacks;
- files: RLIMIT_FSIZE bounds what the process may write (its stdout and stderr go to files here, so a
  runaway writer gets SIGXFSZ instead of filling the disk), and RLIMIT_CORE 0: no core dumps.

The process runs in its own session (process group) with PR_SET_PDEATHSIG, so a SIGKILL of the
orchestrator takes it along (docs/methodology.md, "Processes").
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass

from .. import threads
from ..pinning import usable_cpu_count
from ..runner import _die_with_parent, exited_within

MIB = 1 << 20
#: what is kept of a process's stdout (a hash line) and stderr (the reason of a crash)
STDOUT_KEEP, STDERR_KEEP = 64 * 1024, 16 * 1024


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 10.0
    memory_bytes: int = 2048 * MIB
    stack_bytes: int = 8 * MIB
    file_bytes: int = 64 * MIB

    def describe(self) -> str:
        return (
            f"wall clock {self.timeout_s:g} s, address space (RLIMIT_AS) {self.memory_bytes // MIB} MiB, "
            f"stack (RLIMIT_STACK) {self.stack_bytes // MIB} MiB, "
            f"output files {self.file_bytes // MIB} MiB, no core dumps"
        )

    def as_dict(self) -> dict:
        return asdict(self)


def default_jobs(memory_bytes: int) -> int:
    """How many cases run at a time by default: one per CPU this process may use, but never more than
    fit in the machine's memory at the per-process address-space limit each, so that no case can be
    starved of memory by its neighbours (docs/robustness.md, "Side by side against one at a time")."""
    cpus = usable_cpu_count()
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 1
    return max(1, min(cpus, physical // max(memory_bytes, 1)))


@dataclass
class Exit:
    code: int | None  # exit status; -N for signal N; None when it was killed at the time limit
    stdout: str
    stderr: str
    wall_s: float
    # Peak resident memory of the child (wait4's rusage) in KiB, or None when it is not above this
    # process's own: the child is forked from us, and Linux carries the pre-exec peak across execve
    # into ru_maxrss, so a value at or below our own peak says nothing about the harness.
    maxrss_kb: int | None


def _limit_child(limits: Limits) -> None:
    """In the child before exec: the resource limits, the stop signals a worker thread blocks unblocked
    (threads.unblock_in_child), then die with the parent."""
    for what, value in (
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_STACK, limits.stack_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_CORE, 0),
    ):
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(what)
            resource.setrlimit(what, (value if hard == resource.RLIM_INFINITY else min(value, hard), hard))
    threads.unblock_in_child()
    _die_with_parent()


def _kept(f, keep: int) -> str:
    """The first and last keep/2 bytes of what the process wrote: a runtime's fatal error says what
    happened in its first line (Go: "fatal error: stack overflow") and then prints stacks that can be
    far longer than `keep`, while other crashes say it last."""
    size = f.seek(0, os.SEEK_END)
    if size <= keep:
        f.seek(0)
        return f.read().decode(errors="replace")
    f.seek(0)
    head = f.read(keep // 2).decode(errors="replace")
    f.seek(size - keep // 2)
    return f"{head}\n[... {size - keep} bytes left out ...]\n{f.read().decode(errors='replace')}"


def run_limited(argv: list[str], env: dict | None, limits: Limits) -> Exit:
    """Run argv to its end or its time limit, whatever it does; never raises for the child's behaviour.
    On KeyboardInterrupt the process group is killed before the exception goes on."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env,
            start_new_session=True,
            preexec_fn=lambda: _limit_child(limits),
        )
        code: int | None = None
        rss: int | None = None
        try:
            deadline, pause = t0 + limits.timeout_s, 0.001
            # woken the moment it exits (runner.exited_within); the loop below then reaps it at once
            exited_within(proc.pid, limits.timeout_s)
            while True:
                # wait4 gives the child's own rusage (peak RSS); polled, since it has no timeout
                pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    proc.returncode = code = os.waitstatus_to_exitcode(status)
                    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                    rss = ru.ru_maxrss if ru.ru_maxrss > own else None
                    break
                if time.monotonic() >= deadline:
                    break
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # on a timeout, and stragglers it left behind
            if proc.returncode is None:
                with contextlib.suppress(ChildProcessError):
                    proc.wait()
        wall = time.monotonic() - t0
        return Exit(code, _kept(out, STDOUT_KEEP), _kept(err, STDERR_KEEP), wall, rss)
