"""How much of a Python read row is the library and how much the C walk (issue 69): for orjson, msgspec,
ormsgpack (size-4 JSON / MessagePack corpus files) and protobuf, msgspec (the `product` typed dataset),
times in alternating fresh processes (a) the decode alone, (b) the decode + the C walk (the row's op since
issue 69), (c) the row's baseline (hash-object / hash-typed), and prints per row the medians and
(b - c) / (a): how far the net time of the new scheme is from the decode alone.

    harnesses/python/.venv/bin/python research/python_walk_study.py [--rounds N] [--budget-ms N] [--corpus DIR]

Run from the repository root after `./serbench build` (the harness's venv and its sbwalk extension) and
`./serbench corpus`. Each measurement is one process (`--one`), run in the order a, b, c, a, b, c, ..."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "harnesses" / "python"
SCHEMALESS = [("orjson", "json"), ("msgspec-json", "json"), ("msgspec-msgpack", "msgpack"), ("ormsgpack", "msgpack")]
TYPED = [("protobuf", "protobuf"), ("msgspec-typed", "msgpack")]
KINDS = ("a", "b", "c")


def _ops(bench: str, fmt: str, kind: str, corpus: Path):
    """(op, arg) of one measurement, built the way the harness builds its cells."""
    sys.path.insert(0, str(HARNESS))
    from serbench_py import __main__ as cli

    if (bench, fmt) in TYPED:
        from serbench_py import typed
        from serbench_py.typed_adapters import load_all

        benches = load_all()
        data = _product(corpus)
        if kind == "c":
            cell = typed.Cell(benches["hash-typed"], benches, "typed-decode", fmt, data)
            return cell.op, cell.arg
        cell = typed.Cell(benches[bench], benches, "typed-decode", fmt, data)
        if kind == "b":
            return cell.op, cell.arg
        decode = cell.codec.decode
        return (lambda d: decode(typed.copy(d))), cell.arg
    from serbench_py.adapters import load_all

    benches = load_all()
    name = {"json": "size-4.json", "msgpack": "size-4.msgpack"}[fmt]
    data = (corpus / name).read_bytes()
    if kind == "c":
        return cli.operation(benches["hash-object"], "tree", fmt, data)
    if kind == "b":
        return cli.operation(benches[bench], "tree", fmt, data)
    decode = benches[bench].decode
    return (lambda d: decode(cli._copy(d))), data


def _product(corpus: Path) -> bytes:
    """The `product` dataset file, or the same bytes made from the corpus seed when it is not written."""
    path = corpus / "typed-product.json"
    if path.exists():
        return path.read_bytes()
    from serbench.corpus.formats import encode_json  # on the path through serbench_py.hashing
    from serbench.corpus.typed import generate_typed, typed_document

    seed = json.loads((corpus / "manifest.json").read_text())["seed"]
    return encode_json(typed_document("product", generate_typed(seed)["product"]))


def one(bench: str, fmt: str, kind: str, budget_ms: int, corpus: Path) -> float:
    """Median ns per op of one process's batches (the harness's own sampler, canary and GC rules)."""
    sys.path.insert(0, str(HARNESS))
    from serbench_py import measure

    op, arg = _ops(bench, fmt, kind, corpus)
    samples, _ = measure.sample(op, arg, budget_ms * 1_000_000, 5)
    return statistics.median(s.wall_ns / s.iterations for s in samples)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--budget-ms", type=int, default=200)
    p.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    p.add_argument("--one", nargs=3, metavar=("BENCH", "FORMAT", "KIND"), help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.one:
        print(one(*a.one, a.budget_ms, a.corpus))
        return
    env = {**os.environ, "PYTHONPATH": str(HARNESS), "PYTHONHASHSEED": "0"}
    times: dict[tuple, list[float]] = {}
    t0 = time.monotonic()
    for r in range(a.rounds):
        for bench, fmt in SCHEMALESS + TYPED:
            for kind in KINDS:
                argv = [sys.executable, __file__, "--one", bench, fmt, kind, "--budget-ms", str(a.budget_ms)]
                argv += ["--corpus", str(a.corpus)]
                out = subprocess.run(argv, env=env, capture_output=True, text=True)
                if out.returncode != 0:
                    sys.exit(f"{bench} {fmt} {kind}: {out.stderr.strip()}")
                times.setdefault((bench, fmt, kind), []).append(float(out.stdout))
        print(f"round {r + 1}/{a.rounds} done ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    rows = []
    print(f"{'row':<26} {'(a) decode':>12} {'(b) +walk':>12} {'(c) base':>12} {'(b-c)/a':>8}")
    for bench, fmt in SCHEMALESS + TYPED:
        m = {k: statistics.median(times[(bench, fmt, k)]) for k in KINDS}
        ratio = (m["b"] - m["c"]) / m["a"]
        rows.append({"bench": bench, "format": fmt, **{k: round(v) for k, v in m.items()}, "ratio": ratio})
        print(
            f"{bench + '/' + fmt:<26} {m['a'] / 1e3:>10.1f}µs {m['b'] / 1e3:>10.1f}µs {m['c'] / 1e3:>10.1f}µs "
            f"{ratio:>8.2f}"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
