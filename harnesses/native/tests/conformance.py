#!/usr/bin/env python3
"""ctest: the reference decoder answers the conformance set (vectors/conformance/manifest.json).

usage: conformance.py <serbench-native> <repo root>

`selftest --vectors <repo>/vectors` runs every case through the reference decoder and the object hash
(common/main.cpp, conformance: the logic of `verify --bench hash-object --test tree`). The selftest
test counts its rows with every other check; this one makes sure the set is not silently left out:
one `conformance` row per case of the manifest, in the manifest's order, none failed, skipped only
for a format the reference decoder does not read, and the process not killed by a signal (a
1,000,000-deep case must not overflow a stack).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from protocol import limits


def main() -> int:
    drv, repo = Path(sys.argv[1]), Path(sys.argv[2])
    vectors = repo / "vectors"
    manifest = json.loads((vectors / "conformance" / "manifest.json").read_text())
    r = subprocess.run(
        [str(drv.parent / "bench-hash-object"), "selftest", "--vectors", str(vectors)],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=limits,
    )
    failures = []
    if r.returncode not in (0, 1):
        failures.append(f"bench-hash-object selftest exited with {r.returncode}: {r.stderr.strip()[-300:]}")
    rows = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    rows = [x for x in rows if x.get("test") == "conformance"]
    want = [(c["format"], c["name"]) for c in manifest["cases"]]
    got = [(x["format"], x["vector"]) for x in rows]
    if got != want:
        failures.append(f"{len(got)} conformance rows for {len(want)} cases (or not in the manifest's order)")
    for x in rows:
        if x["status"] == "fail" or (x["status"] == "skip" and "does not read" not in (x["reason"] or "")):
            failures.append(f"{x['format']}/{x['vector']}: {x['status']}: {x['reason']}")
    for f in failures:
        print("FAIL:", f)
    counts = {s: sum(x["status"] == s for x in rows) for s in ("pass", "fail", "skip")}
    print(
        f"{len(want)} cases: {counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped; "
        f"{len(failures)} problems"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
