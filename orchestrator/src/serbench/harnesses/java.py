"""The Java harness (harnesses/java): one Maven project, every version pinned in pom.xml (plugins too)."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import pinning
from .base import Harness, HarnessError

#: the LTS releases the harness prefers, newest first: a Java team choosing a library today deploys
#: the newest LTS (25 since September 2025); 17 is the oldest the build's release level (17) runs on
LTS = (25, 21, 17)
#: the release level pom.xml compiles for (maven.compiler.release): no older JDK can build or run it
MIN_MAJOR = 17
#: where JDKs are installed beside the default, as Debian (update-alternatives), tarballs and
#: container images (/opt/java/openjdk), SDKMAN! and IntelliJ put them; each JDK once (by java.home)
JDK_GLOBS = ("/usr/lib/jvm/*", "/opt/*", "/opt/*/*", "~/.sdkman/candidates/java/*", "~/.jdks/*")


@dataclass(frozen=True)
class Jdk:
    """One installed JDK, as its own `java` reports itself (-XshowSettings:properties)."""

    home: Path
    version: str  # java.version: 25.0.3
    runtime_version: str  # java.runtime.version: 25.0.3+9-LTS
    vendor: str  # java.vendor: Eclipse Adoptium, Debian, Oracle Corporation
    name: str  # the distribution: Temurin, Corretto, Zulu (java.vendor.version); else OpenJDK

    @property
    def java(self) -> Path:
        return self.home / "bin" / "java"

    @property
    def major(self) -> int:
        head = self.version.split(".")[0].split("-")[0].split("+")[0]
        return int(head) if head.isdigit() else 0

    def label(self) -> str:
        """What a reader compares: "Temurin 25.0.3 (Eclipse Adoptium)", "OpenJDK 17.0.15 (Debian)"."""
        return f"{self.name} {self.version} ({self.vendor})"


def probe_jdk(java: Path) -> Jdk | None:
    """The JDK whose launcher `java` is, or None when it does not start (a broken or foreign install)."""
    try:
        out = subprocess.run(
            [str(java), "-XshowSettings:properties", "-version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    props = {}
    for line in out.stderr.splitlines():  # "    java.home = /usr/lib/jvm/..." (a continuation line has no " = ")
        key, sep, value = line.strip().partition(" = ")
        if sep and key not in props:
            props[key] = value
    if "java.home" not in props or "java.version" not in props:
        return None
    # java.vendor.version names the build ("Temurin-25.0.3+9", "Corretto-21.0.5.11.1"); Debian's and
    # other plain OpenJDK builds have none, and their runtime name starts with "OpenJDK"
    distribution = props.get("java.vendor.version", "").split("-")[0].strip()
    name = distribution or (props.get("java.runtime.name", "").split() or ["Java"])[0]
    return Jdk(
        home=Path(props["java.home"]),
        version=props["java.version"],
        runtime_version=props.get("java.runtime.version", props["java.version"]),
        vendor=props.get("java.vendor", "unknown vendor"),
        name=name,
    )


def installed_jdks(globs=JDK_GLOBS) -> list[Jdk]:
    """Every JDK that starts here: the default `java` on PATH first, then those installed beside it."""
    launchers: list[Path] = []
    default = shutil.which("java")
    if default:
        launchers.append(Path(default).resolve())
    for pattern in globs:
        for folder in sorted(Path(os.path.expanduser(pattern)).parent.glob(Path(pattern).name)):
            if (folder / "bin" / "java").is_file():
                launchers.append(folder / "bin" / "java")
    found: dict[Path, Jdk] = {}
    for launcher in launchers:
        if (jdk := probe_jdk(launcher)) is not None:
            found.setdefault(jdk.home.resolve(), jdk)  # a symlinked folder is the same JDK
    return list(found.values())


def choose_jdk(choice: str | None, java_home: str | None, jdks: list[Jdk]) -> tuple[Jdk, str]:
    """The JDK the harness builds and runs with, and how it was chosen (recorded with the run).

    `--jdk` (a JDK folder, its `java`, or a version: "25", "21.0.5") wins; then JAVA_HOME, the user's
    own choice as Maven and Gradle take it; then the newest LTS of the JDKs installed here (LTS), the
    default `java` first among equals; then the newest other one. None older than MIN_MAJOR."""

    def usable(jdk: Jdk | None, what: str) -> Jdk:
        if jdk is None:
            raise HarnessError(f"{what}: no working JDK there (its bin/java -version fails)")
        if jdk.major < MIN_MAJOR:
            raise HarnessError(
                f"{what} is {jdk.label()}: the Java harness is built for Java {MIN_MAJOR} (pom.xml), use JDK "
                f"{MIN_MAJOR} or later"
            )
        return jdk

    def found() -> str:
        return "; ".join(f"{j.label()} in {j.home}" for j in jdks) or "none"

    if choice:
        path = Path(choice).expanduser()
        if "/" in choice or path.exists():
            java = path if path.is_file() else path / "bin" / "java"
            return usable(probe_jdk(java), f"--jdk {choice}"), f"--jdk {choice}"
        matches = [j for j in jdks if str(j.major) == choice or (j.version + ".").startswith(choice + ".")]
        if not matches:
            raise HarnessError(f"--jdk {choice}: no such JDK installed here (found: {found()})")
        return usable(matches[0], f"--jdk {choice}"), f"--jdk {choice}"
    if java_home:
        return usable(probe_jdk(Path(java_home) / "bin" / "java"), f"JAVA_HOME={java_home}"), "JAVA_HOME"
    candidates = [j for j in jdks if j.major >= MIN_MAJOR]
    if not candidates:
        fix = "apt-get install openjdk-17-jdk-headless"
        raise HarnessError(f"no JDK {MIN_MAJOR} or later found (found: {found()}): {fix}")
    lts = [j for j in candidates if j.major in LTS]
    best = max(lts or candidates, key=lambda j: j.major)  # max keeps the first of equals: the default
    others = [j.label() for j in jdks if j is not best]
    how = f"the newest {'LTS ' if lts else ''}JDK installed here"
    how += f" (also found: {', '.join(others)})" if others else ""
    return best, how


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
    # java: not looked up on PATH (missing_toolchain asks choose_jdk, which also finds JDKs beside it)
    toolchain = {"mvn": "apt-get install maven"}
    instructions_unsupported = (
        "a JVM's instruction count includes its JIT compilers and garbage collector, which run on their own threads "
        "and timers, so two runs of the same jar on the same file do not execute the same instructions "
        "(protocol.md step 9 needs that); Java cells are timed only"
    )
    # Each JVM process starts and warms up until its JIT settles (1.4 s a process on the harness core
    # in `--lang java`, run 20261205-201136-d466), so quick mode's 3 processes for each of Java's 651
    # cells take 46 minutes, and those of the seed datasets alone 28 (run 20261206-005351-172b, both
    # cores busy), past the 12 minutes quick mode gives every cell (modes.py): the default run leaves
    # Java out and says so (docs/methodology.md, "A JVM process's cost").
    not_in_default_run = (
        "each JVM process spends over a second starting and warming up its JIT: Java's quick cells take "
        "about 46 minutes alone, past the 12 minutes quick mode gives all cells"
    )
    # HotSpot's collector runs inside the timed batches as Go's does (fairness.md rule 6); JMH's average
    # time is the mean for the same reason. Go's cells measured the effect (go.py); Java's were not
    # measured with many processes (its quick run takes 46 minutes with 3 a cell).
    process_mean = (
        "the JVM's collector runs inside the timed batches, in some and not others: a process's time is its "
        "total time over its operations, as JMH's average time is, so that the collections are in it"
    )

    #: JVM options of every harness process, from harnesses/java/jvm.args (an @argfile): only the
    #: module exports and opens that Chronicle Wire/Bytes document for Java 17 and that Agrona (SBE)
    #: needs, and Chronicle's analytics switched off; the collector, heap and JIT stay the JVM's
    #: defaults, as a Java user gets them (DESIGN §10); env_info records what the JVM chose. JDK 25
    #: takes the same file and needs nothing more: its warnings about sun.misc.Unsafe's memory access
    #: (JEP 498) and System.load (JEP 472) go to stderr, and no row fails for them (docs/libraries.md).
    JVM_ARGS_FILE = "jvm.args"
    #: Measure.java's warm-up window: `--jit-quiet-ms` becomes a count of these
    WARM_WINDOW_MS = 20
    #: how long the JIT must be quiet before sampling, unless `--jit-quiet-ms` says otherwise: 3 windows
    #: (Measure.WARM_QUIET_WINDOWS, which a test holds equal; docs/methodology.md, "A JVM process's cost")
    JIT_QUIET_MS = 60
    #: the jar's mtime when making the class archive last failed (robustness runs: try once per jar)
    _archive_failed_for: float | None = None
    #: (the JDK, how it was chosen), found once per command (choose_jdk starts every JDK installed here)
    _chosen: tuple[Jdk, str] | None = None

    @property
    def jdk(self) -> Jdk:
        """The JDK that builds and runs the harness (choose_jdk): --jdk, JAVA_HOME, or the newest LTS here."""
        if self._chosen is None:
            self._chosen = choose_jdk(self.options.jdk, os.environ.get("JAVA_HOME"), installed_jdks())
        return self._chosen[0]

    def missing_toolchain(self) -> list[str]:
        missing = super().missing_toolchain()
        try:
            _ = self.jdk  # found, or why not
        except HarnessError as e:
            missing.insert(0, str(e))
        return missing

    def env(self) -> dict | None:
        # Maven (build, `serbench test`) runs on JAVA_HOME's JDK, and Surefire forks its tests with
        # the same one; the harness processes start the chosen java by its path, so for them it
        # changes nothing
        return {**os.environ, "JAVA_HOME": str(self.jdk.home)}

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

    @property
    def built_with_file(self):
        """The JDK the jar was compiled by (its runtime version and home), written after each build."""
        return self.dir / "target" / "built-with-jdk.txt"

    def _built_with(self) -> str:
        return f"{self.jdk.runtime_version} {self.jdk.home}"

    def _up_to_date(self) -> bool:
        if not (self.jar.exists() and self.classpath_file.exists() and self.built_with_file.exists()):
            return False
        # a jar another JDK's javac made is rebuilt: the chosen JDK compiles what it runs
        if self.built_with_file.read_text().strip() != self._built_with():
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
        what = f"mvn -B package -DskipTests (harnesses/java, {self.jdk.label()})"
        self._run_step(argv, what, env=self.env())
        self.built_with_file.write_text(self._built_with() + "\n")

    def command(self) -> list[str]:
        if not (self.jar.exists() and self.classpath_file.exists()):
            raise HarnessError("java harness is not built; run `serbench run --lang java` or `serbench doctor`")
        deps = self.classpath_file.read_text().strip()
        classpath = str(self.jar) + (":" + deps if deps else "")
        return [str(self.jdk.java), *self.jvm_flags(), *self._quiet_flags(), "-cp", classpath, "serbench.Main"]

    @property
    def jit_quiet_ms(self) -> int:
        """What the warm-up waits for (`run --jit-quiet-ms`, else JIT_QUIET_MS), in whole windows."""
        windows = max(1, -(-(self.options.jit_quiet_ms or self.JIT_QUIET_MS) // self.WARM_WINDOW_MS))
        return windows * self.WARM_WINDOW_MS

    def _quiet_flags(self) -> list[str]:
        """The warm-up's quiet windows in a row (Measure.WARM_QUIET_WINDOWS), always given, so that a
        run's record (env_info) says what its processes did."""
        return [f"-Dserbench.warmQuietWindows={self.jit_quiet_ms // self.WARM_WINDOW_MS}"]

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
                    [str(self.jdk.java), *self.jvm_flags(), "-XX:+PrintCommandLineFlags", "-version"],
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
        jdk, how = self.jdk, self._chosen[1] if self._chosen else ""
        # the JDK's distribution, version and vendor are part of what every Java cell measures (its
        # JIT, collector and class library): `runtime` names them, and compare tells two runs apart by it
        return {
            "runtime": jdk.label(),
            "jdk_home": str(jdk.home),
            "jdk_chosen_by": how,
            "java": " / ".join(version.splitlines()),  # `java -version`, one line
            "jvm_flags": self.jvm_flags_text(),
            "jvm_ergonomics_one_cpu": _flags_line(flags),
            "jvm_ergonomics_all_cpus": _flags_line(flags_all),
            "build": f"mvn -B package -DskipTests, JAVA_HOME={jdk.home} (Java 17 release, versions pinned in pom.xml)",
            "forks": "one fresh JVM per (cell, round)",
            # the warm-up's rule is part of what a cell's time is (compare names a difference)
            "jit_quiet_ms": self.jit_quiet_ms,
        }

    def test_command(self) -> list[str] | None:
        return ["mvn", "-B", "-q", "-f", str(self.dir / "pom.xml"), "test"]  # on the chosen JDK: env()


def _flags_line(output: str) -> str:
    """The line of `-XX:+PrintCommandLineFlags` in a JVM's output (stdout; `-version` writes stderr)."""
    return next((line for line in output.splitlines() if line.startswith("-XX:")), output)
