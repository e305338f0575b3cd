"""Do instruction counts rank rows as time does? For a time run and an instruction-count run of the
same build, every pair of rows of one (harness, dataset, test, format-agnostic) group whose time CIs
do not overlap is checked: the faster row must also execute fewer net instructions. Prints the share
that agree and lists the pairs that do not (issue 18, part 3).

    .venv/bin/python research/rank_agreement.py TIME_RUN INSTR_RUN [--db results/serbench.db]
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))

from serbench import pipes  # noqa: E402
from serbench.store import Store  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("time_run")
    p.add_argument("instr_run")
    p.add_argument("--db", default=str(ROOT / "results" / "serbench.db"))
    p.add_argument(
        "--varying",
        action="store_true",
        help="also rank cells whose repeat counted differently (Go's, whose collector runs on timers)",
    )
    a = p.parse_args()
    store = Store(Path(a.db))
    key = ("harness", "bench", "test", "dataset", "format")
    times = {
        tuple(c[k] for k in key): c for c in store.cells(a.time_run) if c["status"] == "ok" and not c["is_baseline"]
    }
    instr = {
        tuple(c[k] for k in key): c
        for c in store.cells(a.instr_run)
        if c["status"] == "ok"
        and not c["is_baseline"]
        and c["instr_net"] is not None
        and (a.varying or c["instr_deterministic"] != 0)
    }
    common = sorted(set(times) & set(instr))
    groups: dict[tuple, list[tuple]] = {}
    for k in common:
        groups.setdefault((k[0], k[2], k[3]), []).append(k)
    agree, disagree, overlapping = 0, [], 0
    for ks in groups.values():
        for x, y in combinations(ks, 2):
            tx, ty = times[x], times[y]
            if tx["net_ci_low_ns"] is None or ty["net_ci_low_ns"] is None:
                continue
            if tx["net_ci_high_ns"] >= ty["net_ci_low_ns"] and ty["net_ci_high_ns"] >= tx["net_ci_low_ns"]:
                overlapping += 1
                continue
            faster, slower = (x, y) if tx["net_ns"] < ty["net_ns"] else (y, x)
            if instr[faster]["instr_net"] < instr[slower]["instr_net"]:
                agree += 1
            else:
                disagree.append((faster, slower))
    total = agree + len(disagree)
    print(f"{len(common)} cells in both runs; {total} pairs with non-overlapping time CIs, {overlapping} overlapping")
    if total:
        print(f"instruction counts agree with the time order on {agree} of {total} pairs ({agree / total:.1%})")
    for f, s in disagree:
        tf, ts, i_f, i_s = times[f]["net_ns"], times[s]["net_ns"], instr[f]["instr_net"], instr[s]["instr_net"]
        print(
            f"  {f[0]} {f[2]} {f[3]}: {f[1]} ({f[4]}) {tf:.0f} ns < {s[1]} ({s[4]}) {ts:.0f} ns, "
            f"but {i_f:.0f} >= {i_s:.0f} instructions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(pipes.exit_code(main))
