"""`serbench compare RUN_A RUN_B`: per-cell ratio with a CI, a significance verdict, and the geometric
mean per library with its own CI (DESIGN §6). It also says what it could not compare, and when the two
runs are the same run or come from different machines or settings (docs/methodology.md, "compare")."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import median

from . import canary, runner, stats
from .harnesses import process_center
from .report.facts import has_current_estimator, run_noise
from .store import Store

ALPHA = 0.05
KEY = ("harness", "bench", "test", "dataset", "format")

# Marks on rows where the CI and the verdict seem to disagree; both are explained under the table.
CI_ONLY, TEST_ONLY = "†", "‡"

Progress = Callable[[int, int, str], None]  # (cells done, cells in all, the cell at hand)

MACHINE = (("cpu_model", "CPU"), ("cores", "cores"), ("kernel", "kernel"), ("governor", "CPU governor"))
SETTINGS = (
    ("rounds", "rounds"),
    ("budget_ms", "budget (ms)"),
    ("build_profile", "build profile"),
    ("compiler", "compiler"),
    ("seed", "seed"),
    ("max_rounds", "max rounds"),
    ("target_ci", "CI target"),
    ("warmup_k", "warm-up rule k"),
    ("pin", "CPU pinning"),
)
MANIFEST = (
    ("hash_version", "hash version"),
    ("generator_version", "generator version"),
    ("code_sha256", "corpus generator code"),
)


@dataclass
class Row:
    key: tuple
    library: str
    a_ns: float
    b_ns: float
    ratio: float
    ci: tuple[float, float]
    p: float
    p_adj: float = 1.0
    verdict: str = ""
    mark: str = ""  # CI_ONLY or TEST_ONLY when the CI and the verdict need the legend's explanation
    noise: str = ""  # the runs ("A", "B", "A and B") where the net time's CI reaches zero (`within_noise`)
    boots: list[float] = field(default_factory=list, repr=False)
    # each run's process medians, which the verdict's test ranks (`shifted_verdicts` tests them again)
    medians: tuple[list[float], list[float]] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Geo:
    """Geometric mean of a library's ratios, with a 95% bootstrap CI over its cells."""

    value: float
    ci: tuple[float, float]
    cells: int


@dataclass
class Comparison:
    run_a: str
    run_b: str
    rows: list[Row]
    geo: dict[str, Geo]
    not_compared: list[tuple[tuple, str]]  # (cell key, why: only in one run, or not ok in one)
    rounds: tuple[int, int]
    same_run: bool = False
    machine: list[str] = field(default_factory=list)  # what differs between the two machines
    settings: list[str] = field(default_factory=list)  # ... between the runs' settings and corpora
    # each run whose stored times came from an earlier estimator, as "A (that estimator)": compare computes
    # its times again from the samples, so both sides of a ratio use today's and no estimator differs
    recomputed: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)  # library versions that differ (often the point)
    commits: tuple[str | None, str | None] = (None, None)
    noisy: list[str] = field(default_factory=list)  # "A (its figures)" for a run that is noisy as a whole
    noise_ci: float | None = None  # the wider of the noisy runs' median CI half-widths
    dirty: tuple[bool, bool] = (False, False)  # ran from a working tree with uncommitted changes
    measure: str = "time"  # or "instructions": counts, compared exactly (compare_instructions)


class NotComparable(ValueError):
    """The two runs measured different things (time and instruction counts)."""


def measure_of(store: Store, run_id: str) -> str:
    """What a run measured: `time`, or `instructions` (runs from before --measure measured time)."""
    return json.loads(store.run(run_id)["args_json"]).get("measure") or "time"


def _cells(rows: list) -> tuple[dict, dict]:
    """(measured cells with their baselines, every non-baseline cell) by KEY, from a run's cells."""
    by_bench = {(r["harness"], r["bench"], r["dataset"], r["format"]): r for r in rows}
    measured, every = {}, {}
    for r in rows:
        if r["is_baseline"]:
            continue
        key = tuple(r[k] for k in KEY)
        every[key] = r
        if r["status"] == "ok" and r["median_ns"] is not None:
            measured[key] = (r, by_bench.get((r["harness"], r["baseline_bench"], r["dataset"], r["format"])))
    return measured, every


def _warmup_k(args: dict) -> float:
    """The steady-state rule a run's times were computed with (stats.trim), as `serbench run
    --resume` finishes it: a run from before adaptive rounds kept every sample."""
    k = runner.stored_settings(args).get("warmup_k")
    return stats.WARMUP_K if k is None else k


