"""What a run records about the JVM it times. Skipped where no `java` is installed."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from serbench.harnesses import BuildOptions, harness_classes
from serbench.harnesses.java import _flags_line

from .conftest import ROOT


def test_the_flags_line_is_found_after_the_version_lines():
    # `-version` writes stderr, `-XX:+PrintCommandLineFlags` stdout, and the harness reads both
    out = 'openjdk version "17.0.15"\nOpenJDK Runtime\n-XX:MaxHeapSize=1 -XX:+UseG1GC \n'
    assert _flags_line(out) == "-XX:MaxHeapSize=1 -XX:+UseG1GC "
    assert _flags_line("unavailable (no java)") == "unavailable (no java)"


@pytest.mark.skipif(shutil.which("java") is None, reason="no java on PATH")
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
@pytest.mark.skipif(
    os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") < 2 << 30, reason="HotSpot's server class needs 1792 MB"
)
def test_the_ergonomics_of_a_pinned_jvm_are_recorded_beside_the_machines():
    # Pinned to one core (the default), HotSpot picks the Serial collector; with two or more CPUs
    # and this much memory, G1. The run must say which one its cells ran with (fairness.md rule 6).
    info = harness_classes()["java"](ROOT, BuildOptions()).env_info()
    assert "-XX:+UseSerialGC" in info["jvm_ergonomics_one_cpu"]
    assert "-XX:+UseSerialGC" not in info["jvm_ergonomics_all_cpus"]
    assert info["jvm_ergonomics_all_cpus"].startswith("-XX:")


def test_jit_quiet_ms_becomes_the_warm_ups_count_of_quiet_windows_and_is_always_given():
    java = harness_classes()["java"]
    flags = {ms: java(ROOT, BuildOptions(jit_quiet_ms=ms))._quiet_flags() for ms in (None, 1, 60, 61, 200)}
    assert flags == {
        None: ["-Dserbench.warmQuietWindows=3"],  # JIT_QUIET_MS, given so that the run's record says it
        1: ["-Dserbench.warmQuietWindows=1"],
        60: ["-Dserbench.warmQuietWindows=3"],
        61: ["-Dserbench.warmQuietWindows=4"],  # at least as long as asked
        200: ["-Dserbench.warmQuietWindows=10"],  # the rule before 2026-12-05
    }
    assert java(ROOT, BuildOptions(jit_quiet_ms=61)).jit_quiet_ms == 80  # what env_info records


def test_the_orchestrators_default_quiet_time_is_the_harness_own():
    # jmh-crosscheck.py and a harness started by hand use Measure.java's default; runs pass JIT_QUIET_MS
    java = harness_classes()["java"]
    src = (ROOT / "harnesses/java/src/main/java/serbench/Measure.java").read_text()
    windows = int(re.search(r'getInteger\("serbench.warmQuietWindows", (\d+)\)', src).group(1))
    assert windows * java.WARM_WINDOW_MS == java.JIT_QUIET_MS
