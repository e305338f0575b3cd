"""CPU pinning: each harness process on one core, the orchestrator on another (docs/methodology.md,
"Pinning"). On a 2-core machine the orchestrator (Python: storing rows, shuffling, planning) would
otherwise compete with the benchmark for its core, and the scheduler would move the benchmark between
cores, taking its caches with it. Linux only (os.sched_setaffinity); elsewhere, or with one CPU
available, nothing is pinned and the run records why."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Pinning:
    harness_cpu: int | None  # the core every harness process runs on, or None: not pinned
    orchestrator_cpu: int | None
    why_not: str | None = None  # when not pinned: why

    @property
    def on(self) -> bool:
        return self.harness_cpu is not None

    def facts(self) -> dict:
        """What the run stores (env_json.pinning, one entry per invocation)."""
        if self.on:
            return {"pinned": True, "harness_cpu": self.harness_cpu, "orchestrator_cpu": self.orchestrator_cpu}
        return {"pinned": False, "why": self.why_not}


def usable_cpu_count() -> int:
    """How many CPUs this process may run on (its affinity mask, which a container or `taskset`
    narrows), or the machine's count where the platform has no affinity."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def choose(want: bool) -> Pinning:
    """The cores to use, from the CPUs this process may run on: the harness gets the highest-numbered
    one (CPU 0 takes most interrupts on Linux), the orchestrator the lowest."""
    if not want:
        return Pinning(None, None, "turned off (--no-pin)")
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return Pinning(None, None, "this platform has no sched_setaffinity")
    if len(cpus) < 2:
        return Pinning(None, None, f"only one CPU is available (CPU {cpus[0]})" if cpus else "no CPU listed")
    return Pinning(cpus[-1], cpus[0])


@contextlib.contextmanager
def orchestrator_on(p: Pinning) -> Iterator[None]:
    """Pin this process (the orchestrator) to its core while the cells run, then restore its mask."""
    if not p.on:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {p.orchestrator_cpu})
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, before)


def pin_child(cpu: int | None) -> None:
    """In a child before exec: run on `cpu` only (its threads and children inherit the mask)."""
    if cpu is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpu})


def move(pid: int, cpu: int | None) -> None:
    """Run process `pid`, every thread of it, on `cpu` only: a prestarted harness process moves from
    the orchestrator's core to the harness core before it times anything (runner.Started.go). The
    mask is per thread (sched_setaffinity(2) on a thread id), and a JVM or the Go runtime has many;
    threads created later inherit it from their creator. The list is read again until it stops
    growing, in case a thread was being created while it was read."""
    if cpu is None:
        return
    seen: set[int] = set()
    for _ in range(5):
        try:
            tids = {int(t) for t in os.listdir(f"/proc/{pid}/task")}
        except OSError:  # gone already, or no /proc: nothing to move
            return
        for tid in tids - seen:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(tid, {cpu})
        if tids <= seen:
            return
        seen |= tids
