"""Latency percentiles pooled over a cell's forks (latency.py, issue 19)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from serbench import latency, runner
from serbench.cli import mode_from_args, parser
from serbench.harnesses.base import Harness
from serbench.store import Store


def test_one_fork_pooled_is_that_forks_row():
    # 10 ops: 8 in the 100 ns bucket, 1 at 1000, 1 at 50000 (the harness's own figures, nearest rank)
    buckets = [[100, 8], [1007, 1], [50175, 1]]
    row = {"count": 10, "p50_ns": 100, "p99_ns": 50000, "p999_ns": 50000, "max_ns": 50000, "buckets": buckets}
    state = latency.pool(None, row)
    assert state["forks"] == 1 and state["buckets"] == buckets and state["p50_ns"] == 100
    figs = latency.figures(buckets, 50000)
    assert figs["count"] == 10 and figs["p50_ns"] == 100 and figs["p99_ns"] == 50000  # capped at max
    assert figs["p99999_ns"] == 50000


def test_forks_are_pooled_bucket_by_bucket():
    a = {"count": 4, "max_ns": 120, "buckets": [[100, 3], [121, 1]]}
    b = {"count": 6, "max_ns": 9000, "buckets": [[100, 1], [121, 4], [9023, 1]]}
    state = latency.pool(latency.pool(None, a), b)
    assert state["forks"] == 2 and state["buckets"] == [[100, 4], [121, 5], [9023, 1]]
    assert state["count"] == 10 and state["max_ns"] == 9000
    # rank ceil(0.5 * 10) = 5: 4 in the first bucket, the 5th in the second
    assert state["p50_ns"] == 121 and state["p99_ns"] == 9000 and state["p999_ns"] == 9000
    assert latency.merge([[5, 1]], []) == [[5, 1]]


def test_a_fork_without_buckets_is_never_mixed_in():
    first = latency.pool(None, {"count": 3, "p50_ns": 7, "max_ns": 9})  # a harness without buckets
    assert first["forks"] == 1 and first["buckets"] is None
    assert latency.pool(first, {"count": 3, "p50_ns": 8, "max_ns": 10, "buckets": [[8, 3]]}) is None
    with_buckets = latency.pool(None, {"count": 1, "max_ns": 8, "buckets": [[8, 1]]})
    assert latency.pool(with_buckets, {"count": 3, "p50_ns": 8, "max_ns": 10}) is None


def test_the_store_pools_each_fork_as_it_comes(tmp_path):
    store = Store(tmp_path / "s.db")
    dataset = {"dataset": "trade", "hash": "0" * 16, "files": {}}
    store.create_run("r", "full", {}, {}, {"datasets": [dataset]})
    cell = {"harness": "java", "bench": "b", "test": "typed-decode", "dataset": "trade", "format": "json"}
    cid = store.add_cell("r", cell | {"library": "b", "version": "1", "notes": "", "is_baseline": 0})
    store.record_round(cid, -2, "ok", None, 1.0, [], latency={"count": 2, "max_ns": 50, "buckets": [[40, 2]]})
    store.record_round(cid, -3, "ok", None, 1.0, [], latency={"count": 2, "max_ns": 90, "buckets": [[40, 1], [90, 1]]})
    c = store.cells("r")[0]
    assert (c["lat_forks"], c["lat_count"], c["lat_p50_ns"], c["lat_max_ns"]) == (2, 4, 40, 90)
    assert json.loads(c["lat_buckets_json"]) == [[40, 3], [90, 1]]
    from serbench.report.facts import latency_ops

    assert latency_ops(c) == "4 in 2 forks"


def test_full_mode_pools_five_forks_and_quick_mode_one():
    p = parser()
    full = mode_from_args(p.parse_args(["run", "--mode", "full"]))
    quick = mode_from_args(p.parse_args(["run"]))
    assert full.latency_rounds() == [runner.LATENCY_ROUND - k for k in range(5)]
    assert quick.latency_rounds() == [runner.LATENCY_ROUND]
    assert mode_from_args(p.parse_args(["run", "--latency-forks", "3"])).latency_forks == 3


FAKE = textwrap.dedent(
    """\
    import json, os, sys
    a = sys.argv
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1) if a[i].startswith("--")}
    with open(opt["results"], "a") as f:
        row = lambda **r: f.write(json.dumps(r) + "\\n")
        if "--latency" in a:
            # each fork sees one more slow operation: pooled, the tail shows them all
            n = len(os.listdir(os.path.dirname(opt["results"])))
            tail = dict(p99_ns=1000 * n, p999_ns=1000 * n, p9999_ns=1000 * n, max_ns=1000 * n)
            row(kind="latency", count=10, p50_ns=100, **tail, buckets=[[100, 9], [1000 * n, 1]])
        else:
            for i in range(3):
                row(kind="sample", iterations=10, wall_ns=1000 * (10 + i), cpu_ns=None)
    """
)


class Fake(Harness):
    name = "fake"
    folder = "."

    def __init__(self, root: Path, script: Path):
        super().__init__(root)
        self.script = script

    def build(self) -> None:
        pass

    def command(self) -> list[str]:
        return [sys.executable, str(self.script)]


def test_a_cell_runs_one_latency_process_per_fork_and_pools_them(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    (tmp_path / "t.json").write_text("{}")
    dataset = {
        "dataset": "trade",
        "kind": "typed",
        "latency": True,
        "hash": "0" * 16,
        "files": {"json": {"file": "t.json"}},
    }
    bench = {"id": "dec", "library": "dec", "version": "0", "formats": ["json"], "tests": ["typed-decode"]}
    cell = runner.Cell(Fake(tmp_path, script), bench, "typed-decode", dataset, "json", tmp_path, None)
    store = Store(tmp_path / "s.db")
    store.create_run("r", "test", {}, {}, {"datasets": [dataset]})
    mode = runner.Mode("test", rounds=1, budget_ms=1, min_samples=1, timeout_s=5, n_boot=50, latency_forks=3)
    runner.run_cells(store, "r", [cell], mode, seed=1, progress=lambda *a: None, allocs=False)
    c = store.cells("r")[0]
    assert sorted(store.done_rounds(c["id"])) == [-4, -3, -2, 0]
    assert (c["lat_forks"], c["lat_count"], c["lat_p50_ns"]) == (3, 30, 100)
    assert c["lat_max_ns"] == max(b for b, _ in json.loads(c["lat_buckets_json"]) if b != 100)
