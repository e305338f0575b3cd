"""The cells of a run executed in passes: the minimum rounds of every cell, then extra passes for the
cells not yet tight while the time budget lasts, each process committed to the store as it ends."""

from __future__ import annotations

import collections
import math
import random
import time
from collections.abc import Callable

from .. import canary, pinning, stats
from ..harnesses import process_center
from ..store import Store
from .finalize import canary_on
from .modes import LATENCY_ROUND, Mode
from .outcome import Outcome
from .plan import Cell
from .process import Started, _stop_signals_held, start

#: how many processes of a pass are started ahead, held, while one measures (docs/methodology.md,
#: "Prestart"): with one, a short process followed by one that loads for long (a Python typed row
#: imports its library and builds 10,000 records: 150-300 ms) left the harness core waiting
PRESTART_DEPTH = 2


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
            store.checkpoint()  # the main file alone holds every finished cell, and the WAL stays small
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
            store.checkpoint()
    progress(finished, finished, "")


def _left(seconds: float) -> str:
    """The time budget left, as an extra pass's progress names it."""
    if not math.isfinite(seconds):
        return "no time budget"
    seconds = max(0.0, seconds)
    left = f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
    return f"{left} of the time budget left"