def within_noise(cell) -> bool:
    """The cell's net time is within its baseline's noise: its 95% CI reaches zero, as the report marks
    it and leaves it unranked (docs/methodology.md, "Within baseline noise"). Such a net is mostly the
    baseline's noise, and a ratio of two of them (0.138 and 0.212 between two runs of one build)
    says nothing about the library."""
    return cell["net_ns"] is not None and cell["net_ci_low_ns"] is not None and cell["net_ci_low_ns"] <= 0


def countable(rows: list[Row]) -> list[Row]:
    """The rows whose ratio can be read: finite, and neither run's net within its baseline's noise."""
    return [r for r in rows if math.isfinite(r.ratio) and not r.noise]


def _why_not(key, every_a: dict, every_b: dict) -> str:
    def state(every: dict, side: str) -> str:
        c = every.get(key)
        if c is None:
            return f"not in {side}"
        reason = f" ({(c['reason'] or '').splitlines()[0][:80]})" if c["reason"] else ""
        return f"{c['status']} in {side}{reason}"

    return "; ".join(state(e, side) for e, side in ((every_a, "A"), (every_b, "B")))


def geomean_ci(rows: list[Row], rng: random.Random, n_boot: int, level: float = 0.95) -> tuple[float, float]:
    """Two-level bootstrap of the geometric mean: cells with replacement, then one bootstrap ratio of
    each chosen cell (Davison & Hinkley 1997, §3.8), so a library with one cell still gets that cell's
    uncertainty, and one with many cells gets the spread between them."""
    cells = [r.boots for r in rows if r.boots]
    if not cells:
        return (math.nan, math.nan)
    out = []
    for _ in range(n_boot):
        picked = [cells[rng.randrange(len(cells))] for _ in cells]
        out.append(stats.geomean([b[rng.randrange(len(b))] for b in picked]))
    return stats.interval(out, level)


def _differences(a: dict, b: dict, fields) -> list[str]:
    return [f"{label}: {a.get(k)!s} (A) vs {b.get(k)!s} (B)" for k, label in fields if a.get(k) != b.get(k)]


def _context(cmp: Comparison, ra, rb) -> None:
    """What differs between the two runs (their store rows) besides the libraries: machine, settings,
    corpus, versions."""
    ea, eb = json.loads(ra["env_json"]), json.loads(rb["env_json"])
    aa, ab = json.loads(ra["args_json"]), json.loads(rb["args_json"])
    ma, mb = json.loads(ra["manifest_json"]), json.loads(rb["manifest_json"])
    cmp.commits = (ea.get("git_commit"), eb.get("git_commit"))
    cmp.machine = _differences(ea, eb, MACHINE)
    # runs finalized before the estimator was recorded used the fast half (from 2026-11-27) or the 20%
    # trimmed mean; compare() computes their times again with today's
    est = [e.get("estimator", "not recorded (fast half or trimmed mean)") for e in (ea, eb)]
    cmp.settings = [f"mode: {ra['mode']} (A) vs {rb['mode']} (B)"] if ra["mode"] != rb["mode"] else []
    cmp.settings += _differences(aa, ab, SETTINGS) + _differences(ma, mb, MANIFEST)
    # A run finalized with an earlier estimator is computed again with today's (compare() below), so the
    # two sides never differ by estimator: a note, not a different setting. A count has no estimator.
    if cmp.measure != "instructions":
        cmp.recomputed = [
            f"{side} ({e})" for side, r, e in zip("AB", (ra, rb), est, strict=True) if not has_current_estimator(r)
        ]
    ha, hb = ea.get("harnesses") or {}, eb.get("harnesses") or {}
    for h in sorted(ha.keys() & hb.keys()):
        # the runtime first, by its name (the JDK, interpreter or compiler every cell of the harness ran
        # on: JDK 17 and JDK 25 are different settings), then the rest of what its env_info records
        for k in sorted(set(ha[h]) | set(hb[h]), key=lambda k: (k != "runtime", k)):
            if k != "packages" and ha[h].get(k) != hb[h].get(k):
                what = f"{h} runtime" if k == "runtime" else f"{h} harness {k}"
                cmp.settings.append(f"{what}: {ha[h].get(k)} (A) vs {hb[h].get(k)} (B)")
    hashes_a = {d["dataset"]: d["hash"] for d in ma.get("datasets", [])}
    hashes_b = {d["dataset"]: d["hash"] for d in mb.get("datasets", [])}
    compared = {r.key[3] for r in cmp.rows}
    changed = sorted(d for d in compared if hashes_a.get(d) != hashes_b.get(d))
    if changed:
        cmp.settings.append(f"datasets with other data (object hash differs): {', '.join(changed)}")
    cmp.dirty = (bool(ea.get("git_dirty")), bool(eb.get("git_dirty")))


