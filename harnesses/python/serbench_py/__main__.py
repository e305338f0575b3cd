"""Command line of the Python harness: list, run, verify, selftest (spec/protocol.md)."""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import tracemalloc
from pathlib import Path

from . import measure
from .adapters import Bench, load_all
from .hashing import DECODERS, hash_value, hex64

EXIT_OK, EXIT_USAGE, EXIT_REJECTED, EXIT_MISMATCH, EXIT_UNSUPPORTED = 0, 2, 3, 4, 5
KNOWN = Path(__file__).resolve().parent.parent / "known-deviations.json"
# What the timed loop does, per test: reported with every cell (issue 2: say when decode is timed alone).
MEASURES = {
    "write": "encode(obj) only; the output is decoded and hashed once, outside the loop",
    "tree": "copy input + decode; the hash is checked once, outside the loop",
    "incremental": "copy input + streaming decode; the hash is checked once, outside the loop",
}


class Rejected(Exception):
    """The library under test raised: the cell fails with this reason."""


def _copy(data: bytes) -> bytes:
    # bytes(memoryview) makes a real copy; bytes(b) and b[:] would return the same object.
    return bytes(memoryview(data))


def operation(bench: Bench, test: str, fmt: str, data: bytes):
    """(timed op, its argument, check function returning the hash) for one cell."""
    if bench.baseline:
        # A baseline's check proves the harness reads the file right: the reference decoder's hash.
        op = bench.encode if test == "write" else (lambda d: bench.decode(_copy(d)))
        return op, data, lambda: hash_value(DECODERS[fmt](data))
    if test == "write":
        obj = DECODERS[fmt](data)
        return bench.encode, obj, lambda: hash_value(DECODERS[fmt](bench.encode(obj)))
    if test == "tree":
        return (lambda d: bench.decode(_copy(d))), data, lambda: hash_value(bench.decode(_copy(data)))
    return (lambda d: bench.stream(_copy(d))), data, lambda: bench.stream_hash(_copy(data))


def check(bench: Bench, test: str, fmt: str, data: bytes) -> tuple[str, int | None]:
    """Hash of what the benchmark decodes (or encodes, read back). Raises Rejected."""
    try:
        op, arg, hasher = operation(bench, test, fmt, data)
        out_bytes = len(bench.encode(arg)) if test == "write" and not bench.baseline else None
        return hex64(hasher()), out_bytes
    except Exception as e:  # any library error is a rejection with its message
        raise Rejected(f"{type(e).__name__}: {e}") from e


def supported(bench: Bench, test: str, fmt: str) -> bool:
    return test in bench.tests and fmt in bench.formats


class Results:
    def __init__(self, path: str):
        self.f = open(path, "a", buffering=1)

    def row(self, kind: str, **fields) -> None:
        self.f.write(json.dumps({"kind": kind, **fields}) + "\n")


def cmd_list(benches: dict[str, Bench], _args) -> int:
    rows = []
    for b in benches.values():
        base = {t: ("null" if t == "write" else "copy-input") for t in b.tests}
        rows.append(
            {
                "id": b.id,
                "library": b.library,
                "version": b.version,
                "formats": list(b.formats),
                "tests": list(b.tests),
                "baseline_for": {} if b.baseline else base,
                "notes": b.notes,
                "baseline": b.baseline,
                "measures": {t: MEASURES[t] for t in b.tests},
            }
        )
    print(
        json.dumps(
            {
                "protocol": 1,
                "harness": "python",
                "runtime": f"{platform.python_implementation()} {platform.python_version()}",
                "benchmarks": rows,
            }
        )
    )
    return EXIT_OK


def _lookup(benches, args) -> Bench | int:
    b = benches.get(args.bench)
    if b is None:
        print(f"unknown benchmark {args.bench!r}", file=sys.stderr)
        return EXIT_USAGE
    if not supported(b, args.test, args.format):
        print(f"{b.id} does not support {args.test} on {args.format}", file=sys.stderr)
        return EXIT_UNSUPPORTED
    return b


def alloc_pass(op, arg) -> dict:
    """Python exposes no count of allocation calls. Two cheap, honest proxies, taken over one op after a
    warm-up op: the interpreter's allocated-block count left by the op (what its result keeps alive;
    sys.getallocatedblocks, which tracemalloc snapshots would give too, at seconds per op on size 5),
    and tracemalloc's peak traced bytes during the op (transient buffers included)."""
    op(arg)  # warm caches so first-use allocations are not counted
    gc.collect()
    gc.disable()  # a collection inside the op would hide blocks it allocated
    try:
        tracemalloc.start()
        base_bytes = tracemalloc.get_traced_memory()[0]
        blocks0 = sys.getallocatedblocks()
        result = op(arg)
        blocks = sys.getallocatedblocks() - blocks0
        peak = tracemalloc.get_traced_memory()[1] - base_bytes
        tracemalloc.stop()
        del result
    finally:
        gc.enable()
    return {
        "allocs_per_op": max(blocks, 0),
        "alloc_bytes_per_op": peak,
        "method": "blocks left allocated by one op (sys.getallocatedblocks); bytes = tracemalloc peak",
    }


