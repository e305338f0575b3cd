"""Typed records in the Python harness (spec/typed.md): the harness's native records (dataclasses), the
loader of a typed dataset file (`{"schema": ..., "records": [...]}` in JSON), the conversions between
records and the data model, the typed hash, and the latency histogram.

The typed hash of a library's records is the object hash (spec/hash.md) of the data model they stand
for: `to_model` reads each record's fields in schema order (the `FIELDS` table of the orchestrator's
corpus module, the one that generates the datasets) into plain dicts, which `hash_value` hashes. Walking
records costs microseconds per value in Python, far more than a C or Rust library spends decoding them,
so rows time the library's encode, decode or field reads alone and the hash is checked once, outside
the loop (spec/fairness.md rule 5, as for the schemaless rows).
"""

from __future__ import annotations

import enum
import json
import math
from dataclasses import dataclass

from .hashing import ModelError, hash_value  # hashing puts the orchestrator on sys.path

# isort: split
from serbench.corpus.typed import FIELDS  # the schema table the datasets are generated from

SCHEMAS = ("product", "trade", "nested")
#: nesting depth of `nested` records the harness's own recursive code accepts (the datasets go to 2);
#: a deeper file is beyond a limit of the harness (exit 6), and a library's result that deep is not
#: in the model (the check fails), so no recursion here is unbounded
MAX_DEPTH = 32
INT_RANGES = {
    t: ((0, (1 << int(t[1:])) - 1) if t[0] == "u" else (-(1 << (int(t[1:]) - 1)), (1 << (int(t[1:]) - 1)) - 1))
    for t in ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64")
}


class TypedInputError(ValueError):
    """The file is not a typed dataset the harness can read (exit 6: the input's, not a library's)."""


# --- the harness's native records: dataclasses, as a Python user writes them --------------------------


class Side(enum.Enum):
    Buy = "Buy"
    Sell = "Sell"


@dataclass
class Product:
    id: int
    name: str
    price: float
    in_stock: bool
    tags: list[str]


@dataclass
class Trade:
    price: float
    flag: bool
    text: str
    side: Side
    small_int: int
    long_int: int


@dataclass
class Point:
    x: float
    y: float
    z: float


@dataclass
class Inner:
    label: str
    point: Point


@dataclass
class Nested:
    u8: int
    u16: int
    u32: int
    u64: int
    i8: int
    i16: int
    i32: int
    i64: int
    f32: float
    f64: float
    flag: bool
    name: str
    u8s: list[int]
    u16s: list[int]
    u32s: list[int]
    u64s: list[int]
    i8s: list[int]
    i16s: list[int]
    i32s: list[int]
    i64s: list[int]
    f32s: list[float]
    f64s: list[float]
    flags: list[bool]
    names: list[str]
    counts: dict[str, int]
    note: str | None
    inner: Inner
    children: list[Nested]


#: the dataclass of each struct of the schemas
NATIVE = {"product": Product, "trade": Trade, "point": Point, "inner": Inner, "nested": Nested}


# --- loading and validating a typed dataset ----------------------------------------------------------


def _utf8(v: str) -> bool:
    """True unless the text holds a lone surrogate (a JSON escape can make one): no UTF-8 string."""
    if v.isascii():
        return True
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _int_ok(lo: int, hi: int):
    return lambda v: type(v) is int and lo <= v <= hi


def _finite_float(v) -> bool:
    return type(v) is float and math.isfinite(v)  # json.loads reads 1e999 as infinity: refused here


#: scalar field type -> whether a value is one
_SCALAR_OK = {
    **{t: _int_ok(lo, hi) for t, (lo, hi) in INT_RANGES.items()},
    "f32": _finite_float,
    "f64": _finite_float,
    "bool": lambda v: type(v) is bool,
    "string": lambda v: type(v) is str and _utf8(v),
    "enum": lambda v: type(v) is str and v in ("Buy", "Sell"),
}


