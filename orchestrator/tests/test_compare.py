"""`compare` says what its numbers mean: a CI beside a verdict that seems to contradict it is explained,
the geometric mean has a CI, cells it could not compare are listed, and comparing a run with itself or
with a run from another machine or other settings says so."""

from __future__ import annotations

import json
import math
import random

import pytest
from serbench import noiseband, runner, stats
from serbench.cli import main
from serbench.compare import (
    CI_ONLY,
    Comparison,
    DatasetShift,
    Row,
    by_dataset,
    common_shift,
    compare,
    shifted_verdicts,
)
from serbench.compare_text import agreement, render, to_json
from serbench.report import html as html_report
from serbench.store import Store

from .test_report import ARGS, ENV, MANIFEST, _cell, make_run


def _two_runs(tmp_path) -> Store:
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    make_run(store, "run-b", speed=0.5)
    return store


def test_a_ci_that_excludes_one_beside_not_significant_is_marked_and_explained(tmp_path):
    cmp = compare(_two_runs(tmp_path), "run-a", "run-b", n_boot=100)
    marked = [r for r in cmp.rows if r.mark == CI_ONLY]
    assert {r.key[1] for r in marked} == {"fastjson", "packer"}
    assert all((r.ci[1] < 1 or r.ci[0] > 1) and r.verdict == "not significant" for r in marked)
    text = render(cmp, every=True)
    assert "| 0.450 | 0.445 – 0.455 | 0.4 | not significant † |" in text
    legend = text.split("† The CI excludes 1")[1]
    assert "round medians" in legend and "fresh process" in legend and "Holm" in legend and "--mode full" in legend
    # a row whose CI includes 1 has no mark
    assert next(r for r in cmp.rows if r.key[1] == "slowjson").mark == ""


def test_the_geometric_mean_per_library_has_a_bootstrap_ci_over_its_cells(tmp_path):
    cmp = compare(_two_runs(tmp_path), "run-a", "run-b", n_boot=200)
    fast = cmp.geo["fastjson"]
    assert fast.cells == 2 and fast.ci[0] <= fast.value <= fast.ci[1] and fast.ci[1] - fast.ci[0] > 0.005
    assert cmp.geo["slowjson"].ci[0] < 1 < cmp.geo["slowjson"].ci[1]
    assert compare(_two_runs(tmp_path / "again"), "run-a", "run-b", n_boot=200).geo == cmp.geo  # seeded
    assert "| fastjson | 2 | 0.455 | " in render(cmp, every=True)


def test_cells_measured_in_one_run_only_are_listed_with_the_reason(tmp_path):
    store = _two_runs(tmp_path)
    _cell(store, "run-a", "extra", "tree", "json", 700, baseline="copy-input")
    runner.finalize(store, "run-a", 50, 1)
    store.db.execute(
        "UPDATE cells SET status='failed', reason='crashed (signal 11)' WHERE run_id='run-b' AND bench='packer'"
    )
    cmp = compare(store, "run-a", "run-b", n_boot=50)
    why = {k[1]: w for k, w in cmp.not_compared}
    assert why == {
        "extra": "ok in A; not in B",
        "packer": "ok in A; failed in B (crashed (signal 11))",
        "lossy": "incorrect in A (hash 1111111111111111 != expected 0000000000000000); "
        "incorrect in B (hash 1111111111111111 != expected 0000000000000000)",
    }
    text = render(cmp, every=True)
    assert "Not compared (3 cells not measured in both runs):" in text
    assert "| python | packer | tree | size-1 | msgpack | ok in A; failed in B (crashed (signal 11)) |" in text


def test_comparing_a_run_with_itself_says_so(tmp_path):
    store = _two_runs(tmp_path)
    cmp = compare(store, "run-a", "run-a", n_boot=50)
    assert cmp.same_run and all(r.ratio == 1 for r in cmp.rows)
    assert "**⚠ A and B are the same run (run-a):** every ratio is 1 by construction" in render(cmp)
    assert "same run" not in render(compare(store, "run-a", "run-b", n_boot=50))


