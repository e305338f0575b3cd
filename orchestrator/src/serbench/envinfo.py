"""Facts about the machine stored with every run (DESIGN §7), and what `doctor` checks."""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def cpu_model() -> str:
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def governor() -> str:
    return _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") or "unavailable (no cpufreq in this VM)"


def git_commit(root: Path) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (out.stdout.strip() + ("-dirty" if dirty else "")) or None


def collect(root: Path, harnesses: list) -> dict:
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "governor": governor(),
        "kernel": platform.release(),
        "os": platform.platform(),
        "orchestrator_python": platform.python_version(),
        "git_commit": git_commit(root),
        "harnesses": {h.name: h.env_info() for h in harnesses},
    }