def compare(
    store: Store, run_a: str, run_b: str, n_boot: int = 500, seed: int = 1, progress: Progress | None = None
) -> Comparison:
    """The comparison of two stored runs; `progress(done, total, label)` hears of each cell (two full
    quick runs take about 13 s on the reference machine, most of it in the bootstrap)."""
    measures = measure_of(store, run_a), measure_of(store, run_b)
    if measures[0] != measures[1]:
        raise NotComparable(
            f"run {run_a} measured {measures[0]} and run {run_b} {measures[1]}: a count of instructions and a "
            "time are not comparable; compare two runs made with the same --measure"
        )
    if measures[0] == "instructions":
        return compare_instructions(store, run_a, run_b)
    rows_of = {run: store.cells(run) for run in (run_a, run_b)}  # read once: the noise check below uses them too
    runs = {run: store.run(run) for run in (run_a, run_b)}
    warmup = {run: _warmup_k(json.loads(r["args_json"])) for run, r in runs.items()}
    # each run's clean canary time and slope per harness, as its finalize brought its times to
    canary_refs = {run: canary.recorded(json.loads(r["env_json"])) for run, r in runs.items()}
    # A run finalized with another estimator (stats.ESTIMATOR) has its times computed again from its
    # samples, so that both sides of a ratio and its interval come from the one estimator.
    again = {run for run, r in runs.items() if not has_current_estimator(r)}
    for run in again:  # finalized before processes were chosen at the run's clean speed: choose them now
        clean = canary.clean_times(store.process_medians(run)) if store.canary_zone is not None else {}
        canary_refs[run] = {
            h: s._replace(clean_ns=clean.get(h), zone=store.canary_zone) if s.clean_ns is None else s
            for h, s in canary_refs[run].items()
        }
    ca, every_a = _cells(rows_of[run_a])
    cb, every_b = _cells(rows_of[run_b])
    rows: list[Row] = []
    versions: set[str] = set()
    loaded: dict[int, list[list[float]]] = {}
    reps: dict[int, list[float]] = {}

    def samples(cell) -> list[list[float]]:
        """The cell's samples per process from its steady state on, as the run's times were computed."""
        if cell["id"] not in loaded:
            per_round = store.samples(cell["id"], canary_refs[cell["run_id"]].get(cell["harness"]))
            loaded[cell["id"]] = stats.trim(list(per_round.values()), warmup[cell["run_id"]])[0]
        return loaded[cell["id"]]

    def time_of(cell, base) -> float:
        """The cell's net time (its gross time where the run has no net for it), as stored or, for a
        run in `again`, computed from its samples."""
        if cell["run_id"] not in again:
            return cell["net_ns"] if cell["net_ns"] is not None else cell["median_ns"]
        center = process_center(cell["harness"])
        gross = stats.time_of(samples(cell), center=center)
        return gross - stats.time_of(samples(base), center=center) if cell["net_ns"] is not None else gross

    def net(cell, base) -> list[float]:
        """Bootstrap replicates of a cell's net time, each cell's (a baseline shared by many rows
        too) drawn once (stats.time_replicates, the run's own estimator)."""
        for c in (cell, base) if base else (cell,):
            if c["id"] not in reps:
                reps[c["id"]] = stats.time_replicates(
                    samples(c), random.Random(seed + c["id"]), n_boot, process_center(c["harness"])
                )
        if not base:
            return reps[cell["id"]]
        return [x - y for x, y in zip(reps[cell["id"]], reps[base["id"]], strict=True)]

    shared = sorted(ca.keys() & cb.keys())
    for i, key in enumerate(shared):
        if progress:
            progress(i, len(shared), "/".join(key))
        (ra, ba), (rb, bb) = ca[key], cb[key]
        if ra["version"] != rb["version"]:
            versions.add(f"{ra['library']} {ra['version']} (A) vs {rb['version']} (B)")
        sa, sb = samples(ra), samples(rb)
        a_ns, b_ns = time_of(ra, ba), time_of(rb, bb)
        boots = [vb / va for va, vb in zip(net(ra, ba), net(rb, bb), strict=True) if va > 0]
        ci = stats.interval(boots) if boots else (math.nan,) * 2
        # The test compares round medians: rounds are the independent units (fresh processes). Each
        # round's time as the run computes it: its median, or its mean for a collected runtime.
        center = process_center(key[0])
        meds = [center(r) for r in sa], [center(r) for r in sb]
        p = stats.mann_whitney_p(*meds)
        ratio = b_ns / a_ns if a_ns > 0 else math.nan
        noise = " and ".join(side for side, c in (("A", ra), ("B", rb)) if within_noise(c))
        rows.append(
            Row(
                key,
                ra["library"],
                a_ns,
                b_ns,
                ratio,
                ci,
                p,
                noise=noise,
                boots=[b for b in boots if b > 0],
                medians=meds,
            )
        )
    if progress and shared:
        progress(len(shared), len(shared), "")
    for row, adj in zip(rows, stats.holm([r.p for r in rows]), strict=True):
        row.p_adj = adj
        significant = adj < ALPHA
        row.verdict = verdict(row.ratio, adj)
        excludes_one = row.ci[0] > 1 or row.ci[1] < 1
        if excludes_one != significant and not row.noise:  # a ratio of noise has no CI worth explaining
            row.mark = CI_ONLY if excludes_one else TEST_ONLY
    geo: dict[str, Geo] = {}
    rng = random.Random(seed)
    readable = countable(rows)
    for lib in sorted({r.library for r in rows}):
        mine = [r for r in readable if r.library == lib]
        if mine:
            geo[lib] = Geo(stats.geomean([r.ratio for r in mine]), geomean_ci(mine, rng, n_boot), len(mine))
    keys = sorted(every_a.keys() | every_b.keys())
    not_compared = [(k, _why_not(k, every_a, every_b)) for k in keys if not (k in ca and k in cb)]
    rounds_of = (json.loads(runs[r]["args_json"]).get("rounds", 0) for r in (run_a, run_b))
    cmp = Comparison(run_a, run_b, rows, geo, not_compared, tuple(rounds_of), same_run=run_a == run_b)
    cmp.versions = sorted(versions)
    _context(cmp, runs[run_a], runs[run_b])
    for side, run_id in (("A", run_a), ("B", run_b)):
        noise = run_noise(rows_of[run_id])
        if noise and noise.noisy:
            cmp.noisy.append(f"{side} ({noise.figures()})")
            if noise.rel_ci is not None:
                cmp.noise_ci = max(cmp.noise_ci or 0.0, noise.rel_ci)
    return cmp


