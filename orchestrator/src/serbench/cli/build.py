"""`serbench build`: install what is missing and build the harnesses."""

from __future__ import annotations

from ..harnesses import BuildOptions
from .common import EXIT_OK, _build, _jdk_option, _usable_harnesses


def cmd_build(args) -> int:
    _build(_usable_harnesses(args, BuildOptions(verbose=args.verbose, jdk=args.jdk)))
    return EXIT_OK


def add_parser(command) -> None:
    s = command("build", help="install what is missing and build the harnesses (minutes the first time)")
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: every one)")
    _jdk_option(s)
    s.set_defaults(fn=cmd_build)
