"""`serbench list`: the benchmarks of the harnesses that are built; it never builds."""

from __future__ import annotations

import json

from .. import contracts, runner
from ..harnesses import BuildOptions, make
from .common import EXIT_OK, ROOT, UserError, say
from .output import _print_columns


def cmd_list(args) -> int:
    """What is built answers; what is not built is named with the command that builds it. `list`
    never builds: a first build takes minutes, and nobody asked for it."""
    hs = make(args.lang or None, ROOT, BuildOptions(verbose=args.verbose))
    listings = {}
    for h in hs:
        if not h.is_built():
            how = h.missing_toolchain() or [f"`serbench build --lang {h.name}` builds it"]
            say(f"{h.name}: not built; {how[0]}")
            continue
        listings[h.name] = runner.listing(h)
    if not listings:
        raise UserError("no harness is built yet; `serbench build` builds them (minutes the first time)")
    if args.json:
        print(json.dumps(listings, indent=1))
        return EXIT_OK
    for name, lst in listings.items():
        print(f"{name} ({lst.get('runtime', '')})")
        # columns as wide as their widest entry (ids such as jdk-externalizable-cbytes-typed broke
        # fixed widths), the formats last: a typed baseline lists dozens
        rows = [
            [
                b["id"],
                b["library"],
                b["version"],
                "baseline" if b.get("baseline") else ", ".join(b["tests"]),
                "/".join(b["formats"]),
                contracts.listing_text(b),
            ]
            for b in lst["benchmarks"]
        ]
        if rows:
            # "work": the row's timed loop against its tests' contracts (spec/fairness.md rule 12), last
            # because a row off its contract spells its steps out
            _print_columns([["id", "library", "version", "tests", "formats", "work"], *rows], indent="  ")
    return EXIT_OK


def add_parser(command) -> None:
    s = command("list", help="the benchmarks of the harnesses that are built (never builds)")
    s.add_argument("--lang", action="append", default=[], help="harness language (repeatable; default: every one)")
    s.add_argument("--json", action="store_true", help="the harnesses' `list` output as JSON")
    s.set_defaults(fn=cmd_list)