def _instr_cells(store: Store, run_id: str) -> tuple[dict, dict]:
    """(counted cells, every non-baseline cell) by KEY, for instruction-count runs."""
    measured, every = {}, {}
    for r in store.cells(run_id):
        if r["is_baseline"]:
            continue
        key = tuple(r[k] for k in KEY)
        every[key] = r
        if r["status"] == "ok" and r["instructions_per_op"] is not None:
            measured[key] = r
    return measured, every


def _net_instr(r) -> float:
    return r["instr_net"] if r["instr_net"] is not None else r["instructions_per_op"]


def compare_instructions(store: Store, run_a: str, run_b: str) -> Comparison:
    """Two instruction-count runs: per cell the ratio of net counts and a verdict without statistics,
    since a count has no sampling error: *identical* when gross and baseline counts are equal (hence
    the net too), *fewer* or *more instructions* otherwise, and *not deterministic* when either side's
    repeat counted differently (its count could differ again on another run)."""
    ca, every_a = _instr_cells(store, run_a)
    cb, every_b = _instr_cells(store, run_b)
    rows: list[Row] = []
    versions: set[str] = set()
    for key in sorted(ca.keys() & cb.keys()):
        ra, rb = ca[key], cb[key]
        if ra["version"] != rb["version"]:
            versions.add(f"{ra['library']} {ra['version']} (A) vs {rb['version']} (B)")
        a, b = _net_instr(ra), _net_instr(rb)
        ratio = b / a if a > 0 else math.nan
        row = Row(key, ra["library"], a, b, ratio, (math.nan, math.nan), math.nan, p_adj=math.nan)
        if 0 in (ra["instr_deterministic"], rb["instr_deterministic"]):
            row.verdict = "not deterministic"
        elif (ra["instructions_per_op"], ra["instr_baseline"]) == (rb["instructions_per_op"], rb["instr_baseline"]):
            row.verdict = "identical"
        elif a == b:
            row.verdict = "same net count"
        else:
            row.verdict = "fewer instructions" if b < a else "more instructions"
        rows.append(row)
    geo = {}
    for lib in sorted({r.library for r in rows}):
        mine = [r.ratio for r in rows if r.library == lib and r.ratio > 0]
        geo[lib] = Geo(stats.geomean(mine) if mine else math.nan, (math.nan, math.nan), len(mine))
    keys = sorted(every_a.keys() | every_b.keys())
    not_compared = [(k, _why_not(k, every_a, every_b)) for k in keys if not (k in ca and k in cb)]
    cmp = Comparison(run_a, run_b, rows, geo, not_compared, (1, 1), same_run=run_a == run_b, measure="instructions")
    cmp.versions = sorted(versions)
    _context(cmp, store.run(run_a), store.run(run_b))
    return cmp


