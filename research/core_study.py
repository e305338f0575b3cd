"""Are the machine's CPUs slowed together or apart, and for how long? Runs a small C loop on every
usable CPU at once and prints, per CPU, how its speed moves in 20 ms windows, and how the CPUs' slowdowns
correlate (docs/methodology.md, "A seventh pair, and the two cores").

The loop runs four independent multiply-add chains over 256 bytes: code with parallel work in it, which
another guest on the sibling thread of the host's physical core slows (a serial dependency chain it
leaves alone: "The episodes double a tight loop"). Each window's slowdown is the CPU's clean speed (the
98th percentile of its windows) over the window's own. Printed:

1. per CPU: the median slowdown and the share of windows more than 15% and 40% slower than clean;
2. per CPU: how a window's log-slowdown correlates with the one 20 ms, 200 ms and 1 s later (near 1:
   the state lasts that long, so a probe just before a process predicts it);
3. per pair of CPUs: how their log-slowdowns correlate over windows of 20 ms, 100 ms and 500 ms (near
   0: each CPU is slowed by a neighbour of its own, and the other CPU may be clean meanwhile).

    .venv/bin/python research/core_study.py [--seconds 60] [--cpus 0,1]

It is a benchmark: it keeps every CPU busy for --seconds, so run nothing else meanwhile. It needs a C
compiler (`cc`), which the native harness needs too.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics as st
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "orchestrator" / "src"))
from serbench import pipes  # noqa: E402

WINDOW_S = 0.02
CANARY_C = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    int cpu = atoi(argv[1]); double secs = atof(argv[2]), window = atof(argv[3]);
    cpu_set_t set; CPU_ZERO(&set); CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) { perror("sched_setaffinity"); return 1; }
    static uint8_t buf[256];
    for (int i = 0; i < 256; i++) buf[i] = (uint8_t)(i * 37 + 1);
    uint64_t a = 1, b = 2, c = 3, d = 4;
    double t0 = now(), end = t0 + secs;
    while (now() < end) {
        double w0 = now(); unsigned long n = 0;
        while (now() - w0 < window) {
            for (int r = 0; r < 50; r++) {
                for (int i = 0; i < 256; i += 4) {
                    a = a * 31 + buf[i]; b = b * 37 + buf[i + 1]; c = c * 41 + buf[i + 2]; d = d * 43 + buf[i + 3];
                }
                buf[r & 255] ^= (uint8_t)a;
            }
            n++;
        }
        printf("%.4f %lu\n", w0 - t0, n);
    }
    printf("# %llu\n", (unsigned long long)(a ^ b ^ c ^ d));  /* printed, so no chain is optimised away */
    return 0;
}
"""


