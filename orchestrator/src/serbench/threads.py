"""Worker threads that leave SIGINT and SIGTERM to the main thread.

The kernel delivers a signal sent to the process to any one thread that does not block it. Python
runs the handler in the main thread all the same, but only at the next point where that thread checks
for signals, wherever that falls. The runner blocks the stop signals in the main thread while a
harness process forks (`runner._spawn`: a handler that raises inside the fork's at-fork hooks is
dropped) and while a started process passes into the hands that cancel it
(`runner._stop_signals_held`); unblocked, the pending signal is handled at once, inside that window.
A worker thread that accepted the signal meanwhile took that guarantee away: with one live pool
thread, a SIGTERM sent during a fork was handled before the fork in every one of 20 tries
(tests/test_runner.py). So every thread pool of the orchestrator is made here, with the stop signals
blocked in its threads, and a process started from a worker thread unblocks them before it execs
(`unblock_in_child`)."""

from __future__ import annotations

import signal
from concurrent.futures import ThreadPoolExecutor

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _block_stop_signals() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def pool(workers: int) -> ThreadPoolExecutor:
    """A thread pool whose threads never take SIGINT or SIGTERM (module docstring)."""
    return ThreadPoolExecutor(workers, initializer=_block_stop_signals)


def unblock_in_child() -> None:
    """In a child before exec: the stop signals unblocked, whichever thread forked it (a child inherits
    the mask of the thread that forked it, and keeps it across exec)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
