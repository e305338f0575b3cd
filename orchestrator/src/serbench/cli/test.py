"""`serbench test`: every test of every part."""

from __future__ import annotations

import subprocess
import sys

from ..harnesses import BuildOptions, HarnessError, make
from .common import EXIT_CHECK, EXIT_OK, ROOT, _jdk_option, say


def cmd_test(args) -> int:
    """Every test of every part: the orchestrator's pytest, then each harness's own runner."""
    results = []
    say("== orchestrator (pytest)")
    results.append(
        (
            "orchestrator",
            subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "orchestrator" / "tests")]
            ).returncode,
        )
    )
    for h in make(args.lang or None, ROOT, BuildOptions(verbose=args.verbose, jdk=args.jdk)):
        missing = h.missing_toolchain()
        if missing:
            say(f"== {h.name}: cannot test, {missing[0]}")
            results.append((h.name, 1))
            continue
        say(f"== {h.name}: build and test")
        try:
            h.build_and_hold(say)
        except HarnessError as e:
            say(str(e))
            results.append((h.name, 1))
            continue
        cmd = h.test_command()
        if cmd:
            results.append((h.name, subprocess.run(cmd, cwd=h.dir, env=h.env()).returncode))
    failed = [n for n, rc in results if rc != 0]
    say("suites: " + ", ".join(f"{n} {'ok' if rc == 0 else 'FAILED'}" for n, rc in results))
    print(f"serbench-suites: {len(results) - len(failed)} passed, {len(failed)} failed")
    return EXIT_OK if not failed else EXIT_CHECK


def add_parser(command) -> None:
    s = command("test", help="every test of every part")
    s.add_argument(
        "--lang",
        action="append",
        default=[],
        help="test the orchestrator and only this harness (repeatable; default: every harness)",
    )
    _jdk_option(s)
    s.set_defaults(fn=cmd_test)
