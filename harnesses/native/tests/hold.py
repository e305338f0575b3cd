#!/usr/bin/env python3
"""ctest: `run --hold` (spec/protocol.md, `run` step 10), one case per ctest test.

usage: hold.py <serbench-native> <repo root> <case>

  waits        the process writes its check row, then measures nothing until a byte arrives on its
               standard input (300 ms later: still running, no sample row); the byte lets it finish
               with exit 0 and its samples
  eof          standard input closed at once (end of file) lets it go on and finish as usual
  mismatch     a failed check exits 4 as usual, without waiting for standard input
  iterations   under --iterations the flag has no effect: it finishes without standard input
  latency      --latency (typed, trade): after the info row nothing is timed until the byte arrives
               (skipped, 77, without a typed row in this build)

The run goes through the driver, as the orchestrator's does: its exec keeps the benchmark's stdin.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from protocol import limits

HELD_S = 0.3  # how long a held process must stay held
TIMEOUT_S = 120


def rows_of(path: Path) -> list[dict]:
    if not path.exists():
        return []
    # a row being written may lack its newline yet: only whole lines count
    return [json.loads(line) for line in path.read_text().split("\n")[:-1] if line.strip()]


def start(argv: list[str]) -> subprocess.Popen:
    """The process with a pipe on its standard input that only the test writes or closes; its stderr
    goes to a file (nothing to drain while it is held)."""
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=limits)
    p.err_file = err
    return p


def stderr_tail(p: subprocess.Popen) -> bytes:
    p.err_file.seek(0)
    return p.err_file.read()[-300:]


def wait_for_row(p: subprocess.Popen, results: Path, pred) -> list[dict]:
    """The rows once one satisfies pred; fails when the process exits or the time runs out first."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        rows = rows_of(results)
        if any(pred(r) for r in rows):
            return rows
        if p.poll() is not None:
            sys.exit(f"exited with {p.returncode} before the awaited row; rows {rows}; {stderr_tail(p)!r}")
        time.sleep(0.01)
    p.kill()
    sys.exit(f"no awaited row within {TIMEOUT_S} s: rows {rows_of(results)}")


def finish(p: subprocess.Popen) -> tuple[int, bytes]:
    """Waits for the exit without touching standard input (communicate() would close it: end of file)."""
    try:
        p.wait(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit(f"no exit within {TIMEOUT_S} s")
    finally:
        if not p.stdin.closed:
            p.stdin.close()
    return p.returncode, stderr_tail(p)


def held(p: subprocess.Popen, results: Path, timed: str, pred) -> None:
    """Waits for the row pred names (written before the hold), then checks the process stays held."""
    wait_for_row(p, results, pred)
    time.sleep(HELD_S)
    rows = rows_of(results)
    if p.poll() is not None:
        sys.exit(f"exited with {p.returncode} without the byte on its standard input; rows {rows}")
    if any(r["kind"] == timed for r in rows):
        sys.exit(f"a {timed} row before the byte on standard input: {rows}")


def main() -> int:
    drv, repo, case = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    vec = repo / "vectors"
    vector = next(v for v in json.loads((vec / "vectors.json").read_text())["vectors"] if v["name"] == "all-types")
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"

        def argv(*extra: str, expect: str = vector["hash"]) -> list[str]:
            opts = {
                "--bench": "hash-object",
                "--test": "tree",
                "--format": "json",
                "--file": str(vec / "all-types.json"),
            }
            opts |= {"--expect-hash": expect, "--results": str(results), "--budget-ms": "20", "--min-samples": "3"}
            return [drv, "run", *(x for kv in opts.items() for x in kv), *extra]

        def samples_ok(rc: int, err: bytes, least: int = 3) -> None:
            rows = rows_of(results)
            samples = [r for r in rows if r["kind"] == "sample"]
            if rc != 0 or len(samples) < least or rows[0]["kind"] != "check" or rows[0]["ok"] is not True:
                sys.exit(f"exit {rc}, rows {rows}; {err[-300:]!r}")

        if case == "waits":
            p = start(argv("--hold"))
            held(p, results, "sample", lambda r: r["kind"] == "check")
            p.stdin.write(b"x")
            p.stdin.flush()
            samples_ok(*finish(p))
        elif case == "eof":
            p = start(argv("--hold"))
            p.stdin.close()  # end of file at once
            samples_ok(*finish(p))
        elif case == "mismatch":
            p = start(argv("--hold", expect="0000000000000000"))  # stdin stays open and silent
            rc, err = finish(p)
            rows = rows_of(results)
            if rc != 4 or [r["kind"] for r in rows] != ["check"] or rows[0]["ok"] is not False:
                sys.exit(f"exit {rc}, rows {rows}; {err[-300:]!r}")
        elif case == "iterations":
            p = start(argv("--hold", "--iterations", "5"))  # stdin stays open and silent
            rc, err = finish(p)
            samples = [r for r in rows_of(results) if r["kind"] == "sample"]
            if rc != 0 or len(samples) != 1 or samples[0]["iterations"] != 5:
                sys.exit(f"exit {rc}, rows {rows_of(results)}; {err[-300:]!r}")
        elif case == "latency":
            build = Path(drv).resolve().parent
            # the first typed row of this build with a typed-decode test
            bench = fmt = None
            for rid in (line.split("\t")[0] for line in (build / "typed.tsv").read_text().splitlines() if line):
                d = json.loads(subprocess.run([str(build / f"bench-{rid}"), "describe"], capture_output=True).stdout)
                if "typed-decode" in d["tests"]:
                    bench, fmt = rid, d["formats"][0]
                    break
            if bench is None:
                print("no typed row with typed-decode in this build", file=sys.stderr)
                return 77
            # a few trade records, made and hashed with the orchestrator's generator and reference hash
            sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
            objhash = importlib.import_module("objhash")
            generator = importlib.import_module("corpus.generator")
            typed = importlib.import_module("corpus.typed")
            doc = typed.typed_document("trade", typed.generate_typed(generator.DEFAULT_SEED)["trade"][:20])
            data = Path(tmp) / "typed-trade.json"
            data.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            opts = {"--bench": bench, "--test": "typed-decode", "--format": fmt, "--file": str(data)}
            opts |= {"--expect-hash": objhash.hex64(objhash.hash_value(doc)), "--results": str(results)}
            p = start([drv, "run", *(x for kv in opts.items() for x in kv), "--budget-ms", "1", "--latency", "--hold"])
            held(p, results, "latency", lambda r: r["kind"] == "info" and "records" in r)
            p.stdin.write(b"x")
            p.stdin.flush()
            rc, err = finish(p)
            lat = [r for r in rows_of(results) if r["kind"] == "latency"]
            if rc != 0 or len(lat) != 1 or lat[0]["count"] < 100000:
                sys.exit(f"{bench} {fmt}: exit {rc}, rows {rows_of(results)[-2:]}; {err[-300:]!r}")
        else:
            sys.exit(f"unknown case {case}")
    print(f"hold {case} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
