"""The command line at its edges (issue 13): a bad --db, bad numbers, SIGTERM, two processes on one
run or one harness, `list` that never builds, and `report` on a run that did not finish. Every error
a user can cause is one line that names the file, with a documented exit code."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serbench.cli import main
from serbench.harnesses import base
from serbench.harnesses.base import BuildOptions, Harness
from serbench.harnesses.python import PythonHarness
from serbench.store import Store


def _main(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err.strip().splitlines()
    return code, err[-1] if err else ""


# --- --db -------------------------------------------------------------------------------------------


def test_a_db_in_a_place_nobody_can_write_is_one_line_naming_it_and_exit_2(capsys):
    # /proc refuses new files even to root, unlike a chmod-ed folder. `run` creates the store (a command
    # that only reads never does: test_cli.py).
    code, line = _main(capsys, "--db", "/proc/serbench-test/s.db", "run", "--lang", "python")
    assert code == 2 and line.startswith("serbench: cannot create the folder of the results store /proc/serbench-test")
    code, line = _main(capsys, "--db", "/proc/s.db", "run", "--lang", "python")
    assert code == 2 and line.startswith("serbench: cannot open the results store /proc/s.db for writing"), line


def test_a_db_that_is_not_sqlite_is_one_line_naming_it_and_exit_2(capsys, tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("these are my notes, not a database\n" * 100)
    code, line = _main(capsys, "--db", str(junk), "report", "--list")
    assert code == 2 and line.startswith(f"serbench: {junk} is not a serbench results store"), line
    assert junk.read_text().startswith("these are my notes")  # left as it was


def test_a_db_that_is_a_folder_says_to_give_a_file(capsys, tmp_path):
    code, line = _main(capsys, "--db", str(tmp_path), "report")
    assert (
        code == 2
        and line == f"serbench: --db {tmp_path} is a folder; give a file path, e.g. --db {tmp_path}/serbench.db"
    )


def test_db_works_after_the_subcommand_as_well_as_before_it(capsys, tmp_path):
    after, before = tmp_path / "after.db", tmp_path / "before.db"
    code, line = _main(capsys, "report", "--db", str(after))
    assert code == 2 and f"no results store at {after};" in line
    # The one after the subcommand wins, as the closer one.
    code, _ = _main(capsys, "--db", str(before), "report", "--db", str(after))
    assert code == 2 and not before.exists()


# --- numbers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, value, says",
    [
        ("--rounds", "-1", "-1 is out of range: it must be at least 1"),
        ("--rounds", "0", "0 is out of range: it must be at least 1"),
        ("--budget-ms", "0", "0 is out of range: it must be at least 1"),
        ("--budget-ms", "-5", "-5 is out of range: it must be at least 1"),
        ("--budget-ms", "ten", "'ten' is not an integer"),
        ("--seed", "-1", "-1 is out of range: it must be from 0 to 18446744073709551615"),
    ],
)
def test_numeric_options_out_of_range_are_usage_errors_that_say_the_range(capsys, tmp_path, option, value, says):
    with pytest.raises(SystemExit) as e:
        main(["--db", str(tmp_path / "s.db"), "run", "--lang", "python", option, value])
    assert e.value.code == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "s.db").exists()  # nothing was stored


# --- runs and processes ------------------------------------------------------------------------------


def _rounds(db: Path) -> int:
    try:
        with sqlite3.connect(db) as c:
            return c.execute("SELECT count(*) FROM rounds").fetchone()[0]
    except sqlite3.Error:
        return 0


def _harness_pids(marker: str) -> list[int]:
    """Processes whose command line contains marker (a path unique to one test)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if marker in (d / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(d.name))
            except OSError:
                continue
    return pids


