"""What the canary bought two runs of one build: their agreement as stored (times brought to the clean speed
by the canary, protocol 1.9), and again from the same samples with the canary left out, as `run
--no-canary` would have finalized them (docs/methodology.md, "The canary"). With `--share`, also as
the runs would have been finalized with that share of the fastest processes as a cell's estimator
(`stats.FAST_SHARE`; "The fast quarter"). With `--window K` (repeatable), also with each sample divided by the
median of the K canaries around it (1: the canary timed just before it; the runs' is canary.WINDOW), or
with `--window process` each process by its canary's median, as runs did before ("A running median of
the canary"). With `--slope X` (repeatable), also with every harness's times given that share of the
canary's slowdown instead of the one fitted on the run (1: the ratio estimator, as runs did before "How
much of the canary's slowdown a library feels"). With `--deadzone X` (repeatable), also with a canary
within X of the clean canary time on the log scale left as measured and one further out corrected only
beyond X (canary.DEADZONE). Those three correct every process, as runs did before a cell's time came
from its processes at the run's clean canary speed (canary.ZONE). With `--zone X` (repeatable), also with
that zone above the run's clean canary time, or `--zone none` with every process corrected
("Choosing clean processes instead of correcting them"). "As stored" is what `compare` reads, which computes a run
finalized with an earlier estimator again with today's. The store is not changed: the runs are finalized
again in a temporary copy.

    .venv/bin/python research/canary_effect.py RUN_A RUN_B [--db results/serbench.db]
        [--share 1/3 ...] [--window 1 ...] [--slope 1 ...] [--deadzone 0.02 ...] [--zone 0.05|none ...]

Prints, for each way, compare's agreement line, the agreement of each harness's cells, and each run's median
robust CV over its correct cells with the canary slopes it was finalized with.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))

from serbench import canary, compare, compare_text, pipes, runner, stats  # noqa: E402
from serbench.store import Store  # noqa: E402


def summary(store: Store, a: str, b: str) -> list[str]:
    cmp = compare.compare(store, a, b)
    out = compare_text.agreement(cmp.rows)
    by: dict[str, list[int]] = {}
    for r in compare.countable(cmp.rows):
        n = by.setdefault(r.key[0], [0, 0])
        n[0] += abs(r.ratio - 1) <= compare.AGREE
        n[1] += 1
    out.append("by harness: " + ", ".join(f"{h} {k} of {n} ({k / n:.1%})" for h, (k, n) in sorted(by.items())))
    for run in (a, b):
        rcv = [c["rcv"] for c in store.cells(run) if c["status"] == "ok" and c["rcv"] is not None]
        line = f"{run}: median robust CV {statistics.median(rcv):.1%} over {len(rcv)} cells" if rcv else run
        env = json.loads(store.run(run)["env_json"])
        # each harness's Speed as compare reads it back (a run finalized before the slope was fitted: 1)
        speeds = sorted(canary.recorded(env).items())
        slopes = [f"{h} {s.slope:.2f}" + (f" (deadzone {s.deadzone:g})" if s.deadzone else "") for h, s in speeds]
        out.append(line + (f"; canary slopes {', '.join(slopes)}" if slopes and not env.get("canary_off") else ""))
    return out


def show(title: str, store: Store, runs: tuple[str, str]) -> None:
    print(title)
    print("\n".join("  " + line for line in summary(store, *runs)))


def share(text: str) -> float:
    """A share of a cell's processes: a fraction (1/3) or a number (0.25), above 0 and at most 1."""
    try:
        num, _, den = text.partition("/")
        x = float(num) / float(den) if den else float(num)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"not a share: {text!r} (say 1/3 or 0.25)") from None
    if not 0 < x <= 1:
        raise argparse.ArgumentTypeError(f"a share is above 0 and at most 1, not {text!r}")
    return x


def window(text: str) -> int | None:
    """A canary window: an odd number of samples, at least 1, or `process` (None: the process's median)."""
    if text == "process":
        return None
    try:
        k = int(text)
    except ValueError:
        k = 0
    if k < 1 or k % 2 == 0:
        raise argparse.ArgumentTypeError(f"a window is an odd number of samples, 1 or more, or 'process'; not {text!r}")
    return k


def number_0_to_1(what: str):
    """A parser of a number from 0 to 1 that names `what` it reads when it refuses one."""

    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            x = -1.0
        if not 0 <= x <= 1:
            raise argparse.ArgumentTypeError(f"a {what} is a number from 0 to 1, not {text!r}")
        return x

    return parse


def zone(text: str) -> float | None:
    """A zone above the run's clean canary time (canary.ZONE), or `none` (None: every process corrected)."""
    return None if text == "none" else number_0_to_1("zone")(text)


