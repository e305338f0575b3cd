"""Every Python file in the repo passes ruff's lint and format checks (rules in ruff.toml)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]])
def test_python_sources_pass_ruff(args):
    res = subprocess.run([sys.executable, "-m", "ruff", *args, "."], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-1000:]
