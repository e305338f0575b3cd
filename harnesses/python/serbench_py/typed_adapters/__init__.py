"""Typed-record rows (spec/typed.md): one file per library, each defining BENCHES; registering a library
is one line in MODULES (the module and the ids it defines). A test a row does not list is unsupported
(exit 5).

A row gives, per (wire format, schema), a `Codec`: the library's own types and calls for a list of
records (the dataset) or for one record (the latency pass, `one=True`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..adapters import dist_version

# Adapter module -> the benchmark ids its BENCHES defines, in `list` order, so that `run` and `verify` of
# one row import its library alone (adapters.Benches; the baselines, which need every row of their
# format for its shortest encoding, import them all).
MODULES: dict[str, tuple[str, ...]] = {
    "baselines": ("hash-data-typed", "hash-typed"),
    "msgspec_": ("msgspec-typed", "msgspec-typed-array"),
    "pydantic_": ("pydantic",),
    "orjson_dataclasses": ("orjson-dataclasses",),
    "pickle_": ("pickle-typed",),
    "protobuf_": ("protobuf", "protobuf-convert"),
    "fastavro_": ("fastavro",),
    "flatbuffers_": ("flatbuffers",),
    "pycapnp_": ("pycapnp",),
}

TYPED_TESTS = ("typed-encode", "typed-decode", "typed-access")
ENC_DEC = ("typed-encode", "typed-decode")
ENC_ACCESS = ("typed-encode", "typed-access")


def _same(x):
    return x


def _items(x):
    return x


@dataclass(frozen=True)
class Codec:
    """One library's handling of one schema in one wire format. Functions marked timed are what the
    loop runs; the others run once, outside it.

    - `prepare`: the checked data-model records (dicts from the dataset file; a list, or one record)
      -> the library's input: its own types (msgspec Structs, pydantic models, protobuf messages, the
      harness's dataclasses), built outside the loop as the Rust harness builds prost's messages.
    - `encode` (timed, typed-encode): the library's input -> bytes.
    - `decode` (timed, typed-decode): bytes -> the library's records.
    - `records`: the decode result -> an iterable of its records (`.records` of a protobuf list
      message; the list itself by default); unused for one record.
    - `model`: one of the library's records -> its data model (typed.to_model), for the check.
    - `access` (timed, typed-access): bytes -> every field read through the library's view, as tuples
      in schema order (a list of them, or one); `access_model` turns one such tuple into the model.
    """

    encode: Callable[[object], bytes]
    model: Callable[[object], dict] | None = None
    prepare: Callable[[object], object] = _same
    decode: Callable[[bytes], object] | None = None
    records: Callable[[object], object] = _items
    access: Callable[[bytes], object] | None = None
    access_model: Callable[[object], dict] | None = None
    #: how the typed walk in the loop reads the decoded records (typed.plan's options; {} = attributes,
    #: enums the native Side) and the access rows' tuples (typed.plan(..., "pos", **access_walk))
    walk: dict = field(default_factory=dict)
    access_walk: dict = field(default_factory=dict)


@dataclass(frozen=True)
class TypedBench:
    id: str
    library: str
    dist: str | None  # distribution whose version is reported; None = the Python runtime
    formats: tuple[str, ...]
    #: (wire format, schema, one record?) -> Codec; may raise (a library that cannot carry the schema)
    codec: Callable[[str, str, bool], Codec] | None
    tests: tuple[str, ...]
    notes: str = ""
    baseline: bool = False
    #: test -> this row's steps, where its loop differs from the contract (steps.py)
    steps: Mapping[str, tuple[str, ...]] | None = None

    @property
    def version(self) -> str:
        return dist_version(self.dist)


def each(fn: Callable, one: bool) -> Callable:
    """`fn` on one record, or on each record of a list (a Codec's `prepare` for both shapes)."""
    return fn if one else (lambda records: [fn(r) for r in records])


def load_all():
    """Every typed row by id, each module imported on first use (the schemaless registry's Benches)."""
    from ..adapters import Benches

    return Benches(MODULES, __name__)