def test_runs_from_another_machine_or_with_other_settings_say_what_differs(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    other_env = {**ENV, "cpu_model": "Other CPU", "cores": 8, "kernel": "6.1", "git_commit": "def456"}
    other_manifest = json.loads(json.dumps(MANIFEST))
    other_manifest["datasets"][0]["hash"] = "1" * 16
    other_manifest["hash_version"] = 2
    store.create_run("run-b", "full", {**ARGS, "rounds": 7, "budget_ms": 10000}, other_env, other_manifest)
    _cell(store, "run-b", "copy-input", "tree", "json", 100, is_baseline=True)
    _cell(store, "run-b", "fastjson", "tree", "json", 1000, baseline="copy-input")
    runner.finalize(store, "run-b", 50, 1)
    store.db.execute("UPDATE cells SET version='2.0' WHERE run_id='run-b' AND bench='fastjson'")
    cmp = compare(store, "run-a", "run-b", n_boot=50)
    assert cmp.machine == ["CPU: Test CPU (A) vs Other CPU (B)", "cores: 2 (A) vs 8 (B)", "kernel: 6.0 (A) vs 6.1 (B)"]
    assert cmp.settings[:3] == [
        "mode: quick (A) vs full (B)",
        "rounds: 3 (A) vs 7 (B)",
        "budget (ms): None (A) vs 10000 (B)",
    ]
    assert "hash version: None (A) vs 2 (B)" in cmp.settings
    assert "datasets with other data (object hash differs): size-1" in cmp.settings
    assert cmp.versions == ["fastjson 1.0 (A) vs 2.0 (B)"]
    text = render(cmp)
    assert "> **⚠ Different machines:** CPU: Test CPU (A) vs Other CPU (B); cores: 2 (A) vs 8 (B)" in text
    assert "> **⚠ Different settings:** mode: quick (A) vs full (B); rounds: 3 (A) vs 7 (B)" in text
    assert "Commits: abc123 (A, dirty working tree), def456 (B, dirty working tree)." in text
    assert "Library versions that differ: fastjson 1.0 (A) vs 2.0 (B)." in text
    same = compare(_two_runs(tmp_path / "same"), "run-a", "run-b", n_boot=50)
    assert (same.machine, same.settings, same.versions) == ([], [], [])
    assert "Commits: abc123 (A, dirty working tree), abc123 (B, dirty working tree)." in render(same)


def test_a_run_finalized_with_another_estimator_is_flagged_recomputed_and_its_report_says_which(tmp_path):
    """Runs finalized before the estimator was recorded hold the fast half's times (or the trimmed
    mean's): compare says so and computes their times again from the samples, so both sides of each
    ratio come from the fast quarter; the report of such a run still describes the fast half, while a
    run finalized now records and describes the fast quarter, and one finalized with the fast third
    (2026-11-27 to 2026-12-03) is described as that."""
    store = _two_runs(tmp_path)
    assert json.loads(store.run("run-a")["env_json"])["estimator"] == stats.ESTIMATOR
    today = compare(store, "run-a", "run-b", n_boot=50)
    env = json.loads(store.run("run-a")["env_json"])
    del env["estimator"]  # as a run finalized before 2026-11-27 evening
    store.db.execute("UPDATE runs SET env_json=? WHERE id='run-a'", (json.dumps(env),))
    # and times from another estimator: 3% slower than the samples' fast quarter, as a fast half can be
    store.db.execute("UPDATE cells SET median_ns=median_ns*1.03, net_ns=net_ns*1.03 WHERE run_id='run-a'")
    cmp = compare(store, "run-a", "run-b", n_boot=50)
    # not a different setting: both sides of each ratio now come from the one estimator
    assert cmp.settings == [] and cmp.recomputed == ["A (not recorded (fast half or trimmed mean))"]
    text = render(cmp)
    assert "Different settings" not in text
    assert (
        "Times computed again: the stored times of run A (not recorded (fast half or trimmed mean)) come from an "
        f"earlier estimator; this comparison computes them from the samples with the {stats.ESTIMATOR}" in text
    )
    assert json.loads(to_json(cmp))["recomputed"] == cmp.recomputed
    assert [(r.key, r.a_ns, r.b_ns, r.ratio, r.ci) for r in cmp.rows] == [
        (r.key, pytest.approx(r.a_ns), r.b_ns, pytest.approx(r.ratio), r.ci) for r in today.rows
    ]
    assert all(r.a_ns > 0 for r in cmp.rows)
    # a run that did record the fast quarter keeps its stored times, whatever its samples say
    store.db.execute("UPDATE cells SET median_ns=median_ns*1.03, net_ns=net_ns*1.03 WHERE run_id='run-b'")
    assert [r.b_ns for r in compare(store, "run-a", "run-b", n_boot=50).rows] == [
        pytest.approx(r.b_ns * 1.03) for r in today.rows
    ]
    assert compare(_two_runs(tmp_path / "same"), "run-a", "run-b", n_boot=50).settings == []
    from serbench.report import markdown

    old, new = (markdown.render(store.run(r), store.cells(r)) for r in ("run-a", "run-b"))
    assert "the mean of the faster half of a cell's processes' medians" in old and '"The fast half"' in old
    assert "the mean of the fastest quarter of a cell's processes' times" in new
    assert '"Choosing clean processes instead of correcting them"' in new
    env["estimator"] = "fast quarter"  # 2026-12-03 to 2026-12-04: every process its median
    store.db.execute("UPDATE runs SET env_json=? WHERE id='run-a'", (json.dumps(env),))
    quarter = markdown.render(store.run("run-a"), store.cells("run-a"))
    assert "the mean of the fastest quarter of a cell's processes' medians" in quarter
    assert '"The fast quarter"' in quarter
    env["estimator"] = "fast third"
    store.db.execute("UPDATE runs SET env_json=? WHERE id='run-a'", (json.dumps(env),))
    third = markdown.render(store.run("run-a"), store.cells("run-a"))
    assert "the mean of the fastest third of a cell's processes' medians" in third and '"The fast third"' in third
    # both runs from an earlier estimator, the same one: both computed again, and still no setting differs
    env_b = json.loads(store.run("run-b")["env_json"])
    env_b["estimator"] = env["estimator"] = "fast quarter"
    for run, e in (("run-a", env), ("run-b", env_b)):
        store.db.execute("UPDATE runs SET env_json=? WHERE id=?", (json.dumps(e), run))
    both = compare(store, "run-a", "run-b", n_boot=50)
    assert both.settings == [] and both.recomputed == ["A (fast quarter)", "B (fast quarter)"]
    assert "the stored times of run A (fast quarter) and run B (fast quarter) come from" in render(both)
    assert [r.b_ns for r in both.rows] == [pytest.approx(r.b_ns) for r in today.rows]


def test_a_noisy_run_is_named_with_its_figures_and_the_ratios_it_leaves_unresolved(tmp_path, capsys):
    store = _two_runs(tmp_path)
    quiet = compare(store, "run-a", "run-b", n_boot=50)
    assert quiet.noisy == [] and "Noisy runs" not in render(quiet)
    # B's cells: robust CV under the 10% rule, median 95% CI half-width 12.3% (above 6%)
    store.db.execute("UPDATE cells SET rcv=0.085, rel_ci=0.123 WHERE run_id='run-b'")
    cmp = compare(store, "run-a", "run-b", n_boot=50)
    assert cmp.noisy == ["B (median robust CV 8.5%, median 95% CI half-width 12.3%)"] and cmp.noise_ci == 0.123
    assert (
        "> **⚠ Noisy runs:** B (median robust CV 8.5%, median 95% CI half-width 12.3%). Ratios within about ±12% "
        "of 1 may be the machine's, not the libraries'" in render(cmp)
    )
    store.close()
    assert main(["--db", str(tmp_path / "s.db"), "compare", "run-a", "run-b", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["noisy_runs"] == cmp.noisy


def test_compare_json_carries_the_ci_the_geomean_ci_and_what_was_not_compared(tmp_path, capsys):
    store = _two_runs(tmp_path)
    store.close()
    assert main(["--db", str(tmp_path / "s.db"), "compare", "run-a", "run-b", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["geomean"]["fastjson"]["cells"] == 2 and len(doc["geomean"]["fastjson"]["ci"]) == 2
    assert any(r["ci_and_verdict_differ"] for r in doc["rows"]) and doc["same_run"] is False
    assert [n["key"][1] for n in doc["not_compared"]] == ["lossy"]
    assert doc["by_dataset"] == {}  # 4 cells: no dataset has the 10 its own median needs


def test_compare_says_how_many_cells_agree_within_five_percent_and_names_the_furthest(tmp_path):
    cmp = compare(_two_runs(tmp_path), "run-a", "run-b", n_boot=100)
    text = render(cmp)
    # speed=0.5 halves fastjson (tree, write) and packer; slowjson is the same in both runs
    assert "Agreement: 1 of 4 cells (25.0%) have B/A of net time within ±5%." in text
    assert "Furthest out: packer tree size-1 msgpack (0.412), fastjson tree size-1 json (0.450), fastjson write" in text
    assert json.loads(to_json(cmp))["cells_agreeing"] == 1


def test_agreement_names_a_shift_of_every_cell_as_the_machines_and_counts_agreement_without_it():
    def row(i: int, ratio: float) -> Row:
        return Row(("h", f"lib{i}", "tree", "size-1", "json"), f"lib{i}", 100.0, 100.0 * ratio, ratio, (0, 0), 1.0)

    # 30 cells all 6% slower in B (a slower machine), 2 of them 20% slower still
    rows = [row(i, 1.06) for i in range(28)] + [row(28, 1.27), row(29, 1.28)]
    assert common_shift(rows) == 1.06
    text = agreement(rows)[0]
    assert text.startswith("Agreement: 0 of 30 cells (0.0%) have B/A of net time within ±5%.")
    assert "Run B is 6.0% slower across the board" in text and "28 of 30 (93.3%) agree within ±5%" in text
    # too few cells to tell the machine from the libraries, and no shift: nothing said
    assert common_shift(rows[:5]) is None and "across the board" not in agreement(rows[:5])[0]
    assert "across the board" not in agreement([row(i, 1.0) for i in range(30)])[0]


def test_agreement_counts_the_verdicts_again_with_the_machines_shift_taken_out():
    def row(i: int, ratio: float) -> Row:
        # 20 processes a side, spread by 4%: B's medians are A's, offset by half a step, times the ratio
        a = [100 + 0.2 * j for j in range(20)]
        b = [ratio * (100.1 + 0.2 * j) for j in range(20)]
        return Row(
            ("h", f"lib{i}", "tree", "size-2", "json"),
            f"lib{i}",
            100.0,
            100.0 * ratio,
            ratio,
            (0, 0),
            1.0,
            medians=(a, b),
        )

    # every cell 6% slower in B, 2 of them 27% slower: the test of each cell against 1 finds all 30
    # slower; with the 6% taken out, only the 2
    rows = [row(i, 1.06) for i in range(28)] + [row(28, 1.27), row(29, 1.27)]
    assert shifted_verdicts(rows, 1.0) == {"slower": 30}
    assert shifted_verdicts(rows, common_shift(rows)) == {"not significant": 28, "slower": 2}
    assert "and the verdicts would be 28 not significant, 2 slower." in agreement(rows)[0]
    # a row without its medians (an instruction-count comparison): nothing to test again
    assert shifted_verdicts(rows + [Row(("h", "x", "tree", "size-2", "json"), "x", 1, 1, 1, (0, 0), 1.0)], 1.06) == {}


def test_agreement_names_a_dataset_whose_cells_moved_together_beyond_the_runs_shift():
    def row(i: int, ds: str, ratio: float) -> Row:
        return Row(("h", f"lib{i}", "tree", ds, "json"), f"lib{i}", 100.0, 100.0 * ratio, ratio, (0, 0), 1.0)

    # 30 small-data cells unchanged, 12 size-5 cells about 5% faster in B, and 5 cells of another
    # dataset, too few to be read on their own
    spread = [0.99, 1.0, 1.01, 0.98, 1.02, 1.0, 0.99, 1.01, 1.0, 1.0]
    rows = [row(i, "size-2", spread[i % 10]) for i in range(30)]
    rows += [row(100 + i, "size-5", 0.93 + 0.01 * (i % 4)) for i in range(12)]
    rows += [row(200 + i, "trade", 0.90) for i in range(5)]
    groups = by_dataset(rows)
    assert sorted(groups) == ["size-2", "size-5"]
    assert groups["size-5"] == DatasetShift(median_ratio=pytest.approx(0.945), cells=12, agreeing=6)
    assert groups["size-2"].median_ratio == 1.0 and groups["size-2"].agreeing == 30
    text = agreement(rows)[0]
    assert common_shift(rows) == 0.99 and "Run B is 1.0% faster across the board" in text
    assert (
        "Datasets whose cells moved together, 2% or more beyond the run's median (median B/A): "
        "size-5 0.945 (6 of 12 within ±5%); between two runs of one build that is the machine again"
    ) in text
    assert "size-2 1.000" not in text and "trade 0.900" not in text
    # nothing moved apart from the rest: nothing said
    assert "moved together" not in agreement([row(i, "size-2" if i % 2 else "size-5", 1.0) for i in range(30)])[0]


def test_a_cell_within_baseline_noise_in_either_run_is_marked_and_left_out_of_agreement_and_geomeans(tmp_path):
    # packer's net in B is made to have a CI that reaches zero, as a row that costs about what its
    # baseline does: its ratio (0.412 here) is noise, so it is not counted, named or averaged
    store = _two_runs(tmp_path)
    store.db.execute("UPDATE cells SET net_ci_low_ns = -1 WHERE run_id = 'run-b' AND bench = 'packer'")
    cmp = compare(store, "run-a", "run-b", n_boot=100)
    packer = next(r for r in cmp.rows if r.key[1] == "packer")
    assert packer.noise == "B" and all(r.noise == "" for r in cmp.rows if r is not packer)
    text = render(cmp, every=True)
    assert (
        "Agreement: 1 of 3 cells (33.3%) have B/A of net time within ±5% (1 more within baseline noise in A or "
        "B, ‡, not counted)."
    ) in text
    assert "Furthest out: fastjson tree size-1 json (0.450), fastjson write" in text and "packer tree" not in text
    assert "| not significant ‡ within baseline noise in B |" in text
    assert "‡ *within baseline noise in A (or B)*: that run's net time has a 95% CI that reaches zero" in text
    assert "packer" not in cmp.geo and cmp.geo["fastjson"].cells == 2
    doc = json.loads(to_json(cmp))
    assert doc["cells_counted"] == 3 and doc["cells_agreeing"] == 1
    assert [r["within_baseline_noise"] for r in doc["rows"] if r["key"][1] == "packer"] == ["B"]
    # the HTML comparison lists it without drawing a ratio
    drawn = html_report._ratio_row(packer, counting=False)
    assert drawn["ratio"] is None and drawn["lo"] is None and drawn["verdict"].endswith("within baseline noise in B")


def test_compare_reports_its_progress_cell_by_cell(tmp_path):
    """Two full quick runs take seconds to compare (the bootstrap of 1,330 cells): the command shows a
    progress bar, fed once per compared cell and once at the end."""
    heard = []
    cmp = compare(_two_runs(tmp_path), "run-a", "run-b", n_boot=50, progress=lambda *a: heard.append(a))
    n = len(cmp.rows)
    assert n == 4 and [h[:2] for h in heard] == [(i, n) for i in range(n + 1)]
    assert [h[2] for h in heard] == ["/".join(r.key) for r in cmp.rows] + [""]


def _pair_rows(n: int, slowed: str | None = None, factor: float = 1.3, seed: int = 3) -> list[Row]:
    """n cells of two runs of one build as compare makes them: ratios scattered by ±2% (the host), each
    with a CI of ±1.5% (its processes); every cell of library `slowed` is `factor` slower in B."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        lib = f"lib{i % 40}"
        ratio = math.exp(rng.gauss(0, 0.02)) * (factor if lib == slowed else 1.0)
        key = ("python", lib, "tree", f"size-{i // 40 + 1}", "json")
        rows.append(Row(key, lib, 1000.0, 1000.0 * ratio, ratio, (ratio / 1.015, ratio * 1.015), 0.1, 1.0))
    return rows


def _quick_comparison(rows: list[Row]) -> Comparison:
    return Comparison("run-a", "run-b", rows, {}, [], (3, 3))


def test_quick_compare_of_one_build_finds_no_cell_outside_the_noise_band_in_under_thirty_lines():
    text = render(_quick_comparison(_pair_rows(1200)))
    assert len(text.splitlines()) <= 30
    assert "**0 of 1200 cells lie outside the noise band**" in text
    assert "confirm with `--mode full`" in text and "--all` lists every cell" in text
    assert "| python |" not in text  # the cells inside the band are collapsed


def test_quick_compare_names_a_slowed_librarys_cells_first_as_probably_slower():
    rows = _pair_rows(1200, slowed="lib7", factor=1.3)
    text = render(_quick_comparison(rows))
    assert len(text.splitlines()) <= 30
    assert "**30 of 1200 cells lie outside the noise band**" in text
    listed = [line.split(" | ")[1] for line in text.splitlines() if line.startswith("| python |")]
    assert listed == ["lib7"] * noiseband_rows() and "probably slower" in text
    assert "… and 15 more outside the band." in text
    # full mode, or --all: every cell with its CI and verdict, as before
    assert sum(1 for line in render(_quick_comparison(rows), every=True).splitlines() if "| python |" in line) == 1200


def test_a_cell_whose_own_processes_scatter_widely_is_not_named_for_a_move_its_ci_explains():
    rows = _pair_rows(200)
    wide = Row(("python", "wobbly", "tree", "size-5", "json"), "wobbly", 1000.0, 1150.0, 1.15, (0.9, 1.45), 0.1, 1.0)
    assert noiseband.band([*rows, wide], 0.05).outside == []
    tight = Row(("python", "steady", "tree", "size-5", "json"), "steady", 1000.0, 1150.0, 1.15, (1.13, 1.17), 0.1, 1.0)
    (out,) = noiseband.band([*rows, tight], 0.05).outside
    assert out.row is tight and out.word == "probably slower"


def noiseband_rows() -> int:
    from serbench.compare_text import QUICK_ROWS

    return QUICK_ROWS


def test_the_compare_command_is_short_for_quick_runs_and_lists_every_cell_with_all(tmp_path, capsys):
    _two_runs(tmp_path).close()
    db = str(tmp_path / "s.db")
    assert main(["--db", db, "compare", "run-a", "run-b"]) == 0
    short = capsys.readouterr().out
    assert len(short.splitlines()) <= 30 and "| python | fastjson |" not in short
    assert "`serbench compare run-a run-b --all` lists every cell" in short
    assert main(["--db", db, "compare", "run-a", "run-b", "--all"]) == 0
    every = capsys.readouterr().out
    assert "| python | fastjson | tree | size-1 | json |" in every and "Geometric mean of B/A" in every
