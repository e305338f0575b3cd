"""The Rust harness (harnesses/rust): one cargo project, crates pinned in Cargo.toml and Cargo.lock."""

from __future__ import annotations

import subprocess

from .base import Harness, HarnessError


class RustHarness(Harness):
    name = "rust"
    folder = "harnesses/rust"
    toolchain = {"cargo": "install Rust with rustup (https://rustup.rs)"}

    #: release profile settings from harnesses/rust/Cargo.toml, recorded with the run
    PROFILE = {"profile": "release", "opt-level": 3, "lto": "fat", "codegen-units": 1}

    @property
    def manifest(self):
        return self.dir / "Cargo.toml"

    @property
    def binary(self):
        return self.dir / "target" / "release" / "serbench-rust"

    def build(self) -> None:
        argv = ["cargo", "build", "--release", "--locked"]
        if not self.options.verbose:
            argv.append("--quiet")
        # cargo is incremental: a no-op build of an up-to-date tree takes well under a second.
        self._run_step(argv, "cargo build --release --locked (harnesses/rust)")

    def command(self) -> list[str]:
        if not self.binary.exists():
            raise HarnessError("rust harness is not built; run `serbench run --lang rust` or `serbench doctor`")
        return [str(self.binary)]

    def env_info(self) -> dict:
        try:
            out = subprocess.run(["rustc", "--version"], capture_output=True, text=True, cwd=self.dir)
            rustc = out.stdout.strip() or out.stderr.strip()
        except OSError as e:
            rustc = f"unavailable ({e})"
        return {
            "runtime": rustc,
            "rustc": rustc,
            "build": dict(self.PROFILE),
            "flags": "cargo build --release --locked",
        }

    def test_command(self) -> list[str] | None:
        return ["cargo", "test", "--release", "--locked", "--manifest-path", str(self.manifest)]
