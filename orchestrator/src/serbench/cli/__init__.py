"""The `serbench` command. `main` reads as a table of contents; each subcommand is one module of this package.

Exit codes: 0 done; 1 a check failed (doctor, test); 2 bad input (usage, unknown library or dataset,
malformed --data file, a robustness --cases path with no case file, a --db that is not a writable
store or, for report and compare, no store at all, an --out, --corpus or --output that cannot be
written, a run another process is executing, a full disk: one line naming the file); 3 a toolchain
is missing or a harness does not build; 130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM (the run
is kept: `serbench run --resume` finishes it).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sqlite3
import sys
from pathlib import Path

from .. import pipes, runner
from ..corpus.formats import FormatError
from ..harnesses import HarnessError, UnknownHarness, release_harness_locks
from ..store import StoreError, out_of_space
from . import build, compare, corpus, doctor, history, listing, report, robustness, run, test
from .common import (
    EXIT_INPUT,
    EXIT_TOOLCHAIN,
    ROOT,
    UserError,
    _interrupted_code,
    _on_sigterm,
    _usable_harnesses,
    say,
)
from .output import _write_or_warn
from .run import _datasets, mode_from_args

# the names tests and other modules take from `serbench.cli`
__all__ = ["main", "parser", "mode_from_args", "UserError", "_datasets", "_usable_harnesses", "_write_or_warn"]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="serbench",
        description="Cross-language serialization benchmarks.",
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # --db and -v are accepted before and after the subcommand: a parent parser gives each
    # subcommand the same options with SUPPRESS defaults, so a value given after the subcommand
    # overrides one given before it, and an absent one leaves the main parser's default.
    p.add_argument("--db", default=str(ROOT / "results" / "serbench.db"), help="results store (SQLite)")
    p.add_argument("-v", "--verbose", action="store_true", help="show build output")
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--db", default=argparse.SUPPRESS, help="results store (SQLite)")
    shared.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="show build output")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    def command(name: str, **kw) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[shared], **kw)

    # one parser block per command, in the order `--help` lists them
    for module in (run, robustness, listing, build, corpus, report, history, compare, doctor, test):
        module.add_parser(command)
    corpus.add_vectors_parser(command)
    return p


def no_space_line(e: BaseException, args) -> str:
    """One line for a full disk: which file, how much is free where, and how to go on (issue 74). SQLite
    rolls back the transaction it could not write, so every cell finished before is kept."""
    named = getattr(e, "filename", None)
    # a write(2) that failed names no file (nor does SQLite): the path of the fullest filesystem among
    # those the command writes to is the one to free
    paths = (
        [Path(named)] if named else [Path(p) for p in (getattr(args, k, None) for k in ("db", "corpus", "out")) if p]
    )

    def free_of(path: Path) -> tuple[int, Path]:
        folder = next((p for p in (path, *path.parents) if p.is_dir()), Path("."))
        return shutil.disk_usage(folder).free, folder

    path = min(paths or [Path(".")], key=lambda p: free_of(p)[0])
    free, folder = free_of(path)
    go_on = ""
    if getattr(args, "fn", None) is run.cmd_run:
        started = getattr(args, "started_run", None)
        # before the run is stored (the corpus, the build) there is nothing to resume: the same command
        # starts it again, and the corpus writer keeps every file it finished
        go_on = (
            f"; then `./serbench run --resume {started}` continues the run"
            if started
            else "; then run the same command again (nothing was measured yet)"
        )
    return (
        f"no space left on the filesystem of {path} ({free // 1024:,} KB free): every finished cell is kept; "
        f"free space there (`df -h {folder}`), or pass --db, --out or --corpus on another disk{go_on}"
    )


def main(argv: list[str] | None = None) -> int:
    return pipes.exit_code(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    args = parser().parse_args(argv)
    args.invocation = list(sys.argv[1:] if argv is None else argv)  # not overwritten by --resume
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        return args.fn(args)
    except StoreError as e:
        say(f"serbench: {e}")
        return EXIT_INPUT
    except UserError as e:
        say(f"serbench: {e}")
        return e.code
    except (FormatError, runner.PlanError, UnknownHarness) as e:
        say(f"serbench: {e}")
        return EXIT_INPUT
    except HarnessError as e:
        say(f"serbench: {e}")
        return EXIT_TOOLCHAIN
    except (sqlite3.OperationalError, OSError) as e:
        if not out_of_space(e):
            raise
        say(f"serbench: {no_space_line(e, args)}")
        return EXIT_INPUT
    except KeyboardInterrupt as e:
        say("serbench: interrupted")
        return _interrupted_code(e)
    finally:
        release_harness_locks()
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
