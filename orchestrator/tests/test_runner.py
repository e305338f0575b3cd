"""The runner isolates every harness process: a crash, a hang, a wrong hash or a rejection marks that
cell with the reason and the run goes on. A scripted fake harness plays each misbehaviour."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from serbench import runner, stats, threads
from serbench.harnesses import Harness
from serbench.robustness.limits import Limits, run_limited
from serbench.store import Store

FAKE = textwrap.dedent(
    """
    import json, os, sys, time
    a = sys.argv[1:]
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1) if a[i].startswith("--")}
    bench = opt.get("bench")
    if bench == "crash":
        os.abort()
    if bench == "hang":
        time.sleep(60)
    if bench == "orphan":
        # leaves a grandchild behind, then hangs: the timeout must take the whole process group
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open(os.path.join(os.path.dirname(opt["file"]), "orphan.pid"), "w").write(str(child.pid))
        time.sleep(60)
    with open(opt["results"], "a") as f:
        row = lambda **r: f.write(json.dumps(r) + "\\n")
        if bench == "lossywriter":
            # writes the big uint of the document as a double, as a float-only JSON writer does
            open(opt["output-file"], "wb").write(b'{"a":[1,1.8446744073709552e+19]}')
            row(kind="check", ok=False, hash="1" * 16, expected=opt["expect-hash"], reason="hash differs")
            sys.exit(4)
        if bench == "allfloat":
            # a tree row whose library reads every number as a double
            from serbench import objhash
            doc = json.loads(open(opt["file"]).read(), parse_int=float)
            got = objhash.hex64(objhash.hash_value(doc))
            row(kind="check", ok=False, hash=got, expected=opt["expect-hash"], reason=f"hash {got} differs")
            sys.exit(4)
        if bench == "wrong":
            row(kind="check", ok=False, hash="1" * 16, expected=opt["expect-hash"], reason="hash differs")
            sys.exit(4)
        if bench == "reject":
            row(kind="error", reason="parse error at byte 3")
            sys.exit(3)
        if bench == "silent":
            sys.exit(0)
        if bench == "badrows":
            # a harness bug: rows the store cannot divide by, after a good one
            row(kind="sample", iterations=10, wall_ns=1000, cpu_ns=None)
            row(kind="sample", iterations=0, wall_ns=5, cpu_ns=None)
            row(kind="sample", iterations=10, cpu_ns=None)
            sys.exit(0)
        if bench == "input":
            row(kind="error", reason="reference decoder: truncated at byte 7")
            sys.exit(6)
        if "output-file" in opt:
            open(opt["output-file"], "wb").write(b"x" * 1000)
        if "--latency" in a:
            row(kind="latency", count=100000, p50_ns=90, p99_ns=200, p999_ns=900, p9999_ns=5000, max_ns=80000)
        else:
            for i in range(3):
                row(kind="sample", iterations=10, wall_ns=1000 * (10 + i), cpu_ns=None)
            if "--alloc" in a:
                row(kind="alloc", allocs_per_op=5, alloc_bytes_per_op=64, method="fake")
    """
)


class FakeHarness(Harness):
    name = "fake"
    folder = "."

    def __init__(self, root: Path, script: Path):
        super().__init__(root)
        self.script = script

    def build(self) -> None:
        pass

    def command(self) -> list[str]:
        return [sys.executable, str(self.script)]


def _cell_row(bench: str) -> dict:
    return {
        "harness": "fake",
        "bench": bench,
        "test": "tree",
        "dataset": "d",
        "format": "json",
        "library": bench,
        "version": "0",
        "notes": "",
        "is_baseline": 0,
    }


def _bench(bid: str) -> dict:
    return {"id": bid, "library": bid, "version": "0", "formats": ["json"], "tests": ["tree"], "baseline_for": {}}


def test_misbehaving_harness_processes_mark_their_cell_and_the_run_goes_on(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    (tmp_path / "d.json").write_text("{}")
    h = FakeHarness(tmp_path, script)
    dataset = {"dataset": "d", "hash": "0" * 16, "files": {"json": {"file": "d.json"}}}
    ids = ["ok", "crash", "hang", "wrong", "reject", "silent", "input", "orphan", "badrows"]
    cells = [runner.Cell(h, _bench(b), "tree", dataset, "json", tmp_path, None) for b in ids]
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=2, budget_ms=1, min_samples=1, timeout_s=2, n_boot=50)
    calls = []
    runner.run_cells(store, "r", cells, mode, seed=1, progress=lambda d, t, label: calls.append((d, t)))
    runner.finalize(store, "r", 50, 1)
    got = {c["bench"]: c for c in store.cells("r")}
    assert got["ok"]["status"] == "ok" and got["ok"]["median_ns"] == 1100 and got["ok"]["allocs_per_op"] == 5
    # A signal is the library's: the harness's own code never dies on its input (spec/protocol.md).
    assert got["crash"]["status"] == "failed" and got["crash"]["reason"].startswith("the library crashed (SIGABRT)")
    assert got["hang"]["status"] == "failed" and got["hang"]["reason"] == "timeout after 2 s (the process was killed)"
    assert got["input"]["status"] == "failed" and got["input"]["reason"] == (
        "input rejected by the harness, not the library: reference decoder: truncated at byte 7"
    )
    orphan = int((tmp_path / "orphan.pid").read_text())
    assert not Path(f"/proc/{orphan}").exists() or "Z" in Path(f"/proc/{orphan}/stat").read_text().split()[2]
    assert got["wrong"]["status"] == "incorrect" and got["wrong"]["reason"] == "hash differs"
    assert got["reject"]["status"] == "failed" and got["reject"]["reason"] == "parse error at byte 3"
    assert got["silent"]["status"] == "failed" and "no sample rows" in got["silent"]["reason"]
    assert got["badrows"]["status"] == "failed" and got["badrows"]["reason"] == (
        "the harness broke the protocol: line 2 (sample) has iterations 0, not a whole number of at least 1"
    )
    assert store.samples(got["badrows"]["id"]) == {0: [100.0]}  # only the well-formed row is kept
    # Broken cells leave after their first process; the good one does both rounds (the first counting
    # its allocations).
    rounds = {c["bench"]: len(store.done_rounds(c["id"])) for c in store.cells("r")}
    assert rounds == {
        **{b: 1 for b in ids},
        "ok": 2,
    }
    assert calls[-1][0] == calls[-1][1] == 10  # the progress total shrinks as broken cells drop out
    assert json.loads(store.run("r")["manifest_json"])["datasets"][0]["dataset"] == "d"


def test_typed_encode_cells_keep_their_output_sizes_and_get_a_latency_pass(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    (tmp_path / "t.json").write_text("{}")
    h = FakeHarness(tmp_path, script)
    dataset = {
        "dataset": "trade",
        "kind": "typed",
        "latency": True,
        "hash": "0" * 16,
        "files": {"json": {"file": "t.json"}},
    }
    bench = {**_bench("enc"), "formats": ["bincode"], "tests": ["typed-encode"]}
    cell = runner.Cell(h, bench, "typed-encode", dataset, "bincode", tmp_path, None)
    assert cell.file == tmp_path / "t.json"  # typed tests read the canonical JSON, whatever the wire format
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=2, budget_ms=1, min_samples=1, timeout_s=5, n_boot=50)
    runner.run_cells(store, "r", [cell], mode, seed=1, progress=lambda *a: None)
    c = store.cells("r")[0]
    # no process of its own for the allocations: the first timed one counts them after its samples
    assert sorted(store.done_rounds(c["id"])) == [runner.LATENCY_ROUND, 0, 1]
    assert (c["allocs_per_op"], c["alloc_bytes_per_op"]) == (5, 64)
    # the output's compressed sizes wait, in the store, until no benchmark runs
    assert c["output_bytes"] == 1000 and c["output_zstd_bytes"] is None and store.pending_output_count("r") == 1
    assert store.compress_pending("r", workers=2) == 1 and store.pending_output_count("r") == 0
    c = store.cells("r")[0]
    assert 0 < c["output_zstd_bytes"] < 100 and 0 < c["output_gzip_bytes"] < 100
    assert (c["lat_p50_ns"], c["lat_p999_ns"], c["lat_max_ns"], c["lat_count"]) == (90, 900, 80000, 100000)


def test_plan_pairs_typed_tests_with_typed_datasets_only(tmp_path):
    h = FakeHarness(tmp_path, tmp_path / "unused.py")
    manifest = {
        "datasets": [
            {"dataset": "size-1", "kind": "schemaless", "hash": "0" * 16, "files": {"json": {"file": "s.json"}}},
            {"dataset": "trade", "kind": "typed", "hash": "1" * 16, "files": {"json": {"file": "t.json"}}},
        ]
    }
    listing = {
        "benchmarks": [
            {**_bench("lib"), "formats": ["json", "bincode"], "tests": ["tree", "typed-decode"]},
        ]
    }
    cells = runner.plan(
        [h], {"fake": listing}, manifest, tmp_path, libs=[], formats=[], tests=[], datasets=["size-1", "trade"]
    )
    assert sorted((c.test, c.dataset["dataset"], c.format) for c in cells) == [
        ("tree", "size-1", "json"),
        ("typed-decode", "trade", "bincode"),
        ("typed-decode", "trade", "json"),
    ]


def test_a_row_of_its_own_format_reads_the_file_it_names_and_its_baseline_is_stored_under_its_format(tmp_path):
    h = FakeHarness(tmp_path, tmp_path / "unused.py")
    files = {"msgpack": {"file": "s.msgpack"}, "json": {"file": "s.json"}}
    manifest = {"datasets": [{"dataset": "size-1", "kind": "schemaless", "hash": "0" * 16, "files": files}]}
    base = {**_bench("hash-object"), "baseline": True, "formats": ["msgpack", "json"], "tests": ["tree"]}
    row = {
        **_bench("binc"),
        "formats": ["binc"],
        "reads": {"binc": "msgpack"},
        "tests": ["tree"],
        "baseline_for": {"tree": "hash-object"},
    }
    listing = {"benchmarks": [base, row]}

    def plan(formats):
        cells = runner.plan(
            [h], {"fake": listing}, manifest, tmp_path, libs=[], formats=formats, tests=[], datasets=["size-1"]
        )
        return sorted((c.bench["id"], c.format, c.harness_format, c.file.name) for c in cells)

    # by default it runs with the format it reads; the row gets its own format's name, the baseline
    # the file's format, and both are stored under "binc" so the net time pairs them
    want = [("binc", "binc", "binc", "s.msgpack"), ("hash-object", "binc", "msgpack", "s.msgpack")]
    assert plan([]) == want
    assert plan(["binc"]) == want
    with pytest.raises(runner.PlanError):  # --format msgpack selects the MessagePack rows only
        plan(["msgpack"])


def test_wait_exit_gives_the_exit_code_or_none_after_the_timeout():
    import subprocess

    done = subprocess.Popen(["sh", "-c", "exit 7"])
    assert runner.wait_exit(done, 10) == 7
    slow = subprocess.Popen(["sleep", "5"])
    try:
        assert runner.wait_exit(slow, 0.2) is None
        assert slow.poll() is None  # still running: the caller decides to kill it
    finally:
        slow.kill()
        slow.wait()


def test_an_incorrect_writer_says_where_its_output_differs_from_the_document(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    (tmp_path / "d.json").write_text('{"a":[1,18446744073709551615]}')
    h = FakeHarness(tmp_path, script)
    dataset = {"dataset": "d", "hash": "0" * 16, "files": {"json": {"file": "d.json"}}}
    bench = {**_bench("lossywriter"), "tests": ["write"]}
    cell = runner.Cell(h, bench, "write", dataset, "json", tmp_path, None)
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=1, budget_ms=1, min_samples=1, timeout_s=5, n_boot=50)
    runner.run_cells(store, "r", [cell], mode, seed=1, progress=lambda *a: None)
    c = store.cells("r")[0]
    assert c["status"] == "incorrect"
    assert c["reason"] == (
        "hash differs; first difference at $.a[1]: expected uint 18446744073709551615, got float 1.8446744073709552e+19"
    )
    assert c["output_bytes"] is None  # a write row's bytes are only read for the diff, not stored as a size


def test_an_incorrect_reader_is_explained_when_a_systematic_change_gives_its_hash(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    (tmp_path / "d.json").write_text('{"a":[2.5,7]}')
    h = FakeHarness(tmp_path, script)
    # explanations are kept per document, by its hash: this document's own
    dataset = {"dataset": "d", "hash": "da7a" * 4, "files": {"json": {"file": "d.json"}}}
    cell = runner.Cell(h, _bench("allfloat"), "tree", dataset, "json", tmp_path, None)
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=1, budget_ms=1, min_samples=1, timeout_s=5, n_boot=50)
    runner.run_cells(store, "r", [cell], mode, seed=1, progress=lambda *a: None)
    reason = store.cells("r")[0]["reason"]
    assert reason.endswith(
        "differs; the hash is the document's with every number read as a double "
        "(first at $.a[1]: expected int 7, got float 7.0)"
    )


def test_identical_encoder_outputs_are_compressed_once_and_reused_by_later_runs(tmp_path):
    store = Store(tmp_path / "s.db")
    dataset = {"dataset": "d", "hash": "0" * 16, "files": {"json": {"file": "d.json"}}}
    for run in ("a", "b"):
        store.create_run(run, "test", {}, {}, {"datasets": [dataset]})
    same, other = b"{" + b'"k": 1, ' * 500 + b"}", b"x" * 4000
    ids = {}
    for run, bench, out in (("a", "e1", same), ("a", "e2", same), ("a", "e3", other), ("b", "e1", same)):
        cid = store.add_cell(run, {**_cell_row(bench), "test": "typed-encode"})
        store.record_round(cid, 0, "ok", None, 0.1, [], output=out)
        ids[run, bench] = cid
    assert store.pending_output_count("a") == 2  # two distinct outputs for three cells
    seen = []
    assert store.compress_pending("a", workers=2, progress=lambda d, t: seen.append((d, t))) == 2
    assert seen[-1] == (2, 2)
    a = {c["bench"]: c for c in store.cells("a")}
    assert a["e1"]["output_zstd_bytes"] == a["e2"]["output_zstd_bytes"] != a["e3"]["output_zstd_bytes"]
    # run b's cell was recorded before a's sizes existed: it waits for its own run's pass; a cell
    # recorded once they exist reuses them at once
    assert store.pending_output_count("b") == 1 and store.compress_pending("b") == 1
    cid = store.add_cell("b", {**_cell_row("e2"), "test": "typed-encode"})
    store.record_round(cid, 0, "ok", None, 0.1, [], output=same)
    assert store.pending_output_count("b") == 0
    b = {c["bench"]: c for c in store.cells("b")}
    assert b["e2"]["output_gzip_bytes"] == a["e1"]["output_gzip_bytes"]


def test_a_stop_signal_that_arrives_while_a_harness_forks_is_raised_after_the_fork_not_lost(monkeypatch):
    """Popen with a preexec_fn runs at-fork hooks in the orchestrator, where a handler's exception is
    printed and dropped; runner._spawn blocks SIGINT and SIGTERM around it, so the signal is raised
    once the fork is done, and the child it just started is not left running."""

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop

    real_popen, started = subprocess.Popen, []

    def forking(argv, **kw):
        os.kill(os.getpid(), signal.SIGTERM)  # arrives during the fork
        try:  # as an at-fork hook runs: whatever is raised in it is dropped
            sum(range(100_000))
        except BaseException:
            pass
        started.append(real_popen(["sleep", "30"], start_new_session=True))
        return started[-1]

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        monkeypatch.setattr(subprocess, "Popen", forking)
        with pytest.raises(Stop):
            runner._spawn(["x"], None, None, subprocess.DEVNULL)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert started and started[0].poll() is not None  # killed, not left sleeping


def test_the_stop_signal_waits_for_the_fork_while_a_worker_thread_of_ours_is_alive(monkeypatch):
    """The kernel gives a signal sent to the process to any thread that does not block it, and Python
    then handles it in the main thread at its next check, wherever that falls: with one live thread of
    a plain ThreadPoolExecutor, the test above failed in every one of 20 tries (the handler ran before
    the fork, inside the mocked Popen), and in one full run of the tests, whose earlier tests leave
    pool threads behind. The orchestrator's pools (`threads.pool`) block the stop signals in their
    threads, so the signal waits for the main thread's mask."""
    with threads.pool(2) as pool:
        mask = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result()
        assert threads.STOP_SIGNALS <= set(mask)
        for _ in range(5):
            test_a_stop_signal_that_arrives_while_a_harness_forks_is_raised_after_the_fork_not_lost(monkeypatch)