def cmd_run(benches, args) -> int:
    b = _lookup(benches, args)
    if isinstance(b, int):
        return b
    out = Results(args.results)
    data = Path(args.file).read_bytes()
    if not args.no_check:
        try:
            got, out_bytes = check(b, args.test, args.format, data)
        except Rejected as e:
            out.row("error", reason=str(e))
            return EXIT_REJECTED
        ok = got == args.expect_hash
        out.row(
            "check",
            ok=ok,
            hash=got,
            expected=args.expect_hash,
            output_bytes=out_bytes,
            **({} if ok else {"reason": f"hash {got} != expected {args.expect_hash}"}),
        )
        if not ok:
            return EXIT_MISMATCH
    op, arg, _ = operation(b, args.test, args.format, data)
    out.row("info", measures=MEASURES[args.test])
    if args.alloc:
        out.row("alloc", **alloc_pass(op, arg))
        return EXIT_OK
    samples, info = measure.sample(op, arg, args.budget_ms * 1_000_000, args.min_samples)
    out.row("info", **info)
    for s in samples:
        out.row("sample", iterations=s.iterations, wall_ns=s.wall_ns, cpu_ns=s.cpu_ns)
    return EXIT_OK


def cmd_verify(benches, args) -> int:
    b = _lookup(benches, args)
    if isinstance(b, int):
        return b
    try:
        got, _ = check(b, args.test, args.format, Path(args.file).read_bytes())
    except Rejected as e:
        print(json.dumps({"error": str(e)}))
        return EXIT_REJECTED
    print(json.dumps({"hash": got}))
    return EXIT_OK


def cmd_selftest(benches, args) -> int:
    vdir = Path(args.vectors)
    index = json.loads((vdir / "vectors.json").read_text())
    known = json.loads(KNOWN.read_text()) if KNOWN.exists() else {}
    counts = {"pass": 0, "fail": 0, "skip": 0}
    for v in index["vectors"]:
        for b in benches.values():
            for test in b.tests:
                for fmt in b.formats:
                    if fmt not in v["files"]:
                        continue
                    reason = known.get(f"{b.id}/{test}", {}).get(v["name"])
                    try:
                        got, _ = check(b, test, fmt, (vdir / v["files"][fmt]).read_bytes())
                    except Rejected as e:
                        got, err = None, str(e)
                    else:
                        err = None if got == v["hash"] else f"hash {got} != {v['hash']}"
                    # A documented deviation must still deviate, or the list is stale.
                    if reason:
                        status, why = ("skip", f"known: {reason}") if err else ("fail", "known deviation now passes")
                    else:
                        status, why = ("pass", None) if err is None else ("fail", err)
                    counts[status] += 1
                    print(
                        json.dumps(
                            {
                                "bench": b.id,
                                "test": test,
                                "format": fmt,
                                "vector": v["name"],
                                "status": status,
                                "reason": why,
                            }
                        )
                    )
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped", file=sys.stderr)
    return EXIT_OK if counts["fail"] == 0 else 1


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="serbench-python", description="serbench Python harness (spec/protocol.md)")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="print the benchmarks as JSON")
    for name in ("run", "verify"):
        s = sub.add_parser(name)
        s.add_argument("--bench", required=True)
        s.add_argument("--test", required=True, choices=("write", "tree", "incremental"))
        s.add_argument("--format", required=True)
        s.add_argument("--file", required=True)
        if name == "run":
            s.add_argument("--expect-hash", required=True)
            s.add_argument("--results", required=True)
            s.add_argument("--budget-ms", type=int, default=300)
            s.add_argument("--min-samples", type=int, default=5)
            s.add_argument("--alloc", action="store_true")
            s.add_argument("--no-check", action="store_true", help="skip the hash check (done in an earlier round)")
            s.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("selftest")
    s.add_argument("--vectors", required=True)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:
        return EXIT_OK if e.code == 0 else EXIT_USAGE
    benches = load_all()
    return {"list": cmd_list, "run": cmd_run, "verify": cmd_verify, "selftest": cmd_selftest}[args.cmd](benches, args)


if __name__ == "__main__":
    sys.exit(main())
