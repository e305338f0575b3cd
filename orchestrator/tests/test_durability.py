"""The store's durability promise (docs/methodology.md, "Durability"; issue 74): after a full disk or a
kill -9, the store is a valid SQLite database holding every finished cell, the user gets one line that
says what to free, and `run --resume` completes the run. The full disk is a small tmpfs the test mounts
and fills itself (skipped, with why, where it cannot mount)."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from serbench import runner
from serbench.cli import main
from serbench.store import Store

RUN = ["--lang", "python", "--lib", "json", "--size", "1", "--size", "2", "--test", "tree"]
FAST = ["--rounds", "2", "--budget-ms", "20", "--no-prestart"]


def _mounted(tmp_path: Path, size: str):
    mnt = tmp_path / "disk"
    mnt.mkdir()
    res = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)], capture_output=True, text=True
    )
    if res.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here (root needed): {res.stderr.strip()}")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=False)


@pytest.fixture
def small_disk(tmp_path):
    yield from _mounted(tmp_path, "16m")


@pytest.fixture
def corpus_disk(tmp_path):
    """Room for the standard corpus (about 25 MB) and the store, once the filler is gone."""
    yield from _mounted(tmp_path, "64m")


def fill(folder: Path) -> Path:
    """Write zeros into `folder` until its filesystem is full; the file, to free it again."""
    filler = folder / "filler"
    with open(filler, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    return filler


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def rounds_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


def test_a_disk_that_fills_during_the_cells_keeps_every_finished_cell_and_resume_completes(
    small_disk, tmp_path, capsys, monkeypatch
):
    db = small_disk / "s.db"
    record, seen = Store.record_round, []

    def record_then_fill(self, *a, **k):
        record(self, *a, **k)
        seen.append(a[:2])
        if len(seen) == 3:
            fill(small_disk)  # the fourth round's commit finds the disk full

    monkeypatch.setattr(Store, "record_round", record_then_fill)
    corpus, out = str(tmp_path / "corpus"), str(tmp_path / "out")
    code, err = _run(capsys, "--db", str(db), "run", *RUN, *FAST, "--corpus", corpus, "--out", out)
    assert code == 2 and "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"serbench: no space left on the filesystem of {db} (")
    assert "every finished cell is kept" in line and "./serbench run --resume" in line
    assert not list(small_disk.glob(".s.db.run-*.lock"))  # no stray lock file
    # history reads the store on the full disk, and says the run was interrupted
    assert main(["--db", str(db), "history"]) == 0 and "interrupted" in capsys.readouterr().out
    (small_disk / "filler").unlink()
    monkeypatch.setattr(Store, "record_round", record)
    store = Store(db)
    assert integrity(db) == "ok" and rounds_in(db) >= 3  # every round recorded before the disk filled
    assert store.checkpoint()
    store.close()
    alone = tmp_path / "alone.db"  # the main file alone, as a backup copies it
    shutil.copy(db, alone)
    assert integrity(alone) == "ok" and rounds_in(alone) >= 3
    code, err = _run(capsys, "--db", str(db), "run", "--resume")
    assert code == 0, err
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "done"
        assert c.execute("SELECT COUNT(*) FROM cells WHERE status='pending'").fetchone()[0] == 0


def test_a_corpus_folder_on_a_full_disk_is_one_line(small_disk, tmp_path, capsys):
    fill(small_disk)
    code, err = _run(capsys, "--db", str(tmp_path / "s.db"), "run", *RUN, *FAST, "--corpus", str(small_disk / "c"))
    assert code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("serbench: "), err
    assert str(small_disk) in err.strip().splitlines()[-1]


def test_a_disk_that_fills_during_the_corpus_leaves_no_half_written_file_and_the_same_command_completes(
    corpus_disk, tmp_path, capsys, monkeypatch
):
    """The store and the corpus on one small disk, which fills after the corpus's tenth file: one line
    (nothing was measured, so it says to run the command again, not --resume), a valid store, no
    temporary or half-written file, and after freeing space the same command writes the rest and runs."""
    from serbench.corpus import build

    db, corpus = corpus_disk / "s.db", corpus_disk / "c"
    write, written = build._write_atomic, []

    def write_then_fill(path, data):
        write(path, data)
        written.append(path.name)
        if len(written) == 10:
            fill(corpus_disk)

    monkeypatch.setattr(build, "_write_atomic", write_then_fill)
    args = ["--db", str(db), "run", *RUN, *FAST, "--corpus", str(corpus), "--out", str(tmp_path / "out")]
    code, err = _run(capsys, *args)
    assert code == 2 and "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("serbench: no space left on the filesystem of ") and str(corpus_disk) in line
    assert line.endswith("then run the same command again (nothing was measured yet)")
    assert not [p.name for p in corpus.iterdir() if p.name.startswith(".")]  # no temporary file
    manifest = build.load_manifest(corpus)
    listed = {f["file"] for e in (manifest or {"datasets": []})["datasets"] for f in e["files"].values()}
    assert {p.name for p in corpus.iterdir()} - {"manifest.json", "filler"} <= listed  # each file finished
    assert integrity(db) == "ok"
    (corpus_disk / "filler").unlink()
    monkeypatch.setattr(build, "_write_atomic", write)
    code, err = _run(capsys, *args)
    assert code == 0, err
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "done"


def test_reports_that_a_full_disk_refused_are_said_not_written(small_disk, tmp_path, capsys, monkeypatch):
    finalize = runner.finalize

    def finalize_then_fill(*a, **k):
        finalize(*a, **k)
        fill(small_disk)

    monkeypatch.setattr(runner, "finalize", finalize_then_fill)
    args = ["--db", str(tmp_path / "s.db"), "run", *RUN, *FAST, "--corpus", str(tmp_path / "c")]
    code, err = _run(capsys, *args, "--out", str(small_disk / "out"))
    assert code == 0, err
    assert "warning: cannot write" in err and "report.md" in err
    last = err.strip().splitlines()[-1]
    assert "report: not written (see the warnings above)" in last and "serbench report" in last
    # the run itself is whole: done, every cell in the store, which `serbench report` can read
    db = tmp_path / "s.db"
    assert integrity(db) == "ok"
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT status FROM runs").fetchone()[0] == "done"
        assert c.execute("SELECT COUNT(*) FROM cells WHERE status='pending'").fetchone()[0] == 0
    (small_disk / "filler").unlink()
    assert main(["--db", str(db), "report", "--output", str(tmp_path / "again.md")]) == 0
    assert (tmp_path / "again.md").read_text().startswith("#")


KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from serbench.store import Store
    store = Store(Path(sys.argv[1]))
    store.create_run("r", "quick", {"rounds": 3}, {}, {"datasets": []})
    cid = store.add_cell("r", {"harness": "python", "bench": "b", "test": "tree", "dataset": "size-1",
        "format": "json", "library": "b", "version": "1", "notes": "", "is_baseline": 0, "baseline_bench": None})
    for rnd in range(5):
        store.record_round(cid, rnd, "ok", None, 0.1, [{"iterations": 1, "wall_ns": 100 + i} for i in range(50)])
    store.db.execute("BEGIN")
    print("committed", flush=True)
    i = 0
    while True:  # a write transaction that never commits, killed in its middle
        store.db.execute("INSERT INTO samples (cell_id, round, idx, iterations, wall_ns) VALUES (?, 99, ?, 1, 1)",
                         (cid, i))
        i += 1
    """
)


def test_a_kill_9_during_a_store_write_leaves_a_valid_store_with_every_committed_round(tmp_path):
    db = tmp_path / "s.db"
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(db)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "committed"
    subprocess.run(["sleep", "0.3"], check=True)  # inside the uncommitted transaction
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert integrity(db) == "ok"
    assert rounds_in(db) == 5
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM samples WHERE round = 99").fetchone()[0] == 0