# a canary slope: 0 (times as measured) to 1 (the ratio estimator)
slope = number_0_to_1("slope")
# a canary deadzone: a log distance from the clean canary time
deadzone = number_0_to_1("deadzone")


def finalized_again(store: Store, runs: tuple[str, str], canary_off: bool) -> None:
    """Finalize both runs again in `store` (a copy) as their own finalize did, the canary on or off."""
    for run in runs:
        row = store.run(run)
        args = json.loads(row["args_json"])
        store.set_run_env(run, "canary_off", canary_off)
        n_boot = runner.MODES[row["mode"]].n_boot if row["mode"] in runner.MODES else 500
        # the steady-state rule as the run was finalized with it (compare reads it the same way)
        runner.finalize(store, run, n_boot, args.get("seed", 1), compare._warmup_k(args))


def window_title(k: int | None) -> str:
    if k is None:
        return "With each process divided by its canary's median:"
    if k == 1:
        return "With each sample divided by the canary timed just before it:"
    return f"With each sample divided by the median of the {k} canaries around it:"


def slope_title(x: float) -> str:
    what = " (the ratio estimator)" if x == 1 else " (times as measured)" if x == 0 else ""
    return f"With a slope of {x:g} for every harness{what}:"


def deadzone_title(x: float) -> str:
    return f"With a deadzone of {x:g} (log scale) around the clean canary time:"


def zone_title(x: float | None) -> str:
    if x is None:
        return "With every process corrected:"
    return f"With processes chosen within {x:g} of the run's clean canary time:"


def each_way(other: Store, runs: tuple[str, str], setting: str, values: list, title, after) -> None:
    """Finalize both runs in `other` (the copy) with its `setting` at each of `values` and show what
    compare says, then leave the setting at `after` (what the runs are finalized with)."""
    for x in values:
        setattr(other, setting, x)
        finalized_again(other, runs, canary_off=False)
        show(title(x), other, runs)
    setattr(other, setting, after)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_a")
    p.add_argument("run_b")
    p.add_argument("--db", default=str(ROOT / "results" / "serbench.db"))
    p.add_argument("--share", type=share, action="append", default=[], help="also finalize with this share (1/3)")
    p.add_argument(
        "--window",
        type=window,
        action="append",
        default=[],
        help="also finalize with each sample divided by the median of this many canaries around it (1: its own;"
        " 'process': each process by its canary's median)",
    )
    p.add_argument(
        "--slope",
        type=slope,
        action="append",
        default=[],
        help="also finalize with every harness's times given this share of the canary's slowdown (1: the ratio)",
    )
    p.add_argument(
        "--deadzone",
        type=deadzone,
        action="append",
        default=[],
        help="also finalize with a canary this close to the clean time (log scale, 0.02 = about 2%%) left as"
        " measured and one further out corrected beyond it",
    )
    p.add_argument(
        "--zone",
        type=zone,
        action="append",
        default=[],
        help="also finalize with a cell's processes chosen within this zone above the run's clean canary time"
        " (0.05 = 5%%), or 'none' with every process corrected",
    )
    a = p.parse_args()
    if not Path(a.db).is_file():
        print(f"canary_effect: no results store at {a.db}", file=sys.stderr)
        return 2
    store = Store(Path(a.db))
    for run in (a.run_a, a.run_b):
        if store.run(run) is None:
            print(f"canary_effect: no run {run} in {a.db}", file=sys.stderr)
            return 2
    runs = (a.run_a, a.run_b)
    show("With the canary (as stored):", store, runs)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "s.db"
        with sqlite3.connect(copy) as dst:
            store.db.backup(dst)  # the WAL's pages too, which a file copy could miss
        other = Store(copy)
        current = stats.FAST_SHARE
        try:
            for x in a.share:
                stats.FAST_SHARE = x  # read by stats.fast_weights at each call
                finalized_again(other, runs, canary_off=False)
                show(f"With the canary, a cell's time the mean of its fastest {x:.3g} of processes:", other, runs)
        finally:
            stats.FAST_SHARE = current
        other.canary_zone = None  # the ways of correcting below correct every process
        each_way(other, runs, "canary_window", a.window, window_title, canary.WINDOW)  # as runs are finalized
        each_way(other, runs, "canary_slope", a.slope, slope_title, None)
        each_way(other, runs, "canary_deadzone", a.deadzone, deadzone_title, None)
        each_way(other, runs, "canary_zone", a.zone, zone_title, canary.ZONE)
        finalized_again(other, runs, canary_off=True)
        show("Without it (the same samples, finalized as under --no-canary):", other, runs)
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
