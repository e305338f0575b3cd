"""The robustness matrix (docs/robustness.md): the case corpus is deterministic and its expectations
agree with the strict reference decoders; every kind of outcome is classified right, using a fake
harness that accepts, rejects, crashes, hangs, allocates without bound and prints garbage; the limits
are enforced by the orchestrator; and a small real run against the Python harness."""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest
from serbench.cli import main
from serbench.corpus import formats as F
from serbench.harnesses import Harness
from serbench.report import robustness as report
from serbench.robustness import cases as C
from serbench.robustness import own_cases as O
from serbench.robustness import run as R
from serbench.robustness.limits import MIB, Limits, default_jobs, run_limited
from serbench.store import Store

from .conftest import ROOT


@pytest.fixture(scope="module")
def all_cases() -> list[C.Case]:
    return C.all_cases()


# --- the case corpus -----------------------------------------------------------------------------


def test_generator_is_deterministic_and_small(tmp_path, all_cases):
    again = C.all_cases()
    assert [(c.format, c.name, c.data, c.expect, c.hashes) for c in all_cases] == [
        (c.format, c.name, c.data, c.expect, c.hashes) for c in again
    ]
    m1 = C.write_cases(tmp_path / "a")
    m2 = C.write_cases(tmp_path / "b")
    assert m1 == m2
    for entry in m1["cases"]:
        a = (tmp_path / "a" / "robustness" / entry["file"]).read_bytes()
        assert a == (tmp_path / "b" / "robustness" / entry["file"]).read_bytes()
        assert hashlib.sha256(a).hexdigest() == entry["sha256"] and len(a) == entry["bytes"]
    total = sum(e["bytes"] for e in m1["cases"])
    # the 10^6-deep arrays and maps in every format dominate (57.2 MB; 13.0 MB before issue 73's depth
    # families: BSON's 8 bytes a level make 8 MB at 10^6)
    assert total < 60 * MIB, total
    # a stale file of a case that no longer exists is removed on the next write
    stale = tmp_path / "a" / "robustness" / "json" / "gone.json"
    stale.write_bytes(b"{}")
    C.write_cases(tmp_path / "a")
    assert not stale.exists()


def test_manifest_covers_each_format_and_class(all_cases):
    by = {(c.format, c.cls) for c in all_cases}
    for fmt in ("json", "msgpack", "cbor", "bson"):
        for cls in ("mutation/truncation", "mutation/bitflip", "mutation/deep-nesting", "spec/utf8"):
            assert (fmt, cls) in by, (fmt, cls)
    for need in [
        ("json", "spec/number-grammar"),
        ("json", "spec/surrogates"),
        ("json", "spec/nan-infinity"),
        ("json", "spec/duplicate-keys"),
        ("json", "spec/trailing"),
        ("msgpack", "spec/reserved"),
        ("msgpack", "spec/truncated-header"),
        ("msgpack", "mutation/huge-length"),
        ("cbor", "spec/reserved-ai"),
        ("cbor", "spec/indefinite"),
        ("cbor", "spec/break"),
        ("cbor", "spec/appendix-a"),
        ("bson", "spec/length"),
        ("ubjson", "mutation/truncation"),
        ("ubjson", "mutation/huge-length"),
    ]:
        assert need in by, need
    for fmt in C.FORMATS:  # very long strings and keys, in every format
        long = [c for c in all_cases if c.format == fmt and c.cls == "mutation/long-string"]
        assert len(long) == 2 and all(len(c.data) > C.LONG_KEY for c in long), fmt
        for c in long:
            assert C.reference_hash(fmt, c.data) == c.hashes[0], (fmt, c.name)
    assert sum(1 for c in all_cases if c.cls == "mutation/truncation" and c.format == "json") == C.TRUNCATIONS
    assert sum(1 for c in all_cases if c.cls == "mutation/bitflip" and c.format == "json") == C.BITFLIPS
    deep = {c.name for c in all_cases if c.format == "json" and c.cls == "mutation/deep-nesting"}
    assert deep == {"deep-100", "deep-10000", "deep-100000", "deep-1000000"}
    # issue 73's gaps, found beside public corpora: BSON nested 10^5 deep, a form feed as JSON white
    # space, a trailing NUL after a root that is not a map
    names = {(c.format, c.name): c for c in all_cases}
    assert ("bson", "deep-100000") in names and ("ubjson", "deep-100000") in names
    assert names[("json", "form-feed-after")].expect == C.REJECT
    assert names[("json", "trailing-nul-after-array")].expect == C.REJECT
    assert {("msgpack", "trailing-nul-after-array"), ("cbor", "trailing-nul-after-array")} <= names.keys()


