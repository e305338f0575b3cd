"""A run's end: the load recorded while it ran, each harness's canary reference, and every cell's
statistics and net time against its baseline."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager

from .. import canary, envinfo, stats
from ..harnesses import process_center
from ..store import Store


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
