"""The canary (canary.py, spec/protocol.md `run` step 4): a process's times are brought to the speed at
which its harness's canary takes the machine's reference time, the reference is fixed by the store's
first run on the machine, and `--no-canary` leaves the times as measured."""

from __future__ import annotations

import json
import math

import pytest
from serbench import canary, compare, runner
from serbench.store import Store

from .test_runner import _cell_row


def test_a_process_median_needs_a_canary_in_every_sample():
    assert canary.process_median([20_000, 22_000, 21_000]) == 21_000
    assert canary.process_median([20_000, None]) is None  # a harness before protocol 1.9
    assert canary.process_median([]) is None
    assert canary.process_median([0, 0, 0]) is None  # a clock that read nothing is no speed


def test_factors_take_each_sample_by_the_canaries_around_it_or_a_process_by_its_median():
    """A window of 1: each by the canary before it, a zero clock as measured. A window of 3: the median of
    the sample's canary and its neighbours', cut short at the ends. None: one factor for every sample.
    Any sample without a canary: the process as measured."""
    assert canary.factors([100, 0, 400], 200.0, window=1) == [2.0, 1.0, 0.5]
    assert canary.factors([100, 400], None, window=1) == [1.0, 1.0]
    assert canary.factors([100, 400, 200, 200, 800], 200.0, window=3) == [0.8, 1.0, 1.0, 1.0, 0.4]
    assert canary.factors([100, 200, 400], 200.0) == [1.0, 1.0, 1.0]
    assert canary.factors([100, None, 400], 200.0, window=1) == [1.0, 1.0, 1.0]
    assert canary.WINDOW % 2 == 1


def test_factors_give_a_slope_of_the_canarys_slowdown():
    """A slope of 0.5: a canary twice as slow as the reference halves a time by only sqrt(2)."""
    assert canary.factors([400, 100], 200.0, window=1, slope=0.5) == pytest.approx([0.5**0.5, 2**0.5])
    assert canary.factors([400, 400], 200.0, slope=0.0) == [1.0, 1.0]
    assert canary.factor(400, 200, 0.5) == pytest.approx(0.5**0.5)


def test_the_slope_is_the_pooled_within_cell_fit_held_to_0_and_1():
    """Two cells whose slowed processes took 20% longer where the canary took 50% longer: a slope of
    log 1.2 / log 1.5, whatever each cell's own speed. A cell of one process, or without a canary that
    moved, adds nothing; nothing to fit gives the ratio estimator's 1; the fit is held to [0, 1]."""
    fast, slow = 20_000.0, 30_000.0
    cells = [[(1_000.0, fast), (1_200.0, slow), (1_000.0, fast)], [(50.0, fast), (60.0, slow)], [(7.0, fast)]]
    assert canary.slope(cells) == pytest.approx(math.log(1.2) / math.log(1.5))
    assert canary.slope(cells + [[(3.0, fast), (9.0, fast)]]) == pytest.approx(math.log(1.2) / math.log(1.5))
    assert canary.slope([[(1_000.0, fast), (1_000.0, fast)]]) == canary.MAX_SLOPE == 1.0
    assert canary.slope([]) == 1.0
    assert canary.slope([[(1_000.0, fast), (2_000.0, slow)]]) == 1.0  # log 2 / log 1.5 = 1.71, held to 1
    assert canary.slope([[(1_000.0, fast), (900.0, slow)]]) == 0.0  # slower canary, faster time


