#!/usr/bin/env python3
"""The JMH cross-check of the Java harness (issue 19; docs/java-jmh.md).

Times the same cells twice, with the same code (JmhCrossCheck.java runs the harness's own
`Cell.timedOp`): once with the harness (`serbench.Main run`, N fresh JVMs, its calibrated batches)
and once with JMH 1.37 (its forks, warm-up and measurement iterations), then prints per cell the
harness's median time per operation, JMH's mean (avgt) with its 99.9% error, and their ratio. Both
are gross times (the cell's whole timed operation: input copy, decode, hash), since JMH has no
baseline to subtract. Standard library only; run from anywhere:

    python3 harnesses/java/jmh-crosscheck.py            # builds both jars first
    python3 harnesses/java/jmh-crosscheck.py --no-build --processes 5 --jmh "-f 5 -wi 5 -i 5"

A benchmark: run it on a quiet machine, never beside other builds.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = ROOT / "corpus"
sys.path.insert(0, str(ROOT / "orchestrator" / "src"))
from serbench.harnesses.java import choose_jdk, installed_jdks  # noqa: E402 (the harness's own choice of JDK)

#: the `java` both sides run with: the JDK the orchestrator would choose (--jdk, JAVA_HOME, the newest LTS)
JAVA = "java"
# bench/test/format/file: JmhCrossCheck's @Param values, the same strings
CELLS = [
    "jackson/tree/json/size-2.json",
    "msgpack-core/tree/msgpack/size-2.msgpack",
    "protobuf-java/typed-decode/protobuf/trade.json",
]


def jvm_flags() -> list[str]:
    """The flags every harness JVM runs with (jvm.args, as the orchestrator passes them); JMH's forks inherit them."""
    return ["@" + str(HERE / "jvm.args")]


def classpath(target: Path) -> str:
    deps = (target / "classpath.txt").read_text().strip()
    return str(target / "serbench-java-0.1.0.jar") + (":" + deps if deps else "")


def expected_hash(file: str) -> str:
    """The dataset's hash from the corpus manifest (the file name without its format suffix)."""
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    name = file.split(".")[0]
    for d in manifest["datasets"]:
        if d["dataset"] == name:
            return d["hash"]
    raise SystemExit(f"{name} is not in corpus/manifest.json: run ./serbench corpus")


def harness_ns_per_op(cell: str, processes: int, budget_ms: int) -> tuple[float, int]:
    """The median of every sample's ns/op, pooled over `processes` fresh JVMs (as the orchestrator pools rounds)."""
    bench, test, fmt, file = cell.split("/", 3)
    per_op: list[float] = []
    with tempfile.TemporaryDirectory(prefix="serbench-jmh-") as tmp:
        for i in range(processes):
            results = Path(tmp) / f"r{i}.jsonl"
            argv = [JAVA, *jvm_flags(), "-cp", classpath(HERE / "target"), "serbench.Main", "run"]
            argv += ["--bench", bench, "--test", test, "--format", fmt, "--file", str(CORPUS / file)]
            argv += ["--expect-hash", expected_hash(file)]
            argv += ["--results", str(results), "--budget-ms", str(budget_ms)]
            code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            rows = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
            if code != 0:
                raise SystemExit(f"harness run of {cell} exited {code}: {rows[-1] if rows else ''}")
            per_op += [r["wall_ns"] / r["iterations"] for r in rows if r["kind"] == "sample"]
    return statistics.median(per_op), len(per_op)


def jmh_ns_per_op(cells: list[str], jmh_args: str) -> dict[str, tuple[float, float]]:
    """JMH's avgt score and error (ns/op) per cell."""
    with tempfile.TemporaryDirectory(prefix="serbench-jmh-") as tmp:
        out = Path(tmp) / "jmh.json"
        argv = [JAVA, *jvm_flags(), "-cp", classpath(HERE / "target" / "jmh"), "org.openjdk.jmh.Main"]
        argv += ["JmhCrossCheck"]
        argv += ["-p", "cell=" + ",".join(cells), "-p", f"corpus={CORPUS}", "-rf", "json", "-rff", str(out)]
        argv += shlex.split(jmh_args)
        subprocess.run(argv, check=True, stdout=sys.stderr)
        scores = {}
        for r in json.loads(out.read_text()):
            m = r["primaryMetric"]
            # scoreError is the string "NaN" when there are too few iterations for an interval
            scores[r["params"]["cell"]] = (float(m["score"]), float(m["scoreError"]))
        return scores


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", action="append", help="bench/test/format/file (default: the three of JmhCrossCheck)")
    ap.add_argument("--processes", type=int, default=5, help="harness processes per cell (default 5)")
    ap.add_argument("--budget-ms", type=int, default=1000, help="the harness's --budget-ms (default 1000)")
    ap.add_argument("--jmh", default="-f 5 -wi 5 -i 5", help='JMH options (default "-f 5 -wi 5 -i 5")')
    ap.add_argument("--no-build", action="store_true", help="use the jars as built")
    ap.add_argument(
        "--jdk", help="a JDK folder or version (default: as `serbench run`: JAVA_HOME, else the newest LTS)"
    )
    args = ap.parse_args()
    cells = args.cell or CELLS
    global JAVA
    jdk, how = choose_jdk(args.jdk, os.environ.get("JAVA_HOME"), installed_jdks())
    JAVA = str(jdk.java)  # JMH's forks start the java that runs JMH's main
    print(f"JDK: {jdk.label()} in {jdk.home} ({how})", file=sys.stderr)
    if not args.no_build:
        env = {**os.environ, "JAVA_HOME": str(jdk.home)}  # Maven compiles with it, as the orchestrator's build
        for extra in ([], ["-Pjmh"]):
            subprocess.run(["mvn", "-B", "-q", *extra, "package", "-DskipTests"], cwd=HERE, check=True, env=env)
    harness = {c: harness_ns_per_op(c, args.processes, args.budget_ms) for c in cells}
    jmh = jmh_ns_per_op(cells, args.jmh)
    print(f"{'cell':50} {'harness median ns/op':>26} {'JMH avgt ns/op':>22} {'JMH/harness':>11}  within 10%")
    for c in cells:
        h, n = harness[c]
        j, err = jmh[c]
        ratio = j / h
        within = "yes" if abs(ratio - 1) <= 0.10 else "NO"
        print(f"{c:50} {h:>12,.1f} ({n:>3} samples) {j:>12,.1f} ± {err:>7,.1f} {ratio:>11.3f}  {within}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
