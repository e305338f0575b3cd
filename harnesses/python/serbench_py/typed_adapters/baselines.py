"""Typed baselines (spec/fairness.md rule 5): the hashing work of a typed row's loop without the library.

`hash-data-typed` (typed-encode) hashes the format's shortest encoding of the records with
sbwalk.hash_binary, as a row hashes its output; `hash-typed` (typed-decode, typed-access) copies that
encoding and walks the harness's prebuilt dataclass records with the typed hash in C (sbwalk.Plan), as a
row walks what its library decoded. The bytes are the shortest encoding made by any row of this harness
(made once, outside the loop), so a baseline never hashes or copies more than a row does. typed.Cell
builds their timed ops."""

from . import TypedBench

#: every wire format a typed row of this harness writes
TYPED_FORMATS = ("json", "msgpack", "protobuf", "flatbuffers", "capnp", "avro", "pickle")

BENCHES = [
    TypedBench(
        "hash-data-typed",
        "baseline",
        None,
        TYPED_FORMATS,
        None,
        ("typed-encode",),
        notes="typed-encode baseline: hashes the records' encoding in the format (the shortest any row of this "
        "harness makes, once) with sbwalk.hash_binary, as every typed-encode row hashes its output",
        baseline=True,
    ),
    TypedBench(
        "hash-typed",
        "baseline",
        None,
        TYPED_FORMATS,
        None,
        ("typed-decode", "typed-access"),
        notes="typed-decode and typed-access baseline: copies the records' shortest encoding in the format and "
        "walks the harness's prebuilt dataclass records with the typed hash in C (sbwalk.Plan, by attribute)",
        baseline=True,
    ),
]
