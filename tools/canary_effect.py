"""What the canary bought two runs of one build: their agreement as stored (times brought to the clean speed
by the canary, protocol 1.9), and again from the same samples with the canary left out, as `run
--no-canary` would have finalized them (docs/methodology.md, "The canary"). The store is not changed:
the runs are finalized again in a temporary copy.

    .venv/bin/python tools/canary_effect.py RUN_A RUN_B [--db results/serbench.db]

Prints, for each way, compare's agreement line, the agreement of each harness's cells, and each run's median
robust CV over its correct cells.
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

from serbench import compare, pipes, runner  # noqa: E402
from serbench.store import Store  # noqa: E402


def summary(store: Store, a: str, b: str) -> list[str]:
    cmp = compare.compare(store, a, b)
    out = compare.agreement(cmp.rows)
    by: dict[str, list[int]] = {}
    for r in compare.countable(cmp.rows):
        n = by.setdefault(r.key[0], [0, 0])
        n[0] += abs(r.ratio - 1) <= compare.AGREE
        n[1] += 1
    out.append("by harness: " + ", ".join(f"{h} {k} of {n} ({k / n:.1%})" for h, (k, n) in sorted(by.items())))
    for run in (a, b):
        rcv = [c["rcv"] for c in store.cells(run) if c["status"] == "ok" and c["rcv"] is not None]
        out.append(f"{run}: median robust CV {statistics.median(rcv):.1%} over {len(rcv)} cells" if rcv else run)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_a")
    p.add_argument("run_b")
    p.add_argument("--db", default=str(ROOT / "results" / "serbench.db"))
    a = p.parse_args()
    if not Path(a.db).is_file():
        print(f"canary_effect: no results store at {a.db}", file=sys.stderr)
        return 2
    store = Store(Path(a.db))
    for run in (a.run_a, a.run_b):
        if store.run(run) is None:
            print(f"canary_effect: no run {run} in {a.db}", file=sys.stderr)
            return 2
    print("With the canary (as stored):")
    print("\n".join("  " + line for line in summary(store, a.run_a, a.run_b)))
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "s.db"
        with sqlite3.connect(copy) as dst:
            store.db.backup(dst)  # the WAL's pages too, which a file copy could miss
        other = Store(copy)
        for run in (a.run_a, a.run_b):
            row = other.run(run)
            args = json.loads(row["args_json"])
            other.set_run_env(run, "canary_off", True)
            n_boot = runner.MODES[row["mode"]].n_boot if row["mode"] in runner.MODES else 500
            # the steady-state rule as the run was finalized with it (compare reads it the same way)
            runner.finalize(other, run, n_boot, args.get("seed", 1), compare._warmup_k(args))
        print("Without it (the same samples, finalized as under --no-canary):")
        print("\n".join("  " + line for line in summary(other, a.run_a, a.run_b)))
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
