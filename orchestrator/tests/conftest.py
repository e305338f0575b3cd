from __future__ import annotations

import json
from pathlib import Path

import pytest
from serbench.corpus.build import write_corpus

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors"


def built_harness(name: str):
    """Harness `name`, built (quick when it is up to date); the test is skipped where it is not
    registered or its toolchain is missing. A fixture, not a skipif at collection: on a fresh clone
    the orchestrator's tests run before any harness is built."""
    from serbench.harnesses import BuildOptions, harness_classes

    cls = harness_classes().get(name)
    if cls is None:
        pytest.skip(f"the {name} harness is not registered")
    h = cls(ROOT, BuildOptions())
    missing = h.missing_toolchain()
    if missing:
        pytest.skip(missing[0])
    h.build()
    return h


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