def test_a_process_started_from_a_worker_thread_still_receives_the_stop_signals():
    """A child inherits the mask of the thread that forked it and keeps it across exec: a harness that
    `robustness --jobs N` starts from a pool thread unblocks SIGINT and SIGTERM before it execs
    (limits._limit_child), as runner._spawn's children do."""
    status = ["grep", "SigBlk", "/proc/self/status"]  # grep itself: a shell may reset its mask

    def blocked(preexec) -> int:
        out = subprocess.run(status, capture_output=True, text=True, preexec_fn=preexec).stdout
        return int(out.split()[1], 16)

    bits = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    with threads.pool(1) as pool:
        assert pool.submit(blocked, None).result() & bits == bits  # what a plain fork from it keeps
        assert pool.submit(blocked, threads.unblock_in_child).result() & bits == 0
        ex = pool.submit(run_limited, status, None, Limits(timeout_s=5)).result()
    assert int(ex.stdout.split()[1], 16) & bits == 0, ex


def test_finalize_gives_a_collected_runtime_its_processes_means(tmp_path):
    """Go declares `process_mean` (its collector runs inside the timed batches), native does not: the same
    samples, one batch in three three times slower, give Go's cell the mean and native's the median, and
    compare reads them back the same way."""
    from serbench.compare import compare
    from serbench.harnesses import harness_classes, process_center

    assert harness_classes()["go"].process_mean and harness_classes()["java"].process_mean
    assert process_center("native") is stats.median and process_center("no longer registered") is stats.median
    store = Store(tmp_path / "s.db")
    ids = {}
    for run in ("a", "b"):
        store.create_run(run, "quick", {"seed": 1}, {}, {"datasets": []})
        for h in ("go", "native"):
            ids[run, h] = store.add_cell(run, {
                "harness": h, "bench": "lib", "test": "tree", "dataset": "size-1", "format": "json", "library": "lib",
                "version": "1", "notes": "", "is_baseline": 0, "baseline_bench": None, "measures": None,
            })  # fmt: skip
            for rnd in range(3):
                per_op = [1000, 1000, 3000] * 4
                rows = [{"iterations": 10, "wall_ns": 10 * t, "cpu_ns": None} for t in per_op]
                store.record_round(ids[run, h], rnd, "ok", None, 0.1, rows)
        runner.finalize(store, run, n_boot=50, seed=1, warmup_k=0)
    got = {c["harness"]: c["median_ns"] for c in store.cells("a")}
    assert got == {"go": pytest.approx(5000 / 3), "native": 1000.0}
    rows = {r.key[0]: r for r in compare(store, "a", "b", n_boot=50).rows}
    assert rows["go"].medians == ([pytest.approx(5000 / 3)] * 3,) * 2 and rows["native"].medians == ([1000.0] * 3,) * 2