class _Bad(Exception):
    """A value that is not of its field's type: the reason, and the path to it, innermost segment
    first (each level adds its own on the way out, so a valid file formats no path at all: building
    the path of every value took most of the load of `product` in every process)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason, self.path = reason, []

    def at(self, segment: str) -> _Bad:
        self.path.append(segment)
        return self


def _check(v, t, depth: int) -> None:
    """Raises _Bad unless v is a value of field type t (FIELDS notation)."""
    if type(t) is str:
        if not _SCALAR_OK[t](v):
            raise _Bad(f"{v!r} is not a {t}")
        return
    kind = t[0]
    if kind == "list":
        if type(v) is not list:
            raise _Bad("not an array")
        sub = t[1]
        if type(sub) is str:
            ok = _SCALAR_OK[sub]
            for i, x in enumerate(v):
                if not ok(x):
                    raise _Bad(f"{x!r} is not a {sub}").at(f"[{i}]")
            return
        for i, x in enumerate(v):
            try:
                _check(x, sub, depth)
            except _Bad as e:
                raise e.at(f"[{i}]") from None
    elif kind == "map":
        if type(v) is not dict:
            raise _Bad("not a map")
        for k, x in v.items():
            if not _SCALAR_OK["string"](k):
                raise _Bad(f"{k!r} is not a string").at(" key")
            try:
                _check(x, t[2], depth)
            except _Bad as e:
                raise e.at(f"[{k!r}]") from None
    elif kind == "optional":
        if v is not None:
            _check(v, t[1], depth)
    else:
        _check_struct(v, t[1], depth + 1)


def _check_struct(v, struct: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _Bad(f"records nested deeper than {MAX_DEPTH} (a limit of the harness)")
    fields = FIELDS[struct]
    if type(v) is not dict or len(v) != len(fields):
        raise _Bad(f"not a {struct} record (a map of its {len(fields)} fields)")
    for name, t in fields:
        if name not in v:
            raise _Bad(f"no field {name!r}")
        try:
            _check(v[name], t, depth)
        except _Bad as e:
            raise e.at(f".{name}") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def load(data: bytes) -> tuple[str, list[dict]]:
    """The schema name and the records (data-model dicts) of a typed dataset file, checked against the
    schema; raises TypedInputError (exit 6) for anything else."""
    # The standard library's C parser, not the harness's strict pure-Python one (refcodec), which took
    # 6x as long on `product` in every process: the schema check below makes every value exact (types,
    # ranges, UTF-8), and NaN, infinities and nesting beyond the parser's recursion limit are refused here.
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise TypedInputError(f"not a JSON typed file: {type(e).__name__}: {e}") from None
    if type(doc) is not dict or set(doc) != {"schema", "records"} or doc["schema"] not in SCHEMAS:
        raise TypedInputError('not a typed dataset: {"schema": "product" | "trade" | "nested", "records": [...]}')
    schema, records = doc["schema"], doc["records"]
    if type(records) is not list:
        raise TypedInputError("records: not an array")
    for i, r in enumerate(records):
        try:
            _check_struct(r, schema, 0)
        except _Bad as e:
            raise TypedInputError(f"records[{i}]{''.join(reversed(e.path))}: {e.reason}") from None
    return schema, records


# --- conversions --------------------------------------------------------------------------------------


def build(record: dict, struct: str, make: dict, side=Side) -> object:
    """A checked data-model record as a library's record types: `make[struct](**fields)` for every
    struct (dataclasses, msgspec Structs, pydantic models), enums as `side(name)`."""
    return _build(record, struct, make, side, 0)


def _build(record: dict, struct: str, make: dict, side, depth: int):
    if depth > MAX_DEPTH:
        raise TypedInputError(f"records nested deeper than {MAX_DEPTH}")
    out = {}
    for name, t in FIELDS[struct]:
        v = record[name]
        if t == "enum":
            v = side(v)
        elif t == ("struct", "point") or t == ("struct", "inner"):
            v = _build(v, t[1], make, side, depth + 1)
        elif t == ("list", ("struct", "nested")):
            v = [_build(x, "nested", make, side, depth + 1) for x in v]
        elif isinstance(t, tuple):
            v = dict(v) if t[0] == "map" else list(v) if t[0] == "list" else v
        out[name] = v
    return make[struct](**out)


def native(schema: str, records: list[dict]) -> list:
    """The harness's native records (dataclasses) of checked data-model records."""
    return [build(r, schema, NATIVE) for r in records]


