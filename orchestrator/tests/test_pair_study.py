"""research/pair_study.py on a synthetic store: planted process noise and a planted drift are found."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import sqlite3
from pathlib import Path

from serbench import canary

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("pair_study", ROOT / "research" / "pair_study.py")
pair_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pair_study)


def _store(path: Path, drift_pct: float) -> sqlite3.Connection:
    """Two runs of 60 cells x 3 processes (one pass after another, cells shuffled in each, as quick mode's
    passes), 1% process noise; run B's machine drifts, `drift_pct` % up and down over 120 s."""
    db = sqlite3.connect(path)
    db.executescript(
        "create table cells (id integer primary key, run_id text, harness text, bench text, baseline_bench text,"
        " test text, dataset text, format text, status text);"
        "create table rounds (cell_id int, round int, finished_at real);"
        "create table samples (cell_id int, round int, idx int, iterations int, wall_ns int);"
    )
    rng = random.Random(3)
    true = {f"lib{i}": 1000.0 * (1 + i) for i in range(60)}
    cid = 0
    for run, t0 in (("A", 0.0), ("B", 10_000.0)):
        for rnd in range(3):
            order = list(true)
            rng.shuffle(order)
            for j, bench in enumerate(order):
                cid += 1
                db.execute(
                    "insert into cells values (?, ?, 'native', ?, NULL, 'tree', 'size-1', 'json', 'ok')",
                    (cid, run, bench),
                )
                t = t0 + rnd * 100 + j
                slow = 1 + drift_pct / 100 * math.sin(2 * math.pi * (t - t0) / 120) if run == "B" else 1.0
                db.execute("insert into rounds values (?, ?, ?)", (cid, rnd, t))
                for idx in range(5):
                    ns = true[bench] * slow * math.exp(rng.gauss(0, 0.01))
                    db.execute("insert into samples values (?, ?, ?, 100, ?)", (cid, rnd, idx, int(ns * 100)))
    db.commit()
    return db


def test_a_pair_that_differs_only_by_process_noise_has_run_effects_near_one(tmp_path, capsys):
    db = _store(tmp_path / "s.db", drift_pct=0.0)
    pa = pair_study.load(db, "A").procs
    pb = pair_study.load(db, "B").procs
    pair_study.run_effects(pair_study.per_cell(pa), pair_study.per_cell(pb))
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("all"))
    ratio = float(line.split()[-1])
    assert 0.6 < ratio < 1.5, line


def test_a_drift_common_to_all_cells_shows_in_the_bins_and_its_correction_narrows_b_over_a(tmp_path, capsys):
    db = _store(tmp_path / "s.db", drift_pct=6.0)
    pa = pair_study.load(db, "A").procs
    pb = pair_study.load(db, "B").procs
    pair_study.drift("B", pb, bin_s=30.0)
    out = capsys.readouterr().out
    bins = [float(x) for x in out.splitlines()[1].split()[1:]]
    assert max(bins) > 2 and min(bins) < -4, out  # the wave's crest and trough, in their 30 s bins
    a, b = pair_study.per_cell(pa), pair_study.per_cell(pb)
    raw = pair_study.spread_of_ratio(a, b)
    fixed = pair_study.spread_of_ratio(a, pair_study.per_cell(pb, pair_study.moving_drift(pb, 10)))
    assert fixed < raw * 0.8, (raw, fixed)


def test_a_low_quantile_inside_a_process_drops_a_collectors_slow_batches_where_the_fast_quarter_keeps_them(
    tmp_path, capsys
):
    """Native cells with 1% noise, and Go cells whose every process runs 5 batches of which 3 hold a
    collection (1.5x): the fast quarter of process medians gives the collecting cells their 1.5x and
    agrees between the runs, the 10th percentile inside a process reports the batches without one."""
    db = sqlite3.connect(tmp_path / "s.db")
    db.executescript(
        "create table cells (id integer primary key, run_id text, harness text, bench text, baseline_bench text,"
        " test text, dataset text, format text, status text);"
        "create table rounds (cell_id int, round int, finished_at real);"
        "create table samples (cell_id int, round int, idx int, iterations int, wall_ns int);"
    )
    rng = random.Random(5)
    cid = 0
    for run in ("A", "B"):
        for harness in ("native", "go"):
            for i in range(20):
                cid += 1
                db.execute(
                    "insert into cells values (?, ?, ?, ?, NULL, 'tree', 'size-1', 'json', 'ok')",
                    (cid, run, harness, f"lib{i}"),
                )
                for rnd in range(4):
                    db.execute("insert into rounds values (?, ?, ?)", (cid, rnd, cid * 10 + rnd))
                    for idx in range(5):
                        gc = 1.5 if harness == "go" and idx % 2 == 0 else 1.0
                        ns = 1000.0 * (1 + i) * gc * math.exp(rng.gauss(0, 0.01))
                        db.execute("insert into samples values (?, ?, ?, 1, ?)", (cid, rnd, idx, int(ns)))
    db.commit()
    sa = pair_study.load(db, "A").steady
    sb = pair_study.load(db, "B").steady
    pair_study.estimators(sa, sb)
    rows = {ln[3:27].strip(): ln[27:].split() for ln in capsys.readouterr().out.splitlines()[2:]}
    fast, p10 = rows["fast quarter of medians"], rows["fast quarter of 10th pct"]
    assert float(fast[0].rstrip("%")) >= 95, fast  # every cell within +-5%
    go, native = p10.index("go"), p10.index("native")
    assert float(p10[go + 1]) < 0.72 and float(p10[native + 1]) > 0.97, p10  # 1/1.5 for the collector


