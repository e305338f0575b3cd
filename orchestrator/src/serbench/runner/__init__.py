"""Plans the cells of a run and executes them in passes, each cell in a fresh process per round, the
order shuffled within each pass (DESIGN §6): first the mode's minimum rounds of every cell, then extra
passes for the cells whose CI is not yet tight, while the run's time budget lasts (docs/methodology.md,
"Adaptive rounds"). Each finished process is committed to the store at once.

By role: modes (how much to measure), plan (the cells the filters select), process (harness processes
started, waited for and killed), outcome (a process's exit code and rows judged), passes (the cell
loop), finalize (statistics and net times once the cells are done)."""

from __future__ import annotations

from .finalize import canary_on, canary_references, finalize, recording_load
from .modes import LATENCY_ROUND, MODES, Mode, stored_settings
from .outcome import EXIT_STATUS, Outcome, _judge, _read_rows, explain_read, explain_write
from .passes import NET_NOISE_CAP, PRESTART_DEPTH, Progress, _left, net_noise, pick_extra, round_medians, run_cells
from .plan import Cell, PlanError, _matches, check_datasets, check_filters, listing, plan
from .process import (
    STDERR_TAIL_BYTES,
    Started,
    _die_with_parent,
    _spawn,
    _stop_signals_held,
    exited_within,
    run_argv,
    run_process,
    start,
    wait_exit,
)

# the names other modules and the tests take from `serbench.runner`
__all__ = [
    "EXIT_STATUS",
    "LATENCY_ROUND",
    "MODES",
    "NET_NOISE_CAP",
    "PRESTART_DEPTH",
    "STDERR_TAIL_BYTES",
    "Cell",
    "Mode",
    "Outcome",
    "PlanError",
    "Progress",
    "Started",
    "_die_with_parent",
    "_judge",
    "_left",
    "_matches",
    "_read_rows",
    "_spawn",
    "_stop_signals_held",
    "canary_on",
    "canary_references",
    "check_datasets",
    "check_filters",
    "exited_within",
    "explain_read",
    "explain_write",
    "finalize",
    "listing",
    "net_noise",
    "pick_extra",
    "plan",
    "recording_load",
    "round_medians",
    "run_argv",
    "run_cells",
    "run_process",
    "start",
    "stored_settings",
    "wait_exit",
]
