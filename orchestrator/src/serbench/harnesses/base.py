"""What the orchestrator knows of a harness: one small class per language (DESIGN §2).

The orchestrator never branches on language names; everything language-specific lives in a
subclass registered in `harnesses/__init__.py`. The harness program itself speaks spec/protocol.md.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

#: how often a long build step says it is still working, in seconds
HEARTBEAT_S = 20.0
#: this process's lock descriptor per harness lock file (see Harness.build_and_hold)
_held_locks: dict[Path, int] = {}


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
    #: the JDK of the Java harness (`--jdk`): a JDK folder or a version; None: JAVA_HOME, else the newest LTS
    jdk: str | None = None
    #: how long the JIT must be quiet before a harness that waits for it starts sampling (`run
    #: --jit-quiet-ms`); None: the harness's own rule (Java: 60 ms)
    jit_quiet_ms: int | None = None
    extra: dict = field(default_factory=dict)


class Harness:
    #: language id used by --lang and stored with every cell
    name: str = ""
    #: the harness's folder, relative to the repository root
    folder: str = ""
    #: executables that must be on PATH to build it: {tool: "how to install"}
    toolchain: dict[str, str] = {}
    #: None when `run --measure instructions` can count this harness's instructions under valgrind
    #: (a compiled harness); otherwise why it cannot, stored as the reason of its unsupported cells
    instructions_unsupported: str | None = "the harness does not declare that valgrind can count it"
    #: environment a counted process gets beside instructions.FIXED_ENV: what makes the count repeat
    #: without changing what the timed runs measure
    instructions_env: dict[str, str] = {}
    #: how many times instructions.TARGET_BYTES of input the extra iterations of a counted cell
    #: process: more for a harness whose count varies from run to run, so the variation is spread
    #: over more operations (valgrind's start-up, not the iterations, is most of a counted process)
    instructions_scale: int = 1
    #: None when two counts of the same process are equal; otherwise why this harness's vary (its
    #: runtime, not a library), which a count run stores and its warning gives; its cells count the
    #: process with the extra iterations two or three times and take the median (instructions.next_round)
    instructions_varying: str | None = None
    #: None when `run` without --lang includes this harness; otherwise why the default run leaves it
    #: out (quick mode's time promise), printed so the user knows to name it with --lang
    not_in_default_run: str | None = None
    #: None when a run without --lang measures every default dataset of this harness; otherwise the
    #: datasets it measures there (the rest need --lang, which measures them all), for a harness whose
    #: whole matrix would break quick mode's time promise, with `default_datasets_why` printed to the user
    default_datasets: tuple[str, ...] | None = None
    default_datasets_why: str = ""
    #: None when the harness's canary (spec/protocol.md `run` step 4) divides its times (canary.py);
    #: otherwise why it does not: its samples still carry `canary_ns`, and the run keeps its times as
    #: measured and says why
    canary_unused: str | None = None
    #: None when a process's time is the median of its samples; otherwise why it is their mean (its total
    #: time over its operations): a runtime whose collector runs inside the timed batches pays for it in
    #: some batches and not others, and the median would leave that cost out (stats.Center)
    process_mean: str | None = None
    #: test (or "typed" for every typed test) -> the benchmarks that stand for the language's reference
    #: library, in order of preference: the standard library where the language has one, else the
    #: library its users reach for first. The answer table gives each language's fastest row as a ratio
    #: to it (report/answer.py), and names it
    reference_rows: dict[str, tuple[str, ...]] = {}

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

    def is_built(self) -> bool:
        """Whether a build exists that `command()` can start (it may be older than the sources)."""
        try:
            return all(Path(a).exists() for a in self.command()[:1])
        except HarnessError:
            return False

    def build_and_hold(self, say: Callable[[str], None]) -> None:
        """Build under an exclusive lock, then keep a shared lock until the command is done
        (`release_harness_locks`, or the process's exit).

        Two serbench processes must never build the same harness at once (they would write the
        same files), nor rebuild it while another is measuring with it (the run would time two
        different builds under one label). flock(2) locks are released by the kernel when the
        process dies, however it dies, so a crashed run never leaves a stale lock behind. A
        process keeps one descriptor per harness (flock locks of two descriptors conflict even
        within one process), so building twice in one process converts its own lock.
        """
        fd = _held_locks.get(self.lock_path)
        if fd is None:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            _held_locks[self.lock_path] = fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"waiting: another serbench process is building or running the {self.name} harness...")
            fcntl.flock(fd, fcntl.LOCK_EX)
        first = " (first build: this takes minutes)" if not self.is_built() else ""
        say(f"building the {self.name} harness{first}...")
        t0 = time.monotonic()
        try:
            self.build()
        finally:
            fcntl.flock(fd, fcntl.LOCK_SH)  # held for the life of this process
        say(f"{self.name} harness ready ({time.monotonic() - t0:.1f} s)")

    @property
    def lock_path(self) -> Path:
        return self.dir / ".serbench-build.lock"

    def command(self) -> list[str]:
        """argv prefix that starts the harness program (protocol commands follow)."""
        raise NotImplementedError

    def env(self) -> dict | None:
        """Environment of the harness process (None: inherit ours)."""
        return None

    def limited_command(self, memory_bytes: int, stack_bytes: int) -> list[str]:
        """argv prefix for a process under the robustness run's RLIMIT_AS and RLIMIT_STACK
        (robustness/limits.py). A runtime that reserves more address space up front than it uses
        (the JVM's heap) bounds itself inside the limit here, so that it starts at all."""
        return self.command()

    def crash_in_own_code(self, stderr: str) -> bool:
        """Whether a runtime's fatal-error trace on stderr (robustness/run.py RUNTIME_FATAL) points
        into the harness's own code rather than the library's: then it is a harness bug."""
        return False

    def env_info(self) -> dict:
        """Compiler/runtime versions, flags and build profile, stored with the run."""
        return {}

    def test_command(self) -> list[str] | None:
        """The harness's own test suite in its language's runner (ctest, cargo test, pytest)."""
        return None

    # --- helpers ------------------------------------------------------------------------------
    def _run_step(self, argv: list[str], what: str, cwd: Path | None = None, env: dict | None = None) -> None:
        """Run one build step; its output is shown with --verbose, otherwise a line every
        HEARTBEAT_S seconds says it is still working and what it printed last."""
        with tempfile.TemporaryFile("w+", errors="replace") as log:
            sink = None if self.options.verbose else log
            proc = subprocess.Popen(argv, cwd=cwd or self.dir, env=env, stdout=sink, stderr=sink, text=True)
            t0 = time.monotonic()
            while True:
                try:
                    code = proc.wait(timeout=HEARTBEAT_S)
                    break
                except subprocess.TimeoutExpired:
                    last = _last_line(log) if sink else ""
                    print(
                        f"  {self.name}: {what}: still working after {time.monotonic() - t0:.0f} s"
                        + (f" ({last[:100]})" if last else ""),
                        file=sys.stderr,
                        flush=True,
                    )
                except BaseException:
                    proc.kill()
                    proc.wait()
                    raise
            if code != 0:
                tail = _last_line(log) if sink else ""
                raise HarnessError(f"{self.name}: {what} failed (exit {code}){': ' + tail if tail else ''}")


def release_harness_locks() -> None:
    """Release what build_and_hold holds: the command that used the harnesses is done."""
    while _held_locks:
        os.close(_held_locks.popitem()[1])


def _last_line(log) -> str:
    """The last non-empty line written so far to a build step's log."""
    log.flush()
    log.seek(0)
    lines = [ln.strip() for ln in log.read().splitlines() if ln.strip()]
    log.seek(0, os.SEEK_END)
    return lines[-1] if lines else ""
