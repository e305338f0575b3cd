"""The Go harness (harnesses/go): one Go module, every module pinned in go.mod and go.sum."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .base import Harness, HarnessError


def _go() -> str:
    """The go command: on PATH, or where the official tarball installs it."""
    return shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else "go")


def source_fingerprint(folder: Path, go_version: str) -> str:
    """The key of the code-size probes of these sources: SHA-256 (16 hex digits) of the Go
    version, go.mod, go.sum and every .go file under the harness folder (sorted paths, bin/
    excluded). The binaries get it at link time (-X main.sourceFingerprint), so `list` reads only
    the probes built from the sources the binary was built from (internal/codesize)."""
    h = hashlib.sha256(go_version.encode())
    files = [folder / "go.mod", folder / "go.sum"]
    files += sorted(p for p in folder.rglob("*.go") if "bin" not in p.relative_to(folder).parts[:1])
    for f in files:
        h.update(b"\0" + f.relative_to(folder).as_posix().encode() + b"\0")
        h.update(f.read_bytes() if f.exists() else b"")
    return h.hexdigest()[:16]


class GoHarness(Harness):
    name = "go"
    # the standard library's encoding/json in every test
    reference_rows = {
        "write": ("encoding-json",),
        "tree": ("encoding-json",),
        "incremental": ("encoding-json-token",),
        "typed": ("encoding-json-typed",),
    }
    folder = "harnesses/go"
    toolchain = {"go": "install Go 1.25 or later (https://go.dev/dl; the tarball puts it in /usr/local/go/bin)"}
    instructions_unsupported = None
    # A timed Go process is pinned to one core (or held on one, prestart), so its runtime starts with
    # GOMAXPROCS=1. Under valgrind, unpinned, it would see both cores and start a second P whose idle
    # spinning and work stealing run on wall-clock timers that valgrind's 50x slowdown stretches: two
    # counts of native-speed-identical work differed by 2-7% (hash-object tree size-2 msgpack, N=401:
    # 28.1-28.6 M instructions, and one run of 2,269 M), and by 0.2% with GOMAXPROCS=1 (27.89-27.95 M).
    # Pinning the counted process instead was worse (msgp-intf tree N=401: 73.2-75.4 M against
    # 73.0-73.3 M), so the variable sets it (docs/methodology.md, "Instruction counts").
    instructions_env = {"GOMAXPROCS": "1"}
    # The count still varies with when the concurrent collector runs, by a cycle more or less in a
    # process (msgp-intf write size-2, N=401: 38.9-43.3 M). Ten times the iterations spread that over
    # ten times the operations (N=4001: 260-273 M, per operation within 2.5%) for 0.25 s more of
    # valgrind per process (1.31 s -> 1.56 s).
    instructions_scale = 10
    # What still varies is mostly the process with the extra iterations, so its count is taken two or
    # three times and the median used (instructions.next_round, docs/methodology.md).
    instructions_varying = (
        "Go's collector and scheduler run on timers, which valgrind's slowdown stretches, so a Go count varies "
        "a little from run to run even as the median of two or three (two runs of the size-2 cells: a median "
        "of 0.22%, all 46 cells within 1.5%; of the size-4 cells: 0.71%, 41 of 46 within 3%, the furthest "
        "10.4%); read Go counts by their ratios, not for identity"
    )

    # The collector runs inside the timed batches (fairness.md rule 6), every few MB allocated: in a
    # quick run of 2026-12-04, 62 of 448 Go cells were 5-34% slower by their processes' means than by
    # their medians, where at most 5 of any other harness's were (docs/methodology.md, "A process's mean
    # for a collected runtime").
    process_mean = (
        "Go's collector runs inside the timed batches, in some and not others: a process's time is its total "
        "time over its operations, as go test -bench reports it, so that the collections are in it"
    )

    #: how the binaries are built, recorded with the run
    BUILD = "go build -trimpath -mod=readonly -ldflags '-X main.sourceFingerprint=<sources>'"

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

    def _go_version(self) -> str:
        out = subprocess.run([_go(), "version"], capture_output=True, text=True, env=self._env())
        return out.stdout.strip() or out.stderr.strip()

    def build(self) -> None:
        go = _go()
        self._run_step([go, "mod", "download"], "go mod download (harnesses/go)", env=self._env())
        ldflags = f"-ldflags=-X main.sourceFingerprint={source_fingerprint(self.dir, self._go_version())}"
        self._run_step(
            [go, "build", "-trimpath", ldflags, "-o", str(self.binary), "."],
            "go build -trimpath (harnesses/go)",
            env=self._env(),
        )
        self._run_step(
            [go, "build", "-trimpath", ldflags, "-o", str(self.jsonv2_binary), "."],
            "GOEXPERIMENT=jsonv2 go build -trimpath (harnesses/go)",
            env={**self._env(), "GOEXPERIMENT": "jsonv2"},
        )
        if self.options.code_size:
            self.build_size_probes()

    def build_size_probes(self, libraries: set[str] | None = None) -> None:
        """One stripped probe executable per library and one with none, per binary
        (cmd/sizeprobe, internal/codesize): `size-probes` of each binary says which, with their
        build tags and GOEXPERIMENT. They are kept under bin/size-probes/<source fingerprint>, so
        they are built once per source state (about a second each with a warm build cache); each
        is built under a temporary name and renamed, so an interrupted build never leaves a probe
        that `list` would read. Probes of other source states are removed. `libraries` limits the
        build to those libraries (and the baselines), for tests.
        """
        go = _go()
        for binary in (self.binary, self.jsonv2_binary):
            out = subprocess.run([str(binary), "size-probes"], capture_output=True, text=True, cwd=self.dir)
            if out.returncode != 0:
                raise HarnessError(f"go: size-probes failed: {out.stderr.strip()}")
            info = json.loads(out.stdout)
            folder = Path(info["dir"])
            todo = [
                p
                for p in info["probes"]
                if not (folder / p["name"]).exists()
                and (libraries is None or "library" not in p or p["library"] in libraries)
            ]
            if not todo:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.parent.iterdir():
                if old.is_dir() and old.name != folder.name:
                    shutil.rmtree(old, ignore_errors=True)
            env = self._env()
            if info["goexperiment"]:
                env["GOEXPERIMENT"] = info["goexperiment"]
            print(f"go: building {len(todo)} code-size probes ({binary.name})...", file=sys.stderr)
            for p in todo:
                tmp = folder / f".{p['name']}.tmp"
                argv = [go, "build", "-trimpath", "-tags", p["tags"], f"-ldflags={info['ldflags']}"]
                argv += ["-o", str(tmp), info["package"]]
                self._run_step(argv, f"code-size probe for {p.get('library', 'no library')} ({binary.name})", env=env)
                os.replace(tmp, folder / p["name"])

    #: the frames of a goroutine's trace, and the harness's own module (its packages, and `main`)
    _FRAME = re.compile(r"^([\w./-]+?)\.[\w.()*]+\(", re.M)
    _OWN_MODULE = "serbench/harnesses/go"

    def crash_in_own_code(self, stderr: str) -> bool:
        """Whether the crashing goroutine's innermost frame outside the runtime is the harness's
        (its walk over a library's tree, its reference decoder): Go prints that goroutine's stack
        first after "goroutine N [...]:", innermost frame first."""
        header = re.search(r"^goroutine \d+ (?:.* )?\[[^]]+\]:\n", stderr, re.M)
        if not header:
            return False
        for m in self._FRAME.finditer(stderr, header.end()):
            pkg = m.group(1)
            # the runtime's own frames, and the standard library's internal/ packages it calls
            # (internal/runtime/maps grows a map, internal/bytealg compares): the caller is the culprit
            if pkg in ("runtime", "panic") or pkg.startswith(("runtime/", "internal/")):
                continue
            return pkg == "main" or pkg.startswith(self._OWN_MODULE)
        return False

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
            # madvdontneed=0 alone moved a product-large cell's spread between processes from 16% to
            # 10% (docs/methodology.md, "Noise sources"): a setting that changes
            # results is stored with them
            "GODEBUG": os.environ.get("GODEBUG", "none (default)"),
            # the runtime's default is the count of CPUs the process may use, so a pinned harness
            # process runs with 1 (env_json.pinning); each cell's runtime string has its own value
            "GOMAXPROCS": os.environ.get(
                "GOMAXPROCS", f"default: 1 when harness processes are pinned to one core, else {os.cpu_count()}"
            ),
            "binaries": binaries,
            "flags": self.BUILD,
        }

    def test_command(self) -> list[str] | None:
        # both builds: the default one, and the jsonv2 one whose selftest covers the v2 rows
        go = _go()
        return ["sh", "-c", f"'{go}' test ./... && GOEXPERIMENT=jsonv2 '{go}' test ./..."]
