"""The instruction-count mode (`serbench run --measure instructions`, instructions.py): valgrind's
output parsed, the two-run arithmetic, the store, the report and compare, and one real count of a
native cell, twice, that must be identical."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from serbench import instructions, runner
from serbench.compare import NotComparable, compare
from serbench.compare_text import render, to_json
from serbench.harnesses.base import Harness
from serbench.harnesses.native import NativeHarness
from serbench.harnesses.python import PythonHarness
from serbench.report import markdown
from serbench.store import Store

from .conftest import built_harness

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"

# The head and tail of a real cachegrind.out file (valgrind 3.19, --cache-sim=no), trimmed.
CACHEGRIND_OUT = """\
desc: I1 cache:         32768 B, 64 B, 8-way associative
desc: D1 cache:         32768 B, 64 B, 8-way associative
desc: LL cache:         33554432 B, 64 B, 16-way associative
cmd: /work/harnesses/native/build/gcc-speed/bench-msgpack-c run --bench msgpack-c --iterations 0401
events: Ir
fl=???
fn=0x0000000000001100
1 4
fn=msgpack_unpack_next
0 1203
summary: 25090218
"""

# callgrind writes `totals:` and `summary:` (older versions only one of them).
CALLGRIND_OUT = """\
# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 22946
cmd:  /work/bench-msgpack-c run
part: 1
positions: line
events: Ir
fl=(1) ???
fn=(1) 0x0000000000001100
0 4
totals: 25059407
"""


def test_parse_total_reads_the_summary_line_of_cachegrind():
    assert instructions.parse_total(CACHEGRIND_OUT) == 25_090_218


def test_parse_total_reads_the_totals_line_of_callgrind():
    assert instructions.parse_total(CALLGRIND_OUT) == 25_059_407


def test_parse_total_refuses_a_file_cut_short_or_counting_something_else():
    with pytest.raises(instructions.CountError, match="summary"):
        instructions.parse_total(CACHEGRIND_OUT.replace("summary: 25090218\n", ""))
    with pytest.raises(instructions.CountError, match="events"):
        instructions.parse_total(CACHEGRIND_OUT.replace("events: Ir", "events: Dr"))


def test_total_of_sums_the_output_files_of_every_process(tmp_path):
    (tmp_path / "cachegrind.out.100").write_text(CACHEGRIND_OUT)
    (tmp_path / "cachegrind.out.101").write_text(CACHEGRIND_OUT.replace("25090218", "1000"))
    (tmp_path / "valgrind.log").write_text("==100== I   refs: 1")
    assert instructions.total_of(tmp_path, "cachegrind.out.") == 25_091_218
    with pytest.raises(instructions.CountError, match="no output file"):
        instructions.total_of(tmp_path / "valgrind.log", "x")


def test_per_op_is_the_difference_of_the_two_counts_over_the_extra_iterations():
    # start-up S = 1,000,000, one iteration 2,500: I(1) = S + 2 * 2,500 (with the warm-up), I(401) = S + 402 * 2,500
    assert instructions.per_op(1_005_000, 2_005_000, 1, 401) == 2_500
    assert instructions.per_op(10, 13, 1, 3) == 1.5
    with pytest.raises(ValueError):
        instructions.per_op(1, 2, 5, 5)


def test_extra_iterations_scale_with_the_input_and_stay_within_bounds():
    assert instructions.extra_iterations(2_500) == 400
    assert instructions.extra_iterations(250) == instructions.MAX_EXTRA
    assert instructions.extra_iterations(2_500_000) == 1
    assert instructions.extra_iterations(0) == instructions.MAX_EXTRA
    # a harness whose count varies spreads it over `scale` times the operations, bounds included
    assert instructions.extra_iterations(2_500, scale=10) == 4_000
    assert instructions.extra_iterations(250, scale=10) == 10 * instructions.MAX_EXTRA
    assert instructions.extra_iterations(25_000_000, scale=10) == 1


def test_iterations_are_padded_so_both_runs_have_argv_of_one_length():
    assert instructions.iterations_arg(1, 3) == "001"
    assert instructions.iterations_arg(401, 3) == "401"
    assert int(instructions.iterations_arg(7, 4)) == 7


def test_the_environment_is_fixed_plus_what_the_harness_sets(monkeypatch, tmp_path):
    monkeypatch.setenv("SOME_SHELL_VARIABLE", "x")
    env = instructions.fixed_env(NativeHarness(ROOT))
    assert env == instructions.FIXED_ENV
    py = instructions.fixed_env(PythonHarness(ROOT))
    assert py["PYTHONHASHSEED"] == "0" and "SOME_SHELL_VARIABLE" not in py


def test_only_compiled_harnesses_declare_that_they_can_be_counted():
    assert NativeHarness.instructions_unsupported is None
    from serbench.harnesses.go import GoHarness
    from serbench.harnesses.java import JavaHarness
    from serbench.harnesses.rust import RustHarness

    assert RustHarness.instructions_unsupported is None
    assert GoHarness.instructions_unsupported is None
    assert "JIT" in JavaHarness.instructions_unsupported
    assert "not a compiled harness" in PythonHarness.instructions_unsupported
    assert Harness.instructions_unsupported  # a new harness is not counted until it says it can be


def test_a_counted_go_process_runs_with_one_p_as_a_timed_pinned_one_does(monkeypatch):
    from serbench.harnesses.go import GoHarness

    monkeypatch.setenv("GOMAXPROCS", "8")  # the user's shell does not reach a counted process
    env = instructions.fixed_env(GoHarness(ROOT))
    assert env == instructions.FIXED_ENV | {"GOMAXPROCS": "1"}
    assert GoHarness.instructions_scale > 1 == NativeHarness.instructions_scale


# --- the store, finalize, the report and compare, on fake runs ------------------------------------------

MANIFEST = {"datasets": [{"dataset": "size-2", "kind": "schemaless", "hash": "ab", "files": {}, "stats": {}}]}


def _run(store: Store, run_id: str, counts: dict[str, dict], repeat_delta: int = 0, env: dict | None = None) -> None:
    """A finished instruction-count run with a decoder and its baseline, counted as `counts` says."""
    store.create_run(
        run_id,
        "quick",
        {"measure": "instructions", "rounds": 1},
        {"valgrind": "valgrind-3.19.0", **(env or {})},
        MANIFEST,
    )
    for bench, (n1_total, n2_total) in counts.items():
        cid = store.add_cell(
            run_id,
            {
                "harness": "native",
                "bench": bench,
                "test": "tree",
                "dataset": "size-2",
                "format": "msgpack",
                "library": bench,
                "version": "1",
                "notes": "",
                "is_baseline": int(bench == "hash-object"),
                "baseline_bench": None if bench == "hash-object" else "hash-object",
            },
        )
        again = n1_total + (repeat_delta if bench != "hash-object" else 0)
        state = {"tool": "cachegrind", "n1": 1, "n2": 401, "counts": {"0": n1_total, "1": n2_total, "2": again}}
        store.update_cell(cid, instr_json=json.dumps(state))
        for rnd in (0, 1, 2):
            store.record_round(cid, rnd, "ok", None, 0.5, [{"iterations": 1, "wall_ns": 0}])
    instructions.finalize(store, run_id)
    store.finish_run(run_id)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    yield s
    s.close()


def test_finalize_stores_gross_baseline_and_net_per_operation(store):
    _run(store, "r1", {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    cells = {c["bench"]: c for c in store.cells("r1")}
    c = cells["msgpack-c"]
    assert c["status"] == "ok"
    assert c["instructions_per_op"] == 20_000  # (9,000,000 - 1,000,000) / 400
    assert c["instr_baseline"] == 10_000
    assert c["instr_net"] == 10_000
    assert c["instr_deterministic"] == 1
    assert cells["hash-object"]["instr_net"] is None


def test_a_store_from_before_instruction_counts_gains_their_columns(tmp_path):
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE cells (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL, harness TEXT NOT NULL)")
    db.commit()
    db.close()
    Store(path).close()
    cols = {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(cells)")}
    assert {"instructions_per_op", "instr_baseline", "instr_net", "instr_deterministic", "instr_json"} <= cols


def test_a_repeat_that_counts_differently_marks_the_cell_not_deterministic(store):
    _run(store, "r1", {"rmpv": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)}, repeat_delta=46)
    c = next(c for c in store.cells("r1") if c["bench"] == "rmpv")
    assert c["instr_deterministic"] == 0
    assert "+46" in instructions.repeat_difference(c)
    text = markdown.render(store.run("r1"), store.cells("r1"))
    assert "⚠ not deterministic" in text


def test_cells_of_a_harness_whose_counts_vary_by_design_are_warned_of_with_its_reason_not_a_librarys(store):
    from serbench.report import facts

    counts = {"rmpv": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)}
    _run(store, "plain", counts, repeat_delta=46)
    (plain,) = facts.run_warnings(store.run("plain"), store.cells("plain"))
    assert plain.startswith("1 cell is not deterministic (native rmpv tree size-2 msgpack)")
    assert "seeds a hash table" in plain
    # the run stored that this harness's counts vary (cli: env["instructions_varying"]), and why
    _run(store, "varying", counts, repeat_delta=46, env={"instructions_varying": {"native": "its runtime's timers"}})
    (varying,) = facts.run_warnings(store.run("varying"), store.cells("varying"))
    assert varying == "1 native cell is not deterministic, as expected: its runtime's timers."
    from serbench.harnesses.go import GoHarness

    assert "timers" in GoHarness.instructions_varying and NativeHarness.instructions_varying is None


def test_report_shows_instructions_per_op_with_net_gross_and_baseline_and_what_counts_miss(store):
    _run(store, "r1", {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    text = markdown.render(store.run("r1"), store.cells("r1"))
    assert "| Net instr/op | Gross instr/op | Baseline instr/op | Gross/base |" in text
    assert "| msgpack-c (1) | msgpack-c | msgpack | 10,000 | 20,000 | 10,000 | 2.00× |" in text
    assert "instruction counts (valgrind-3.19.0, cachegrind)" in text
    for missed in ("memory stalls", "cache misses", "branch mispredictions", "system calls", "frequency"):
        assert missed in text
    row = next(x for x in markdown.summary(store.run("r1"), store.cells("r1")).splitlines() if " msgpack-c " in x)
    assert row.split()[2:7] == ["native", "msgpack-c", "msgpack", "10,000", "instr"]


def test_report_lists_a_harness_that_cannot_be_counted_with_its_reason(store):
    _run(store, "r1", {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    cid = store.add_cell(
        "r1",
        {
            "harness": "python",
            "bench": "orjson",
            "test": "tree",
            "dataset": "size-2",
            "format": "json",
            "library": "orjson",
            "version": "3",
            "notes": "",
            "is_baseline": 0,
            "baseline_bench": None,
        },
    )
    why = f"instruction counts: {PythonHarness.instructions_unsupported}"
    store.record_round(cid, 0, "unsupported", why, 0.0, [])
    text = markdown.render(store.run("r1"), store.cells("r1"))
    assert "Harnesses not counted:" in text and "- python: instruction counts: not a compiled harness" in text


def test_compare_says_identical_when_the_counts_are(store):
    counts = {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)}
    _run(store, "a", counts)
    _run(store, "b", counts)
    cmp = compare(store, "a", "b")
    assert [r.verdict for r in cmp.rows] == ["identical"]
    text = render(cmp)
    assert "Identical: 1 of 1 cells." in text and "no CI" in text.replace("there is no CI", "no CI")
    assert "| 10,000 | 10,000 | 1.0000 | identical |" in text
    assert json.loads(to_json(cmp))["rows"][0]["a_instructions"] == 10_000
    # counts have no estimator of a cell's time: nothing is said about one, nor computed again
    assert cmp.settings == [] and "estimator" not in text and "computes them again" not in text


def test_compare_gives_the_ratio_when_the_counts_differ(store):
    _run(store, "a", {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    _run(store, "b", {"msgpack-c": (1_000_000, 13_000_000), "hash-object": (900_000, 4_900_000)})
    row = compare(store, "a", "b").rows[0]
    assert row.ratio == 2.0 and row.verdict == "more instructions"  # net 20,000 vs 10,000


def test_compare_marks_counts_that_did_not_reproduce(store):
    _run(store, "a", {"rmpv": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    _run(store, "b", {"rmpv": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)}, repeat_delta=3)
    assert compare(store, "a", "b").rows[0].verdict == "not deterministic"


def test_compare_refuses_a_time_run_against_an_instruction_run(store):
    _run(store, "a", {"msgpack-c": (1_000_000, 9_000_000), "hash-object": (900_000, 4_900_000)})
    store.create_run("t", "quick", {"rounds": 3}, {}, MANIFEST)
    with pytest.raises(NotComparable, match="time"):
        compare(store, "a", "t")


def test_cells_of_a_harness_that_cannot_be_counted_are_stored_unsupported_with_its_reason(store):
    manifest_entry = {"dataset": "size-2", "kind": "schemaless", "hash": "ab", "files": {"json": {"file": "x"}}}
    bench = {"id": "orjson", "library": "orjson", "version": "3", "tests": ["tree"], "formats": ["json"]}
    cell = runner.Cell(PythonHarness(ROOT), bench, "tree", manifest_entry, "json", Path("/nonexistent"), None)
    store.create_run("r", "quick", {"measure": "instructions"}, {}, MANIFEST)
    instructions.run_cells(store, "r", [cell], runner.MODES["quick"], 0, lambda *a: None, "/bin/false")
    (c,) = store.cells("r")
    assert c["status"] == "unsupported" and "not a compiled harness" in c["reason"]


def test_a_varying_harness_counts_n2_again_and_a_third_time_only_when_the_two_disagree():
    n1, n2 = 1, 101  # 100 extra iterations: 1,000 instructions an operation is 100,000 in a count
    plain = {"0": 50_000, "1": 150_000, "2": 50_000}
    assert instructions.next_round({}, n1, n2, varying=False) == (instructions.ROUND_N1, n1)
    assert instructions.next_round({"0": 50_000}, n1, n2, varying=False) == (instructions.ROUND_N2, n2)
    assert instructions.next_round(plain, n1, n2, varying=False) is None
    assert instructions.next_round(plain, n1, n2, varying=True) == (instructions.ROUND_N2_AGAIN, n2)
    agree = plain | {"3": 150_990}  # 1,009.9 an operation against 1,000: within 1%
    assert instructions.next_round(agree, n1, n2, varying=True) is None
    assert instructions.n2_total(agree) == 150_495
    differ = plain | {"3": 151_200}  # 1,012 against 1,000
    assert instructions.next_round(differ, n1, n2, varying=True) == (instructions.ROUND_N2_THIRD, n2)
    settled = differ | {"4": 150_100}
    assert instructions.next_round(settled, n1, n2, varying=True) is None
    assert instructions.n2_total(settled) == 150_100  # the median of three: the outlier is outvoted


def _go_cell_killed_once_then_resumed(store, tmp_path, monkeypatch, bench, test, totals, kill_at):
    """Counts one Go cell of a 100 kB file (1 MB x 10 / 100 kB: 100 extra iterations) with fake
    counts (the next of totals[n == 1] for a process of N = n), kills the run at the kill_at-th
    process, resumes it, finalizes it; returns each process's (N, argv width) and the cell."""
    from serbench.harnesses.go import GoHarness

    (tmp_path / "doc.msgpack").write_bytes(b"\x80" * 100_000)
    entry = {"dataset": "size-2", "kind": "schemaless", "hash": "ab", "files": {"msgpack": {"file": "doc.msgpack"}}}
    bench = {"id": bench, "library": "x", "version": "1", "tests": [test], "formats": ["msgpack"]}
    ones, twos = (iter(t) for t in totals)
    processes = []

    def fake_count(cell, n, width, folder, mode, seed, exe):
        processes.append((n, width))
        if len(processes) == kill_at:
            raise KeyboardInterrupt
        return runner.Outcome("ok", None, [], 0.1), next(ones if n == 1 else twos)

    monkeypatch.setattr(instructions, "count", fake_count)
    store.create_run("r", "quick", {"measure": "instructions"}, {}, MANIFEST)
    cells = [runner.Cell(GoHarness(ROOT), bench, test, entry, "msgpack", tmp_path, None)]
    args = (store, "r", cells, runner.MODES["quick"], 0, lambda *a: None, "/bin/false")
    with pytest.raises(KeyboardInterrupt):
        instructions.run_cells(*args)
    instructions.run_cells(*args)  # --resume: the processes that ended are not run again
    instructions.finalize(store, "r")
    (c,) = store.cells("r")
    return processes, c


