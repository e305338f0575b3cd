"""The native C/C++ harness (harnesses/native): CMake project, one executable per benchmark.

build() runs harnesses/native/setup.sh, which installs the pinned Debian -dev packages that are
missing and configures + builds into harnesses/native/build/<compiler>-<profile>.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from .base import Harness, HarnessError


class NativeHarness(Harness):
    name = "native"
    # no JSON in C's or C++'s standard library: RapidJSON, the classic benchmarks' reference
    reference_rows = {
        "write": ("rapidjson-writer",),
        "tree": ("rapidjson-dom",),
        "incremental": ("rapidjson-sax",),
        "typed": ("rapidjson-typed",),
    }
    folder = "harnesses/native"
    toolchain = {
        "cmake": "apt-get install -y cmake",
        "g++": "apt-get install -y g++",
        "dpkg-query": "a Debian-based system (the libraries are pinned Debian 12 packages)",
    }
    instructions_unsupported = None  # compiled: valgrind counts the benchmark's own machine code

    @property
    def compiler(self) -> str:
        c = self.options.compiler
        return "gcc" if c in ("default", "gcc", "") else c

    @property
    def build_dir(self) -> Path:
        return self.dir / "build" / f"{self.compiler}-{self.options.profile}"

    def missing_toolchain(self) -> list[str]:
        missing = super().missing_toolchain()
        if self.compiler == "clang" and shutil.which("clang++") is None:
            missing.append("clang++ not found: harnesses/native/setup.sh --compiler clang installs it (needs root)")
        return missing

    def build(self) -> None:
        if self.compiler not in ("gcc", "clang"):
            raise HarnessError(f"native: unknown compiler {self.options.compiler!r} (gcc or clang)")
        if self.options.profile not in ("speed", "size"):
            raise HarnessError(f"native: unknown profile {self.options.profile!r} (speed or size)")
        self._run_step(
            [str(self.dir / "setup.sh"), "--profile", self.options.profile, "--compiler", self.compiler],
            "harnesses/native/setup.sh (apt packages, cmake configure and build)",
        )

    def command(self) -> list[str]:
        driver = self.build_dir / "serbench-native"
        if not driver.exists():
            raise HarnessError(f"native harness is not built ({driver} missing); run `serbench run --lang native`")
        return [str(driver)]

    def env_info(self) -> dict:
        info: dict = {"profile": self.options.profile, "compiler": self.compiler}
        try:
            info.update(json.loads((self.build_dir / "build-info.json").read_text()))
        except (OSError, ValueError):
            pass
        cxx = info.get("cxx") or ("clang++" if self.compiler == "clang" else "g++")
        try:
            out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=10).stdout
            info["compiler_version"] = out.splitlines()[0] if out else None
        except OSError:
            info["compiler_version"] = None
        return info

    def test_command(self) -> list[str] | None:
        # ctest runs `serbench-native selftest --vectors <repo>/vectors` and a tiny `run` check.
        return ["ctest", "--test-dir", str(self.build_dir), "--output-on-failure"]