def test_a_run_gives_each_harness_the_share_of_the_canarys_slowdown_its_times_feel(tmp_path):
    """The host slows two of B's three processes, their canary by half and the library and its baseline by a
    fifth (a library whose time goes to memory feels less of a slowdown of the core than the loop does).
    The ratio estimator would bring those processes to 1,200 x 2/3 = 800 ns, faster than the clean one, and
    the fast quarter would report 800; the slope fitted on the run, log 1.2 / log 1.5, brings them to
    A's 1,000 ns. The run records the slope, and the report says it."""
    import subprocess
    import sys
    from pathlib import Path

    from serbench.report import facts

    store = Store(tmp_path / "s.db")
    a = _finalized(store, "a", (1_000, 20_000), (200, 20_000))
    lib, base = _run(store, "b")
    for rnd, (slowed, canary_ns) in enumerate(((1.0, 20_000), (1.2, 30_000), (1.2, 30_000))):
        _record(store, lib, rnd, 1_000 * slowed, canary_ns)
        _record(store, base, rnd, 200 * slowed, canary_ns)
    runner.finalize(store, "b", 50, 1)
    b = {c["bench"]: c for c in store.cells("b")}
    assert b["lib"]["median_ns"] == pytest.approx(a["lib"]["median_ns"]) == pytest.approx(1_000)
    assert b["lib"]["net_ns"] == pytest.approx(800)
    env = json.loads(store.run("b")["env_json"])
    assert env["canary"]["fake"]["slope"] == pytest.approx(math.log(1.2) / math.log(1.5), abs=1e-4)
    assert "fitted on the run: fake 0.45" in facts.canary_text(env)
    cmp = compare.compare(store, "a", "b", n_boot=50)  # compare reads the samples with the run's slope
    assert [r.ratio for r in cmp.rows] == [pytest.approx(1.0)]
    # canary_effect --slope 1 finalizes a copy so: the ratio estimator's 800 ns, 20% off A
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    cmd = [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db")]
    out = subprocess.run([*cmd, "--slope", "1"], capture_output=True, text=True, check=True).stdout
    stored, rest = out.split("With a slope of 1 for every harness (the ratio estimator):")
    assert "1 of 1 cells (100.0%)" in stored and "0 of 1 cells (0.0%)" in rest.split("Without it")[0]
    assert "lib tree d json (0.800)" in rest.split("Without it")[0]
    assert store.cells("b")[0]["median_ns"] == pytest.approx(1_000)  # the store untouched
    bad = subprocess.run([*cmd, "--slope", "2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "a slope is a number from 0 to 1, not '2'" in bad.stderr


def test_the_reference_is_the_lower_twentieth_of_the_processes_medians():
    meds = [float(20_000 + 100 * i) for i in range(41)]  # 20,000 .. 24,000
    assert canary.reference(list(reversed(meds))) == 20_200  # index int(0.05 * 40) = 2
    assert canary.reference([25_000.0]) == 25_000
    assert canary.reference([]) is None
    assert canary.factor(25_000, 20_000) == pytest.approx(0.8)
    assert canary.factor(None, 20_000) == 1.0 and canary.factor(25_000, None) == 1.0


def _cell(bench: str, baseline: str | None = None) -> dict:
    return _cell_row(bench) | {"is_baseline": int(bench == "base"), "baseline_bench": baseline}


def _record(store: Store, cell_id: int, rnd: int, ns_per_op: float, canary_ns: int | None, n: int = 8) -> None:
    row = {"iterations": 10, "wall_ns": int(ns_per_op * 10), "cpu_ns": None, "canary_ns": canary_ns}
    rows = [dict(row) for _ in range(n)]
    store.record_round(cell_id, rnd, "ok", None, 0.01, rows)


def _run(store: Store, run_id: str, **env) -> tuple[int, int]:
    store.create_run(run_id, "test", {}, {"cpu_model": "Test CPU", "cores": 2} | env, {"datasets": []})
    return store.add_cell(run_id, _cell("lib", baseline="base")), store.add_cell(run_id, _cell("base"))


def _finalized(store: Store, run_id: str, lib: tuple[float, int], base: tuple[float, int], **env) -> dict:
    """A run of one row and its baseline, 3 processes each of (ns per op, canary ns), finalized."""
    ids = _run(store, run_id, **env)
    for cell_id, (ns, canary_ns) in zip(ids, (lib, base), strict=True):
        for rnd in range(3):
            _record(store, cell_id, rnd, ns, canary_ns)
    runner.finalize(store, run_id, 50, 1)
    return {c["bench"]: c for c in store.cells(run_id)}


def test_canary_effect_with_a_deadzone_corrects_only_the_canarys_distance_beyond_it(tmp_path):
    """All of B's processes ran on a core 1.5 times slower than A's (canary 30,000 ns against the
    reference 20,000), and so did their times: as stored, B is brought to A (slope 1: the canary did not
    move within a cell). `research/canary_effect.py --deadzone 0.5` (wider than log 1.5 = 0.405) leaves B as
    measured, 1.5 times A, exactly as without the canary; `--deadzone 0.2` corrects only the 0.205 beyond
    the zone: 1.5 x exp(-0.205) = 1.221. The runs' lines say the zone they were finalized with."""
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    _finalized(store, "a", (1_000, 20_000), (200, 20_000))
    _finalized(store, "b", (1_500, 30_000), (300, 30_000))
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    cmd = [
        sys.executable,
        str(tool),
        "a",
        "b",
        "--db",
        str(tmp_path / "s.db"),
        "--deadzone",
        "0.5",
        "--deadzone",
        "0.2",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    stored, rest = out.split("With a deadzone of 0.5 (log scale) around the clean canary time:")
    wide, rest = rest.split("With a deadzone of 0.2 (log scale) around the clean canary time:")
    narrow, bare = rest.split("Without it (the same samples, finalized as under --no-canary):")
    assert "1 of 1 cells (100.0%)" in stored
    assert "0 of 1 cells (0.0%)" in wide and "lib tree d json (1.500)" in wide and "fake 1.00 (deadzone 0.5)" in wide
    assert wide.splitlines()[1] == bare.splitlines()[1]  # compare's agreement line: as measured
    assert "lib tree d json (1.221)" in narrow and "fake 1.00 (deadzone 0.2)" in narrow
    assert store.cells("b")[0]["median_ns"] == pytest.approx(1_000)  # the store untouched


def test_a_slowed_process_is_brought_back_to_the_clean_speed(tmp_path):
    store = Store(tmp_path / "s.db")
    lib, _ = _run(store, "r")
    _record(store, lib, 0, 1_000, 20_000)
    _record(store, lib, 1, 1_250, 25_000)  # the host slowed this whole process by a quarter
    _record(store, lib, 2, 1_000, None)  # no canary: as measured
    assert store.samples(lib) == {0: [1_000] * 8, 1: [1_250] * 8, 2: [1_000] * 8}
    assert store.samples(lib, canary.Speed(20_000)) == {0: [1_000] * 8, 1: pytest.approx([1_000] * 8), 2: [1_000] * 8}


def test_the_first_run_on_a_machine_fixes_the_reference_for_the_runs_after_it(tmp_path):
    store = Store(tmp_path / "s.db")
    a = _finalized(store, "a", (1_000, 20_000), (200, 20_000))  # canary 20 us, lib 1,000 ns, baseline 200 ns
    b = _finalized(store, "b", (1_100, 22_000), (220, 22_000))  # the host a tenth slower; the canary sees it
    assert a["lib"]["median_ns"] == pytest.approx(1_000) and b["lib"]["median_ns"] == pytest.approx(1_000)
    assert b["lib"]["net_ns"] == pytest.approx(800)
    facts = json.loads(store.run("b")["env_json"])["canary"]
    # every process of a cell had the same canary: no slope to fit, the ratio estimator's 1
    # and its own clean time, within 5% of which every process is: all chosen, brought by the run's factor
    assert facts == {
        "fake": {
            "reference_ns": 20_000,
            "processes": 6,
            "median_slowdown": 1.1,
            "slope": 1.0,
            "deadzone": 0.0,
            "clean_ns": 22_000,
            "zone": 0.05,
            "clean_share": 1.0,
            "min_clean": 2,
        }
    }
    # compare recomputes from the samples with the same reference: the two runs agree
    cmp = compare.compare(store, "a", "b", n_boot=50)
    assert [r.ratio for r in cmp.rows] == [pytest.approx(1.0)]


def test_no_canary_keeps_the_times_as_measured(tmp_path):
    store = Store(tmp_path / "s.db")
    got = _finalized(store, "r", (1_100, 22_000), (220, 20_000), canary_off=True)
    assert got["lib"]["median_ns"] == pytest.approx(1_100) and got["lib"]["net_ns"] == pytest.approx(880)
    assert "canary" not in json.loads(store.run("r")["env_json"])


def test_canary_effect_shows_both_ways_and_leaves_the_store_alone(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    for run, slow in (("a", 1.0), ("b", 1.1)):  # b: the host a tenth slower, which the canary sees
        _finalized(store, run, (1_000 * slow, int(20_000 * slow)), (200 * slow, int(20_000 * slow)))
    before = [dict(c) for c in store.cells("b")]
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    out = subprocess.run(
        [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with_canary, without = out.split("Without it")
    assert "1 of 1 cells (100.0%)" in with_canary and "by harness: fake 1 of 1 (100.0%)" in with_canary
    assert "0 of 1 cells (0.0%)" in without and "lib tree d json (1.100)" in without
    assert [dict(c) for c in Store(tmp_path / "s.db").cells("b")] == before
    missing = subprocess.run(
        [sys.executable, str(tool), "a", "zz", "--db", str(tmp_path / "s.db")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and missing.stderr.strip() == f"canary_effect: no run zz in {tmp_path / 's.db'}"


def test_canary_effect_also_finalizes_with_another_share_of_the_fastest_processes(tmp_path):
    """`--share 1/3`: the same samples with the fast third as the estimator (docs/methodology.md, "The fast
    quarter"). The host slowed two of A's four processes and three of B's by 30%, out of the canary's
    sight: the fast quarter (the fastest of 4) agrees, the fast third ((3 x1 + x2) / 4) moves B by 7.5%."""
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    for run, lib_ns in (("a", (1_000, 1_000, 1_300, 1_300)), ("b", (1_000, 1_300, 1_300, 1_300))):
        lib, base = _run(store, run)
        for rnd, ns in enumerate(lib_ns):
            _record(store, lib, rnd, ns, 20_000)
            _record(store, base, rnd, 200, 20_000)
        runner.finalize(store, run, 50, 1)
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    cmd = [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db")]
    out = subprocess.run([*cmd, "--share", "1/3"], capture_output=True, text=True, check=True).stdout
    stored, third = out.split("fastest 0.333 of processes:")
    assert "1 of 1 cells (100.0%)" in stored and "0 of 1 cells (0.0%)" in third.split("Without it")[0]
    assert {c["bench"]: c["median_ns"] for c in store.cells("b")} == {"lib": 1_000, "base": 200}
    bad = subprocess.run([*cmd, "--share", "3/2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "a share is above 0 and at most 1, not '3/2'" in bad.stderr


def test_a_harness_whose_canary_is_unused_keeps_its_times_and_the_run_says_why(tmp_path):
    """Python's interpreted canary was unused (protocol 1.9); no harness declares one unused since its canary
    runs in C (1.10), but a harness may, and the run then keeps its times as measured."""
    from serbench.harnesses import harness_classes
    from serbench.report import facts

    assert all(h.canary_unused is None for h in harness_classes().values())
    store = Store(tmp_path / "s.db")
    got = _finalized(store, "r", (1_100, 22_000), (200, 20_000), canary_unused={"fake": "why"})
    assert got["lib"]["median_ns"] == pytest.approx(1_100) and got["lib"]["net_ns"] == pytest.approx(900)
    run_env = json.loads(store.run("r")["env_json"])
    assert run_env["canary"] == {"fake": {"unused": "why", "processes": 6}}
    assert facts.canary_text(run_env) == "fake as measured (its canary is not used: see the methodology)"
    # compare recomputes such a run's samples as measured, and says nothing is different from itself
    _finalized(store, "r2", (1_100, 30_000), (200, 20_000), canary_unused={"fake": "why"})
    assert [r.ratio for r in compare.compare(store, "r", "r2", n_boot=50).rows] == [pytest.approx(1.0)]


def test_runs_divide_each_sample_by_a_running_median_of_canaries_and_canary_effect_shows_other_ways(tmp_path):
    """In B's processes the host slows the second half by 30%, which the canary sees, and one canary of
    the first half alone reads twice as slow (its own noise). The running median of 5 (as runs divide)
    gives 1,000 ns as in A; one median per process (`--window process`) gives 885; no canary, 1,150."""
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    slowed = [(1_000, 20_000), (1_000, 40_000), (1_000, 20_000), (1_000, 20_000)] + [(1_300, 26_000)] * 4
    for run, rows in (("a", [(1_000, 20_000)] * 8), ("b", slowed)):
        lib, base = _run(store, run)
        for rnd in range(3):
            store.record_round(
                lib,
                rnd,
                "ok",
                None,
                0.01,
                [{"iterations": 10, "wall_ns": ns * 10, "cpu_ns": None, "canary_ns": c} for ns, c in rows],
            )
            _record(store, base, rnd, 200, 20_000)
        runner.finalize(store, run, 50, 1)
    assert {c["bench"]: c["median_ns"] for c in store.cells("b")}["lib"] == pytest.approx(1_000)
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    out = subprocess.run(
        [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db"), "--window", "process", "--window", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    stored, rest = out.split("With each process divided by its canary's median:")
    per_process, rest = rest.split("With each sample divided by the canary timed just before it:")
    one, without = rest.split("Without it")
    assert "1 of 1 cells (100.0%)" in stored and "0 of 1 cells (0.0%)" in per_process
    assert "1 of 1 cells (100.0%)" in one and "0 of 1 cells (0.0%)" in without
    assert {c["bench"]: c["median_ns"] for c in store.cells("b")}["lib"] == pytest.approx(1_000)  # untouched


def test_a_deadzone_leaves_a_canary_near_the_clean_time_as_measured_and_corrects_only_beyond_it():
    """A deadzone of log 1.1: a canary 5% slower than the reference, or 5% faster, is taken for its own noise
    and leaves the time as measured; one 21% slower (1.1 x 1.1) is corrected for the 10% beyond the zone,
    to the power of the slope; a zone of 0 is the plain factor."""
    dz = math.log(1.1)
    assert canary.factor(210, 200, 1.0, dz) == 1.0
    assert canary.factor(190, 200, 1.0, dz) == 1.0
    assert canary.factor(242, 200, 1.0, dz) == pytest.approx(1 / 1.1)
    assert canary.factor(242, 200, 0.5, dz) == pytest.approx(1.1**-0.5)
    assert canary.factor(150, 200, 1.0, dz) == pytest.approx(200 / 150 / 1.1)  # 25% faster: corrected beyond the zone
    assert canary.factors([242, 210], 200.0, window=1, deadzone=dz) == pytest.approx([1 / 1.1, 1.0])
    assert canary.factor(242, 200, 1.0, 0.0) == canary.factor(242, 200) == pytest.approx(200 / 242)


def test_a_cell_takes_its_processes_at_the_runs_clean_speed_as_measured(tmp_path):
    """Two processes ran at the run's clean canary speed (20,000 ns, and 20,800 within the 5% zone) and one
    on a slowed core (30,000) that slowed this library by only a tenth: corrected by its canary it would
    read 1,100 x 2/3 = 733 ns, below the clean ones. Chosen, the cell is its two clean processes, brought by
    the one factor of the run's clean time to the machine's reference (here 19,000: 0.95). With a single
    clean process every process is corrected, as without a choice, so that the interval still sees the
    spread between processes (canary.MIN_CLEAN)."""
    store = Store(tmp_path / "s.db")
    lib, _ = _run(store, "r")
    _record(store, lib, 0, 1_000, 20_000)
    _record(store, lib, 1, 1_000, 20_800)
    _record(store, lib, 2, 1_100, 30_000)
    chosen = store.samples(lib, canary.Speed(19_000, clean_ns=20_000))
    assert chosen == {0: pytest.approx([950] * 8), 1: pytest.approx([950] * 8)}
    corrected = store.samples(lib, canary.Speed(19_000, clean_ns=20_000, zone=0.01))  # 20,800 is outside 1%
    assert corrected == {
        0: pytest.approx([950] * 8),
        1: pytest.approx([1_000 * 19 / 20.8] * 8),
        2: pytest.approx([1_100 * 19 / 30] * 8),
    }
    assert store.samples(lib, canary.Speed(19_000)) == corrected  # no clean time: every process corrected
    assert store.process_count(lib) == 3


def test_compare_chooses_the_clean_processes_of_a_run_finalized_before_the_choice(tmp_path):
    """Run B was finalized correcting every process by the ratio (slope 1, as runs before 2026-12-05 could):
    its two processes on a slowed core (canary 1.5 times the clean time, the library 1.1 times) came out at
    733 ns and the fast quarter took that, 27% below A. `compare` computes such a run again with today's
    estimator, choosing its two clean processes (the run's clean canary time from its own processes), and
    the two runs agree; its note says so. The run's record keeps every process it ran (n_rounds 4), while
    its time and interval come from the clean ones."""
    store = Store(tmp_path / "s.db")
    _finalized(store, "a", (1_000, 20_000), (200, 20_000))
    store.canary_slope, store.canary_zone = 1.0, None
    lib, base = _run(store, "b")
    for rnd, (ns, canary_ns) in enumerate(((1_000, 20_000), (1_000, 20_000), (1_100, 30_000), (1_100, 30_000))):
        _record(store, lib, rnd, ns, canary_ns)
        _record(store, base, rnd, 200, 20_000)
    runner.finalize(store, "b", 50, 1)
    old = {c["bench"]: c for c in store.cells("b")}
    assert old["lib"]["median_ns"] == pytest.approx(1_100 / 1.5) and old["lib"]["n_rounds"] == 4
    store.set_run_env("b", "estimator", "fast quarter, of process means for a collected runtime")
    store.canary_slope, store.canary_zone = None, canary.ZONE
    cmp = compare.compare(store, "a", "b", n_boot=50)
    assert [r.ratio for r in cmp.rows] == [pytest.approx(1.0)]
    runner.finalize(store, "b", 50, 1)  # finalized today: the same choice, recorded with the run
    new = {c["bench"]: c for c in store.cells("b")}
    assert new["lib"]["median_ns"] == pytest.approx(1_000) and new["lib"]["n_rounds"] == 4
    env = json.loads(store.run("b")["env_json"])
    assert env["canary"]["fake"]["clean_ns"] == 20_000 and env["canary"]["fake"]["clean_share"] == 0.75  # 6 of 8
    from serbench.report import facts

    assert (
        "a cell's time from its processes whose canary is within 5% of the run's clean canary time (of all "
        "processes: fake 75%), each process corrected only in a cell with fewer than 2 such" in facts.canary_text(env)
    )


def test_canary_effect_with_zone_none_corrects_every_process_as_runs_did_before_the_choice(tmp_path):
    """In B one process of the library and one of its baseline ran while the canary read 30% slow; the
    baseline felt all of it and the library none, so the slope fitted over both cells is about a half.
    Corrected, the library's slow-canary process comes out at 1,000 x (20/26)^0.5 = 877 ns, the fastest
    of its three, and its net 23% below A's; chosen, both cells are their two clean processes and agree
    with A. `--zone none` shows the first, `--zone 0.05` (the runs' own) the second."""
    import subprocess
    import sys
    from pathlib import Path

    store = Store(tmp_path / "s.db")
    _finalized(store, "a", (1_000, 20_000), (200, 20_000))
    lib, base = _run(store, "b")
    for rnd, canary_ns in enumerate((20_000, 20_000, 26_000)):
        _record(store, lib, rnd, 1_000, canary_ns)
        _record(store, base, rnd, 200 * canary_ns / 20_000, canary_ns)
    runner.finalize(store, "b", 50, 1)
    tool = Path(__file__).resolve().parents[2] / "research" / "canary_effect.py"
    cmd = [sys.executable, str(tool), "a", "b", "--db", str(tmp_path / "s.db")]
    out = subprocess.run([*cmd, "--zone", "none", "--zone", "0.05"], capture_output=True, text=True, check=True)
    stored, rest = out.stdout.split("With every process corrected:")
    corrected, chosen = rest.split("With processes chosen within 0.05 of the run's clean canary time:")
    assert "1 of 1 cells (100.0%)" in stored and "1 of 1 cells (100.0%)" in chosen.split("Without it")[0]
    assert "0 of 1 cells (0.0%)" in corrected
    bad = subprocess.run([*cmd, "--zone", "2"], capture_output=True, text=True)
    assert bad.returncode == 2 and "a zone is a number from 0 to 1, not '2'" in bad.stderr
