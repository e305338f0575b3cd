"""Facts about the machine stored with every run (DESIGN §7), and what `doctor` checks."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path

# The machine is "busy" when other processes took more than this share of its CPU time while the
# cells ran (docs/methodology.md, "A busy machine").
BUSY_SHARE = 0.10


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


def git_status(root: Path) -> list[str] | None:
    """`git status --porcelain` (untracked files too: a new adapter changes what runs), or None
    outside a git checkout."""
    try:
        res = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return res.stdout.splitlines() if res.returncode == 0 else None


def load_snapshot(proc_stat: str = "/proc/stat", times=os.times, clock=time.monotonic, loadavg=os.getloadavg) -> dict:
    """The machine's CPU time so far (busy and total, all cores, from /proc/stat), our own process
    tree's (this process and the harness processes it waited for), and the load average."""
    snap: dict = {"clock": clock()}
    try:
        snap["loadavg"] = list(loadavg())
    except OSError:
        snap["loadavg"] = None
    t = times()
    snap["own_s"] = t.user + t.system + t.children_user + t.children_system
    line = next((x for x in (_read(proc_stat) or "").splitlines() if x.startswith("cpu ")), None)
    if line:
        # user nice system idle iowait irq softirq steal [guest guest_nice: already in user and nice]
        v = [int(x) for x in line.split()[1:9]]
        v += [0] * (8 - len(v))
        hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
        snap["busy_s"], snap["total_s"] = busy / hz, (busy + v[3] + v[4]) / hz
    return snap


def load_between(before: dict, after: dict) -> dict:
    """What the machine did between two snapshots: CPU time other processes took (busy time minus
    our own), as a share of the machine's CPU time, and the load average at both ends."""
    out = {
        "wall_s": round(after["clock"] - before["clock"], 3),
        "loadavg_before": before.get("loadavg"),
        "loadavg_after": after.get("loadavg"),
        "cpu_own_s": round(after["own_s"] - before["own_s"], 3),
    }
    if "busy_s" in before and "busy_s" in after:
        busy = after["busy_s"] - before["busy_s"]
        capacity = after["total_s"] - before["total_s"]
        other = max(0.0, busy - out["cpu_own_s"])
        out |= {
            "cpu_busy_s": round(busy, 3),
            "cpu_capacity_s": round(capacity, 3),
            "cpu_other_s": round(other, 3),
            "other_share": round(other / capacity, 4) if capacity > 0 else None,
        }
    return out


def load_summary(segments: list[dict]) -> dict | None:
    """The load over every part of a run (a resumed run has one segment per invocation)."""
    if not segments:
        return None
    with_cpu = [s for s in segments if s.get("cpu_capacity_s")]
    other = sum(s["cpu_other_s"] for s in with_cpu)
    capacity = sum(s["cpu_capacity_s"] for s in with_cpu)
    share = other / capacity if capacity > 0 else None
    return {
        "loadavg_before": segments[0].get("loadavg_before"),
        "loadavg_after": segments[-1].get("loadavg_after"),
        "cpu_other_s": other if with_cpu else None,
        "other_share": share,
        "wall_s": sum(s.get("wall_s", 0) for s in segments),
        "busy": share is not None and share > BUSY_SHARE,
    }


def collect(root: Path, harnesses: list) -> dict:
    status = git_status(root)
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "governor": governor(),
        "kernel": platform.release(),
        "os": platform.platform(),
        "orchestrator_python": platform.python_version(),
        "git_commit": git_commit(root),
        "git_dirty": bool(status) if status is not None else None,
        "git_status": (status or [])[:20],
        "git_status_count": len(status or []),
        "harnesses": {h.name: h.env_info() for h in harnesses},
        # test hooks (e.g. the native harness's SERBENCH_TEST_SLOW_BENCH): a run made with one is a test
        "test_hooks": {k: v for k, v in sorted(os.environ.items()) if k.startswith("SERBENCH_TEST_")},
    }
