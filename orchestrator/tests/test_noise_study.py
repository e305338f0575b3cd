"""tools/noise_study.py's answers to bad input: one line naming what is wrong, exit status 2."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("noise_study", ROOT / "tools" / "noise_study.py")
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
