"""What the orchestrator knows of a harness: one small class per language (DESIGN §2).

The orchestrator never branches on language names; everything language-specific lives in a
subclass registered in `harnesses/__init__.py`. The harness program itself speaks spec/protocol.md.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


class HarnessError(RuntimeError):
    """A harness cannot be built or started; the message is one line for the user."""


@dataclass
class BuildOptions:
    """User choices that change how a harness is built (recorded in the store)."""

    profile: str = "speed"  # speed | size   (native: -O3 -flto | -Os)
    compiler: str = "default"  # default | gcc | clang   (native only)
    verbose: bool = False
    #: also build what per-library code size needs where that takes extra builds (Rust's probes)
    code_size: bool = False
    extra: dict = field(default_factory=dict)


class Harness:
    #: language id used by --lang and stored with every cell
    name: str = ""
    #: the harness's folder, relative to the repository root
    folder: str = ""
    #: executables that must be on PATH to build it: {tool: "how to install"}
    toolchain: dict[str, str] = {}

    def __init__(self, root: Path, options: BuildOptions | None = None):
        self.root = root
        self.dir = root / self.folder
        self.options = options or BuildOptions()

    # --- set-up -------------------------------------------------------------------------------
    def missing_toolchain(self) -> list[str]:
        """One line per missing tool, with the command that fixes it."""
        return [f"{tool} not found: {fix}" for tool, fix in self.toolchain.items() if shutil.which(tool) is None]

    def build(self) -> None:
        """Install what is missing and build. Idempotent and quick when up to date."""
        raise NotImplementedError

    def command(self) -> list[str]:
        """argv prefix that starts the harness program (protocol commands follow)."""
        raise NotImplementedError

    def env(self) -> dict | None:
        """Environment of the harness process (None: inherit ours)."""
        return None

    def env_info(self) -> dict:
        """Compiler/runtime versions, flags and build profile, stored with the run."""
        return {}

    def test_command(self) -> list[str] | None:
        """The harness's own test suite in its language's runner (ctest, cargo test, pytest)."""
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _run_step(self, argv: list[str], what: str, cwd: Path | None = None, env: dict | None = None) -> None:
        res = subprocess.run(argv, cwd=cwd or self.dir, env=env, capture_output=not self.options.verbose, text=True)
        if res.returncode != 0:
            tail = (res.stderr or res.stdout or "").strip().splitlines()[-1:] if not self.options.verbose else []
            raise HarnessError(f"{self.name}: {what} failed (exit {res.returncode}){': ' + tail[0] if tail else ''}")