def _start_run(tmp_path: Path, corpus_dir: Path) -> tuple[subprocess.Popen, list[str], Path, Path]:
    """A python-harness run in a child process, with its temporary files under tmp_path/tmp."""
    db, tmp = tmp_path / "s.db", tmp_path / "tmp"
    tmp.mkdir()
    base_argv = [sys.executable, "-m", "serbench.cli", "--db", str(db)]
    args = ["run", "--lang", "python", "--lib", "orjson", "--lib", "cbor2", "--size", "1", "--size", "2"]
    args += ["--corpus", str(corpus_dir), "--out", str(tmp_path / "out")]
    p = subprocess.Popen(
        base_argv + args,
        env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return p, base_argv, db, tmp


def _wait_for(pred, p: subprocess.Popen, what: str, limit_s: float = 300) -> None:
    deadline = time.monotonic() + limit_s
    while not pred():
        assert p.poll() is None, f"the run ended before {what}: {p.stderr.read()}"
        assert time.monotonic() < deadline, f"no {what} within {limit_s} s"
        time.sleep(0.02)


def test_sigterm_marks_the_run_interrupted_kills_the_harness_and_removes_temporary_files(tmp_path, corpus):
    p, base_argv, db, tmp = _start_run(tmp_path, corpus[0])
    # Send SIGTERM to the orchestrator alone (as `timeout` does) while a harness process is running.
    _wait_for(lambda: _rounds(db) >= 2 and _harness_pids(str(tmp)), p, "a harness process")
    os.kill(p.pid, signal.SIGTERM)
    code = p.wait(timeout=30)
    err = p.stderr.read()
    assert code == 143, err  # stderr says where a lost signal went ("Exception ignored in ...")
    assert "--resume" in err
    time.sleep(0.2)
    assert _harness_pids(str(tmp)) == []  # no orphaned harness
    assert list(tmp.iterdir()) == []  # no temporary folder left behind
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    res = subprocess.run(base_argv + ["run", "--resume"], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "done"


def test_resume_never_takes_a_run_that_a_live_process_executes_and_a_dead_ones_run_shows_interrupted(
    tmp_path, corpus, capsys
):
    p, base_argv, db, _ = _start_run(tmp_path, corpus[0])
    try:
        _wait_for(lambda: _rounds(db) >= 1, p, "a first round")
        run_id = Store(db).runs()[0]["id"]
        code, line = _main(capsys, "--db", str(db), "run", "--resume")
        assert code == 2 and line == "serbench: no interrupted run to resume"
        code, line = _main(capsys, "--db", str(db), "run", "--resume", run_id)
        assert code == 2 and line.startswith(
            f"serbench: run {run_id} is being executed by another serbench process (pid {p.pid})"
        )
        assert main(["--db", str(db), "report", "--list"]) == 0
        assert " running " in capsys.readouterr().out
    finally:
        p.kill()
        p.wait()
    # A harness child forked in the instant of the kill holds a copy of the run's lock until its exec
    # closes it or PR_SET_PDEATHSIG kills it, a few ms later on a loaded machine (CI once saw
    # "running" here): the kernel, not serbench, decides when the lock is free.
    store, deadline = Store(db), time.monotonic() + 10
    while store.is_live(run_id) and time.monotonic() < deadline:
        time.sleep(0.01)
    store.close()
    # The process is gone without a word: the store still says running, everything else says interrupted.
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "running"
    assert main(["--db", str(db), "report", "--list"]) == 0
    assert " interrupted " in capsys.readouterr().out
    assert main(["--db", str(db), "report"]) == 0
    out = capsys.readouterr()
    assert f"finish it with: ./serbench run --resume {run_id}" in out.err
    assert f"run {run_id} is unfinished (interrupted)" in out.out


class SlowHarness(Harness):
    """A harness whose build takes a while and records when it ran."""

    name = "slow"
    folder = "slow"

    def __init__(self, root: Path, log: Path | None = None):
        super().__init__(root, BuildOptions())
        self.log = log

    def build(self) -> None:
        with open(self.log, "a") as f:
            f.write(f"start {os.getpid()}\n")
        time.sleep(0.5)
        with open(self.log, "a") as f:
            f.write(f"end {os.getpid()}\n")

    def command(self) -> list[str]:
        return [sys.executable]


# A serbench-like process: builds the slow harness, says so, then "runs" with it for hold_s seconds.
USER = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from test_cli_edges import SlowHarness
h = SlowHarness(Path(sys.argv[2]), Path(sys.argv[2]) / "log")
h.build_and_hold(lambda m: print(m, flush=True))
h.build_and_hold(lambda m: print(m, flush=True))  # a second build in one process converts its own lock
time.sleep(float(sys.argv[3]))
"""


def test_two_processes_never_build_one_harness_at_once_nor_while_it_is_in_use(tmp_path):
    (tmp_path / "slow").mkdir()
    script = tmp_path / "user.py"
    script.write_text(USER)
    here = str(Path(__file__).parent)

    def start(hold_s: float) -> subprocess.Popen:
        argv = [sys.executable, str(script), here, str(tmp_path), str(hold_s)]
        return subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)

    a = start(1.5)  # a run: builds, then uses the harness for 1.5 s (shared lock)
    while not (tmp_path / "log").exists() or "end" not in (tmp_path / "log").read_text():
        time.sleep(0.02)
    b = start(0)
    assert a.wait(timeout=60) == 0 and b.wait(timeout=60) == 0
    steps = (tmp_path / "log").read_text().split("\n")[:-1]
    pa, pb = a.pid, b.pid
    # b waited for a's run to end before it built: nothing of b's interleaves with a's.
    assert steps == [f"start {pa}", f"end {pa}"] * 2 + [f"start {pb}", f"end {pb}"] * 2
    assert "waiting: another serbench process is building or running the slow harness" in b.stdout.read()


def test_a_long_build_step_says_it_is_still_working_and_what_it_printed_last(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(base, "HEARTBEAT_S", 0.2)
    h = SlowHarness(tmp_path, [])
    h._run_step(["sh", "-c", "echo Compiling serde v1.0.228; sleep 0.7"], "cargo build", cwd=tmp_path)
    err = capsys.readouterr().err
    assert "slow: cargo build: still working after 0 s (Compiling serde v1.0.228)" in err


def test_list_never_builds_and_names_what_is_not_built(capsys, tmp_path, monkeypatch):
    def no_build(self):
        raise AssertionError("list built a harness")

    monkeypatch.setattr(PythonHarness, "build", no_build)
    monkeypatch.setattr(PythonHarness, "is_built", lambda self: False)
    code = main(["--db", str(tmp_path / "s.db"), "list", "--lang", "python"])
    err = capsys.readouterr().err
    assert code == 2
    assert "python: not built; `serbench build --lang python` builds it" in err
    assert "serbench: no harness is built yet" in err


def test_list_prints_each_column_as_wide_as_its_widest_entry(capsys, tmp_path, monkeypatch):
    from serbench import runner

    benches = [
        {"id": "hash-object", "library": "serbench", "version": "1", "formats": ["json", "cbor"], "baseline": True},
        {
            "id": "jdk-externalizable-cbytes-typed",
            "library": "jdk-serialization",
            "version": "17.0.15",
            "formats": ["java-externalizable"],
            "tests": ["typed-encode", "typed-decode"],
            "steps": {"typed-encode": ["encode", "hash-output"], "typed-decode": ["copy-input", "decode", "visit-all"]},
        },
    ]
    monkeypatch.setattr(PythonHarness, "is_built", lambda self: True)
    monkeypatch.setattr(runner, "listing", lambda h: {"runtime": "CPython", "benchmarks": benches})
    assert main(["--db", str(tmp_path / "s.db"), "list", "--lang", "python"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "python (CPython)"
    header, base_row, long_row = lines[1:]
    # every column starts where its header does, whatever the length of the id before it
    for col in ("library", "version", "tests", "formats", "work"):
        at = header.index(col)
        assert base_row[at - 2 : at] == "  " and base_row[at] != " "
        assert long_row[at - 2 : at] == "  " and long_row[at] != " "
    assert long_row.split() == [
        "jdk-externalizable-cbytes-typed",
        "jdk-serialization",
        "17.0.15",
        "typed-encode,",
        "typed-decode",
        "java-externalizable",
        "contract",
    ]
    assert base_row.split()[3:] == ["baseline", "json/cbor", "-"]


def test_two_commands_never_write_one_corpus_folder_at_once(corpus):
    import fcntl
    import threading

    from serbench.corpus import build
    from serbench.corpus.generator import DEFAULT_SEED

    said: list[str] = []
    done = threading.Event()
    held = os.open(corpus[0], os.O_RDONLY | os.O_DIRECTORY)  # another command is writing it
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        t = threading.Thread(
            target=lambda: (build.ensure_corpus(corpus[0], DEFAULT_SEED, [], note=said.append), done.set())
        )
        t.start()
        time.sleep(0.5)
        assert not done.is_set()
        assert said == [f"waiting: another serbench process is writing the corpus in {corpus[0]}..."]
    finally:
        os.close(held)
    t.join(timeout=120)
    assert done.is_set()


def test_run_without_lang_leaves_out_the_harnesses_that_say_why_and_names_them_when_asked(capsys):
    import argparse

    from serbench.cli import _usable_harnesses
    from serbench.harnesses import BuildOptions, harness_classes

    left_out = {n for n, c in harness_classes().items() if c.not_in_default_run}
    assert "java" in left_out  # JVM warm-up does not fit quick mode's budget (harnesses/java.py)
    got = {h.name for h in _usable_harnesses(argparse.Namespace(lang=[]), BuildOptions(), for_run=True)}
    assert not got & left_out
    assert "run it with --lang java" in capsys.readouterr().err
    # other commands (build, robustness) and a run that names it take it
    assert "java" in {h.name for h in _usable_harnesses(argparse.Namespace(lang=[]), BuildOptions())}
    named = _usable_harnesses(argparse.Namespace(lang=["java"]), BuildOptions(), for_run=True)
    assert [h.name for h in named] == ["java"]


def test_an_output_path_that_cannot_be_written_is_one_line_naming_it_and_exit_2(capsys, tmp_path):
    """It was a FileNotFoundError traceback and exit 1; every file report and compare write goes
    through one writer now."""
    from .test_report import make_run

    store = Store(tmp_path / "s.db")
    make_run(store, "run-a")
    make_run(store, "run-b", speed=0.5)
    store.close()
    db = ["--db", str(tmp_path / "s.db")]
    for target, why in (("/proc/serbench-test/out", "No such file or directory"), (str(tmp_path), "Is a directory")):
        for argv in (
            ["report", "run-a", "--output", target],
            ["report", "run-a", "--format", "html", "--output", target],
            ["compare", "run-a", "run-b", "--output", target],
            ["compare", "run-a", "run-b", "--format", "html", "--output", target],
        ):
            code, line = _main(capsys, *db, *argv)
            assert (code, line) == (
                2,
                f"serbench: cannot write {target}: {why}; pass --output with a writable file path",
            ), argv
    # a folder that does not exist yet is made, as the HTML report's default folder always was
    code, line = _main(capsys, *db, "compare", "run-a", "run-b", "--output", str(tmp_path / "new" / "c.md"))
    assert code == 0 and line == f"wrote {tmp_path / 'new' / 'c.md'}"
    assert "run-a" in (tmp_path / "new" / "c.md").read_text()


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--lang", "python", "--out", "{bad}"],
        ["run", "--lang", "python", "--corpus", "{bad}"],
        ["corpus", "--out", "{bad}"],
        ["robustness", "--lang", "python", "--out", "{bad}"],
        ["robustness", "--lang", "python", "--corpus", "{bad}"],
    ],
)
def test_a_folder_that_cannot_be_written_is_named_before_anything_is_measured(capsys, tmp_path, argv):
    """`run --out /proc/x` measured every cell and then stopped on a FileNotFoundError traceback where
    it wrote report.md; the folders are tried first now."""
    flag = argv[-2]
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    for bad, said in (
        ("/proc/serbench-test", "cannot write in /proc/serbench-test: No such file or directory"),
        (str(a_file), f"{a_file} is a file, not a folder"),
    ):
        code, line = _main(capsys, "--db", str(tmp_path / "s.db"), *[bad if a == "{bad}" else a for a in argv])
        assert (code, line) == (2, f"serbench: {said}; pass {flag} with a writable folder")
    if (tmp_path / "s.db").exists():
        assert Store(tmp_path / "s.db").runs() == []  # nothing was measured


def test_a_runs_own_report_that_cannot_be_written_at_its_end_is_a_warning_that_says_how_to_get_it(capsys):
    """run and robustness write their reports after minutes of work, into the --out folder tried when
    they started; a failure there (a disk filled since) is a warning, so the summary still follows."""
    from serbench.cli import _write_or_warn

    _write_or_warn(Path("/proc/serbench-test/r/report.md"), "# report", "the run is stored, and `serbench report r`")
    assert capsys.readouterr().err.strip() == (
        "warning: cannot write /proc/serbench-test/r/report.md: No such file or directory; the run is stored, and "
        "`serbench report r`"
    )


def test_a_mistyped_dataset_is_one_line_before_any_harness_is_chosen_or_built(capsys, tmp_path, monkeypatch):
    """`run --dataset size4` built every harness (minutes the first time) before it said the name was
    unknown; the datasets come from the corpus, so they are checked with it."""

    def no_harness(*a, **k):
        raise AssertionError("the harnesses were chosen before the bad --dataset was found")

    monkeypatch.setattr("serbench.cli.common.make", no_harness)
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "run", "--dataset", "size4", "--corpus", str(tmp_path))
    assert code == 2 and line.startswith("serbench: unknown dataset 'size4'; did you mean 'size-4'? known: size-1"), (
        line
    )


def test_a_mistyped_language_is_one_line_before_the_corpus_is_written(capsys, tmp_path):
    """`run --lang cobol` wrote the corpus (25 s) before it said the name was unknown."""
    corpus = tmp_path / "corpus"
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "run", "--lang", "pyton", "--corpus", str(corpus))
    from serbench.harnesses import harness_classes

    known = ", ".join(sorted(harness_classes()))
    assert code == 2 and line == f"serbench: unknown language 'pyton'; did you mean 'python'? known: {known}"
    assert not corpus.exists()


class _Built:
    """A harness that is built and offers one library, for the checks made before the corpus."""

    not_in_default_run = None

    def __init__(self, name: str, lib: str):
        self.name, self.lib = name, lib

    def is_built(self) -> bool:
        return True

    def missing_toolchain(self) -> list:
        return []


def test_a_mistyped_library_or_format_is_one_line_before_the_corpus_is_written_or_anything_built(
    capsys, tmp_path, monkeypatch
):
    """`run --lib orjsn` built every harness (minutes the first time) before it said the name was unknown:
    the harnesses as last built know their libraries, so the name is checked before anything else."""
    built = [_Built("python", "orjson"), _Built("rust", "serde_json")]
    monkeypatch.setattr("serbench.cli.run.make", lambda names, *a: [h for h in built if not names or h.name in names])
    monkeypatch.setattr(
        "serbench.runner.listing",
        lambda h: {"benchmarks": [{"id": h.lib, "library": h.lib, "formats": ["json"], "tests": ["tree"]}]},
    )
    corpus = tmp_path / "corpus"
    db = str(tmp_path / "s.db")
    code, line = _main(capsys, "--db", db, "run", "--lib", "orjsn", "--corpus", str(corpus))
    assert code == 2 and line.startswith("serbench: unknown library 'orjsn'; did you mean 'orjson'? "), line
    code, line = _main(capsys, "--db", db, "run", "--lang", "python", "--lib", "serde_json", "--corpus", str(corpus))
    assert code == 2 and line == "serbench: serde_json is a rust library: add --lang rust (selected: python)", line
    code, line = _main(capsys, "--db", db, "run", "--format", "jsn", "--corpus", str(corpus))
    assert code == 2 and line.startswith("serbench: unknown format 'jsn'; did you mean 'json'? "), line
    code, line = _main(capsys, "--db", db, "run", "--dataset", "micro-int", "--corpus", str(corpus))
    assert code == 2 and line.startswith("serbench: unknown dataset 'micro-int'; did you mean 'micro-ints'? "), line
    assert not corpus.exists()


def test_a_library_of_another_language_says_which_lang_to_add():
    from serbench import runner

    py = {"python": {"benchmarks": [{"id": "orjson", "library": "orjson", "formats": ["json"]}]}}
    rust = {"rust": {"benchmarks": [{"id": "serde_json", "library": "serde_json", "formats": ["json"]}]}}
    with pytest.raises(runner.PlanError, match=r"^serde_json is a rust library: add --lang rust \(selected: python\)$"):
        runner.check_filters(py, ["serde_json"], [], lambda: rust)
    with pytest.raises(runner.PlanError, match=r"^unknown library 'orjsn'; did you mean 'orjson'\? "):
        runner.check_filters(py, ["orjsn"], [], lambda: rust)
    with pytest.raises(runner.PlanError, match=r"^unknown format 'jsn'; did you mean 'json'\? known: "):
        runner.check_filters(py, [], ["jsn"], lambda: rust)


# --- a reader that goes away ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "program",
    [
        # the command line's own entry point, with a command whose results outrun a pipe's buffer
        "import sys, serbench.cli as c\n"
        "c._main = lambda argv: [print('row', i) for i in range(200_000)] and 0\n"
        "sys.exit(c.main([]))",
        # the wrapper research/*.py use
        "import sys\nfrom serbench import pipes\n"
        "sys.exit(pipes.exit_code(lambda: [print('row', i) for i in range(200_000)] and 0))",
    ],
    ids=["cli", "research"],
)
def test_output_piped_to_head_ends_without_a_traceback_and_with_the_status_of_sigpipe(program):
    # `serbench report RUN | head`: the reader closes the pipe after one line; Python would print a
    # BrokenPipeError traceback (or "Exception ignored") to stderr.
    src = Path(__file__).resolve().parents[1] / "src"
    p = subprocess.Popen(
        [sys.executable, "-c", program],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(src)},
    )
    assert p.stdout.readline() == b"row 0\n"
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 141 and err == "", err


def test_the_default_run_measures_a_slow_harness_on_its_default_datasets_and_says_what_lang_adds(capsys):
    """A harness whose whole matrix breaks quick mode's time promise (js) joins the default run on the
    datasets it declares; naming it with --lang (or naming the datasets) measures everything."""
    from types import SimpleNamespace as NS

    from serbench.cli.run import _default_subset

    slow = NS(name="js", default_datasets=("size-2",), default_datasets_why="its processes are slow")
    fast = NS(name="rust", default_datasets=None)

    def cell(h, ds, baseline=False):
        return NS(harness=h, dataset={"dataset": ds}, bench={"baseline": baseline})

    cells = [cell(slow, "size-2"), cell(slow, "size-5"), cell(slow, "size-5", True), cell(fast, "size-5")]
    default = NS(lang=[], size=[], dataset=[], data=[])
    kept = _default_subset(default, cells)
    assert kept == [cells[0], cells[3]]
    err = capsys.readouterr().err
    assert "js runs on size-2 in the default run (its processes are slow); --lang js adds its other 1 cells" in err
    assert _default_subset(NS(lang=["js"], size=[], dataset=[], data=[]), cells) == cells
    assert _default_subset(NS(lang=[], size=[5], dataset=[], data=[]), cells) == cells
