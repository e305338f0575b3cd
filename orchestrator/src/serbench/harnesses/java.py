"""The Java harness (harnesses/java): one Maven project, every version pinned in pom.xml (plugins too)."""

from __future__ import annotations

import os
import shutil
import subprocess

from .. import pinning
from .base import Harness, HarnessError


class JavaHarness(Harness):
    name = "java"
    # no JSON in the JDK: Jackson, the most used Java JSON library
    reference_rows = {
        "write": ("jackson",),
        "tree": ("jackson",),
        "incremental": ("jackson",),
        "typed": ("jackson-typed",),
    }
    folder = "harnesses/java"
    toolchain = {
        "java": "apt-get install openjdk-17-jdk-headless",
        "mvn": "apt-get install maven",
    }
    instructions_unsupported = (
        "a JVM's instruction count includes its JIT compilers and garbage collector, which run on their own threads "
        "and timers, so two runs of the same jar on the same file do not execute the same instructions "
        "(protocol.md step 9 needs that); Java cells are timed only"
    )
    # Each JVM process warms up until the JIT settles (2-6 s), so quick mode's 5 processes per cell
    # would take Java alone past quick mode's 15 minutes: until quick mode has a JVM plan, the
    # default run leaves Java out and says so.
    not_in_default_run = "each JVM process warms up its JIT for 2-6 s, past quick mode's time budget"
    # HotSpot's collector runs inside the timed batches as Go's does (fairness.md rule 6); JMH's average
    # time is the mean for the same reason. Go's cells measured the effect (go.py); Java's were not
    # measured with many processes (its quick run takes over an hour).
    process_mean = (
        "the JVM's collector runs inside the timed batches, in some and not others: a process's time is its "
        "total time over its operations, as JMH's average time is, so that the collections are in it"
    )

    #: JVM options of every harness process, from harnesses/java/jvm.args (an @argfile): only the
    #: module exports and opens that Chronicle Wire/Bytes document for Java 17 and that Agrona (SBE)
    #: needs, and Chronicle's analytics switched off; the collector, heap and JIT stay the JVM's
    #: defaults, as a Java user gets them (DESIGN §10); env_info records what the JVM chose.
    JVM_ARGS_FILE = "jvm.args"
    #: the jar's mtime when making the class archive last failed (robustness runs: try once per jar)
    _archive_failed_for: float | None = None

    def jvm_flags(self) -> list[str]:
        path = self.dir / self.JVM_ARGS_FILE
        return [f"@{path}"] if path.exists() else []

    def jvm_flags_text(self) -> str:
        """What the argfile says, for the run's record."""
        path = self.dir / self.JVM_ARGS_FILE
        words = path.read_text().split() if path.exists() else []
        return " ".join(words) or "(none: JVM defaults)"

    @property
    def jar(self):
        return self.dir / "target" / "serbench-java-0.1.0.jar"

    @property
    def classpath_file(self):
        return self.dir / "target" / "classpath.txt"

    def _newest_source_mtime(self) -> float:
        # typed.avsc: avro-maven-plugin generates the Avro specific records from it in the build
        paths = [self.dir / "pom.xml", self.dir / "known-deviations.json"]
        paths.append(self.root / "spec" / "schemas" / "typed.avsc")
        paths += [p for p in (self.dir / "src" / "main").rglob("*") if p.is_file()]
        return max(p.stat().st_mtime for p in paths if p.exists())

    def _up_to_date(self) -> bool:
        if not (self.jar.exists() and self.classpath_file.exists()):
            return False
        # the jar is rewritten by every package (forceCreation in pom.xml); classpath.txt is
        # rewritten only when the dependencies change, so its time says nothing
        return self.jar.stat().st_mtime >= self._newest_source_mtime()

    def build(self) -> None:
        # Maven re-resolves and re-packages on every call (several seconds), so an up-to-date jar
        # is kept as it is. Dependencies and plugins come from Maven Central into ~/.m2.
        if self._up_to_date():
            return
        argv = ["mvn", "-B", "package", "-DskipTests"]
        if not self.options.verbose:
            argv.append("-q")
        self._run_step(argv, "mvn -B package -DskipTests (harnesses/java)")

    def command(self) -> list[str]:
        if not (self.jar.exists() and self.classpath_file.exists()):
            raise HarnessError("java harness is not built; run `serbench run --lang java` or `serbench doctor`")
        deps = self.classpath_file.read_text().strip()
        classpath = str(self.jar) + (":" + deps if deps else "")
        return [shutil.which("java") or "java", *self.jvm_flags(), "-cp", classpath, "serbench.Main"]

    def limited_command(self, memory_bytes: int, stack_bytes: int) -> list[str]:
        """The JVM under the robustness run's limits. With its defaults the JVM reserves a quarter of
        the machine's memory for its heap up front and fails to start under RLIMIT_AS, which would
        count every case as the library's crash. So the heap is bounded to a quarter of the limit (a
        library's allocations past it end in OutOfMemoryError: a memory blow-up), because the rest of
        the address space goes to reservations the heap size does not count: the code cache and the
        compressed class space (bounded here), the class archive, glibc's malloc arenas (64 MiB of
        address space each) and the threads' stacks. At 2 GiB a heap of half the limit left too little
        for them (pthread_create failed with EAGAIN). The main thread's stack is the limit's stack
        (-Xss), as for the native harnesses; the serial collector starts no collector threads; C1
        only, since a verify process runs once and is not timed. The classes every row loads come
        from a CDS archive (below), which halves the JVM's start-up (0.40 s to 0.21 s per process
        here, /usr/bin/time on a verify of json/deep-100.json)."""
        mib = 1 << 20
        heap_mib = max(32, memory_bytes // mib // 4)
        flags = [
            f"-Xmx{heap_mib}m",
            f"-Xss{max(1, stack_bytes // mib)}m",
            "-XX:ReservedCodeCacheSize=64m",
            "-XX:CompressedClassSpaceSize=128m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
        ]
        argv = self.command()
        archive = self._class_archive(argv, flags)
        flags += [f"-XX:SharedArchiveFile={archive}"] if archive else []
        return [argv[0], *flags, *argv[1:]]

    def _class_archive(self, argv: list[str], flags: list[str]):
        """A dynamic CDS archive of the classes `selftest` loads (every row's), made once per jar:
        only start-up time depends on it; when it cannot be made, the JVM runs without one."""
        archive = self.dir / "target" / "robustness-classes.jsa"
        if archive.exists() and archive.stat().st_mtime >= self.jar.stat().st_mtime:
            return archive
        jar_mtime = self.jar.stat().st_mtime
        if self._archive_failed_for == jar_mtime:
            return None  # tried for this jar and failed: not again for every process of the run
        self._archive_failed_for = jar_mtime
        tmp = archive.with_name(f".{archive.name}.{os.getpid()}")
        cmd = [argv[0], *flags, f"-XX:ArchiveClassesAtExit={tmp}", *argv[1:]]
        try:
            subprocess.run(
                [*cmd, "selftest", "--vectors", str(self.root / "vectors")],
                capture_output=True, cwd=self.dir, timeout=300, check=False,
            )  # fmt: skip
            if tmp.exists():
                os.replace(tmp, archive)
                return archive
        except (OSError, subprocess.TimeoutExpired):
            pass
        tmp.unlink(missing_ok=True)
        return None

    def env_info(self) -> dict:
        def ask(cpu: int | None) -> str:
            """`java -version` with the flags HotSpot's ergonomics chose, run on `cpu` only when given."""
            try:
                out = subprocess.run(
                    ["java", *self.jvm_flags(), "-XX:+PrintCommandLineFlags", "-version"],
                    capture_output=True, text=True, cwd=self.dir, timeout=60,
                    preexec_fn=lambda: pinning.pin_child(cpu),
                )  # fmt: skip
                return (out.stderr + out.stdout).strip()
            except (OSError, subprocess.TimeoutExpired) as e:
                return f"unavailable ({e})"

        # The heap sizes and the collector HotSpot's ergonomics choose from the CPUs the JVM may
        # use: on the core a pinned run gives harness processes (the default, env_json.pinning) it
        # picks the Serial collector, on this machine's cores G1; each cell's runtime string names
        # the one it ran with. With one CPU there is no core to pin to, and both are the same.
        flags = ask(pinning.choose(True).harness_cpu)
        flags_all = ask(None)
        version = "\n".join(line for line in flags_all.splitlines() if not line.startswith("-XX:"))
        return {
            "runtime": version.splitlines()[0] if version else "java (unknown)",
            "java": version,
            "jvm_flags": self.jvm_flags_text(),
            "jvm_ergonomics_one_cpu": _flags_line(flags),
            "jvm_ergonomics_all_cpus": _flags_line(flags_all),
            "build": "mvn -B package -DskipTests (Java 17 release, versions pinned in pom.xml)",
            "forks": "one fresh JVM per (cell, round)",
        }

    def test_command(self) -> list[str] | None:
        return ["mvn", "-B", "-q", "-f", str(self.dir / "pom.xml"), "test"]


def _flags_line(output: str) -> str:
    """The line of `-XX:+PrintCommandLineFlags` in a JVM's output (stdout; `-version` writes stderr)."""
    return next((line for line in output.splitlines() if line.startswith("-XX:")), output)
