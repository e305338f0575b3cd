"""The writers' robustness (docs/robustness.md, "Writers"): the writer cases are valid documents with
the hashes the reference decoders give them; each writer outcome is classified (a fake harness whose
`verify --test write` writes right, refuses, writes wrong output, overflows its stack); the results are
stored beside the decoders' and reported in a writers' table with the counts per language, decoders
and writers apart; and a small real run against the Python harness."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from serbench.cli import main
from serbench.corpus import formats as F
from serbench.report import html as html_report
from serbench.report import robustness as report
from serbench.report import robustness_writers as wreport
from serbench.robustness import run as R
from serbench.robustness import writer_cases as W
from serbench.robustness import writers
from serbench.robustness.cases import ACCEPT, IMPL, hash_of
from serbench.robustness.limits import MIB, Limits
from serbench.store import Store

from .conftest import ROOT
from .test_robustness import FakeHarness  # the same fake harness class; this module gives it its own script

# --- the cases --------------------------------------------------------------------------------------------


def _nested(kind: str, n: int) -> dict:
    inner: list | dict = [] if kind == "array" else {}
    for _ in range(n - 1):
        inner = [inner] if kind == "array" else {"a": inner}
    return {"a": inner}


@pytest.mark.parametrize("fmt", W.FORMATS)
@pytest.mark.parametrize("kind", ["array", "map"])
def test_deep_cases_are_the_bytes_the_reference_encoder_writes_and_hash_as_it_reads_them(fmt, kind):
    for n in (1, 2, 7, 300):
        doc = _nested(kind, n)
        data = W.deep_bytes(fmt, kind, n)
        assert data == F.FORMATS[fmt].encode(doc), (fmt, kind, n)
        assert W.deep_hash(kind, n) == hash_of(doc) == hash_of(F.DECODERS[fmt](data))


def test_every_other_writer_case_is_a_valid_document_with_its_hash():
    for c in W.all_cases():
        assert c.expect == (ACCEPT if not c.name.startswith("deep-") or int(c.name.rsplit("-", 1)[1]) <= 100 else IMPL)
        if c.name.startswith("deep-"):
            continue
        assert hash_of(F.DECODERS[c.format](c.data)) == c.hashes[0], (c.format, c.name)


def test_what_a_format_cannot_carry_is_not_run_and_says_why():
    names = {(c.format, c.name) for c in W.all_cases()}
    assert ("json", "uint64-limits") in names and ("cbor", "uint64-limits") in names
    assert ("bson", "uint64-limits") not in names and ("ubjson", "uint64-limits") not in names
    why = {(f, c) for f, c, _ in W.NOT_RUN}
    assert {("bson", "uint64-limits"), ("ubjson", "uint64-limits"), ("*", "nan-infinity"), ("*", "invalid-utf8")} <= why


def test_pretty_and_plain_writers_read_the_compact_files_and_pretty_stops_at_a_thousand_deep():
    manifest = {"cases": [c.entry() for c in W.all_cases()]}
    pretty = {c["name"]: c for c in W.row_cases(manifest, "json-pretty")}
    assert {c["source_format"] for c in pretty.values()} == {"json"}
    assert "deep-array-1000" in pretty and "deep-array-10000" not in pretty and "long-string-16777216" in pretty
    assert all(c["format"] == "json-pretty" and c["file"].startswith("robustness-write/json/") for c in pretty.values())
    plain = W.row_cases(manifest, "ubjson-plain")
    assert plain and {c["file"].split("/")[1] for c in plain} == {"ubjson"}
    # a row of a format only its library has reads the file its `reads` names (go-codec's Binc)
    binc = W.row_cases(manifest, "binc", {"binc": "msgpack"})
    assert binc and all(c["file"].startswith("robustness-write/msgpack/") for c in binc)


# --- a fake harness whose writer misbehaves on purpose ------------------------------------------------------

FAKE = textwrap.dedent(
    r"""
    import json, os, resource, signal, sys
    a = sys.argv[1:]
    opt = {a[i][2:]: a[i + 1] for i in range(1, len(a) - 1, 2)}
    assert a[0] == "verify" and opt["test"] == "write", a
    what = os.path.basename(opt["file"]).split(".")[0]
    if what == "ok":
        print(json.dumps({"hash": "0123456789abcdef"})); sys.exit(0)
    if what == "wrong":
        print(json.dumps({"hash": "fedcba9876543210"})); sys.exit(0)
    if what == "unreadable":
        print(json.dumps({"error": "the reference decoder cannot read the library's output: bad byte"})); sys.exit(3)
    if what == "refuse":
        print(json.dumps({"error": "nesting too deep"})); sys.exit(3)
    if what == "mismatch":
        sys.exit(4)
    if what == "deep":
        # a recursive writer: SIGSEGV on the default stack, through with a stack 32 times larger
        if resource.getrlimit(resource.RLIMIT_STACK)[0] > 64 << 20:
            print(json.dumps({"hash": "0123456789abcdef"})); sys.exit(0)
        os.kill(os.getpid(), signal.SIGSEGV)
    if what == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.exit(99)
    """
)


@pytest.fixture
def fake(tmp_path) -> FakeHarness:
    script = tmp_path / "fake.py"
    script.write_text(FAKE)
    return FakeHarness(tmp_path, script)


BENCH = {"id": "w", "library": "lib", "version": "1", "formats": ["json"], "tests": ["write", "tree"]}
LIMITS = Limits(timeout_s=5.0, memory_bytes=512 * MIB)


def _case(tmp_path: Path, what: str, expect: str = ACCEPT) -> dict:
    (tmp_path / W.FOLDER / "json").mkdir(parents=True, exist_ok=True)
    (tmp_path / W.FOLDER / "json" / f"{what}.json").write_bytes(b"{}")
    return {"name": what, "format": "json", "source_format": "json", "class": "write/x", "expect": expect,
            "hashes": ["0123456789abcdef"], "file": f"{W.FOLDER}/json/{what}.json"}  # fmt: skip


@pytest.mark.parametrize(
    "what,expect,outcome,verdict,reason",
    [
        ("ok", ACCEPT, "accepted", R.PASS, None),
        ("wrong", ACCEPT, "other-hash", R.WRONG, "wrong output: hash fedcba9876543210, expected 0123456789abcdef"),
        ("unreadable", ACCEPT, "other-hash", R.WRONG, "wrote output its reference decoder cannot read: the "
         "reference decoder cannot read the library's output: bad byte"),
        ("mismatch", ACCEPT, "other-hash", R.WRONG, None),
        ("refuse", ACCEPT, "rejected", R.REJECTED_VALID, "nesting too deep"),
        ("refuse", IMPL, "rejected", R.IMPL_REJECTED, "nesting too deep"),
        ("segv", IMPL, "crashed", R.FAIL, "SIGSEGV"),
    ],
)  # fmt: skip
def test_each_kind_of_writer_outcome_is_classified(fake, tmp_path, what, expect, outcome, verdict, reason):
    res = R.run_case(R.Row(fake, BENCH, "write", "json"), _case(tmp_path, what, expect), tmp_path, LIMITS)
    assert (res["outcome"], res["verdict"]) == (outcome, verdict), res
    if reason is not None:
        assert res["reason"] == reason


def test_a_writer_that_overflows_its_stack_on_deep_nesting_is_a_crash_in_the_writers_table(fake, tmp_path):
    row = R.Row(fake, BENCH, "write", "json")
    res = R.run_case(row, _case(tmp_path, "deep", IMPL), tmp_path, LIMITS)
    assert (res["outcome"], res["verdict"]) == ("crashed", R.FAIL)
    assert res["reason"] == "SIGSEGV (stack overflow: with a 256 MiB stack it ends accepted)"
    run = {"id": "rb1", "args_json": "{}", "cases_json": json.dumps({"write": {"not_run": []}})}
    md = "\n".join(wreport.writers_md(run, [res | {"case_name": "deep-array-100000"}]))
    assert "| fake/w (1) | json | **CRASH** |" in md
    assert "`corpus/robustness-write/json/deep.json` | crashed | SIGSEGV (stack overflow" in md


def test_writers_are_planned_from_the_write_test_without_baselines(fake):
    base = {"id": "null", "library": "x", "version": "1", "formats": ["json"], "tests": ["write"], "baseline": True}
    other = {"id": "m", "library": "y", "version": "1", "formats": ["msgpack", "binc"], "tests": ["write"],
             "reads": {"binc": "msgpack"}}  # fmt: skip
    listing = {"fake": {"benchmarks": [BENCH, base, other]}}
    rows = writers.plan_rows([fake], listing, [], [])
    assert [(r.bench["id"], r.test, r.format) for r in rows] == [("w", "write", "json"), ("m", "write", "msgpack"),
                                                                 ("m", "write", "binc")]  # fmt: skip
    assert [r.format for r in writers.plan_rows([fake], listing, [], ["binc"])] == ["binc"]
    # the decoders' plan never takes a write row
    assert [r.test for r in R.plan_rows([fake], listing, {"json"}, [], [], [])] == ["tree"]


def test_writers_are_stored_and_reported_beside_the_decoders_with_counts_per_language(fake, tmp_path):
    whats = ["ok", "wrong", "refuse", "segv"]
    cases = [_case(tmp_path, w, IMPL if w == "refuse" else ACCEPT) for w in whats]
    (tmp_path / "json").mkdir()
    (tmp_path / "json" / "ok.json").write_bytes(b"{}")
    dcase = {"name": "ok", "format": "json", "class": "spec/x", "expect": ACCEPT, "hashes": ["0123456789abcdef"],
             "file": "json/ok.json"}  # fmt: skip
    dfake = tmp_path / "dfake.py"  # a decoder that reads everything right
    dfake.write_text('import json; print(json.dumps({"hash": "0123456789abcdef"}))')
    store = Store(tmp_path / "s.db")
    manifest = {"cases": [dcase], "write": {"cases": cases, "not_run": [{"format": "*", "case": "nan", "reason": "r"}]}}
    store.create_robustness_run("rb1", {"command_line": "serbench robustness"}, {"cores": 2}, manifest)
    dec = FakeHarness(tmp_path, dfake)
    R.run_rows([R.Row(dec, BENCH, "tree", "json")], [dcase], tmp_path, LIMITS,
               lambda r: store.record_robustness("rb1", r), lambda *a: None, lambda *a: None)  # fmt: skip
    R.run_rows([R.Row(fake, BENCH, "write", "json")], cases, tmp_path, LIMITS,
               lambda r: store.record_robustness("rb1", r), lambda *a: None, lambda *a: None)  # fmt: skip
    store.finish_robustness_run("rb1")
    run, results = dict(store.robustness_run("rb1")), store.robustness_results("rb1")
    assert {(r["test"], r["case_name"]): r["outcome"] for r in results} == {
        ("tree", "ok"): "accepted",
        ("write", "ok"): "accepted",
        ("write", "wrong"): "other-hash",
        ("write", "refuse"): "rejected",
        ("write", "segv"): "crashed",
    }
    line = R.summary_line([r for r in results if r["test"] == "write"])
    assert line == "writes 1 of 4 documents right; refuses 1 deep one cleanly; 1 WRONG OUTPUT; 1 CRASH"
    md = wreport.render_md(run, results, report.render)
    assert md.index("## Per language") < md.index("## Writers") < md.index("## Crashes, hangs and memory blow-ups")
    assert "| fake | decoders | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |" in md
    assert "| fake | writers | 1 | 4 | 1 | 0 | 0 | 1 | – | 0 | 0 |" in md
    assert "| fake/w (1) | json | ok | ref | **CRASH** | **WRONG** |" in md  # the columns in name order
    assert "- `nan` (every format): r" in md
    # the decoders' part of the report counts the decoders only
    assert "| fake/w tree (1) | json | 1 |" in md and "fake/w write" not in md
    page = wreport.render_html(run, results, html_report.render_robustness)
    assert page.index("Writer rows") < page.index('<section id="failures">')
    findings = wreport.findings_md(run, results, report.findings)
    assert "## Writers" in findings and "`corpus/robustness-write/json/segv.json`" in findings


# --- a small real run ---------------------------------------------------------------------------------------


def test_a_small_real_writer_run_against_the_python_harness(tmp_path, capsys, monkeypatch):
    from serbench.harnesses import BuildOptions, make

    h = make(["python"], ROOT, BuildOptions())[0]
    if not h.is_built():
        pytest.skip("the python harness is not built")
    small = [c for c in W.all_cases() if c.name in ("deep-array-10", "deep-map-10000", "int64-limits")]
    monkeypatch.setattr(W, "all_cases", lambda: small)
    code = main(
        [
            "robustness", "--lang", "python", "--lib", "json", "--lib", "msgspec-msgpack", "--test", "write",
            "--db", str(tmp_path / "s.db"), "--out", str(tmp_path / "out"), "--corpus", str(tmp_path / "corpus"),
        ]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "python/json write json: " in out and "python/json write json-pretty: " in out
    store = Store(tmp_path / "s.db")
    run = store.robustness_run()
    got = {(r["bench"], r["format"], r["case_name"]): (r["outcome"], r["verdict"])
           for r in store.robustness_results(run["id"])}  # fmt: skip
    assert got[("json", "json", "deep-array-10")] == ("accepted", R.PASS)
    assert got[("json", "json", "int64-limits")] == ("accepted", R.PASS)
    assert got[("msgspec-msgpack", "msgpack", "int64-limits")] == ("accepted", R.PASS)
    # Python's json refuses with a RecursionError: a clean refusal a writer may give
    assert got[("json", "json", "deep-map-10000")] == ("rejected", R.IMPL_REJECTED)
    assert ("json", "json-pretty", "deep-map-10000") not in got  # pretty stops at 1,000 deep (NOT_RUN)
    assert not any(r["test"] != "write" for r in store.robustness_results(run["id"]))
    md = (tmp_path / "out" / run["id"] / "robustness.md").read_text()
    assert "## Writers" in md and "| python | writers | 3 |" in md