def test_a_cell_of_a_varying_harness_takes_the_median_of_its_n2_counts_and_resumes_without_recounting(
    store, tmp_path, monkeypatch
):
    # the N2 counts in the order the processes run: the second disagrees, the third settles it; the
    # fourth process, N2 again, is killed
    totals = ([50_000] * 2, [150_000, 180_000, 151_000])
    processes, c = _go_cell_killed_once_then_resumed(store, tmp_path, monkeypatch, "msgp-intf", "tree", totals, 4)
    assert [n for n, _ in processes] == [1, 101, 1, 101, 101, 101]  # N1, N2, N1 again, N2 again twice, N2 third
    assert c["instructions_per_op"] == 1_010  # (151,000 - 50,000) / 100: the 180,000 is outvoted
    assert c["instr_deterministic"] == 0  # its N2 counts differ


def test_a_varying_cell_whose_counts_spread_too_far_for_k_operations_counts_n2_again_with_k_eight_times_larger(
    store, tmp_path, monkeypatch
):
    # a set-up of 10 M instructions that varies by 40,000 from process to process (as a Go process
    # building a large document does), 1,000 instructions an operation; the sixth process (stage 1's
    # second) is killed
    twos = [10_100_000, 10_101_000, 10_820_000, 10_800_000, 10_810_000, 16_440_000, 16_400_000]
    totals = ([10_000_000, 10_040_000], twos)
    processes, c = _go_cell_killed_once_then_resumed(store, tmp_path, monkeypatch, "hash-data", "write", totals, 6)
    # stage 0, k = 100: 1,000 and 1,010 an operation (they agree), spread (40,000 + 1,000) / 100 = 410
    # against 1,005: unresolved. Stage 1, k = 800: 1,025 and 1,000 disagree, a third 1,012.5 settles
    # them, spread (40,000 + 10,000) / 800 = 62.5 against 1,012.5: unresolved. Stage 2, k = 6,400:
    # 1,006.25 and 1,000, spread (40,000 + 40,000) / 6,400 = 12.5 against 1,003: resolved.
    assert [n for n, _ in processes] == [1, 101, 1, 101, 801, 801, 801, 801, 6401, 6401]
    assert {w for _, w in processes} == {4}  # one argv width in every process of the cell, "0001" to "6401"
    assert c["instructions_per_op"] == pytest.approx((16_420_000 - 10_000_000) / 6400)
    state = json.loads(c["instr_json"])
    assert state["stage"] == 2 and state["n2"] == 6401
    assert instructions.noise_per_op(state["counts"], 1, 6401, 2) == pytest.approx(12.5)


