"""The Go harness (harnesses/go): one Go module, every module pinned in go.mod and go.sum."""

from __future__ import annotations

import os
import shutil
import subprocess

from .base import Harness, HarnessError


def _go() -> str:
    """The go command: on PATH, or where the official tarball installs it."""
    return shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else "go")


class GoHarness(Harness):
    name = "go"
    folder = "harnesses/go"
    toolchain = {"go": "install Go 1.25 or later (https://go.dev/dl; the tarball puts it in /usr/local/go/bin)"}
    instructions_unsupported = (
        "not deterministic under valgrind: a Go program's count includes its garbage collector and scheduler, "
        "whose background work runs on timers and other threads; three runs of one cell (msgp-intf tree, "
        "size-2 msgpack, --iterations 20, cachegrind) counted 16,956,794, 16,977,365 and 16,964,322 "
        "instructions, a spread of about 20,000 where protocol.md step 9 needs none; Go cells are timed only"
    )

    #: how the binaries are built, recorded with the run
    BUILD = "go build -trimpath -mod=readonly"

    def missing_toolchain(self) -> list[str]:
        # /usr/local/go/bin is often not on PATH for non-login shells; _go() finds it there too
        if os.path.exists(_go()) or shutil.which(_go()):
            return []
        return super().missing_toolchain()

    @property
    def binary(self):
        return self.dir / "bin" / "serbench-go"

    @property
    def jsonv2_binary(self):
        """encoding/json/v2 rows: GOEXPERIMENT=jsonv2 changes encoding/json for the whole binary, so
        they are built separately; serbench-go lists them and hands their cells over to it."""
        return self.dir / "bin" / "serbench-go-jsonv2"

    def _env(self) -> dict:
        # -mod=readonly: go.mod and go.sum are the lock; a build never rewrites them. The module
        # cache and the build cache are Go's own (quick when up to date).
        return {**os.environ, "GOFLAGS": "-mod=readonly -buildvcs=false", "GOTOOLCHAIN": "local"}

    def build(self) -> None:
        go = _go()
        self._run_step([go, "mod", "download"], "go mod download (harnesses/go)", env=self._env())
        self._run_step(
            [go, "build", "-trimpath", "-o", str(self.binary), "."],
            "go build -trimpath (harnesses/go)",
            env=self._env(),
        )
        self._run_step(
            [go, "build", "-trimpath", "-o", str(self.jsonv2_binary), "."],
            "GOEXPERIMENT=jsonv2 go build -trimpath (harnesses/go)",
            env={**self._env(), "GOEXPERIMENT": "jsonv2"},
        )

    def command(self) -> list[str]:
        if not self.binary.exists():
            raise HarnessError("go harness is not built; run `serbench run --lang go` or `serbench doctor`")
        return [str(self.binary)]

    def env_info(self) -> dict:
        try:
            out = subprocess.run([_go(), "version"], capture_output=True, text=True, cwd=self.dir)
            version = out.stdout.strip() or out.stderr.strip()
        except OSError as e:
            version = f"unavailable ({e})"
        binaries = {}
        for binary in (self.binary, self.jsonv2_binary):
            if not binary.exists():
                continue
            # GOEXPERIMENT and the other build settings as the binary records them (go version -m)
            out = subprocess.run([_go(), "version", "-m", str(binary)], capture_output=True, text=True)
            settings = {}
            for line in out.stdout.splitlines():
                parts = line.strip().split("\t")
                if len(parts) >= 2 and parts[0] == "build":
                    key, _, value = parts[1].partition("=")
                    settings[key] = value
            binaries[binary.name] = {"GOEXPERIMENT": settings.get("GOEXPERIMENT", "none"), "settings": settings}
        return {
            "runtime": version,
            "go": version,
            "GOGC": os.environ.get("GOGC", "100 (default)"),
            "GOMEMLIMIT": os.environ.get("GOMEMLIMIT", "none (default)"),
            "GOMAXPROCS": os.environ.get("GOMAXPROCS", f"{os.cpu_count()} (default: the CPUs available)"),
            "binaries": binaries,
            "flags": self.BUILD,
        }

    def test_command(self) -> list[str] | None:
        # both builds: the default one, and the jsonv2 one whose selftest covers the v2 rows
        go = _go()
        return ["sh", "-c", f"'{go}' test ./... && GOEXPERIMENT=jsonv2 '{go}' test ./..."]
