"""The Rust harness (harnesses/rust): one cargo project, crates pinned in Cargo.toml and Cargo.lock."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .base import Harness, HarnessError


class RustHarness(Harness):
    name = "rust"
    # no JSON in Rust's standard library: serde_json is what Rust programs use
    reference_rows = {
        "write": ("serde_json-serialize", "serde_json"),
        "tree": ("serde_json",),
        "incremental": ("serde_json-visitor",),
        "typed": ("serde_json-typed",),
    }
    folder = "harnesses/rust"
    toolchain = {"cargo": "install Rust with rustup (https://rustup.rs)"}
    instructions_unsupported = None  # compiled: valgrind counts the benchmark's own machine code

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
        if self.options.code_size:
            self._build_size_probes()

    def _build_size_probes(self) -> None:
        """One probe executable per library and one with none (harnesses/rust/src/codesize.rs).

        Each is a cargo build with SERBENCH_RUST_SIZE_PROBE naming the library (about 20 s each
        here, after a first build of the dependencies in the `codesize` profile). They are kept
        under a folder named by the source fingerprint, so they are built once per source state;
        each is copied into place under a temporary name and renamed, so an interrupted build never
        leaves a probe that `list` would read.
        """
        out = subprocess.run([*self.command(), "size-probes"], capture_output=True, text=True, cwd=self.dir)
        if out.returncode != 0:
            raise HarnessError(f"rust: size-probes failed: {out.stderr.strip()}")
        info = json.loads(out.stdout)
        folder = Path(info["dir"])
        wanted = [(info["baseline"], "")] + [(lib, lib) for lib in info["libraries"]]
        todo = [(name, lib) for name, lib in wanted if not (folder / name).exists()]
        if not todo:
            return
        first = ", the first after a 2-3 min build of the dependencies" if len(todo) == len(wanted) else ""
        print(f"rust: building {len(todo)} code-size probes (about 20 s each{first})...", file=sys.stderr)
        folder.mkdir(parents=True, exist_ok=True)
        built = self.dir / "target" / "codesize" / "serbench-rust-size-probe"
        argv = ["cargo", "build", "--profile", "codesize", "--locked", "--features", "size-probe"]
        argv += ["--bin", "serbench-rust-size-probe"] + ([] if self.options.verbose else ["--quiet"])
        for i, (name, lib) in enumerate(todo, 1):
            print(f"rust: code-size probe {i}/{len(todo)}: {lib or 'no library'}", file=sys.stderr)
            env = dict(os.environ, **{info["env"]: lib})
            self._run_step(argv, f"code-size probe for {lib or 'no library'}", env=env)
            tmp = folder / f".{name}.tmp"
            shutil.copyfile(built, tmp)
            os.replace(tmp, folder / name)

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
