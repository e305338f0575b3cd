"""Baselines subtracted from every row (spec/fairness.md): what the loop costs without the library."""

from . import Bench

ALL = ("json", "json-pretty", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain")


def _identity(x):
    return x


BENCHES = [
    # Write rows time `encode(obj)` only, so their baseline is the cost of one Python call.
    Bench(
        "null",
        "baseline",
        None,
        ALL,
        encode=_identity,
        baseline=True,
        baseline_tests=("write",),
        notes="calls an identity function: the loop and call overhead of a write row",
    ),
    # Decode rows copy the input first (fairness rule), so their baseline is that copy.
    Bench(
        "copy-input",
        "baseline",
        None,
        ALL,
        decode=_identity,
        baseline=True,
        baseline_tests=("tree", "incremental"),
        notes="copies the input bytes: the per-iteration cost every decode row also pays",
    ),
]
