"""`serbench doctor`: toolchains and machine settings, with the command that fixes each."""

from __future__ import annotations

import sys

from .. import envinfo, instructions
from ..harnesses import BuildOptions, harness_classes
from .common import EXIT_CHECK, EXIT_OK, ROOT


def cmd_doctor(args) -> int:
    ok = True
    print(f"python {sys.version.split()[0]}: ok" if sys.version_info >= (3, 10) else "python: 3.10+ needed")
    vg = instructions.valgrind_version()
    fix = f"sudo apt-get install {instructions.VALGRIND_PIN}"
    print(
        f"valgrind: {vg} (for --measure instructions)"
        if vg
        else f"valgrind: not found (for --measure instructions: {fix})"
    )
    gov = envinfo.governor()
    print(
        f"cpu governor: {gov}"
        + (
            "  (for stable timings: cpupower frequency-set -g performance)"
            if gov not in ("performance",) and not gov.startswith("unavailable")
            else ""
        )
    )
    for name, cls in harness_classes().items():
        h = cls(ROOT, BuildOptions())
        missing = h.missing_toolchain()
        ok &= not missing
        print(f"harness {name}: " + ("toolchain ok" if not missing else "; ".join(missing)))
    return EXIT_OK if ok else EXIT_CHECK


def add_parser(command) -> None:
    s = command("doctor", help="toolchains and machine settings, with the command that fixes each")
    s.set_defaults(fn=cmd_doctor)
