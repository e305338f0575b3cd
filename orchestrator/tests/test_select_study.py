"""research/select_study.py on a synthetic store: the canary as a selector keeps the clean processes where
a correction overshoots, and falls back to the correction where a cell has no clean process."""

from __future__ import annotations

import importlib.util
import math
import random
import sqlite3
from pathlib import Path

from serbench import canary

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("select_study", ROOT / "research" / "select_study.py")
select_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(select_study)

CANARY_NS = 20_000


def _store(path: Path) -> sqlite3.Connection:
    """Two runs of 40 native cells x 4 processes x 6 samples, 0.5% noise, no baselines. Cells 0-19: in run
    A one process of each was slowed by the host, its canary 30% slower and the library 15% (it feels
    half the slowdown, as memory-bound libraries do). Cells 20-39: in run B every process was slowed by
    20%, canary and library alike."""
    db = sqlite3.connect(path)
    db.executescript(
        "create table cells (id integer primary key, run_id text, harness text, bench text, test text,"
        " dataset text, format text, status text, is_baseline int, baseline_bench text);"
        "create table samples (cell_id int, round int, idx int, iterations int, wall_ns int, canary_ns int);"
    )
    rng = random.Random(5)
    cid = 0
    for run in ("A", "B"):
        for i in range(40):
            cid += 1
            db.execute(
                "insert into cells values (?, ?, 'native', ?, 'tree', 'size-1', 'json', 'ok', 0, NULL)",
                (cid, run, f"lib{i}"),
            )
            for rnd in range(4):
                lib, can = 1.0, 1.0
                if i < 20 and run == "A" and rnd == 0:
                    lib, can = 1.15, 1.30
                if i >= 20 and run == "B":
                    lib, can = 1.20, 1.20
                for idx in range(6):
                    ns = 1000.0 * (1 + i) * lib * math.exp(rng.gauss(0, 0.005))
                    c = CANARY_NS * can * math.exp(rng.gauss(0, 0.003))
                    db.execute("insert into samples values (?, ?, ?, 10, ?, ?)", (cid, rnd, idx, int(ns * 10), int(c)))
    db.commit()
    return db


def test_the_canary_as_a_selector_agrees_where_the_correction_or_no_canary_each_fail_half(tmp_path, capsys):
    db = _store(tmp_path / "s.db")
    a, b = select_study.load(db, "A"), select_study.load(db, "B")
    assert a[2]["native"] == canary.reference([p[1] for ps in a[0].values() for p in ps])

    def agreeing(way: str) -> set[int]:
        ta, tb = select_study.times(*a, way, 0.05), select_study.times(*b, way, 0.05)
        assert ta.keys() == tb.keys() and len(ta) == 40
        return {int(k[1][3:]) for k in ta if abs(tb[k][1] / ta[k][1] - 1) <= 0.05}

    # no canary: A's fast quarter (one process of four) is a clean one, B's are all slowed
    assert agreeing("raw") == set(range(20))
    # the correction takes B's common slowdown out, and brings A's slowed process to 1.15 / 1.30 of the
    # clean time, which the fast quarter then picks
    assert agreeing("ratio") == set(range(20, 40))
    # the selector times A's cells by their clean processes and corrects B's, which have none
    assert agreeing("select") == set(range(40))


def test_the_tool_prints_each_way_and_refuses_an_unreadable_store(tmp_path, capsys, monkeypatch):
    _store(tmp_path / "s.db").close()
    monkeypatch.setattr("sys.argv", ["select_study", "A", "B", "--db", str(tmp_path / "s.db"), "--zone", "0.1"])
    assert select_study.main() == 0
    out = capsys.readouterr().out
    assert "raw: net 50.0%" in out and "ratio: net 50.0%" in out and "select 0.1: net 100.0%" in out, out
    monkeypatch.setattr("sys.argv", ["select_study", "A", "B", "--db", str(tmp_path / "none.db")])
    assert select_study.main() == 2
    assert "select_study: cannot read" in capsys.readouterr().err
