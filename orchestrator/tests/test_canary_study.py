"""research/canary_study.py: a host that slows whole repetitions, which the canary sees, makes processes
half a study apart disagree as measured and agree divided by the canary (docs/methodology.md, "The
canary")."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "research"))
_spec = importlib.util.spec_from_file_location("canary_study", ROOT / "research" / "canary_study.py")
canary_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(canary_study)


def _reps(rng: random.Random, n: int, seen_by_canary: bool) -> list:
    """n repetitions of one cell, 4 processes each; the host slows a repetition by 0-30% (its slow
    stretches last minutes), and each process by 1% more of its own."""
    reps = []
    for _ in range(n):
        host = 1 + rng.choice([0.0, 0.0, 0.1, 0.2, 0.3])
        rep = []
        for _ in range(4):
            t = 1_000 * host * rng.gauss(1, 0.01)
            c = 20_000 * (host if seen_by_canary else 1) * rng.gauss(1, 0.005)
            rep.append((t, c))
        reps.append([rep])
    return reps


def test_the_canary_takes_out_a_slowdown_it_sees_and_only_that():
    seen = "\n".join(canary_study.report(_reps(random.Random(3), 200, True), ["cell"]))
    assert "log-correlation with the canary +1.00" in seen and "divided: spread 1.19%" in seen
    measured, divided = seen.splitlines()[-1].split(": ", 1)[1].split(", ")
    assert float(measured.split()[-1].rstrip("%")) < 60 and divided == "divided 100.0%"
    # a slowdown the canary does not see stays: dividing then adds only the canary's own 0.5%
    unseen = canary_study.report(_reps(random.Random(3), 200, False), ["cell"])[-1]
    a, b = (float(x.split()[-1].rstrip("%")) for x in unseen.split(": ", 1)[1].split(", "))
    assert abs(a - b) < 5


def test_processes_without_a_canary_are_reported_as_such():
    reps = [[[(1_000.0, None)] * 4] for _ in range(4)]
    assert canary_study.report(reps, ["cell"]) == ["no process reported canary_ns: the harness predates protocol 1.9"]
