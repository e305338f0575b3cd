"""The command line: one clear line and a meaningful exit code for bad input, and a run that
survives SIGKILL and finishes with --resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from serbench.cli import main
from serbench.harnesses.python import PythonHarness
from serbench.store import Store


def _main(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err.strip().splitlines()
    return code, err[-1] if err else ""


def test_unknown_library_is_one_line_and_exit_2(capsys, tmp_path, corpus):
    code, line = _main(
        capsys,
        "--db",
        str(tmp_path / "s.db"),
        "run",
        "--lang",
        "python",
        "--lib",
        "nosuchlib",
        "--corpus",
        str(corpus[0]),
    )
    assert code == 2 and line.startswith("serbench: unknown library 'nosuchlib'")


def test_unknown_language_is_exit_2(capsys, tmp_path):
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "run", "--lang", "cobol")
    assert code == 2 and "unknown language 'cobol'" in line


def test_malformed_data_file_is_one_line_and_exit_2(capsys, tmp_path, corpus):
    bad = tmp_path / "broken.json"
    bad.write_text('{"a": [1,')
    code, line = _main(
        capsys,
        "--db",
        str(tmp_path / "s.db"),
        "run",
        "--lang",
        "python",
        "--data",
        str(bad),
        "--corpus",
        str(corpus[0]),
    )
    assert code == 2 and line.startswith(f"serbench: {bad}: invalid JSON at line 1, column 10"), line
    assert "Traceback" not in line


def test_missing_data_file_is_exit_2(capsys, tmp_path):
    code, line = _main(
        capsys,
        "--db",
        str(tmp_path / "s.db"),
        "corpus",
        "--out",
        str(tmp_path / "c"),
        "--data",
        str(tmp_path / "nope.json"),
    )
    assert code == 2 and line == f"serbench: {tmp_path / 'nope.json'}: no such file; check the path"


def test_a_missing_data_file_in_a_default_run_is_the_only_line(capsys, tmp_path):
    # without --lang the run first names the harnesses it leaves out (java); a bad --data file is
    # found before that, so its error is not the second of two lines
    code = main(["--db", str(tmp_path / "s.db"), "run", "--data", str(tmp_path / "nope.json"),
                 "--corpus", str(tmp_path / "c"), "--out", str(tmp_path / "o")])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err == [f"serbench: {tmp_path / 'nope.json'}: no such file; check the path"]


def test_missing_toolchain_names_the_fix_and_exits_3(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(PythonHarness, "toolchain", {"no-such-tool-xyz": "apt-get install -y no-such-tool-xyz"})
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "run", "--lang", "python")
    assert code == 3 and line == "serbench: no-such-tool-xyz not found: apt-get install -y no-such-tool-xyz"


def test_report_on_an_empty_store_says_so_and_an_unknown_run_is_named_with_its_store(capsys, tmp_path):
    Store(tmp_path / "s.db").close()
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "report")
    assert (code, line) == (2, f"serbench: the store {tmp_path / 's.db'} has no runs yet; try `serbench run`")
    code, line = _main(capsys, "--db", str(tmp_path / "s.db"), "compare", "nope", "nope")
    assert (code, line) == (2, f"serbench: no run 'nope' in {tmp_path / 's.db'}; `serbench history` lists its runs")


def test_commands_that_read_never_create_a_store_and_name_the_path_they_looked_at(capsys, tmp_path):
    """A mistyped --db used to leave an empty store (and its folder) behind and be answered "no runs
    yet", as if it were the store meant."""
    missing = tmp_path / "typo" / "serbench.db"
    said = f"no results store at {missing}; `serbench run` creates it (or pass --db with an existing store)"
    for argv, status in ((["report"], 2), (["compare", "a", "b"], 2), (["history"], 0)):
        code, line = _main(capsys, "--db", str(missing), *argv)
        assert (code, line) == (status, said if status == 0 else f"serbench: {said}"), argv
    assert not (tmp_path / "typo").exists()
    assert _main(capsys, "--db", str(missing), "history", "--format", "json")[0] == 0
    assert not (tmp_path / "typo").exists()


def _rounds(db) -> int:
    try:
        with sqlite3.connect(db) as c:
            return c.execute("SELECT count(*) FROM rounds").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_run_killed_with_sigkill_keeps_its_cells_and_resume_completes_it(tmp_path, corpus):
    db, out = tmp_path / "s.db", tmp_path / "out"
    base = [sys.executable, "-m", "serbench.cli", "--db", str(db)]
    args = [
        "run",
        "--lang",
        "python",
        "--lib",
        "orjson",
        "--lib",
        "cbor2",
        "--size",
        "1",
        "--size",
        "2",
        "--corpus",
        str(corpus[0]),
        "--out",
        str(out),
        "--rounds",  # a fixed count, so the rounds can be counted (adaptive rounds: tests/test_timing.py)
        "3",
        "--max-rounds",
        "3",
    ]
    p = subprocess.Popen(base + args, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _rounds(db) < 6 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    assert p.poll() is None, "the run ended before it could be killed"
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    kept = _rounds(db)
    assert kept >= 6
    with sqlite3.connect(db) as c:
        before = c.execute("SELECT cell_id, round, finished_at FROM rounds").fetchall()
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "running"

    res = subprocess.run(base + ["run", "--resume"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    with sqlite3.connect(db) as c:
        c.row_factory = sqlite3.Row
        run = c.execute("SELECT * FROM runs").fetchone()
        cells = c.execute("SELECT * FROM cells").fetchall()
        after = {(r[0], r[1]): r[2] for r in c.execute("SELECT cell_id, round, finished_at FROM rounds")}
    assert (
        run["status"] == "done" and len(cells) == 16
    )  # 2 libs x 2 tests x 2 sizes + 2 baselines x 2 formats x 2 sizes
    assert all(c["status"] == "ok" and c["median_ns"] > 0 for c in cells)
    # Nothing finished before the kill was run again: those rounds keep their original timestamps.
    assert all(after[(cid, rnd)] == t for cid, rnd, t in before)
    assert len(after) == 16 * 3  # 3 rounds per cell (the first of a non-baseline cell counts its allocations)
    assert (out / run["id"] / "report.md").exists()
    assert json.loads(run["args_json"])["lib"] == ["orjson", "cbor2"]