def test_net_agreement_by_estimator_counts_rows_as_compare_does_and_shows_what_the_fast_half_lost(tmp_path, capsys):
    """Part 5's net column: rows and their baselines of 4 processes each, where the host slows more than
    half the processes by 10-50% (levels within 1%). Each row's net is its estimate minus its
    baseline's, by the same estimator; a row whose stored net CI reaches zero is left out, as in
    `compare`. The fast third, which weighs the second-fastest of 4 by a third, agrees more often than
    the fast half, which weighs it fully ("The fast third" in docs/methodology.md), and the fast
    quarter, the fastest of 4 alone, more often than both ("The fast quarter")."""
    db = sqlite3.connect(tmp_path / "s.db")
    db.executescript(
        "create table cells (id integer primary key, run_id text, harness text, bench text, baseline_bench text,"
        " test text, dataset text, format text, status text, net_ci_low_ns real);"
        "create table rounds (cell_id int, round int, finished_at real);"
        "create table samples (cell_id int, round int, idx int, iterations int, wall_ns int);"
    )
    rng = random.Random(3)
    cid = 0
    for run in ("A", "B"):
        for i in range(150):
            for bench, baseline, ns in ((f"base{i}", None, 1000.0), (f"lib{i}", f"base{i}", 4000.0)):
                cid += 1
                low = -1.0 if bench == "lib0" and run == "B" else None  # within baseline noise in B
                db.execute(
                    "insert into cells values (?, ?, 'native', ?, ?, 'tree', ?, 'json', 'ok', ?)",
                    (cid, run, bench, baseline, f"size-{i}", low),
                )
                for rnd in range(4):
                    db.execute("insert into rounds values (?, ?, ?)", (cid, rnd, cid * 10 + rnd))
                    slow = (1 + rng.uniform(0.1, 0.5)) if rng.random() < 0.55 else 1.0
                    level = ns * slow * math.exp(rng.gauss(0, 0.01))
                    for idx in range(5):
                        db.execute("insert into samples values (?, ?, ?, 1, ?)", (cid, rnd, idx, int(level)))
    db.commit()
    _, base_a, sa, _ = pair_study.load(db, "A")
    _, base_b, sb, _ = pair_study.load(db, "B")
    noise = pair_study.within_noise(db, "A") | pair_study.within_noise(db, "B")
    assert noise == {("native", "lib0", "tree", "size-0", "json")}
    assert len(pair_study._nets({k: 1.0 for k in sa}, base_a)) == 150
    pair_study.estimators(sa, sb, base_a | base_b, noise)
    rows = {ln[3:27].strip(): ln[27:].split() for ln in capsys.readouterr().out.splitlines()[2:]}
    quarter, third, half = (
        float(rows[f"fast {share} of medians"][1].rstrip("%")) for share in ("quarter", "third", "half")
    )
    assert quarter > third + 5 and third > half + 5, (quarter, third, half)


