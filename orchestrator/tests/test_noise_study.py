"""research/noise_study.py's answers to bad input: one line naming what is wrong, exit status 2."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("noise_study", ROOT / "research" / "noise_study.py")
noise_study = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(noise_study)

CELL = ["--harness", "native", "--bench", "msgpack-c", "--test", "tree", "--format", "msgpack", "--dataset", "size-4"]


def _answer(monkeypatch, capsys, root: Path, argv: list[str]) -> str:
    monkeypatch.setattr(noise_study, "ROOT", root)
    monkeypatch.setattr(sys, "argv", ["noise_study", *argv])
    assert noise_study.main() == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return err


def _corpus(root: Path) -> Path:
    (root / "corpus").mkdir()
    manifest = {"datasets": [{"dataset": "size-4", "hash": "00", "files": {"msgpack": {"file": "size-4.msgpack"}}}]}
    (root / "corpus" / "manifest.json").write_text(json.dumps(manifest))
    return root


def test_a_missing_corpus_says_how_to_write_it(tmp_path, monkeypatch, capsys):
    err = _answer(monkeypatch, capsys, tmp_path, CELL)
    assert err == "noise_study: corpus/manifest.json is missing: write the corpus with ./serbench corpus"


@pytest.mark.parametrize(
    ("swap", "said"),
    [
        (("--dataset", "size-9"), "noise_study: no dataset 'size-9' in corpus/manifest.json"),
        (("--format", "cbor"), "noise_study: dataset 'size-4' has no cbor file in corpus/manifest.json"),
        (("--harness", "cobol"), "noise_study: unknown language 'cobol'; known: "),
    ],
)
def test_an_unknown_dataset_format_or_harness_is_named(tmp_path, monkeypatch, capsys, swap, said):
    argv = list(CELL)
    argv[argv.index(swap[0]) + 1] = swap[1]
    assert _answer(monkeypatch, capsys, _corpus(tmp_path), argv).startswith(said)


def test_a_harness_that_fails_is_named_with_its_exit_status(tmp_path, monkeypatch, capsys):
    # a harness whose command is `false`: the study stops at its first process, with the command
    class Failing:
        def command(self):
            return ["false"]

        def env(self):
            return None

    monkeypatch.setattr(noise_study, "make", lambda *a: [Failing()])
    err = _answer(monkeypatch, capsys, _corpus(tmp_path), [*CELL, "--processes", "1", "--conditions", "plain"])
    assert err.startswith("noise_study: the harness exited with 1 (its stderr is above): false run --bench msgpack-c")


def test_a_cell_given_in_another_form_is_named_with_the_form(tmp_path, monkeypatch, capsys):
    err = _answer(monkeypatch, capsys, _corpus(tmp_path), [*CELL, "--beside", "native:hash-object:tree"])
    assert err == "noise_study: 'native:hash-object:tree' is not a cell; give HARNESS:BENCH:TEST:FORMAT:DATASET"


def test_a_slowdown_common_to_both_cells_cancels_in_their_ratio_and_one_of_a_single_cell_does_not():
    host = [1.0, 1.5, 1.1, 2.0, 1.2, 1.8, 1.0, 1.6]  # the host's slowdown in each round
    mine = [500.0 * f for f in host]
    ratio, corr = noise_study.shared_slowdown(mine, [30.0 * f for f in host])
    assert ratio == pytest.approx(0.0, abs=1e-12) and corr == pytest.approx(1.0)
    steady = [30.0, 30.3, 29.8, 30.1, 30.2, 29.9, 30.0, 30.4]  # a cell the slowdown does not reach
    ratio, corr = noise_study.shared_slowdown(mine, steady)
    assert ratio == pytest.approx(noise_study.robust_cv([m / s for m, s in zip(mine, steady, strict=True)]))
    assert ratio > 0.2 and abs(corr) < 0.5
    assert math.isnan(noise_study.shared_slowdown([1.0], [2.0])[1])  # one round: no correlation


def test_cells_beside_are_run_each_round_and_their_shared_slowdown_printed(tmp_path, monkeypatch, capsys):
    # every process of the round is slowed alike, so the ratio of the two cells is steady
    rounds = iter([1.0, 1.0, 1.4, 1.4, 1.1, 1.1])
    calls = []

    class Fake:
        def __init__(self, name):
            self.name = name

        def command(self):
            return [self.name]

        def env(self):
            return None

    def process_rows(argv, env, cond, cores):
        calls.append((argv[0], argv[argv.index("--bench") + 1], cond))
        slowdown = next(rounds)
        row = {"wall_ns": slowdown * (100.0 if "msgpack-c" in argv else 10.0), "iterations": 1}
        return [row | {"canary_ns": 20_000 * slowdown}] * 5, 0

    monkeypatch.setattr(noise_study, "make", lambda names, *a: [Fake(names[0])])
    monkeypatch.setattr(noise_study, "process_rows", process_rows)
    monkeypatch.setattr(noise_study, "ROOT", _corpus(tmp_path))
    argv = [*CELL, "--processes", "3", "--conditions", "pinned", "--beside", "native:hash-object:tree:msgpack:size-4"]
    monkeypatch.setattr(sys, "argv", ["noise_study", *argv])
    assert noise_study.main() == 0
    assert calls == [("native", "msgpack-c", "pinned"), ("native", "hash-object", "pinned")] * 3
    out = capsys.readouterr().out.splitlines()
    line = out[-1].split()
    assert line[0] == "native:hash-object:tree:msgpack:size-4" and line[2] == "0.00%" and line[3] == "1.00"
    # the cell's processes spread by 1.0, 1.4 and 1.1 as measured; their canary moved alike
    cond = out[1].split()
    assert cond[0] == "pinned" and cond[2] == f"{noise_study.robust_cv([100.0, 140.0, 110.0]):.2%}"
    assert cond[3] == "0.00%"


def test_the_spread_left_by_the_canary_is_none_without_one():
    # the study divides each sample as the runs do (canary.factors with canary.WINDOW)
    assert noise_study.divided_median([100.0, 120.0], [20_000, None]) is None  # a harness before protocol 1.9
    assert noise_study.divided_median([], []) is None
    # slower only where its canary is too: the second half of the process, then one canary alone
    times, cans = [100.0] * 4 + [130.0] * 4, [20_000, 40_000, 20_000, 20_000] + [26_000] * 4
    assert noise_study.divided_median(times, cans) == pytest.approx(100.0 / 20_000)
    assert noise_study.divided_spread([1.0, None]) is None
    assert noise_study.divided_spread([0.005, 0.005, 0.005]) == pytest.approx(0.0, abs=1e-12)


def test_a_harness_not_built_yet_is_one_line_that_says_how_to_build_it(tmp_path, monkeypatch, capsys):
    err = _answer(monkeypatch, capsys, _corpus(tmp_path), CELL)  # no build folder under this root
    assert err.startswith("noise_study: native harness is not built (") and "run `serbench run --lang native`" in err
