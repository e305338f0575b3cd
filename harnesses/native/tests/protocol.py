"""What the hostile-input tests (hostile_deep.py, truncation.py, ref_strict.py) share: the reference
hash, the limits every child process runs under, and one `verify` call of the protocol."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

BASELINES = {"hash-object", "hash-events", "hash-data", "hash-walk", "empty"}


def load_objhash(repo: Path):
    sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
    import objhash  # stdlib only: the reference implementation of spec/hash.md

    return objhash


def limits() -> None:
    # No core files; at most 4 GiB of address space, so a decoder that believes a huge count cannot
    # take the machine's memory (the old nlohmann-based decoder tried to build 2^40 nulls).
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def verify(drv: str, bench: str, test: str, fmt: str, path: Path, timeout_s: float) -> tuple[int | str, str]:
    """(exit code, or a word on the timeout; the tail of what it printed)."""
    try:
        r = subprocess.run(
            [drv, "verify", "--bench", bench, "--test", test, "--format", fmt, "--file", str(path)],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            preexec_fn=limits,
        )
    except subprocess.TimeoutExpired:
        return f"no answer within {timeout_s} s", ""
    return r.returncode, (r.stdout.strip() or r.stderr.strip())[-300:]