# --- a real count -------------------------------------------------------------------------------------


def _native_cells() -> list[runner.Cell]:
    """msgpack-c tree and its baseline on the all-types vector (a small document: fast under valgrind)."""
    return _vector_cells(NativeHarness(ROOT), "msgpack-c")


def _vector_cells(h: Harness, bench: str) -> list[runner.Cell]:
    """`bench`'s tree cell and its baseline on the all-types vector, in harness h."""
    listing = runner.listing(h)
    benches = {b["id"]: b for b in listing["benchmarks"]}
    vector = next(v for v in json.loads((VECTORS / "vectors.json").read_text())["vectors"] if v["name"] == "all-types")
    entry = {
        "dataset": "all-types",
        "kind": "schemaless",
        "hash": vector["hash"],
        "files": {"msgpack": {"file": vector["files"]["msgpack"]}},
    }
    return [
        runner.Cell(h, benches[bench], "tree", entry, "msgpack", VECTORS, "hash-object"),
        runner.Cell(h, benches["hash-object"], "tree", entry, "msgpack", VECTORS, None),
    ]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)")
@pytest.mark.skipif(shutil.which("setarch") is None, reason="setarch (util-linux) is not installed")
def test_a_native_cell_counted_twice_under_valgrind_gives_identical_counts(store):
    built_harness("native")
    mode = instructions.mode_for(runner.MODES["quick"])
    exe = shutil.which("valgrind")
    for run_id in ("first", "second"):
        store.create_run(run_id, "quick", {"measure": "instructions", "rounds": 1}, {}, MANIFEST)
        instructions.run_cells(store, run_id, _native_cells(), mode, 0, lambda *a: None, exe)
        instructions.finalize(store, run_id)
    first, second = ({c["bench"]: c for c in store.cells(r)} for r in ("first", "second"))
    for bench in ("msgpack-c", "hash-object"):
        assert first[bench]["status"] == "ok", first[bench]["reason"]
        assert first[bench]["instr_deterministic"] == 1
        assert json.loads(first[bench]["instr_json"])["counts"] == json.loads(second[bench]["instr_json"])["counts"]
    assert first["msgpack-c"]["instr_net"] == second["msgpack-c"]["instr_net"] > 0


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)")
@pytest.mark.skipif(shutil.which("setarch") is None, reason="setarch (util-linux) is not installed")
def test_a_go_cell_counted_twice_under_valgrind_gives_counts_of_one_order(store):
    """Go's count is not exact (its collector and scheduler run on timers, which valgrind stretches),
    so a Go cell is marked not deterministic when its repeat differs, and how closely two runs agree
    is a figure for the benchmarks (docs/methodology.md, "Go: counted, not exactly"), not this test:
    ten runs of this pair with one n2 count each counted msgp-intf at 15,061-15,593 instructions an
    operation nine times and 18,920 once, and hash-object at 2,155-2,163. What the test holds is that
    both cells are counted, with the extra iterations and the repeated n2 counts a Go cell gets, and
    that no count runs away: with both cores visible, two counts of about twelve ran to 37 and 80 times
    the others (spinning on a second P)."""
    go = built_harness("go")
    mode = instructions.mode_for(runner.MODES["quick"])
    exe = shutil.which("valgrind")
    for run_id in ("first", "second"):
        store.create_run(run_id, "quick", {"measure": "instructions", "rounds": 1}, {}, MANIFEST)
        instructions.run_cells(store, run_id, _vector_cells(go, "msgp-intf"), mode, 0, lambda *a: None, exe)
        instructions.finalize(store, run_id)
    first, second = ({c["bench"]: c for c in store.cells(r)} for r in ("first", "second"))
    for bench in ("msgp-intf", "hash-object"):
        assert first[bench]["status"] == "ok", first[bench]["reason"]
        state = json.loads(first[bench]["instr_json"])
        assert state["n2"] == 1 + 10 * instructions.MAX_EXTRA  # the vector is small
        assert len(instructions.n2_counts(state["counts"])) >= 2  # its median of n2 counts
        a, b = first[bench]["instructions_per_op"], second[bench]["instructions_per_op"]
        assert a > 0 and b > 0 and max(a, b) / min(a, b) < 1.5, (bench, a, b)
    assert first["msgp-intf"]["instr_net"] > 0
