"""Exit quietly when the reader of stdout goes away (`serbench report RUN | head`, a tool piped to `head`).

Python raises BrokenPipeError at the next write or at the flush on exit and prints a traceback or an
"Exception ignored" line. The recipe is the one in Python's documentation ("Note on SIGPIPE",
https://docs.python.org/3/library/signal.html#note-on-sigpipe): point stdout at /dev/null so the
interpreter's final flush cannot fail again, and exit with the status a shell gives a process killed by
SIGPIPE (128 + 13), as `cat` and `grep` do. Setting SIGPIPE back to SIG_DFL would do the same but also
kill the process in the middle of a run that writes to a closed pipe, losing what it had not stored.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

EXIT_BROKEN_PIPE = 128 + 13


def exit_code(main: Callable[[], int]) -> int:
    """main()'s exit status, or EXIT_BROKEN_PIPE, without a traceback, when stdout's reader has gone."""
    try:
        code = main()
        sys.stdout.flush()  # inside the try: a buffered tail fails here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