AGREE = 0.05  # two runs of one build "agree" on a cell when B/A of net time is within ±5% (issue 18)


@dataclass(frozen=True)
class DatasetShift:
    median_ratio: float
    cells: int
    agreeing: int  # cells within ±AGREE


#: a dataset's median B/A this far from the whole comparison's is named as having moved as a whole
DATASET_MOVE = 0.02
#: a dataset needs this many compared cells before its median is read as its own shift
DATASET_MIN_CELLS = 10


def by_dataset(rows: list[Row]) -> dict[str, DatasetShift]:
    """Each dataset's median B/A, cell count and cells within ±AGREE, for datasets with at least
    DATASET_MIN_CELLS compared cells."""
    groups: dict[str, list[float]] = {}
    for r in countable(rows):
        if r.ratio > 0:
            groups.setdefault(r.key[3], []).append(r.ratio)
    return {
        ds: DatasetShift(median(xs), len(xs), sum(1 for x in xs if abs(x - 1) <= AGREE))
        for ds, xs in sorted(groups.items())
        if len(xs) >= DATASET_MIN_CELLS
    }


def datasets_moved(rows: list[Row], shift: float | None) -> list[tuple[str, DatasetShift]]:
    """The datasets whose cells moved together, DATASET_MOVE or more beyond the median of all cells.
    Two runs of one build on a shared host showed it: size-5 and product-large, whose data do not fit
    the 2 MiB L2 cache, at a median B/A of 0.93-0.97 where sizes 1-4 were at 0.98-0.99
    (docs/methodology.md, "Extra rounds where the noise is")."""
    if shift is None:
        return []
    groups = by_dataset(rows)
    if len(groups) < 2:
        return []
    return [(ds, d) for ds, d in groups.items() if abs(d.median_ratio / shift - 1) >= DATASET_MOVE]


def common_shift(rows: list[Row]) -> float | None:
    """The median B/A over the compared cells: a change that moves every cell alike is the machine's
    (another host load, another frequency), the level above processes that no run can see from inside
    (Kalibera & Jones 2013). It is reported, never divided out of the ratios and verdicts above; with
    fewer than 20 cells it is not estimated."""
    ratios = [r.ratio for r in countable(rows) if r.ratio > 0]
    return median(ratios) if len(ratios) >= 20 else None


def shifted_verdicts(rows: list[Row], shift: float) -> dict[str, int]:
    """The count of each verdict with the run's common shift taken out: each of B's process medians
    divided by `shift` before the same test and the same Holm adjustment over the same rows. Between
    two runs of one build on a host that was slower during one of them, the cells measured tightest
    come out "slower" or "faster" by the machine's shift alone (4 of 92 unchanged cells in the second
    full-mode pair of docs/methodology.md, "compare"); this
    says which verdicts the shift does not explain. Reported beside the verdicts, never instead of
    them: a change to the build can move every cell alike too. Empty when a row has no medians."""
    if not rows or any(r.medians is None for r in rows):
        return {}
    ps = [stats.mann_whitney_p(r.medians[0], [x / shift for x in r.medians[1]]) for r in rows]
    out: dict[str, int] = {}
    for r, adj in zip(rows, stats.holm(ps), strict=True):
        v = verdict(r.ratio / shift, adj)
        out[v] = out.get(v, 0) + 1
    return out


def verdict(ratio: float, p_adj: float) -> str:
    """A cell's verdict from its ratio B/A and its Holm-adjusted p."""
    return ("faster" if ratio < 1 else "slower") if p_adj < ALPHA else "not significant"