def test_every_accept_case_decodes_to_its_hash_and_every_reject_case_is_rejected(all_cases):
    """The expectations agree with the strict reference decoders (corpus/formats.py). The containers too
    deep for them are checked against a small depth hashed both ways instead."""
    for c in all_cases:
        if (
            c.format == "ubjson"
            or c.cls == "mutation/many-items"
            or (c.cls == "mutation/deep-nesting" and c.name != "deep-100")
        ):
            continue
        if c.expect == C.ACCEPT:
            assert C.reference_hash(c.format, c.data) == c.hashes[0], (c.format, c.name)
        elif c.expect == C.REJECT:
            with pytest.raises(F.FormatError):
                C.reference_hash(c.format, c.data)
    nested: list = []
    for _ in range(299):
        nested = [nested]
    assert C._nested_hash(300) == C.hash_of({"a": nested})
    assert C._wide_hash(1000) == C.hash_of({"a": [[] for _ in range(1000)]})
    for fmt in ("json", "msgpack", "cbor", "bson", "ubjson"):
        assert F.FORMATS[fmt].encode({"a": nested}) == C._deep(fmt, 300), fmt
    for fmt in ("msgpack", "cbor"):  # the wide cases use 32-bit counts; the reference reads them
        small = C._wide(fmt, 1000)
        assert C.reference_hash(fmt, small) == C._wide_hash(1000)
    assert C.reference_hash("json", C._wide("json", 1000)) == C._wide_hash(1000)


def test_case_names_and_files_are_plain(all_cases):
    import re

    for c in all_cases:
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", c.name), c.name
        assert c.file == f"{c.format}/{c.name}.{F.FORMATS[c.format].ext}"


# --- a fake harness that misbehaves on purpose ----------------------------------------------------------