def enum_value(v) -> str:
    """The data-model name of an enum value of the native records (`Side.Buy` -> "Buy")."""
    return v.value


def to_model(obj, struct: str, get=getattr, enum=enum_value, depth: int = 0) -> dict:
    """The data model of one record (spec/typed.md): a dict of its fields in schema order, read with
    `get(obj, name)`, or by position when `get` is None (a tuple of the fields, as the zero-copy rows'
    field reads give); enums through `enum`, lists and maps as list and dict, sub-structs as dicts.
    Scalars are kept as the library gave them, so a wrong type changes the hash."""
    if depth > MAX_DEPTH:
        raise ModelError(f"records nested deeper than {MAX_DEPTH}")
    fields = FIELDS[struct]
    values = obj if get is None else [get(obj, name) for name, _ in fields]
    if len(values) != len(fields):
        raise ModelError(f"a {struct} record of {len(values)} fields, not {len(fields)}")
    return {name: _value(v, t, get, enum, depth) for (name, t), v in zip(fields, values, strict=True)}


def _value(v, t, get, enum, depth: int):
    if isinstance(t, str):
        return enum(v) if t == "enum" else v
    kind = t[0]
    if kind == "list":
        return [_value(x, t[1], get, enum, depth) for x in v]
    if kind == "map":
        return {k: _value(x, t[2], get, enum, depth) for k, x in (v.items() if hasattr(v, "items") else v)}
    if kind == "optional":
        return None if v is None else _value(v, t[1], get, enum, depth)
    return to_model(v, t[1], get, enum, depth + 1)


def document_hash(schema: str, records: list[dict]) -> int:
    """The typed hash of a dataset: the object hash of `{"schema": ..., "records": [...]}`."""
    return hash_value({"schema": schema, "records": records})


# --- latency histogram (spec/protocol.md `run` step 7) -------------------------------------------------

SUB = 6  # 64 sub-buckets per power of two


class Histogram:
    """Log-bucketed latencies: bucket (k, j) holds values in [2^k (1 + j/64), 2^k (1 + (j+1)/64)),
    under 1.6% relative error, as HdrHistogram with 2 significant digits (the same buckets as the
    Rust harness's `measure::Histogram`). Values under 64 ns are exact."""

    def __init__(self) -> None:
        self.counts = [0] * (64 << SUB)
        self.count = 0
        self.max = 0

    @staticmethod
    def index(v: int) -> int:
        if v <= 0:
            return 0  # shares bucket 0 with 1 ns
        k = v.bit_length() - 1
        j = ((v >> (k - SUB)) if k >= SUB else (v << (SUB - k))) & 63
        return (k << SUB) | j

    @staticmethod
    def highest(i: int) -> int:
        """The highest value that falls in bucket i."""
        k, j = i >> SUB, i & 63
        return (((65 + j) << (k - SUB)) - 1) if k >= SUB else (((64 + j) << k) >> SUB)

    def record(self, v: int) -> None:
        self.counts[self.index(v)] += 1
        self.count += 1
        if v > self.max:
            self.max = v

    def buckets(self) -> list[list[int]]:
        """The non-empty buckets as [highest value, count] pairs, in order: the latency row's
        `buckets`, which the orchestrator pools over a cell's forks (spec/protocol.md step 7)."""
        return [[self.highest(i), c] for i, c in enumerate(self.counts) if c]

    def percentile(self, q: float) -> int:
        """The value at quantile q (0 < q <= 1): the highest value of the bucket holding the
        ceil(q * count)-th smallest, capped at the maximum."""
        rank = min(max(math.ceil(q * self.count), 1), max(self.count, 1))
        seen = 0
        for i, c in enumerate(self.counts):
            seen += c
            if seen >= rank:
                return min(self.highest(i), self.max)
        return self.max


