"""Typed baselines (spec/fairness.md rule 5): what a typed row's loop costs without the library.

Typed rows time the library's call alone (the hash is checked outside the loop), so the baselines are
the Python harness's two schemaless ones, on the typed inputs: the call overhead for typed-encode, and
the copy of the encoded bytes for typed-decode and typed-access. The bytes copied are the format's
shortest encoding made by any row of this harness (made once, outside the loop), so a baseline never
copies more than a row does. The harness builds their timed ops (__main__.py)."""

from . import TypedBench

#: every wire format a typed row of this harness writes
TYPED_FORMATS = ("json", "msgpack", "protobuf", "flatbuffers", "capnp", "avro", "pickle")

BENCHES = [
    TypedBench(
        "null-typed",
        "baseline",
        None,
        TYPED_FORMATS,
        None,
        ("typed-encode",),
        notes="typed-encode baseline: calls an identity function on the prepared records (the loop and call "
        "overhead of a typed-encode row, which times encode alone)",
        baseline=True,
    ),
    TypedBench(
        "copy-typed",
        "baseline",
        None,
        TYPED_FORMATS,
        None,
        ("typed-decode", "typed-access"),
        notes="typed-decode and typed-access baseline: copies the records' encoding in the format (the "
        "shortest any row of this harness makes, once): the per-iteration copy every such row also pays",
        baseline=True,
    ),
]