FAKE = textwrap.dedent(
    r"""
    import json, os, signal, sys, time
    a = sys.argv[1:]
    assert a[0] == "verify", a
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1, 2)}
    what = os.path.basename(opt["file"]).split(".")[0]
    if what == "ok":
        print(json.dumps({"hash": "0123456789abcdef"})); sys.exit(0)
    if what == "wrong":
        print(json.dumps({"hash": "fedcba9876543210"})); sys.exit(0)
    if what == "reject":
        print(json.dumps({"error": "parse error at byte 3"})); sys.exit(3)
    if what == "abort":
        os.abort()
    if what == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "exit1":
        print("something odd", file=sys.stderr); sys.exit(1)
    if what == "stack":
        print("thread 'main' has overflowed its stack", file=sys.stderr); os.abort()
    if what == "hang":
        import subprocess
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        open(opt["file"] + ".pid", "w").write(str(child.pid))
        time.sleep(300)
    if what == "bomb":
        # allocates and touches memory without bound, as a decoder trusting a 2^32 length would
        chunks = []
        while True:
            chunks.append(bytearray(16 << 20))
    if what == "badalloc":
        print("terminate called after throwing an instance of 'std::bad_alloc'", file=sys.stderr); os.abort()
    if what == "caught":
        try:
            bytearray(1 << 40)
        except MemoryError:
            print(json.dumps({"error": "MemoryError"})); sys.exit(3)
    if what == "limit":
        print(json.dumps({"error": "nested deeper than the harness's walk allows"})); sys.exit(6)
    if what == "garbage":
        print("hello"); sys.exit(0)
    if what == "usage":
        sys.exit(2)
    if what == "negzero":
        # prints the hash of {"z": 0.0} (the test wrote it beside the case): the sign of -0.0 is lost
        print(json.dumps({"hash": open(opt["file"] + ".got").read()})); sys.exit(0)
    if what == "stackrlimit":
        import resource
        print(json.dumps({"hash": "%016x" % resource.getrlimit(resource.RLIMIT_STACK)[0]})); sys.exit(0)
    sys.exit(99)
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


@pytest.fixture
def fake(tmp_path) -> FakeHarness:
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    return FakeHarness(tmp_path, script)


def _verify(h: FakeHarness, tmp_path: Path, what: str, limits: Limits, expect=C.ACCEPT, hashes=("0123456789abcdef",)):
    (tmp_path / "json").mkdir(exist_ok=True)
    (tmp_path / "json" / f"{what}.json").write_bytes(b"{}")
    row = R.Row(h, {"id": "b", "library": "lib", "version": "1"}, "tree", "json")
    case = {"name": what, "class": "spec/x", "expect": expect, "hashes": list(hashes), "file": f"json/{what}.json"}
    return R.run_case(row, case, tmp_path, limits)


LIMITS = Limits(timeout_s=5.0, memory_bytes=512 * MIB)


@pytest.mark.parametrize(
    "what,outcome,verdict,reason",
    [
        ("ok", "accepted", R.PASS, None),
        ("wrong", "other-hash", R.WRONG, "hash fedcba9876543210, expected 0123456789abcdef"),
        ("reject", "rejected", R.REJECTED_VALID, "parse error at byte 3"),
        ("abort", "crashed", R.FAIL, "SIGABRT"),
        ("segv", "crashed", R.FAIL, "SIGSEGV"),
        ("exit1", "crashed", R.FAIL, "exit 1, outside the protocol: something odd"),
        ("stack", "crashed", R.FAIL, "SIGABRT (stack overflow): thread 'main' has overflowed its stack"),
        ("badalloc", "oom", R.FAIL, None),
        ("caught", "oom", R.FAIL, "MemoryError"),
        ("limit", "harness", R.NOT_JUDGED, None),
        ("garbage", "harness", R.NOT_JUDGED, None),
        ("usage", "harness", R.NOT_JUDGED, None),
    ],
)
def test_each_kind_of_outcome_is_classified(fake, tmp_path, what, outcome, verdict, reason):
    res = _verify(fake, tmp_path, what, LIMITS)
    assert (res["outcome"], res["verdict"]) == (outcome, verdict), res
    if reason is not None:
        assert res["reason"] == reason, res["reason"]


def test_a_wrong_value_is_explained_when_a_systematic_change_of_the_case_gives_its_hash(fake, tmp_path):
    from serbench import objhash

    (tmp_path / "json").mkdir(exist_ok=True)
    (tmp_path / "json" / "negzero.json").write_bytes(b'{"z":-0.0}')
    (tmp_path / "json" / "negzero.json.got").write_text(objhash.hex64(objhash.hash_value({"z": 0.0})))
    row = R.Row(fake, {"id": "b", "library": "lib", "version": "1"}, "tree", "json")
    want = objhash.hex64(objhash.hash_value({"z": -0.0}))
    case = {"name": "negzero", "class": "spec/x", "expect": C.ACCEPT, "hashes": [want], "file": "json/negzero.json"}
    res = R.run_case(row, case, tmp_path, LIMITS)
    assert res["outcome"] == "other-hash"
    assert res["reason"].endswith(
        "; the hash is the document's with -0.0 read as +0.0 (first at $.z: expected float -0.0, got float 0.0)"
    )


def test_verdicts_follow_the_expectation():
    assert R.verdict(C.REJECT, "accepted") == R.ACCEPTED_MALFORMED
    assert R.verdict(C.REJECT, "rejected") == R.PASS
    assert R.verdict(C.IMPL, "accepted") == R.IMPL_ACCEPTED
    assert R.verdict(C.IMPL, "rejected") == R.IMPL_REJECTED
    assert R.verdict(C.IMPL, "other-hash") == R.WRONG
    assert R.verdict(C.ACCEPT, "rejected") == R.REJECTED_VALID
    for bad in ("crashed", "hung", "oom"):
        assert R.verdict(C.IMPL, bad) == R.verdict(C.REJECT, bad) == R.FAIL


def test_a_reject_case_accepted_with_any_hash_is_malformed_input_accepted(fake, tmp_path):
    res = _verify(fake, tmp_path, "ok", LIMITS, expect=C.REJECT, hashes=())
    assert (res["outcome"], res["verdict"], res["hash"]) == ("accepted", R.ACCEPTED_MALFORMED, "0123456789abcdef")


def test_the_hang_is_killed_at_the_limit_with_its_process_group(fake, tmp_path):
    t0 = time.monotonic()
    res = _verify(fake, tmp_path, "hang", Limits(timeout_s=1.0))
    assert res["outcome"] == "hung" and res["verdict"] == R.FAIL
    assert time.monotonic() - t0 < 4.0
    grandchild = int((tmp_path / "json" / "hang.json.pid").read_text())
    stat = Path(f"/proc/{grandchild}/stat")
    for _ in range(50):  # reaped by init shortly after the kill
        if not stat.exists() or stat.read_text().split()[2] == "Z":
            break
        time.sleep(0.05)
    assert not stat.exists() or stat.read_text().split()[2] == "Z"


def test_the_memory_bomb_is_stopped_by_the_address_space_limit(fake, tmp_path):
    t0 = time.monotonic()
    res = _verify(fake, tmp_path, "bomb", Limits(timeout_s=20.0, memory_bytes=256 * MIB))
    assert res["outcome"] == "oom", res
    assert res["maxrss_kb"] is None or res["maxrss_kb"] < 300 * 1024
    assert time.monotonic() - t0 < 15


def test_the_stack_limit_is_set_in_the_child(fake, tmp_path):
    res = _verify(fake, tmp_path, "stackrlimit", Limits(stack_bytes=4 * MIB), hashes=())
    assert res["hash"] == f"{4 * MIB:016x}"


def test_run_limited_keeps_stdout_and_never_raises_for_a_missing_program(tmp_path):
    ex = run_limited([sys.executable, "-c", "print('x' * 10)"], None, Limits(timeout_s=5))
    assert ex.code == 0 and ex.stdout.strip() == "x" * 10


# --- store and report -----------------------------------------------------------------------------------


def test_rows_are_stored_and_reported(fake, tmp_path):
    for what in ("ok", "reject", "abort", "hang", "limit"):
        (tmp_path / "json").mkdir(exist_ok=True)
        (tmp_path / "json" / f"{what}.json").write_bytes(b"{}")
    cases = [
        {"name": w, "format": "json", "class": f"spec/{w}", "expect": e, "hashes": h, "file": f"json/{w}.json"}
        for w, e, h in [
            ("ok", C.ACCEPT, ["0123456789abcdef"]),
            ("reject", C.REJECT, []),
            ("abort", C.REJECT, []),
            ("hang", C.IMPL, []),
            ("limit", C.REJECT, []),
        ]
    ]
    bench = {"id": "b", "library": "lib", "version": "1.0", "formats": ["json"], "tests": ["tree", "write"]}
    base = {"id": "base", "library": "x", "version": "1", "formats": ["json"], "tests": ["tree"], "baseline": True}
    rows = R.plan_rows([fake], {"fake": {"benchmarks": [bench, base]}}, {"json"}, [], [], [])
    assert [(r.bench["id"], r.test, r.format) for r in rows] == [("b", "tree", "json")]
    store = Store(tmp_path / "s.db")
    store.create_robustness_run("rb1", {"command_line": "serbench robustness"}, {"cores": 2}, {"cases": cases})
    done_rows = []
    n = R.run_rows(
        rows,
        cases,
        tmp_path,
        Limits(timeout_s=1.0),
        lambda r: store.record_robustness("rb1", r),
        lambda d, t, label: None,
        lambda row, results, wall: done_rows.append(len(results)),
    )
    store.finish_robustness_run("rb1")
    assert n == 5 and done_rows == [5]
    results = store.robustness_results("rb1")
    assert {r["case_name"]: r["outcome"] for r in results} == {
        "ok": "accepted",
        "reject": "rejected",
        "abort": "crashed",
        "hang": "hung",
        "limit": "harness",
    }
    line = R.summary_line(results)
    assert "rejects 1 of 2 malformed cases" in line and "1 CRASH, 1 HANG" in line and "1 not judged" in line
    md = report.render(dict(store.robustness_run("rb1")), results)
    assert "## Crashes, hangs and memory blow-ups" in md
    assert "`corpus/robustness/json/abort.json`" in md and "`corpus/robustness/json/hang.json`" in md
    assert "| fake/b tree (1.0) | json | 5 |" in md
    from serbench.report import html as html_report

    page = html_report.render_robustness(dict(store.robustness_run("rb1")), results)
    assert "Crashes, hangs and memory blow-ups" in page and "corpus/robustness/json/abort.json" in page
    # the benchmark tables are untouched: an older store opens, and `report` still sees no robustness run
    assert store.runs() == [] and store.robustness_run()["id"] == "rb1"


def test_jobs_run_cases_side_by_side_with_the_same_results(fake, tmp_path):
    (tmp_path / "json").mkdir(exist_ok=True)
    names = ["ok", "reject", "wrong", "abort"]
    for w in names:
        (tmp_path / "json" / f"{w}.json").write_bytes(b"{}")
    cases = [
        {"name": w, "format": "json", "class": "spec/x", "expect": C.ACCEPT, "hashes": ["0123456789abcdef"],
         "file": f"json/{w}.json"}
        for w in names
    ]  # fmt: skip
    bench = {"id": "b", "library": "lib", "version": "1", "formats": ["json"], "tests": ["tree", "incremental"]}
    rows = R.plan_rows([fake], {"fake": {"benchmarks": [bench]}}, {"json"}, [], [], ["incremental"])
    assert [r.test for r in rows] == ["incremental"]
    got = []
    R.run_rows(rows, cases, tmp_path, Limits(timeout_s=5), got.append, lambda *a: None, lambda *a: None, jobs=2)
    assert [(r["case_name"], r["outcome"]) for r in got] == [
        ("ok", "accepted"),
        ("reject", "rejected"),
        ("wrong", "other-hash"),
        ("abort", "crashed"),
    ]


def test_default_jobs_is_one_per_cpu_but_no_more_than_fit_in_memory_at_the_limit(monkeypatch):
    pages = {"SC_PAGE_SIZE": 4096}
    monkeypatch.setattr("os.sched_getaffinity", lambda _: {0, 1, 2, 3})
    monkeypatch.setattr("os.sysconf", lambda name: pages[name])
    pages["SC_PHYS_PAGES"] = (24 << 30) // 4096  # 24 GiB: four 2 GiB cases fit, the CPUs bound it
    assert default_jobs(2048 * MIB) == 4
    pages["SC_PHYS_PAGES"] = (5 << 30) // 4096  # 5 GiB: two 2 GiB cases fit, not four
    assert default_jobs(2048 * MIB) == 2
    pages["SC_PHYS_PAGES"] = (1 << 30) // 4096  # less than one limit's worth: still one at a time
    assert default_jobs(2048 * MIB) == 1


def test_an_old_store_gains_the_robustness_tables(tmp_path):
    import sqlite3

    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE runs (id TEXT PRIMARY KEY, started_at REAL NOT NULL, finished_at REAL, status TEXT)")
    db.close()
    s = Store(path)
    assert s.robustness_run() is None
    s.close()


# --- a small real run -----------------------------------------------------------------------------------


def test_a_small_real_run_against_the_python_harness(tmp_path, capsys):
    from serbench.harnesses import BuildOptions, make

    h = make(["python"], ROOT, BuildOptions())[0]
    if not h.is_built():
        pytest.skip("the python harness is not built")
    code = main(
        [
            "robustness", "--lang", "python", "--lib", "json", "--format", "json",
            "--case", "json/number-leading-zero", "--case", "json/number-zero", "--case", "json/token-nan",
            "--case", "json/utf8-byte-ff", "--case", "json/duplicate-key", "--case", "json/deep-10000",
            "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "corpus"),
        ]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("python/json tree json: ")
    store = Store(tmp_path / "s.db")
    run = store.robustness_run()
    got = {r["case_name"]: (r["outcome"], r["verdict"]) for r in store.robustness_results(run["id"])}
    assert got["number-leading-zero"] == ("rejected", R.PASS)
    assert got["number-zero"] == ("accepted", R.PASS)
    assert got["utf8-byte-ff"] == ("rejected", R.PASS)
    # Python's json reads NaN, which RFC 8259 does not allow
    assert got["token-nan"] == ("accepted", R.ACCEPTED_MALFORMED)
    assert got["duplicate-key"] == ("accepted", R.IMPL_ACCEPTED)  # the last one wins
    assert got["deep-10000"][0] in ("rejected", "harness")  # RecursionError, or the harness's own walk
    md = (tmp_path / "out" / run["id"] / "robustness.md").read_text()
    assert "(RLIMIT_AS) 2048 MiB" in md and "| python/json tree" in md
    args = json.loads(run["args_json"])
    assert args["limits"]["stack_bytes"] == 8 * MIB


def test_an_interrupted_run_resumes_with_its_own_settings_and_runs_only_the_cases_it_had_not_finished(
    tmp_path, capsys, monkeypatch
):
    from serbench.harnesses import BuildOptions, make

    if not make(["python"], ROOT, BuildOptions())[0].is_built():
        pytest.skip("the python harness is not built")
    where = ["--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "corpus")]
    picks = [
        "json/number-zero",
        "json/number-leading-zero",
        "json/token-nan",
        "json/utf8-byte-ff",
        "json/duplicate-key",
    ]
    argv = ["robustness", "--no-build", "--lang", "python", "--lib", "json", "--format", "json", "--jobs", "1"]
    argv += [x for p in picks for x in ("--case", p)] + ["--timeout-s", "7"]
    real, ran = R.run_case, []

    def interrupted_at_the_third(row, case, case_dir, limits):
        if len(ran) == 2:
            raise KeyboardInterrupt
        ran.append((case["name"], limits.timeout_s))
        return real(row, case, case_dir, limits)

    monkeypatch.setattr(R, "run_case", interrupted_at_the_third)
    assert main([*argv, *where]) == 130
    err = capsys.readouterr().err
    store = Store(tmp_path / "s.db")
    run = store.robustness_run()
    assert f"Continue with: ./serbench robustness --resume {run['id']}" in err
    assert run["status"] == "interrupted"
    first = {r["case_name"]: r for r in store.robustness_results(run["id"])}
    assert len(first) == 2
    store.close()

    def counted(row, case, case_dir, limits):
        ran.append((case["name"], limits.timeout_s))
        return real(row, case, case_dir, limits)

    monkeypatch.setattr(R, "run_case", counted)
    # the filters of the command line are the run's own: --lang go and --timeout-s 1 are not taken
    assert main(["robustness", "--no-build", "--resume", "--lang", "go", "--timeout-s", "1", *where]) == 0
    err = capsys.readouterr().err
    assert f"resuming robustness run {run['id']}" in err and "3 processes (2 finished before)" in err
    assert sorted(n for n, _ in ran[2:]) == sorted(set(p.split("/")[1] for p in picks) - set(first))
    assert {t for _, t in ran} == {7.0}
    store = Store(tmp_path / "s.db")
    assert store.robustness_run()["status"] == "done"
    assert store.db.execute("SELECT count(*) FROM robustness_runs").fetchone()[0] == 1
    results = {r["case_name"]: r for r in store.robustness_results(run["id"])}
    assert len(results) == 5 and all(results[n] == first[n] for n in first)  # the finished ones untouched
    store.close()
    code = main(["robustness", "--no-build", "--resume", run["id"], *where])
    assert code == 2 and f"robustness run {run['id']} is finished" in capsys.readouterr().err
    code = main(["robustness", "--no-build", "--resume", "20990101-000000-rb0000", *where])
    assert code == 2 and "no robustness run '20990101-000000-rb0000'" in capsys.readouterr().err


def test_resume_refuses_a_run_whose_cases_have_changed_since_it_started(tmp_path, capsys):
    from serbench.harnesses import BuildOptions, make

    if not make(["python"], ROOT, BuildOptions())[0].is_built():
        pytest.skip("the python harness is not built")
    where = ["--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "corpus")]
    assert main(["robustness", "--no-build", "--resume", *where]) == 2
    assert "no interrupted robustness run to resume" in capsys.readouterr().err
    argv = [
        "robustness",
        "--no-build",
        "--lang",
        "python",
        "--lib",
        "json",
        "--format",
        "json",
        "--case",
        "json/number-zero",
    ]
    assert main([*argv, *where]) == 0
    store = Store(tmp_path / "s.db")
    run = store.robustness_run()
    cases = json.loads(run["cases_json"])
    cases["cases"][0]["sha256"] = "0" * 64  # as if generated by other serbench code
    store.db.execute(
        "UPDATE robustness_runs SET status='interrupted', cases_json=? WHERE id=?", (json.dumps(cases), run["id"])
    )
    store.close()
    assert main(["robustness", "--no-build", "--resume", *where]) == 2
    assert "the cases differ from those robustness run" in capsys.readouterr().err


# --- your own cases (--cases DIR) -------------------------------------------------------------------------


def _own_folder(root: Path) -> Path:
    """A folder named as JSONTestSuite names its files, with the cases a user's folder has."""
    folder = root / "My Cases"
    files = {
        "y_array.json": b"[1,2]",
        "y_number_huge_exp.json": b"[1e400]",
        "y_object_duplicated_key.json": b'{"a":1,"a":2}',
        "n_array_extra_comma.json": b"[1,]",
        "i_number_neg_int_huge.json": b"[-123123123123123123123123123123]",
        "plain.json": b'{"a": true}',
        "y_map.msgpack": b"\x81\xa1a\x01",
        "deeper/n_trunc.JSON": b'{"x":',
        "n_a b.json": b"[",
        "n_a-b.json": b"]",
        "README.txt": b"not a case",
    }
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def test_own_cases_take_their_expectation_from_the_name_prefix(tmp_path):
    cases, skipped = O.user_cases(_own_folder(tmp_path))
    by = {(c.format, c.name): c for c in cases}
    assert skipped == ["README.txt"]
    assert {c.cls for c in cases} == {"user/my-cases"}
    assert by["json", "y-array"].expect == C.ACCEPT
    assert by["json", "y-array"].hashes == (C.hash_of([1, 2]),)
    assert by["msgpack", "y-map"].hashes == (C.hash_of({"a": 1}),)
    assert by["json", "n-array-extra-comma"].expect == C.REJECT
    assert by["json", "n-trunc"].expect == C.REJECT  # found in a subfolder, extension in capitals
    assert by["json", "i-number-neg-int-huge"].expect == C.IMPL
    assert by["json", "plain"].expect == C.IMPL and "no y_, n_ or i_ prefix" in by["json", "plain"].description
    # valid, but outside what the reference decoder reads or inside RFC 8259's range limits: either answer
    dup = by["json", "y-object-duplicated-key"]
    assert dup.expect == C.IMPL and not dup.hashes and "cannot read it" in dup.description
    big = by["json", "y-number-huge-exp"]
    assert big.expect == C.IMPL and not big.hashes and "RFC 8259" in big.description
    # two names that clean to one are both kept
    assert {("json", "n-a-b"), ("json", "n-a-b-2")} <= set(by)
    assert len(cases) == 10


def test_one_file_is_a_case_list_of_its_own(tmp_path):
    # the input that broke a service is often one file, not a folder of them
    folder = _own_folder(tmp_path)
    cases, skipped = O.user_cases(folder / "deeper" / "n_trunc.JSON")
    assert skipped == [] and [(c.format, c.name, c.expect, c.cls) for c in cases] == [
        ("json", "n-trunc", C.REJECT, "user/deeper")
    ]


def test_own_cases_are_copied_beside_the_built_in_ones_with_their_source(tmp_path):
    folder = _own_folder(tmp_path)
    cases, _ = O.user_cases(folder)
    corpus = tmp_path / "corpus"
    (corpus / O.USER_FOLDER / "json").mkdir(parents=True)
    (corpus / O.USER_FOLDER / "json" / "stale.json").write_bytes(b"[]")
    manifest = O.write_user_cases(corpus, folder, cases)
    assert C.folder_of(manifest) == O.USER_FOLDER and manifest["source"] == str(folder.resolve())
    assert not (corpus / O.USER_FOLDER / "json" / "stale.json").exists()  # an earlier folder's cases go
    for e in manifest["cases"]:
        data = (corpus / O.USER_FOLDER / e["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == e["sha256"]
    assert not (corpus / "robustness").exists()
    assert C.folder_of({"cases": []}) == "robustness"  # a run stored before --cases existed


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda d: d / "absent", "no such file or folder"),
        (lambda d: (d / "f.txt").write_bytes(b"[]") and d / "f.txt", "not a case file (the extensions read are"),
        (lambda d: Path("/dev/null"), "neither a folder nor a file"),
        (lambda d: (d / "e").mkdir() or (d / "e" / "notes.txt").write_text("x") and d / "e", "no case file in it"),
    ],
)
def test_a_cases_folder_that_cannot_be_used_is_one_line_before_any_build(tmp_path, capsys, make, says):
    folder = make(tmp_path)
    code = main(["robustness", "--cases", str(folder), "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith(f"serbench: {folder}: {says}")
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize(
    "args, says",
    [
        (["--format", "yaml"], "serbench: no robustness cases for format 'yaml'; there are: json, msgpack"),
        (["--case", "no-such-case*"], "serbench: --case no-such-case* selects no case; see "),
        (["--db", "/etc/passwd"], "serbench: /etc/passwd is not a serbench results store"),
    ],
)
def test_a_filter_or_store_that_cannot_be_used_fails_before_any_build(tmp_path, capsys, monkeypatch, args, says):
    # The first build takes minutes; a mistyped filter must not wait for it (it did for --format).
    def no_build(*a, **k):
        raise AssertionError("the harnesses were made before the bad input was found")

    monkeypatch.setattr("serbench.cli.robustness.make", no_build)
    base = ["robustness", "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "o"), "--corpus", str(tmp_path)]
    code = main(base + args)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith(says), err


def test_own_cases_run_against_the_python_harness_and_are_reported_from_their_folder(tmp_path, capsys):
    from serbench.harnesses import BuildOptions, make

    h = make(["python"], ROOT, BuildOptions())[0]
    if not h.is_built():
        pytest.skip("the python harness is not built")
    folder, corpus = _own_folder(tmp_path), tmp_path / "corpus"
    code = main(
        [
            "robustness", "--lang", "python", "--lib", "json", "--format", "json", "--cases", str(folder),
            "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "out"), "--corpus", str(corpus),
        ]
    )  # fmt: skip
    assert code == 0
    err = capsys.readouterr().err
    assert f"from {folder}: 2 accept, 4 implementation-defined, 4 reject; 1 file of other extensions" in err
    store = Store(tmp_path / "s.db")
    run = store.robustness_run()
    got = {r["case_name"]: (r["outcome"], r["verdict"]) for r in store.robustness_results(run["id"])}
    assert set(got) == {
        "y-array", "y-number-huge-exp", "y-object-duplicated-key", "n-array-extra-comma",
        "i-number-neg-int-huge", "plain", "n-trunc", "n-a-b", "n-a-b-2",
    }  # fmt: skip
    assert got["y-array"] == ("accepted", R.PASS)  # a root that is not a map is read like any other
    assert got["n-array-extra-comma"] == ("rejected", R.PASS)
    assert got["n-trunc"] == ("rejected", R.PASS)
    assert got["plain"][1] == R.IMPL_ACCEPTED
    assert not (corpus / "robustness").exists()  # the built-in cases are neither written nor run
    md = (tmp_path / "out" / run["id"] / "robustness.md").read_text()
    assert f"- Cases: 10 in corpus/{O.USER_FOLDER} (from {folder.resolve()})" in md
    assert "| user/my-cases |" in md
    assert json.loads(run["args_json"])["cases"] == str(folder)


def test_native_rows_that_need_a_flag_or_the_final_nul_read_a_scalar_root(tmp_path, capsys):
    # json-c's tokener waits for more input after a root number or literal unless the length counts
    # the NUL after it (json_tokener.h), and Jansson takes only an array or object unless given
    # JSON_DECODE_ANY: both rejected these valid documents until their adapters said so
    from serbench.harnesses import BuildOptions, make

    h = make(["native"], ROOT, BuildOptions())[0]
    if not h.is_built():
        pytest.skip("the native harness is not built")
    folder = tmp_path / "roots"
    folder.mkdir()
    for name, data in {"y_number.json": b"123", "y_true.json": b"true", "y_null.json": b"null",
                       "y_number_space.json": b"1 ", "n_number_nul.json": b"1\x00"}.items():  # fmt: skip
        (folder / name).write_bytes(data)
    code = main(
        [
            "robustness", "--no-build", "--lang", "native", "--lib", "json-c-parse", "--lib", "jansson-load",
            "--format", "json", "--cases", str(folder), "--db", str(tmp_path / "s.db"),
            "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "corpus"),
        ]
    )  # fmt: skip
    assert code == 0
    store = Store(tmp_path / "s.db")
    results = store.robustness_results(store.robustness_run()["id"])
    got = {(r["bench"], r["case_name"]): (r["outcome"], r["verdict"]) for r in results}
    for bench in ("json-c-parse", "jansson-load"):
        for case in ("y-number", "y-true", "y-null", "y-number-space"):
            assert got[bench, case] == ("accepted", R.PASS), (bench, case)
    # the NUL json-c is given is the one after the input, never one inside it
    assert got["json-c-parse", "n-number-nul"] == ("rejected", R.PASS)


# --- UBJSON spec cases (Draft 12) ------------------------------------------------------------------------

#: reject cases py-ubjson (the reference UBJSON decoder) accepts: it reads H with Python's Decimal, which
#: takes forms the JSON number grammar does not ("+1", "01", ".5", "1.", "NaN", "Infinity", " 1")
_PY_UBJSON_LENIENT = {
    "high-precision-leading-plus",
    "high-precision-leading-zero",
    "high-precision-bare-fraction",
    "high-precision-trailing-dot",
    "high-precision-nan",
    "high-precision-infinity",
    "high-precision-space",
}


def test_ubjson_spec_cases_cover_draft_12_and_agree_with_py_ubjson(all_cases):
    import ubjson

    cases = [c for c in all_cases if c.format == "ubjson" and c.cls.startswith("spec/")]
    by_class = {c.cls for c in cases}
    for cls in ("spec/types", "spec/length", "spec/char", "spec/number-grammar", "spec/optimized", "spec/noop",
                "spec/structure", "spec/truncated-header", "spec/utf8", "spec/duplicate-keys", "spec/trailing",
                "spec/data-model"):  # fmt: skip
        assert cls in by_class, cls
    assert {C.ACCEPT, C.REJECT, C.IMPL} == {c.expect for c in cases}
    names = {c.name for c in cases}
    for need in ("char-128", "string-length-negative", "count-negative", "type-without-count", "count-before-type",
                 "count-and-end-marker", "noop-in-array", "noop-at-root", "high-precision-pi", "uint8-typed-array",
                 "valid-marker-only-true", "key-with-s-marker"):  # fmt: skip
        assert need in names, need
    for c in cases:
        assert c.description, c.name
        if c.expect == C.ACCEPT:
            assert C.hash_of(ubjson.loadb(c.data)) == c.hashes[0], c.name
        elif c.expect == C.REJECT and c.name not in _PY_UBJSON_LENIENT:
            with pytest.raises(Exception):  # noqa: B017 - py-ubjson raises DecoderException or ValueError
                ubjson.loadb(c.data)
    assert _PY_UBJSON_LENIENT <= names


def test_ubjson_high_precision_cases_follow_the_json_number_grammar(all_cases):
    """H "must be written out in accordance with the original JSON number type specification": the
    reject cases are exactly those the grammar refuses, checked here with Python's strict JSON reader."""
    for c in all_cases:
        if (
            c.format != "ubjson"
            or not c.name.startswith("high-precision-")
            or c.name.endswith(("length-negative", "spec-example"))
        ):
            continue
        text = c.data[len(b"{U\x01aHU") + 1 : -1].decode()
        try:
            number = F.decode_json(b'{"n":' + text.encode() + b"}")["n"]
            valid = isinstance(number, (int, float)) and text == text.strip()
        except F.FormatError:
            valid = False
        assert valid == (c.expect != C.REJECT), (c.name, text)
        if valid:  # an integer that fits is read as itself; otherwise the nearest double
            allowed = {C.hash_of({"a": float(text)})}
            if (
                float(text).is_integer()
                and "." not in text
                and "e" not in text.lower()
                and -(2**63) <= int(text) < 2**64
            ):
                allowed.add(C.hash_of({"a": int(text)}))
            assert set(c.hashes) == allowed, c.name


def test_ubjson_char_and_marker_only_cases_say_what_draft_12_says(all_cases):
    by = {c.name: c for c in all_cases if c.format == "ubjson"}
    assert by["char-letter"].hashes == (C.hash_of({"a": "a"}),)
    assert all(by[f"char-{v}"].expect == C.REJECT for v in (128, 195, 255))  # "must not be larger than 127"
    assert by["valid-marker-only-null"].hashes == (C.hash_of({"a": [None, None]}),)
    assert by["valid-object-marker-only"].data == b"{U\x01a{$Z#U\x02U\x01bU\x01c}"
    # binary or an array of integers: both are what Draft 12's "binary data" convention allows
    assert set(by["uint8-typed-array"].hashes) == {C.hash_of({"a": b"\x01\x02\xff"}), C.hash_of({"a": [1, 2, 255]})}
    assert by["count-and-end-marker"].expect == C.REJECT
