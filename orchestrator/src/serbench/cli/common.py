"""What every command shares: exit codes, the user's one-line errors, human output, argument types, the
store a reading command opens, the harnesses a command may use, and the folders it writes in."""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
import tempfile
from pathlib import Path

from ..corpus import build as corpus
from ..harnesses import BuildOptions, make
from ..progress import ProgressBar
from ..store import Store

ROOT = Path(__file__).resolve().parents[4]
EXIT_OK, EXIT_CHECK, EXIT_INPUT, EXIT_TOOLCHAIN, EXIT_INTERRUPTED, EXIT_TERMINATED = 0, 1, 2, 3, 130, 143


class UserError(Exception):
    """One clear line for the user, and an exit code."""

    def __init__(self, message: str, code: int = EXIT_INPUT):
        super().__init__(message)
        self.code = code


class Terminated(KeyboardInterrupt):
    """SIGTERM (sent by `timeout`, CI cancellation, service managers): handled like Ctrl-C, so
    the run is marked interrupted, its harness process killed and temporary files removed."""


def _on_sigterm(signum, frame):
    raise Terminated()


def _interrupted_code(e: KeyboardInterrupt) -> int:
    return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED


def say(msg: str) -> None:
    """Human output goes to stderr; stdout carries results (tables, JSON)."""
    print(msg, file=sys.stderr, flush=True)


# --- harnesses, corpus, folders, store -----------------------------------------------------------


def _usable_harnesses(args, options: BuildOptions, *, for_run: bool = False) -> list:
    hs = make(args.lang or None, ROOT, options)
    usable = []
    for h in hs:
        if for_run and not args.lang and h.not_in_default_run:
            say(f"{h.name} is not in the default run ({h.not_in_default_run}); run it with --lang {h.name}")
            continue
        missing = h.missing_toolchain()
        if missing and args.lang:
            raise UserError(missing[0], EXIT_TOOLCHAIN)
        if missing:
            say(f"skipping {h.name}: {missing[0]}")
            continue
        usable.append(h)
    if not usable:
        raise UserError("no harness can run here; `serbench doctor` says what is missing", EXIT_TOOLCHAIN)
    return usable


def _jdk_option(s) -> None:
    """`--jdk` of run, build and test: the JDK the Java harness is built and run with (BuildOptions.jdk)."""
    s.add_argument(
        "--jdk",
        metavar="PATH_OR_VERSION",
        help="JDK of the Java harness: a JDK folder or a version installed here, e.g. 17 (default: JAVA_HOME, "
        "else the newest LTS JDK installed here, e.g. under /usr/lib/jvm)",
    )


def _resume_option(s, what: str) -> None:
    """`--resume [RUN_ID]` of run and robustness: "" for the latest unfinished run, None when not given."""
    s.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="RUN_ID",
        help=f"finish an interrupted {what} (default: the latest unfinished one)",
    )


def _build(hs: list) -> None:
    for h in hs:
        h.build_and_hold(say)


def _corpus(dest: Path, seed: int, data: list[str]) -> tuple[dict, list[corpus.UserFile]]:
    """The corpus with the user's --data files: only what is missing is written, with progress."""
    user = corpus.open_user_files(data)
    bar = ProgressBar()

    def progress(done: int, total: int, label: str) -> None:
        nonlocal bar
        if done == 0:
            bar = ProgressBar()  # each step (standard corpus, each user file) has its own bar and ETA
        bar(done, total, label)

    return corpus.ensure_corpus(dest, seed, user, progress=progress, note=say), user


def _writable_folder(folder: str, flag: str) -> Path:
    """`folder`, made if missing, once a file could be created in it: a folder that cannot take the
    corpus or the reports is the user's input, answered in one line before any work."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file, not a folder; pass {flag} with a writable folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as e:
        raise UserError(f"cannot write in {path}: {e.strerror or e}; pass {flag} with a writable folder") from None
    return path


def _command_line(args) -> dict:
    """The exact command line, as typed (stored with the run and shown at the top of its report)."""
    argv = list(getattr(args, "invocation", None) or sys.argv[1:])
    return {"argv": argv, "command_line": shlex.join(["serbench", *argv]), "cwd": os.getcwd()}


def _reading_store(args, missing_ok: bool = False) -> Store | None:
    """The store a command that only reads opens (report, history, compare). Such a command never
    creates one, or a mistyped --db would leave an empty store behind and be answered "no runs yet"
    as if it were the store meant: with no file at --db it is a UserError, or None if `missing_ok`."""
    path = Path(args.db)
    if path.exists():
        return Store.for_reading(path)
    if missing_ok:
        return None
    raise UserError(_no_store(args))


def _no_store(args) -> str:
    return f"no results store at {args.db}; `serbench run` creates it (or pass --db with an existing store)"


def _pick_run(db: Store, run_id: str | None):
    row = db.run(run_id) if run_id else db.latest_run()
    if row is None:
        raise UserError(
            f"no run {run_id!r} in {db.path}; `serbench history` lists its runs"
            if run_id
            else f"the store {db.path} has no runs yet; try `serbench run`"
        )
    return row


# --- arguments -------------------------------------------------------------------------------------


def _int_at_least(low: int, high: int | None = None):
    """An argparse type: an integer in [low, high], or a usage error (exit 2) that says so."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < low or (high is not None and v > high):
            bound = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{v} is out of range: it must be {bound}")
        return v

    return parse


SEED = _int_at_least(0, 2**64 - 1)


def _non_negative(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v >= 0 or math.isinf(v):
        raise argparse.ArgumentTypeError(f"{text} is out of range: it must be a finite number, 0 or more")
    return v


def _percent(text: str) -> float:
    """A percentage on the command line, a fraction inside."""
    return _non_negative(text) / 100
