"""The JDK the Java harness builds and runs with: found as a user's machine finds it (--jdk, JAVA_HOME,
then the newest LTS installed beside the default), recorded with the run, and told apart by compare."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from serbench import runner
from serbench.compare import compare
from serbench.compare_text import render
from serbench.harnesses import BuildOptions, HarnessError, harness_classes
from serbench.harnesses.java import Jdk, choose_jdk, installed_jdks, probe_jdk
from serbench.report.facts import runtimes
from serbench.store import Store

from .conftest import ROOT
from .test_report import ARGS, ENV, MANIFEST, _cell

TEMURIN_25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64")
OPENJDK_17 = Path("/usr/lib/jvm/java-17-openjdk-amd64")


def _jdk(version: str, name: str = "OpenJDK", vendor: str = "Debian", home: str | None = None) -> Jdk:
    return Jdk(Path(home or f"/jdk/{name}-{version}"), version, version + "+1", vendor, name)


def _fake_jdk(folder: Path, version: str, vendor_version: str = "", runs: bool = True) -> Path:
    """A JDK folder whose bin/java answers -XshowSettings:properties as a real one does (on stderr)."""
    (folder / "bin").mkdir(parents=True)
    props = [
        f"java.home = {folder}",
        "java.runtime.name = OpenJDK Runtime Environment",
        f"java.runtime.version = {version}+7",
        "java.vendor = Test Vendor",
        f"java.version = {version}",
    ] + ([f"java.vendor.version = {vendor_version}"] if vendor_version else [])
    body = "".join(f"echo '    {p}' >&2\n" for p in props) if runs else "exit 1\n"
    java = folder / "bin" / "java"
    java.write_text("#!/bin/sh\necho 'Property settings:' >&2\n" + body)
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    return folder


def test_the_newest_lts_jdk_is_chosen_over_a_newer_non_lts_one_and_the_default_first_among_equals():
    default17, other17 = _jdk("17.0.15"), _jdk("17.0.9", home="/opt/jdk-17")
    chosen, how = choose_jdk(None, None, [default17, _jdk("24.0.1"), other17, _jdk("21.0.5", "Temurin")])
    assert chosen.version == "21.0.5" and how.startswith("the newest LTS JDK installed here (also found: ")
    assert choose_jdk(None, None, [default17, other17])[0] is default17
    assert choose_jdk(None, None, [_jdk("25.0.3", "Temurin"), _jdk("21.0.5"), default17])[0].major == 25
    # no LTS at all: the newest JDK the build can use; none at all: what to install
    assert choose_jdk(None, None, [_jdk("23.0.2"), _jdk("11.0.2")])[0].version == "23.0.2"
    with pytest.raises(HarnessError, match=r"no JDK 17 or later found \(found: OpenJDK 11.0.2 \(Debian\) in "):
        choose_jdk(None, None, [_jdk("11.0.2")])


def test_jdk_picks_an_installed_version_and_names_the_installed_ones_when_there_is_none():
    jdks = [_jdk("17.0.15"), _jdk("25.0.3", "Temurin", "Eclipse Adoptium")]
    assert choose_jdk("17", None, jdks) == (jdks[0], "--jdk 17")
    assert choose_jdk("25.0", None, jdks)[0] is jdks[1]
    assert choose_jdk("25.0.3", "/ignored/by/--jdk", jdks)[0] is jdks[1]
    with pytest.raises(HarnessError) as e:
        choose_jdk("21", None, jdks)
    assert str(e.value) == (
        "--jdk 21: no such JDK installed here (found: OpenJDK 17.0.15 (Debian) in /jdk/OpenJDK-17.0.15; "
        "Temurin 25.0.3 (Eclipse Adoptium) in /jdk/Temurin-25.0.3)"
    )
    with pytest.raises(HarnessError, match=r"--jdk 11 is OpenJDK 11.0.2 \(Debian\): the Java harness is built"):
        choose_jdk("11", None, [_jdk("11.0.2")])


def test_a_jdk_is_read_from_its_own_java_and_java_home_wins_over_the_newest_lts(tmp_path):
    temurin = _fake_jdk(tmp_path / "jvm" / "temurin-25", "25.0.3", "Temurin-25.0.3+9")
    plain = _fake_jdk(tmp_path / "jvm" / "plain-21", "21.0.5")
    _fake_jdk(tmp_path / "jvm" / "broken-25", "25.0.1", runs=False)
    (tmp_path / "jvm" / "not-a-jdk").mkdir()
    (tmp_path / "jvm" / "alias-25").symlink_to(temurin)
    jdk = probe_jdk(temurin / "bin" / "java")
    assert (jdk.label(), jdk.major, jdk.runtime_version) == ("Temurin 25.0.3 (Test Vendor)", 25, "25.0.3+7")
    assert probe_jdk(plain / "bin" / "java").label() == "OpenJDK 21.0.5 (Test Vendor)"
    assert probe_jdk(tmp_path / "jvm" / "broken-25" / "bin" / "java") is None
    found = [j for j in installed_jdks((str(tmp_path / "jvm" / "*"),)) if str(j.home).startswith(str(tmp_path))]
    assert sorted(j.home.name for j in found) == ["plain-21", "temurin-25"]  # not the broken one; the alias once
    assert choose_jdk(None, None, found)[0].home == temurin
    # JAVA_HOME is the user's own choice (as Maven and Gradle take it), even beside a newer LTS
    assert choose_jdk(None, str(plain), found) == (probe_jdk(plain / "bin" / "java"), "JAVA_HOME")
    with pytest.raises(HarnessError, match="no working JDK there"):
        choose_jdk(None, str(tmp_path / "jvm" / "broken-25"), found)
    assert choose_jdk(str(temurin), str(plain), found) == (jdk, f"--jdk {temurin}")


@pytest.mark.skipif(not (TEMURIN_25 / "bin" / "java").exists(), reason="no Temurin 25 here")
@pytest.mark.skipif(not (OPENJDK_17 / "bin" / "java").exists(), reason="no OpenJDK 17 here")
def test_this_machine_runs_the_harness_on_temurin_25_and_jdk_17_on_request(monkeypatch):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    java = harness_classes()["java"]
    newest = java(ROOT, BuildOptions())
    assert newest.jdk.label() == "Temurin 25.0.3 (Eclipse Adoptium)" and newest.jdk.home == TEMURIN_25
    assert newest.env()["JAVA_HOME"] == str(TEMURIN_25)  # Maven compiles, and Surefire tests, with it
    old = java(ROOT, BuildOptions(jdk="17"))
    assert old.jdk.home == OPENJDK_17 and old.jdk.label() == "OpenJDK 17.0.15 (Debian)"
    assert old.missing_toolchain() == [] and java(ROOT, BuildOptions(jdk="8")).missing_toolchain()[0].startswith(
        "--jdk 8: no such JDK installed here"
    )
    if old.jar.exists() and old.classpath_file.exists():
        assert old.command()[0] == str(OPENJDK_17 / "bin" / "java")
        info = old.env_info()
        assert info["runtime"] == "OpenJDK 17.0.15 (Debian)" and info["jdk_chosen_by"] == "--jdk 17"
        assert info["java"].startswith('openjdk version "17.0.15"') and "\n" not in info["java"]


def _java_run(store: Store, run_id: str, runtime: str, java: str) -> None:
    info = {"runtime": runtime, "java": java, "forks": "one fresh JVM per (cell, round)"}
    store.create_run(run_id, "quick", ARGS, {**ENV, "harnesses": {"java": info}}, MANIFEST)
    _cell(store, run_id, "copy-input", "tree", "json", 100, is_baseline=True)
    _cell(store, run_id, "fastjson", "tree", "json", 1000, baseline="copy-input")
    runner.finalize(store, run_id, 50, 1)


def test_runs_on_jdk_25_and_jdk_17_are_different_settings_and_the_header_names_the_jdk(tmp_path):
    store = Store(tmp_path / "s.db")
    _java_run(store, "on-25", "Temurin 25.0.3 (Eclipse Adoptium)", 'openjdk version "25.0.3"')
    _java_run(store, "on-17", "OpenJDK 17.0.15 (Debian)", 'openjdk version "17.0.15"')
    _java_run(store, "on-25-again", "Temurin 25.0.3 (Eclipse Adoptium)", 'openjdk version "25.0.3"')
    # the runtime leads the harness's differences, by its name; the rest of env_info follows
    assert compare(store, "on-25", "on-17", n_boot=50).settings == [
        "java runtime: Temurin 25.0.3 (Eclipse Adoptium) (A) vs OpenJDK 17.0.15 (Debian) (B)",
        'java harness java: openjdk version "25.0.3" (A) vs openjdk version "17.0.15" (B)',
    ]
    assert compare(store, "on-25", "on-25-again", n_boot=50).settings == []
    # and it shows where compare's Markdown says what differs between the runs
    text = render(compare(store, "on-17", "on-25", n_boot=50))
    assert "**⚠ Different settings:** java runtime: OpenJDK 17.0.15 (Debian) (A) vs Temurin 25.0.3" in text
    env = {"harnesses": {"java": {"runtime": "Temurin 25.0.3 (Eclipse Adoptium)", "jvm_flags": "@jvm.args"}}}
    assert runtimes(env) == ["java: Temurin 25.0.3 (Eclipse Adoptium); @jvm.args"]


def test_a_jar_compiled_by_another_jdk_than_the_chosen_one_is_built_again(tmp_path):
    java = harness_classes()["java"](tmp_path, BuildOptions())
    java._chosen = (_jdk("25.0.3", "Temurin", "Eclipse Adoptium"), "test")
    (java.dir / "src" / "main").mkdir(parents=True)
    (java.dir / "pom.xml").write_text("<project/>")
    (java.dir / "target").mkdir()
    java.classpath_file.write_text("")
    java.jar.write_text("jar")
    assert not java._up_to_date()  # built before the JDK was recorded
    java.built_with_file.write_text(java._built_with() + "\n")
    assert java._up_to_date()
    java._chosen = (_jdk("17.0.15"), "--jdk 17")
    assert not java._up_to_date()


def test_run_build_and_test_take_jdk():
    from serbench.cli import parser

    for cmd in (["run"], ["build"], ["test"]):
        assert parser().parse_args([*cmd, "--jdk", "17"]).jdk == "17"
        assert parser().parse_args(cmd).jdk is None
