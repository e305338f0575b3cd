"""Report output pinned by snapshots (set SERBENCH_UPDATE_SNAPSHOTS=1 to rewrite them on purpose)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from serbench import runner
from serbench.compare import compare
from serbench.compare_text import render
from serbench.corpus.build import compressed_sizes
from serbench.report import export, markdown
from serbench.store import Store

SNAPSHOTS = Path(__file__).parent / "snapshots"
MANIFEST = {
    "datasets": [
        {
            "dataset": "size-1",
            "kind": "schemaless",
            "size": 1,
            "hash": "0" * 16,
            "stats": {"payload_bytes": 200},
            "files": {
                "json": {"file": "size-1.json", "bytes": 358, "gzip_bytes": 250, "zstd_bytes": 240},
                "msgpack": {"file": "size-1.msgpack", "bytes": 257, "gzip_bytes": 230, "zstd_bytes": 220},
            },
        }
    ]
}
ENV = {
    "cpu_model": "Test CPU",
    "cores": 2,
    "governor": "performance",
    "kernel": "6.0",
    "git_commit": "abc123",
    "git_dirty": True,
    "git_status": [" M orchestrator/src/serbench/stats.py", "?? notes.txt"],
    "git_status_count": 2,
    "load": [
        {
            "wall_s": 60.0,
            "loadavg_before": [0.25, 0.3, 0.2],
            "loadavg_after": [1.1, 0.6, 0.3],
            "cpu_own_s": 58.0,
            "cpu_busy_s": 60.4,
            "cpu_capacity_s": 120.0,
            "cpu_other_s": 2.4,
            "other_share": 0.02,
            "argv": ["run", "--lang", "python"],
        }
    ],
}
ARGS = {"rounds": 3, "argv": ["run", "--lang", "python"], "command_line": "serbench run --lang python", "cwd": "/work"}


def _cell(
    store,
    run_id,
    bench,
    test,
    fmt,
    per_iter_ns,
    baseline=None,
    is_baseline=False,
    status="ok",
    reason=None,
    allocs=None,
    library=None,
    alloc_bytes=None,
    steps=None,
):
    cid = store.add_cell(
        run_id,
        {
            "harness": "python",
            "bench": bench,
            "test": test,
            "dataset": "size-1",
            "format": fmt,
            "library": library or bench,
            "version": "1.0",
            "notes": "",
            "is_baseline": int(is_baseline),
            "baseline_bench": baseline,
            "measures": None if is_baseline else f"{test} loop",
            "steps": None if steps is None else json.dumps(steps),
        },
    )
    for rnd in range(3):
        samples = [
            {"iterations": 10, "wall_ns": int(10 * per_iter_ns * (1 + 0.01 * ((rnd + i) % 3))), "cpu_ns": None}
            for i in range(4)
        ]
        store.record_round(
            cid,
            rnd,
            status,
            reason,
            0.1,
            samples if status == "ok" else [],
            alloc=(
                {"allocs_per_op": allocs, "alloc_bytes_per_op": alloc_bytes or 100, "method": "test"}
                if allocs or alloc_bytes
                else None
            ),
        )
    return cid


def make_run(store: Store, run_id: str, speed: float = 1.0) -> None:
    store.create_run(run_id, "quick", ARGS, ENV, MANIFEST)
    store.db.execute("UPDATE runs SET started_at=0 WHERE id=?", (run_id,))
    _cell(store, run_id, "copy-input", "tree", "json", 100, is_baseline=True)
    _cell(store, run_id, "copy-input", "tree", "msgpack", 90, is_baseline=True)
    _cell(store, run_id, "null", "write", "json", 40, is_baseline=True)
    _cell(store, run_id, "fastjson", "tree", "json", 1100 * speed, baseline="copy-input", allocs=23)
    _cell(store, run_id, "slowjson", "tree", "json", 5100, baseline="copy-input", allocs=40)
    _cell(store, run_id, "packer", "tree", "msgpack", 600 * speed, baseline="copy-input", library="packer")
    _cell(store, run_id, "fastjson", "write", "json", 540 * speed, baseline="null")
    _cell(
        store,
        run_id,
        "lossy",
        "tree",
        "json",
        1,
        baseline="copy-input",
        status="incorrect",
        reason="hash 1111111111111111 != expected 0000000000000000",
    )
    runner.finalize(store, run_id, 200, 1)
    store.finish_run(run_id)
    store.db.execute("UPDATE runs SET finished_at=1 WHERE id=?", (run_id,))


def _snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("SERBENCH_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with SERBENCH_UPDATE_SNAPSHOTS=1 if intended"


def answer_row(text: str, bench: str) -> list[str]:
    """The words of the answer table's row of `bench` in `run`'s closing text."""
    return next(line.split() for line in text.splitlines() if f" {bench} " in line)


def test_markdown_report_matches_the_snapshot(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    text = markdown.render(store.run("run-a"), store.cells("run-a"))
    _snapshot("report.md", text)
    # The tables are sorted by net time and the incorrect cell is listed, not ranked.
    assert text.index("| fastjson | json | 1 µs") < text.index("| slowjson |")
    assert "| python | lossy | tree | size-1 | json | incorrect | hash 1111111111111111" in text
    assert "lossy (1.0)" not in text


def test_net_time_is_gross_minus_the_baseline_median(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    c = next(c for c in store.cells("run-a") if c["bench"] == "slowjson")
    assert c["net_ns"] == c["median_ns"] - c["baseline_ns"]
    assert c["baseline_ns"] == next(
        x["median_ns"] for x in store.cells("run-a") if x["bench"] == "copy-input" and x["format"] == "json"
    )
    assert c["net_ci_low_ns"] <= c["net_ns"] <= c["net_ci_high_ns"]


def test_a_runtime_that_counts_only_bytes_shows_its_bytes_in_the_allocs_column(tmp_path):
    # The JVM's per-thread counter gives bytes, not allocations: the column shows "2.5 KB", not a dash.
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    _cell(store, "run-a", "jvmjson", "tree", "json", 800, baseline="copy-input", alloc_bytes=2500)
    runner.finalize(store, "run-a", 200, 1)
    text = markdown.render(store.run("run-a"), store.cells("run-a"))
    row = next(line for line in text.splitlines() if line.startswith("| jvmjson"))
    assert row.rstrip(" |").endswith("2.5 KB")


def test_json_and_csv_exports_carry_every_cell(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    run, cells = store.run("run-a"), store.cells("run-a")
    doc = json.loads(export.to_json(run, cells))
    assert doc["run"]["env"]["cpu_model"] == "Test CPU" and len(doc["cells"]) == len(cells) == 8
    rows = list(csv.DictReader(io.StringIO(export.to_csv(run, cells))))
    assert len(rows) == 8 and {"bench", "net_ns", "status", "reason"} <= rows[0].keys()
    # every column a user gets is explained in docs/report.md's "Exports" (median_ns is not a median)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "report.md").read_text()
    section = docs[docs.index("## Exports") : docs.index("## Tests")]
    assert [c for c in rows[0] if f"`{c}`" not in section] == []


def test_compare_says_not_significant_when_three_rounds_cannot_be(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    make_run(store, "run-b", speed=0.5)
    cmp = compare(store, "run-a", "run-b", n_boot=100)
    rows, geo = cmp.rows, cmp.geo
    assert {r.key[1] for r in rows} == {"fastjson", "slowjson", "packer"}
    fast = next(r for r in rows if r.key[1] == "fastjson" and r.key[2] == "tree")
    assert fast.ratio < 0.5 and fast.ci[1] < 1  # clearly faster by the CI...
    assert fast.verdict == "not significant"  # ...but 3 vs 3 rounds cannot give p < 0.05
    assert fast.mark == "†"  # ...and the row says the two are explained below
    assert geo["slowjson"].value == 1.0
    text = render(cmp, every=True)
    _snapshot("compare.md", text)
    assert "smallest possible p is 0.100" in text


def test_typed_section_puts_serialize_deserialize_size_and_code_size_on_one_row(tmp_path):
    store = Store(tmp_path / "s.db")
    manifest = {
        "datasets": [
            {
                "dataset": "trade",
                "kind": "typed",
                "schema": "trade",
                "records": 10,
                "payload_bytes": 400,
                "stats": {},
                "files": {},
            }
        ]
    }
    store.create_run("t", "quick", {"rounds": 3}, ENV, manifest)

    def cell(bench, test, per_iter_ns, baseline=None, code=None, output=None, alloc=None, latency=None):
        cid = store.add_cell(
            "t",
            {
                "harness": "rust",
                "bench": bench,
                "test": test,
                "dataset": "trade",
                "format": "bincode",
                "library": bench,
                "version": "2.0",
                "notes": "",
                "is_baseline": int(baseline is None),
                "baseline_bench": baseline,
                "code_size_bytes": code,
            },
        )
        for rnd in range(3):
            samples = [{"iterations": 10, "wall_ns": int(10 * per_iter_ns), "cpu_ns": None}] * 4
            store.record_round(cid, rnd, "ok", None, 0.1, samples, alloc=alloc, output=output if rnd == 0 else None)
        if latency:
            store.record_round(cid, runner.LATENCY_ROUND, "ok", None, 0.1, [], latency=latency)

    cell("hash-data-typed", "typed-encode", 100)
    cell("hash-typed", "typed-decode", 200)
    encoded = bytes(range(200)) * 3  # 600 B that gzip and zstd shrink to different sizes
    enc_alloc = {"allocs_per_op": 1, "alloc_bytes_per_op": 1024, "method": "counting allocator"}
    dec_alloc = {"allocs_per_op": 21, "alloc_bytes_per_op": 2500, "method": "counting allocator"}
    cell("codec", "typed-encode", 1100, baseline="hash-data-typed", code=52_000, output=encoded, alloc=enc_alloc)
    lat = {"count": 10_000, "p50_ns": 90, "p99_ns": 200, "p999_ns": 900, "p9999_ns": 5000, "max_ns": 80_000}
    cell("codec", "typed-decode", 2200, baseline="hash-typed", code=52_000, alloc=dec_alloc, latency=lat)
    store.compress_pending("t")  # as `run` does once the cells are done
    runner.finalize(store, "t", 200, 1)
    text = markdown.render(store.run("t"), store.cells("t"))
    header = next(line for line in text.splitlines() if line.startswith("| Library (version) | Benchmark"))
    assert header.endswith(
        "| gzip | zstd | Allocs/op (ser / de / access) | Alloc bytes/op (ser / de / access) | Code size |"
    )
    row = next(line for line in text.splitlines() if line.startswith("| codec (2.0)"))
    # net serialize 1 µs, net deserialize 2 µs, no access, 600 B = 1.5× the 400 B payload, 52 KB of code
    assert row.startswith("| codec (2.0) | codec | bincode | 1 µs | 2 µs | – | 600 | 1.50× |")
    sizes = compressed_sizes(encoded)
    assert f"| {sizes['gzip_bytes']:,} | {sizes['zstd_bytes']:,} | 1 / 21 / – | 1.02 KB / 2.5 KB / – | 52 KB |" in row
    # latency: p99.999 is a column only when a row has it (the JVM harness pools enough operations)
    lat_header = next(line for line in text.splitlines() if line.startswith("| Benchmark | Format | Test | p50"))
    assert "p99.999" not in lat_header
    cell("jvm-codec", "typed-decode", 2300, baseline="hash-typed", latency={**lat, "p99999_ns": 40_000})
    runner.finalize(store, "t", 200, 1)
    text = markdown.render(store.run("t"), store.cells("t"))
    lines = text.splitlines()
    assert "| p99.99 | p99.999 | worst |" in next(line for line in lines if line.startswith("| Benchmark | Format"))
    assert "| 5 µs | 40 µs | 80 µs |" in next(line for line in lines if line.startswith("| jvm-codec | bincode"))
    assert "| 5 µs | – | 80 µs |" in next(line for line in lines if line.startswith("| codec | bincode | typed"))


def test_summary_counts_failures_as_the_report_does_with_baselines_apart(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    assert markdown.summary(store.run("run-a"), store.cells("run-a")).endswith(
        "1 cells incorrect or failed: see the report"
    )
    store.db.execute("UPDATE cells SET status='failed' WHERE bench='null'")
    assert markdown.summary(store.run("run-a"), store.cells("run-a")).endswith(
        "1 cells incorrect or failed (and 1 baseline cells): see the report"
    )


def test_a_net_time_whose_ci_reaches_zero_is_flagged_as_within_the_baseline_noise(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create_run("z", "quick", {"rounds": 3}, ENV, MANIFEST)
    _cell(store, "z", "copy-input", "tree", "json", 100, is_baseline=True)
    # the same samples as the baseline (0–2% spread), so the net CI straddles zero
    _cell(store, "z", "free", "tree", "json", 100, baseline="copy-input")
    _cell(store, "z", "costly", "tree", "json", 300, baseline="copy-input")
    runner.finalize(store, "z", 200, 1)
    run, cells = store.run("z"), store.cells("z")
    free = next(c for c in cells if c["bench"] == "free")
    assert free["net_ci_low_ns"] <= 0 <= free["net_ci_high_ns"]
    text = markdown.render(run, cells)
    # never ranked: listed after the ranked rows although its net time is smaller
    tree = text[text.index("### Tree") : text.index("## Object sizes")]
    assert tree.index("| costly (1.0) | costly | json | 201 ns |") < tree.index(
        "| free (1.0) | free | json | 0 ns ⚠ within baseline noise |"
    )
    assert "Not ranked, within baseline noise (listed last): free." in tree
    answer = markdown.summary(run, cells)
    assert answer_row(answer, "costly")[:6] == ["size-1", "Tree", "python", "costly", "json", "201"]
    assert "free" not in answer  # its own cost is lost in the baseline's noise: it cannot be the answer


def test_report_says_how_each_library_was_compiled_and_marks_test_hook_runs(tmp_path):
    store = Store(tmp_path / "s.db")
    env = ENV | {"test_hooks": {"SERBENCH_TEST_SLOW_BENCH": "packer", "SERBENCH_TEST_SLOW_SPINS": "100"}}
    store.create_run("r", "quick", ARGS, env, MANIFEST)
    for bench, build in (("fastjson", "harness -O3 -flto"), ("packer", "debian -O2"), ("slowjson", "debian -O2")):
        cid = _cell(store, "r", bench, "tree", "json", 1000)
        store.db.execute("UPDATE cells SET build=? WHERE id=?", (build, cid))
    runner.finalize(store, "r", 200, 1)
    store.finish_run("r")
    text = markdown.render(store.run("r"), store.cells("r"))
    assert "- python, debian -O2: packer, slowjson\n- python, harness -O3 -flto: fastjson" in text
    assert "Test hooks were set (SERBENCH_TEST_SLOW_BENCH=packer, SERBENCH_TEST_SLOW_SPINS=100)" in text


def test_a_row_whose_loop_does_other_work_is_shown_apart_and_never_ranked(tmp_path):
    """spec/fairness.md rule 12: a write row that dumps a prebuilt DOM is faster than every row that
    builds from the harness's object, and is never ranked beside them."""
    store = Store(tmp_path / "s.db")
    store.create_run("w", "quick", {"rounds": 3}, ENV, MANIFEST)
    _cell(store, "w", "null", "write", "json", 40, is_baseline=True, steps=["hash-output"])
    contract = ["from-object", "encode", "hash-output"]
    _cell(store, "w", "builder", "write", "json", 500, baseline="null", steps=contract)
    _cell(store, "w", "dumper", "write", "json", 200, baseline="null", steps=["prebuilt", "encode", "hash-output"])
    _cell(store, "w", "silent", "write", "json", 100, baseline="null", steps=["undeclared"])
    runner.finalize(store, "w", 200, 1)
    run, cells = store.run("w"), store.cells("w")
    text = markdown.render(run, cells)
    write = text[text.index("### Write") : text.index("## Object sizes")]
    table = write[: write.index("Shown apart")]
    assert "| builder (1.0) |" in table and "dumper" not in table and "silent" not in table
    assert (
        "- python/dumper (json) 161 ns ⚠ other work: prebuilt → encode → hash-output "
        "(contract: from-object → encode → hash-output)"
    ) in write
    assert "- python/silent (json) 60.3 ns ⚠ other work: steps not declared by the harness" in write
    answer = markdown.summary(run, cells)
    assert answer_row(answer, "builder")[:6] == ["size-1", "Write", "python", "builder", "json", "462"]
    assert "dumper" not in answer and "silent" not in answer


def test_cells_stored_before_rows_declared_steps_are_ranked_as_before(tmp_path):
    store = Store(tmp_path / "s.db")
    make_run(store, "old")  # no steps in any cell, as every run before spec/fairness.md rule 12
    summary = markdown.summary(store.run("old"), store.cells("old"))
    assert "other work" not in summary and answer_row(summary, "fastjson")[2:5] == ["python", "fastjson", "json"]


def test_the_markdown_report_names_each_harness_runtime_under_how_the_run_was_measured(tmp_path):
    store = Store(tmp_path / "s.db")
    env = ENV | {"harnesses": {"java": {"runtime": "Temurin 25.0.3 (Eclipse Adoptium)", "flags": "-Xss8m"}}}
    store.create_run("j", "quick", ARGS, env, MANIFEST)
    _cell(store, "j", "copy-input", "tree", "json", 100, is_baseline=True)
    _cell(store, "j", "jackson", "tree", "json", 500, baseline="copy-input")
    runner.finalize(store, "j", 50, 1)
    text = markdown.render(store.run("j"), store.cells("j"))
    method = text[text.index("## How this run was measured") :]
    assert "Compilers and runtimes: java: Temurin 25.0.3 (Eclipse Adoptium)." in method
