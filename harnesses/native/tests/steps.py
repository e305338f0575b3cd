#!/usr/bin/env python3
"""ctest: every row of `list` declares the steps of each of its tests (spec/fairness.md rule 12).

usage: steps.py <serbench-native> <repo root>

What can be checked mechanically, against the contracts the orchestrator compares with
(orchestrator/src/serbench/contracts.py):
  - every benchmark has `steps` for exactly its tests, each a list of known step words;
  - a row's steps are its test's contract unless they carry a deviation word (prebuilt, convert,
    decode-unchecked, view-unchecked, decode-lazy), and a deviating row says what it is in its notes;
  - jansson-dump-prebuilt is the only write row with `prebuilt` (rule 10);
  - the baselines declare what they subtract (the contract less the library's step), except `empty`
    (the loop's overhead alone) and hash-walk (a reference, never subtracted), which declare their own.
Whether a loop really does what its words say is the audit's part (docs/libraries.md), not this test's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DEVIATIONS = {"prebuilt", "convert", "decode-unchecked", "view-unchecked", "decode-lazy"}
# What each baseline's loop does: its tests' contract less the library's own step.
BASELINE_STEPS = {
    "write": ["hash-output"],
    "tree": ["copy-input", "visit-all"],
    "incremental": ["copy-input", "hash-events"],
    "typed-encode": ["hash-output"],
    "typed-decode": ["copy-input", "visit-all"],
    "typed-access": ["copy-input", "visit-all"],
}
OWN = {("empty", "tree"): ["copy-input"]}  # baselines whose loop is not a baseline's of its test
# Rows known to deviate, with the words that say how: a new deviation must be added here on purpose.
DEVIATING = {
    ("jansson-dump-prebuilt", "write"): ["prebuilt", "encode", "hash-output"],
    ("flatbuffers-unchecked", "typed-access"): ["copy-input", "view-unchecked", "visit-all"],
    ("protobuf-convert", "typed-encode"): ["convert", "encode", "hash-output"],
    ("protobuf-convert", "typed-decode"): ["copy-input", "decode", "convert", "visit-all"],
}


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
    import contracts  # stdlib only: the work contracts the orchestrator compares rows with

    out = subprocess.run([drv, "list"], capture_output=True, text=True, timeout=600, check=True).stdout
    benches = json.loads(out)["benchmarks"]
    failures = []
    prebuilt_writes = []
    for b in benches:
        bid, steps = b["id"], b.get("steps")
        if not isinstance(steps, dict) or sorted(steps) != sorted(b["tests"]):
            failures.append(f"{bid}: steps {steps!r} do not name exactly its tests {b['tests']}")
            continue
        for test, words in steps.items():
            where = f"{bid} {test}: {words}"
            unknown = [w for w in words if w not in contracts.STEPS]
            if unknown:
                failures.append(f"{where}: unknown step words {unknown}")
            if b["baseline"]:
                want = OWN.get((bid, test), BASELINE_STEPS[test])
                if words != want:
                    failures.append(f"{where}: a baseline of {test} declares {want}")
                continue
            contract = list(contracts.CONTRACTS[test])
            deviates = [w for w in words if w in DEVIATIONS]
            if words != contract and not deviates:
                failures.append(f"{where}: not the contract {contract} and no deviation word says why")
            if deviates and words != DEVIATING.get((bid, test)):
                failures.append(f"{where}: a deviation this test does not know of (DEVIATING)")
            if not deviates and (bid, test) in DEVIATING:
                failures.append(f"{where}: declared as the contract, but the loop deviates {DEVIATING[(bid, test)]}")
            if deviates and not b.get("notes"):
                failures.append(f"{where}: a deviating row without notes")
            if test == "write" and "prebuilt" in words:
                prebuilt_writes.append(bid)
    if prebuilt_writes != ["jansson-dump-prebuilt"]:
        failures.append(f"write rows with prebuilt: {prebuilt_writes}, want only jansson-dump-prebuilt")
    for f in failures:
        print("FAIL:", f)
    rows = sum(len(b["tests"]) for b in benches)
    print(f"{len(benches)} benchmarks, {rows} (benchmark, test) steps: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
