"""The Python harness (harnesses/python): its own venv with the pinned libraries it benchmarks."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from .base import Harness, HarnessError


class PythonHarness(Harness):
    name = "python"
    # the standard library's json; Python's standard library has no streaming JSON reader nor typed
    # JSON, so incremental and typed rows compare with the readers most used for them
    reference_rows = {
        "write": ("json",),
        "tree": ("json",),
        "incremental": ("ijson-yajl2c",),
        "typed": ("pickle-typed", "protobuf"),
    }
    folder = "harnesses/python"
    toolchain = {"python3": "apt-get install -y python3 python3-venv", "cc": "apt-get install -y gcc"}
    instructions_unsupported = (
        "not a compiled harness: under valgrind the count would be mostly CPython's interpreter loop, reference "
        "counting and allocator rather than the library's machine code, at about 50x the run time; instruction "
        "counts are offered for compiled harnesses"
    )

    @property
    def venv(self) -> Path:
        return self.dir / ".venv"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def _lock_digest(self) -> str:
        return hashlib.sha256((self.dir / "requirements.lock").read_bytes()).hexdigest()

    def build(self) -> None:
        stamp = self.venv / ".lock-sha256"
        if not (stamp.exists() and stamp.read_text() == self._lock_digest() and self.python.exists()):
            self._install()
            stamp.write_text(self._lock_digest())
        self._build_sbwalk()
        self._compile()

    def _sbwalk_digest(self) -> str:
        h = hashlib.sha256()
        for name in ("sbwalk.c", "build.py"):
            h.update((self.dir / "sbwalk" / name).read_bytes())
        return h.hexdigest()

    def _build_sbwalk(self) -> None:
        """The harness's C extension (harnesses/python/sbwalk: the hash walks every read row's loop runs),
        compiled from source with the machine's C compiler and the interpreter's own sysconfig flags into
        the venv's site-packages, again whenever its source changes (sbwalk/build.py)."""
        stamp = self.venv / ".sbwalk-sha256"
        if stamp.exists() and stamp.read_text() == self._sbwalk_digest():
            return
        self._run_step([str(self.python), str(self.dir / "sbwalk" / "build.py")], "building sbwalk (cc)")
        stamp.write_text(self._sbwalk_digest())

    def _compile(self) -> None:
        """Byte-compile the harness's own modules (and the orchestrator modules it imports) into
        __pycache__, as pip does for the libraries it installs. Where PYTHONDONTWRITEBYTECODE is set
        (it is on the reference machine) no process writes them, so every harness process compiled
        about a dozen modules from source: 16 ms of a 115 ms typed process (`python -v` shows "code
        object from" the .py; cProfile, `builtins.compile`). py_compile writes whatever that setting
        says; a stale file is never used (the import system checks the source's mtime and size), and
        an up-to-date one is skipped, so this costs milliseconds on every build."""
        import compileall

        for d in (self.dir / "serbench_py", self.root / "orchestrator" / "src" / "serbench"):
            if not compileall.compile_dir(str(d), quiet=2):
                raise HarnessError(f"cannot byte-compile {d}")

    def _install(self) -> None:
        # The harness venv uses the same interpreter as the orchestrator, so results name one runtime.
        self._run_step([sys.executable, "-m", "venv", "--clear", str(self.venv)], "creating the venv")
        self._run_step(
            [str(self.python), "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", "requirements.lock"],
            "pip install -r harnesses/python/requirements.lock",
        )

    def command(self) -> list[str]:
        if not self.python.exists():
            raise HarnessError("python harness is not built; run `serbench run --lang python` or `serbench doctor`")
        return [str(self.python), "-m", "serbench_py"]

    def env(self) -> dict:
        return {**os.environ, "PYTHONPATH": str(self.dir), "PYTHONHASHSEED": "0"}

    def env_info(self) -> dict:
        out = subprocess.run(
            [
                str(self.python),
                "-c",
                "import sys,platform;print(platform.python_implementation(),sys.version.split()[0])",
            ],
            capture_output=True,
            text=True,
        )
        lock = (self.dir / "requirements.lock").read_text().splitlines()
        return {"runtime": out.stdout.strip(), "packages": [ln for ln in lock if ln and not ln.startswith("#")]}

    def test_command(self) -> list[str] | None:
        return [str(self.python), "-m", "pytest", "-q", str(self.dir / "tests")]
