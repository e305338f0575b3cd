"""The progress bar with ETA, on stderr (human output; results never go there)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def fmt_duration(s: float) -> str:
    s = int(round(s))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


class ProgressBar:
    """A redrawn bar on a terminal; on a pipe or in CI, a plain line every 10%."""

    def __init__(self, stream: TextIO = sys.stderr, clock=time.monotonic, width: int = 28):
        self.stream, self.clock, self.width = stream, clock, width
        self.start = clock()
        self.tty = stream.isatty()
        self.last_decile = -1

    def line(self, done: int, total: int, label: str) -> str:
        frac = done / total if total else 1.0
        elapsed = self.clock() - self.start
        eta = fmt_duration(elapsed / done * (total - done)) if done else "?"
        bar = "#" * int(frac * self.width) + "." * (self.width - int(frac * self.width))
        return f"[{bar}] {done}/{total} {frac:4.0%} ETA {eta}  {label}"

    def __call__(self, done: int, total: int, label: str) -> None:
        text = self.line(done, total, label)
        if self.tty:
            self.stream.write("\r\x1b[2K" + text[:160] + ("\n" if done >= total else ""))
            self.stream.flush()
        else:
            decile = int(10 * done / total) if total else 10
            if decile != self.last_decile:
                self.last_decile = decile
                self.stream.write(text + "\n")
                self.stream.flush()
