from __future__ import annotations

import json
from pathlib import Path

import pytest
from serbench.corpus.build import write_corpus

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def vectors() -> list[dict]:
    return json.loads((VECTORS / "vectors.json").read_text())["vectors"]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> tuple[Path, dict]:
    """The full default corpus, written once per test session."""
    dest = tmp_path_factory.mktemp("corpus")
    return dest, write_corpus(dest)