# --- one typed cell: check, timed op, latency pass (spec/typed.md "Tests") ------------------------------

EXIT_REJECTED, EXIT_INPUT = 3, 6
#: what each typed test's loop times (reported with every cell, as for the schemaless rows)
MEASURES = {
    "typed-encode": "encode the library's records (built from the dataset outside the loop) + hash the output bytes "
    "(sbwalk.hash_binary); the output is decoded (or read through its view) by the same library and hashed once, "
    "outside the loop",
    "typed-decode": "copy the library's own encoding + decode it into the library's records + the typed hash in C "
    "(sbwalk.Plan), reading every field by attribute or item; the typed hash is checked once, outside the loop",
    "typed-access": "copy the library's own encoding + open the library's view and read every field (into tuples) + "
    "the typed hash of them in C (sbwalk.Plan); the typed hash is checked once, outside the loop",
}
BASELINE_MEASURES = {
    "typed-encode": "hash the format's shortest encoding of the records (made once, outside the loop) with "
    "sbwalk.hash_binary",
    "typed-decode": "copy the format's shortest encoding of the records + the typed hash in C (sbwalk.Plan) of the "
    "harness's dataclass records (built outside the loop)",
    "typed-access": "copy the format's shortest encoding of the records + the typed hash in C (sbwalk.Plan) of the "
    "harness's dataclass records (built outside the loop)",
}
BASELINE_OF = {"typed-encode": "hash-data-typed", "typed-decode": "hash-typed", "typed-access": "hash-typed"}
#: the data-model names of the native records' enum values
SIDE_NAMES = {Side.Buy: "Buy", Side.Sell: "Sell"}


def plan(
    schema: str, mode: str = "attr", enum: dict | None = None, keys: dict | None = None, presence=None, entries=None
):
    """The compiled typed walk (sbwalk.Plan) of a library's records of `schema`, the C twin of `to_model` +
    `document_hash`: every field read by attribute (`mode` "attr"), item ("item", `keys` renaming the
    data-model names: pycapnp's camelCase; an absent key is None) or position ("pos", the tuples of the
    access rows); an enum through `enum` (value -> name; a value not in it hashes as itself; default the
    native records' Side); `presence` the method asked before an optional field is read (protobuf's
    HasField); `entries` the (key, value) names of a map given as a list of entries (pycapnp's Count)."""
    from sbwalk import Plan

    order: list = []
    index: dict[str, int] = {}
    enum = SIDE_NAMES if enum is None else enum

    def struct(name: str) -> int:
        if name not in index:
            index[name] = len(order)
            order.append(None)
            fields = [
                (f, i if mode == "pos" else (keys or {}).get(f, f), typ(t)) for i, (f, t) in enumerate(FIELDS[name])
            ]
            order[index[name]] = (mode, fields)
        return index[name]

    def typ(t):
        if isinstance(t, str):
            return ("enum", enum) if t == "enum" else ("scalar",)
        if t[0] == "list":
            return ("list", typ(t[1]))
        if t[0] == "map":
            return ("map", typ(t[2]), entries)
        if t[0] == "optional":
            return ("optional", typ(t[1]), presence if mode == "attr" else None)
        return ("struct", struct(t[1]))

    root = struct(schema)
    return Plan(schema, root, order)


class Fail(Exception):
    """The cell cannot be checked or measured: `code` 3 (the library rejected the input or failed) or
    6 (the input is not a typed dataset the harness reads)."""

    def __init__(self, reason: str, code: int = EXIT_REJECTED):
        super().__init__(reason)
        self.code = code


