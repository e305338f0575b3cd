"""The Java harness (harnesses/java): one Maven project, every version pinned in pom.xml (plugins too)."""

from __future__ import annotations

import shutil
import subprocess

from .base import Harness, HarnessError


class JavaHarness(Harness):
    name = "java"
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

    #: JVM options of every harness process: none, so the collector, heap and JIT are the JVM's
    #: defaults, as a Java user gets them (DESIGN §10); env_info records what the JVM chose.
    JVM_FLAGS: list[str] = []

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
        return [shutil.which("java") or "java", *self.JVM_FLAGS, "-cp", classpath, "serbench.Main"]

    def env_info(self) -> dict:
        def ask(argv: list[str]) -> str:
            try:
                out = subprocess.run(argv, capture_output=True, text=True, cwd=self.dir, timeout=60)
                return (out.stderr + out.stdout).strip()
            except (OSError, subprocess.TimeoutExpired) as e:
                return f"unavailable ({e})"

        version = ask(["java", *self.JVM_FLAGS, "-version"])
        # the heap sizes and the collector the JVM's ergonomics chose on this machine
        flags = ask(["java", *self.JVM_FLAGS, "-XX:+PrintCommandLineFlags", "-version"]).splitlines()
        return {
            "runtime": version.splitlines()[0] if version else "java (unknown)",
            "java": version,
            "jvm_flags": " ".join(self.JVM_FLAGS) or "(none: JVM defaults)",
            "jvm_ergonomics": flags[0] if flags else "",
            "build": "mvn -B package -DskipTests (Java 17 release, versions pinned in pom.xml)",
            "forks": "one fresh JVM per (cell, round)",
        }

    def test_command(self) -> list[str] | None:
        return ["mvn", "-B", "-q", "-f", str(self.dir / "pom.xml"), "test"]
