"""How much a run measures: the modes (quick, full) and the settings a stored run is continued and
compared with."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import stats


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
    out.setdefault("jit_quiet_ms", 200)  # before --jit-quiet-ms: Java's warm-up waited for 200 ms
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


# Extra passes after the timed rounds, stored as negative round numbers (spec/protocol.md `run` 7).
# Round -1 was the allocation pass's own process until protocol 1.5 (now the first timed process runs
# it after its samples): older runs in a store still have it, and statistics skip it as any < 0.
LATENCY_ROUND = -2