def copy(data: bytes) -> bytes:
    """A fresh copy of the bytes (fairness.md rule 1). bytes(memoryview) makes a real copy; its data
    starts 32 bytes into a 16-byte aligned CPython object, so it is 16-byte aligned as spec/typed.md asks."""
    return bytes(memoryview(data))


def _identity(x):
    return x


def _same(x):
    return x


def _lib(fn, *args):
    """A library call (see adapters.lib_call): any exception is the library's, exit 3."""
    from .adapters import LibraryError, lib_call

    try:
        return lib_call(fn, *args)
    except LibraryError as e:
        raise Fail(str(e)) from e


def _records(data: bytes) -> tuple[str, list[dict]]:
    try:
        return load(data)
    except TypedInputError as e:
        raise Fail(str(e), EXIT_INPUT) from None


def read_back(codec, schema: str, wire: bytes, access: bool, one: bool = False):
    """The data model of what the library reads back from its bytes (a list of records, or one): with
    its decoder, or through its view. The conversion reads the library's objects (protobuf messages'
    fields, for one), so it runs as a library call, as the Rust harness guards a typed row's functions
    as a whole."""

    def models():
        if access:
            got = codec.access(copy(wire))
            return codec.access_model(got) if one else [codec.access_model(t) for t in got]
        got = codec.decode(copy(wire))
        return codec.model(got) if one else [codec.model(r) for r in codec.records(got)]

    return _lib(models)


def _encode(codec, prepared) -> bytes:
    out = _lib(codec.encode, prepared)
    if not isinstance(out, (bytes, bytearray)):  # a FlatBuffers builder's output is a bytearray
        raise Fail(f"the library's output is {type(out).__name__}, not bytes")
    return bytes(out)


def shortest_wire(benches: dict, fmt: str, schema: str, records, one: bool = False):
    """The shortest encoding of the records in `fmt` made by any row of this harness (the copy baseline's
    input: it never copies more than a row does), or a Fail when no row can encode them."""
    best, why = None, f"no typed row writes {fmt}"
    for b in benches.values():
        if b.baseline or fmt not in b.formats:
            continue
        try:
            codec = _lib(b.codec, fmt, schema, one)
            w = _encode(codec, _lib(codec.prepare, records))
        except Fail as e:  # a library that cannot carry these records has no row to match here
            why = f"{b.id}: {e}"
            continue
        if best is None or len(w) < len(best):
            best = w
    if best is None:
        raise Fail(why)
    return best


class Cell:
    """A prepared typed cell: `op(arg)` is what the loop times; `check()` returns (hash, output bytes)."""

    def __init__(self, bench, benches: dict, test: str, fmt: str, data: bytes):
        self.test, self.fmt = test, fmt
        self.schema, self.records = _records(data)
        from sbwalk import hash_binary

        if bench.baseline:
            # the baseline's check proves the harness reads the file right: its native records' hash
            self.check = lambda: (
                document_hash(self.schema, [to_model(r, self.schema) for r in native(self.schema, self.records)]),
                None,
            )
            wire = shortest_wire(benches, fmt, self.schema, self.records)
            if test == "typed-encode":
                self.op, self.arg = hash_binary, wire
            else:
                walk, records = plan(self.schema).hash, native(self.schema, self.records)

                def op(d, copy=copy, walk=walk, records=records):
                    copy(d)
                    return walk(records)

                self.op, self.arg = op, wire
            return
        self.codec = codec = _lib(bench.codec, fmt, self.schema, False)
        prepared = _lib(codec.prepare, self.records)
        if test == "typed-encode":

            def op(p, encode=codec.encode, hash_out=hash_binary):
                return hash_out(encode(p))

            self.op, self.arg = op, prepared
            self.check = self._check_encode
        else:
            access = test == "typed-access"
            if access:
                read, walk, records = codec.access, plan(self.schema, "pos", **codec.access_walk).hash, _same
            else:
                read, walk, records = codec.decode, plan(self.schema, **codec.walk).hash, codec.records

            def op(d, read=read, records=records, walk=walk, copy=copy):
                return walk(records(read(copy(d))))

            self.op, self.arg = op, _encode(codec, prepared)
            self.check = lambda: (document_hash(self.schema, read_back(codec, self.schema, self.arg, access)), None)

    def _check_encode(self):
        out = _encode(self.codec, self.arg)
        access = self.codec.decode is None
        try:
            models = read_back(self.codec, self.schema, out, access)
        except Fail as e:
            raise Fail(f"cannot read its own output: {e}") from e
        return document_hash(self.schema, models), out


