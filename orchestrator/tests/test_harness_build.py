"""Build steps of harness classes that can be checked without their toolchains."""

from __future__ import annotations

import json
import sys

import pytest
from serbench.harnesses.base import BuildOptions, HarnessError
from serbench.harnesses.rust import RustHarness


class FakeCargoRust(RustHarness):
    """RustHarness whose executable is a script answering `size-probes`, and whose cargo builds
    are recorded: each "build" writes the probe the environment variable names."""

    def __init__(self, root, probe_dir, fail_on=None):
        super().__init__(root, BuildOptions(code_size=True))
        self.probe_dir = probe_dir
        self.fail_on = fail_on
        self.builds: list[str] = []
        info = {
            "dir": str(probe_dir),
            "libraries": ["serde_json", "rkyv"],
            "baseline": "_baseline",
            "env": "SERBENCH_RUST_SIZE_PROBE",
        }
        self.script = root / "fake-harness.py"
        answer = json.dumps(json.dumps(info))
        self.script.write_text(f"import sys\nassert sys.argv[1] == 'size-probes'\nprint({answer})\n")

    def command(self):
        return [sys.executable, str(self.script)]

    def _run_step(self, argv, what, cwd=None, env=None):
        lib = env["SERBENCH_RUST_SIZE_PROBE"]
        assert argv[:4] == ["cargo", "build", "--profile", "codesize"]
        self.builds.append(lib)
        if lib == self.fail_on:
            raise HarnessError(f"rust: {what} failed (exit 101)")
        built = self.dir / "target" / "codesize" / "serbench-rust-size-probe"
        built.parent.mkdir(parents=True, exist_ok=True)
        built.write_text(f"probe of {lib or 'nothing'}")


def test_size_probes_are_built_once_each_under_their_library_name(tmp_path):
    (tmp_path / "harnesses" / "rust").mkdir(parents=True)
    probes = tmp_path / "probes"
    h = FakeCargoRust(tmp_path, probes)
    h._build_size_probes()
    assert h.builds == ["", "serde_json", "rkyv"]
    assert (probes / "_baseline").read_text() == "probe of nothing"
    assert (probes / "rkyv").read_text() == "probe of rkyv"
    assert sorted(p.name for p in probes.iterdir()) == ["_baseline", "rkyv", "serde_json"]
    # up to date: nothing is rebuilt
    h.builds.clear()
    h._build_size_probes()
    assert h.builds == []


def test_an_interrupted_probe_build_leaves_no_probe_and_resumes_where_it_stopped(tmp_path):
    (tmp_path / "harnesses" / "rust").mkdir(parents=True)
    probes = tmp_path / "probes"
    h = FakeCargoRust(tmp_path, probes, fail_on="rkyv")
    with pytest.raises(HarnessError, match="failed"):
        h._build_size_probes()
    assert sorted(p.name for p in probes.iterdir()) == ["_baseline", "serde_json"]
    h.fail_on, h.builds = None, []
    h._build_size_probes()
    assert h.builds == ["rkyv"]


def test_the_python_harness_byte_compiles_its_modules_even_where_python_writes_no_bytecode(tmp_path, monkeypatch):
    """Where PYTHONDONTWRITEBYTECODE is set no harness process caches its compiled modules, so the
    build writes them (harnesses/python.py, `_compile`); a module that does not compile fails the build."""
    from serbench.harnesses.python import PythonHarness

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    own = tmp_path / "harnesses" / "python" / "serbench_py"
    orch = tmp_path / "orchestrator" / "src" / "serbench"
    for d in (own, orch):
        d.mkdir(parents=True)
        (d / "m.py").write_text("X = 1\n")
    PythonHarness(tmp_path)._compile()
    tag = sys.implementation.cache_tag
    assert (own / "__pycache__" / f"m.{tag}.pyc").is_file()
    assert (orch / "__pycache__" / f"m.{tag}.pyc").is_file()
    (own / "broken.py").write_text("def (:\n")
    with pytest.raises(HarnessError, match="cannot byte-compile"):
        PythonHarness(tmp_path)._compile()