def slowdowns(loops: list[int]) -> list[float]:
    """Each window's slowdown: the clean speed (98th percentile of the windows) over its own."""
    ranked = sorted(loops)
    clean = ranked[min(len(ranked) - 1, len(ranked) * 98 // 100)]
    return [clean / max(n, 1) for n in loops]


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's r (nan when either side is constant)."""
    mx, my = st.fmean(xs), st.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def autocorrelation(at: dict[int, float], lag: int) -> float:
    """Correlation of the log-slowdown of each window (by index from its start time) with the one
    `lag` windows later."""
    pairs = [(math.log(x), math.log(at[k + lag])) for k, x in at.items() if k + lag in at]
    return correlation([x for x, _ in pairs], [y for _, y in pairs]) if len(pairs) > 2 else math.nan


def cross_correlation(a: dict[int, float], b: dict[int, float], width: int) -> float:
    """Correlation of two CPUs' log-slowdowns by the window each started in (a window index from its
    start time), averaged over blocks of `width` windows; windows only one CPU has are left out."""
    common = sorted(a.keys() & b.keys())
    blocks: dict[int, list[tuple[float, float]]] = {}
    for k in common:
        blocks.setdefault(k // width, []).append((math.log(a[k]), math.log(b[k])))
    la = [st.fmean(x for x, _ in v) for v in blocks.values()]
    lb = [st.fmean(y for _, y in v) for v in blocks.values()]
    return correlation(la, lb) if len(la) > 2 else math.nan


def report(series: dict[int, list[tuple[float, int]]]) -> list[str]:
    """The three parts of the study, as lines, from each CPU's (window start in s, loops) pairs."""
    slow = {cpu: slowdowns([n for _, n in windows]) for cpu, windows in series.items()}
    at = {cpu: {round(t / WINDOW_S): x for (t, _), x in zip(series[cpu], s, strict=True)} for cpu, s in slow.items()}
    out = ["1. slowdown per 20 ms window against the CPU's clean speed (its 98th percentile window)"]
    for cpu, s in slow.items():
        span = series[cpu][-1][0] + WINDOW_S
        lost = (
            f"; {span / WINDOW_S:.0f} fit: the loop did not run for some of the time"
            if len(s) < 0.95 * span / WINDOW_S
            else ""
        )
        out.append(
            f"   cpu{cpu}: median {st.median(s):.3f}, windows >15% slower {sum(x > 1.15 for x in s) / len(s):.1%}, "
            f">40% slower {sum(x > 1.4 for x in s) / len(s):.1%} ({len(s)} windows in {span:.1f} s{lost})"
        )
    out.append("2. how long a state lasts: correlation of a window's log-slowdown with a later one's")
    for cpu in slow:
        lags = ", ".join(
            f"{round(lag * WINDOW_S * 1000)} ms {autocorrelation(at[cpu], lag):+.2f}" for lag in (1, 10, 50)
        )
        out.append(f"   cpu{cpu}: {lags}")
    out.append("3. are the CPUs slowed together: correlation of their log-slowdowns")
    cpus = sorted(slow)
    for i, a in enumerate(cpus):
        for b in cpus[i + 1 :]:
            widths = ", ".join(
                f"{round(w * WINDOW_S * 1000)} ms {cross_correlation(at[a], at[b], w):+.2f}" for w in (1, 5, 25)
            )
            out.append(f"   cpu{a} and cpu{b}: {widths}")
    return out


def measure(cpus: list[int], seconds: float) -> dict[int, list[tuple[float, int]]]:
    """Each CPU's windows, (start in s, loops), the loops running on all of them at once."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("core_study: no C compiler (cc) on PATH; install build-essential")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "canary.c", Path(tmp) / "canary"
        src.write_text(CANARY_C)
        subprocess.run([cc, "-O2", "-o", str(exe), str(src)], check=True)
        # each loop writes to a file of its own: a pipe that is not read meanwhile fills (64 KiB, about
        # 5,000 windows) and then blocks the loop writing to it
        outs = {cpu: (Path(tmp) / f"cpu{cpu}.txt").open("w") for cpu in cpus}
        procs = {
            cpu: subprocess.Popen([str(exe), str(cpu), str(seconds), str(WINDOW_S)], stdout=outs[cpu]) for cpu in cpus
        }
        failed = [cpu for cpu, p in procs.items() if p.wait() != 0]
        for f in outs.values():
            f.close()
        if failed:
            raise SystemExit(f"core_study: the loop failed on cpu {failed}")
        out = {cpu: (Path(tmp) / f"cpu{cpu}.txt").read_text() for cpu in cpus}
    return {
        cpu: [(float(t), int(n)) for t, n in (line.split() for line in text.splitlines() if not line.startswith("#"))]
        for cpu, text in out.items()
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60.0, help="how long the loops run (default 60)")
    p.add_argument("--cpus", help="comma-separated CPU numbers (default: every CPU this process may use)")
    a = p.parse_args()
    cpus = [int(c) for c in a.cpus.split(",")] if a.cpus else sorted(os.sched_getaffinity(0))
    if len(cpus) < 1 or a.seconds <= 0:
        p.error("give at least one CPU and a positive --seconds")
    print("\n".join(report(measure(cpus, a.seconds))))
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