def test_a_store_it_cannot_open_or_a_run_it_lacks_is_one_line_and_status_2(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "none.db"
    monkeypatch.setattr("sys.argv", ["pair_study", "A", "B", "--db", str(missing)])
    assert pair_study.main() == 2
    err = capsys.readouterr().err.strip()
    assert err == f"pair_study: cannot read {missing}: unable to open database file"
    assert not missing.exists()  # read-only: never creates a store
    _store(tmp_path / "s.db", 0.0).close()
    monkeypatch.setattr("sys.argv", ["pair_study", "A", "C", "--db", str(tmp_path / "s.db")])
    assert pair_study.main() == 2
    assert capsys.readouterr().err.strip() == "pair_study: no measured cells in C"


def test_fewer_samples_per_process_agree_less_often_and_the_count_is_per_harness(capsys):
    """Cells whose processes have 20 samples each with 8% noise inside a process, and in run A a
    slowdown per process that its canary saw too: divided by the canary, medians over all 20 agree
    between the runs more often than over the last 5, and far more often than as measured. A harness
    whose processes have 5 samples agrees as often whatever k, since its last 5 and 10 are all of them."""
    rng = random.Random(11)

    def run() -> dict:
        out = {}
        for harness, n in (("native", 20), ("go", 5)):
            for i in range(200):
                procs = [[1000.0 * (1 + i) * math.exp(rng.gauss(0, 0.08)) for _ in range(n)] for _ in range(4)]
                out[(harness, f"lib{i}", "tree", "size-1", "json")] = procs
        return out

    a, b = run(), run()
    # every process slowed by its own host factor, which its canary saw alike: divided, it is gone
    host = {key: [math.exp(rng.gauss(0, 0.2)) for _ in procs] for key, procs in a.items()}
    slowed = {key: [[x * f for x in p] for p, f in zip(procs, host[key], strict=True)] for key, procs in a.items()}
    canary = {key: [[1 / f] * len(p) for p, f in zip(procs, host[key], strict=True)] for key, procs in a.items()}
    flat = {key: [[1.0] * len(p) for p in procs] for key, procs in b.items()}  # the factors: B's canary clean
    pair_study.sample_counts(slowed, b, canary, flat)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("6. ")
    pct = {}
    for ln in lines[1:]:
        way, rest = ln[3:15].strip(), ln[16:].split()
        words = rest[2:]  # after "all samples", "last 10" or "last 5"
        pct[(way, " ".join(rest[:2]))] = {words[i]: float(words[i + 1].rstrip("%")) for i in range(0, len(words), 2)}
    measured, divided = pct[("as measured", "all samples")], pct[("÷canary", "all samples")]
    assert measured["native"] < 50 and divided["native"] > measured["native"] + 20, pct  # the host's factor
    assert divided["native"] > pct[("÷canary", "last 5")]["native"] + 10, pct
    assert divided["go"] == pct[("÷canary", "last 10")]["go"] == pct[("÷canary", "last 5")]["go"], pct


def test_load_takes_each_process_canary_factors_as_compare_reads_the_run_and_skips_cells_missing_one(tmp_path):
    """One pass gives the times and the canary factors: each process's factors over all its samples (the
    running median of canary.WINDOW, the run's reference and slope), cut where its times' warm-up ends;
    a cell with one sample without a canary has none; a run with no canary facts (`--no-canary`), and a
    store from before protocol 1.9 (no `canary_ns` column), load with none."""
    db = sqlite3.connect(tmp_path / "s.db")
    db.executescript(
        "create table runs (id text, env_json text);"
        "create table cells (id integer primary key, run_id text, harness text, bench text, baseline_bench text,"
        " test text, dataset text, format text, status text);"
        "create table rounds (cell_id int, round int, finished_at real);"
        "create table samples (cell_id int, round int, idx int, iterations int, wall_ns int, canary_ns int);"
    )
    env = {"canary": {"native": {"reference_ns": 20_000.0, "processes": 4, "median_slowdown": 1.0, "slope": 0.5}}}
    db.execute("insert into runs values ('A', ?), ('B', '{}')", (json.dumps(env),))
    cans = {}
    for cid, run, bench in ((1, "A", "full"), (2, "A", "gap"), (3, "B", "full")):
        db.execute(
            "insert into cells values (?, ?, 'native', ?, NULL, 'tree', 'size-1', 'json', 'ok')", (cid, run, bench)
        )
        for rnd in range(2):
            db.execute("insert into rounds values (?, ?, ?)", (cid, rnd, float(rnd)))
            for idx in range(12):
                wall = 5000 if idx < 4 else 1000 + idx  # a warm-up the steady-state rule cuts
                can = None if (bench == "gap" and rnd == 1 and idx == 7) else 20_000 * (1 + (idx % 3)) + rnd
                cans.setdefault((cid, rnd), []).append(can)
                db.execute("insert into samples values (?, ?, ?, 1, ?, ?)", (cid, rnd, idx, wall, can))
    db.commit()
    run = pair_study.load(db, "A")
    full = ("native", "full", "tree", "size-1", "json")
    assert set(run.factors) == {full}
    for rnd, (times, factors) in enumerate(zip(run.steady[full], run.factors[full], strict=True)):
        assert len(times) == len(factors) < 12 and max(times) < 5000
        every = canary.factors(cans[(1, rnd)], 20_000.0, canary.WINDOW, 0.5)
        assert factors == every[12 - len(factors) :] and min(every) < 1.0  # the window sees the slow canaries
    assert pair_study.load(db, "B").factors == {}  # no reference: a run made with --no-canary
    db.execute("alter table samples drop column canary_ns")
    old = pair_study.load(db, "A")
    assert old.factors == {} and old.steady == run.steady