def latency(
    bench, benches: dict, test: str, fmt: str, data: bytes, budget_ns: int, verify: bool, row, ready=None
) -> int:
    """`run --latency` (protocol.md step 7): one record at a time, each operation timed alone into the
    histogram; writes one `latency` row through `row(kind, **fields)` and returns the exit code.
    `ready()`, when given, is called once everything is prepared, before the warm-up (`--hold`).
    Raises Fail."""
    import gc
    import time

    schema, records = _records(data)
    if not records:
        raise Fail("the dataset has no records (a typed dataset for --latency needs one)", EXIT_INPUT)
    owner = bench
    if bench.baseline:  # the per-record bytes of the format's first row that has a one-record codec
        owner = next((b for b in benches.values() if not b.baseline and fmt in b.formats and test in b.tests), None)
        if owner is None:
            raise Fail(f"no typed row writes {fmt}")
    codec = _lib(owner.codec, fmt, schema, True)
    prepared = [_lib(codec.prepare, r) for r in records]
    wires = [_encode(codec, p) for p in prepared]
    if verify:
        # every record round-trips on its own (outside the timed pass)
        access = codec.decode is None
        for i, (w, r) in enumerate(zip(wires, records, strict=True)):
            got, want = hash_value(read_back(codec, schema, w, access, one=True)), hash_value(r)
            if got != want:
                reason = f"record {i}: hash {got:016x} != {want:016x}"
                row("check", ok=False, hash=f"{got:016x}", expected=f"{want:016x}", reason=reason)
                return 4
    if test == "typed-encode":
        op, args = (_identity, prepared) if bench.baseline else (codec.encode, prepared)
        what = "one record's prepared input" if bench.baseline else "encode one record (prepared outside the pass)"
    else:
        read = codec.decode if codec.decode is not None else codec.access
        op, args = ((lambda d: _identity(copy(d))) if bench.baseline else (lambda d: read(copy(d)))), wires
        what = "copy one record's encoding" + ("" if bench.baseline else " + decode it")
    row(
        "info",
        measures=what + "; each record round-trips on its own, checked before the pass",
        records=len(records),
        histogram="log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)",
    )
    clock = time.perf_counter_ns
    if ready is not None:
        ready()
    for a in args:  # warm-up pass, untimed
        _lib(op, a)
    h = Histogram()
    start = clock()
    while True:
        gc.collect()  # the cyclic GC runs between passes, never inside a timed operation (fairness.md rule 6)
        gc.disable()
        try:
            for a in args:
                t0 = clock()
                op(a)
                h.record(clock() - t0)
        except Exception:
            _lib(op, a)  # the library's failure (it passed the warm-up): reported as its rejection
            raise
        finally:
            gc.enable()
        if h.count >= 100_000 and clock() - start >= budget_ns:
            break
    row(
        "latency",
        count=h.count,
        p50_ns=h.percentile(0.5),
        p99_ns=h.percentile(0.99),
        p999_ns=h.percentile(0.999),
        p9999_ns=h.percentile(0.9999),
        max_ns=h.max,
        buckets=h.buckets(),
    )
    return 0
