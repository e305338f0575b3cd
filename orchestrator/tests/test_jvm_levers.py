"""research/jvm_levers.py's answers to bad input: one line naming what is wrong, exit status 2, before
any JVM starts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "research"))
_spec = importlib.util.spec_from_file_location("jvm_levers", ROOT / "research" / "jvm_levers.py")
jvm_levers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(jvm_levers)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        ([], "give --cell"),
        (["--cell", "jackson:tree"], "'jackson:tree' is not a row; give BENCH:TEST:FORMAT"),
        (["--rows", "jackson:tree:json", "--rows", "::"], "'::' is not a row"),
        (["--cell", "jackson:tree:json", "--conditions", "plain,warp"], "unknown condition 'warp'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2_before_any_jvm_starts(monkeypatch, capsys, argv, says):
    def no_jvm(*a, **k):
        raise AssertionError("a process was started")

    monkeypatch.setattr(jvm_levers.subprocess, "run", no_jvm)
    monkeypatch.setattr(sys, "argv", ["jvm_levers", *argv])
    assert jvm_levers.main() == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err and says in err


def test_a_conditions_system_property_replaces_the_one_the_orchestrators_command_gives():
    # the JVM takes the last -D of a name, and the command always gives the warm-up's quiet windows
    argv = ["java", "@jvm.args", "-Dserbench.warmQuietWindows=3", "-cp", "jar", "serbench.Main", "run"]
    assert jvm_levers._with_flags(argv, ["-Dserbench.warmQuietWindows=10"]) == [
        "java", "-Dserbench.warmQuietWindows=10", "@jvm.args", "-cp", "jar", "serbench.Main", "run",
    ]  # fmt: skip
    assert jvm_levers._with_flags(argv, ["-XX:AOTCache=c.aot"]) == ["java", "-XX:AOTCache=c.aot", *argv[1:]]
