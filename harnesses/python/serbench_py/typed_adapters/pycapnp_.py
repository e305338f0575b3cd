"""pycapnp (Cython over the Cap'n Proto C++ library, bundled in its wheel), with the schema
spec/schemas/typed.capnp loaded at run time (pycapnp needs no generated code). typed-encode builds a
message from the harness's dataclass records field by field and flattens it (to_bytes, the standard
framing); typed-access opens the bytes with from_bytes (bounds-checked as it reads, default traversal
limit 64 MiB) and reads every field through the readers, as the Rust row does; typed-decode opens them
the same way and converts the whole message with to_dict(), pycapnp's own decode into Python objects
(dicts with the schema's camelCase keys, enums as their lowercase names, lists of Count entries).
Cap'n Proto field names are camelCase (inStock); the data model keeps the schema's snake_case names."""

from pathlib import Path

import capnp

from .. import typed
from ..typed import Side
from . import TYPED_TESTS, Codec, TypedBench, each

SCHEMA = capnp.load(str(Path(__file__).resolve().parents[4] / "spec" / "schemas" / "typed.capnp"))
SIDES = {Side.Buy: "buy", Side.Sell: "sell"}
NAMES = {0: "Buy", 1: "Sell"}


# --- build ------------------------------------------------------------------------------------------


def _product(p, r) -> None:
    p.id = r.id
    p.name = r.name
    p.price = r.price
    p.inStock = r.in_stock
    p.tags = r.tags


def _trade(t, r) -> None:
    t.price = r.price
    t.flag = r.flag
    t.text = r.text
    t.side = SIDES[r.side]
    t.smallInt = r.small_int
    t.longInt = r.long_int


def _nested(b, n) -> None:
    b.u8 = n.u8
    b.u16 = n.u16
    b.u32 = n.u32
    b.u64 = n.u64
    b.i8 = n.i8
    b.i16 = n.i16
    b.i32 = n.i32
    b.i64 = n.i64
    b.f32 = n.f32
    b.f64 = n.f64
    b.flag = n.flag
    b.name = n.name
    b.u8s = n.u8s
    b.u16s = n.u16s
    b.u32s = n.u32s
    b.u64s = n.u64s
    b.i8s = n.i8s
    b.i16s = n.i16s
    b.i32s = n.i32s
    b.i64s = n.i64s
    b.f32s = n.f32s
    b.f64s = n.f64s
    b.flags = n.flags
    b.names = n.names
    counts = b.init("counts", len(n.counts))
    for i, (k, v) in enumerate(n.counts.items()):
        counts[i].key = k
        counts[i].value = v
    if n.note is not None:
        b.note = n.note
    b.inner.label = n.inner.label
    point = b.inner.point
    point.x = n.inner.point.x
    point.y = n.inner.point.y
    point.z = n.inner.point.z
    children = b.init("children", len(n.children))
    for i, c in enumerate(n.children):
        _nested(children[i], c)


BUILD = {"product": _product, "trade": _trade, "nested": _nested}
TYPES = {"product": SCHEMA.Product, "trade": SCHEMA.Trade, "nested": SCHEMA.Nested}
LISTS = {"product": SCHEMA.ProductList, "trade": SCHEMA.TradeList, "nested": SCHEMA.NestedList}


def _encoder(schema: str, one: bool):
    build, cls, lst = BUILD[schema], TYPES[schema], LISTS[schema]

    def encode_one(record) -> bytes:
        m = cls.new_message()
        build(m, record)
        return m.to_bytes()

    def encode(records) -> bytes:
        m = lst.new_message()
        recs = m.init("records", len(records))
        for i, r in enumerate(records):
            build(recs[i], r)
        return m.to_bytes()

    return encode_one if one else encode


# --- access: every field through the readers, as tuples in schema order --------------------------------


def _read_product(p) -> tuple:
    return (p.id, p.name, p.price, p.inStock, list(p.tags))


def _read_trade(t) -> tuple:
    return (t.price, t.flag, t.text, t.side.raw, t.smallInt, t.longInt)


def _read_nested(n) -> tuple:
    inner = n.inner
    point = inner.point
    return (
        n.u8,
        n.u16,
        n.u32,
        n.u64,
        n.i8,
        n.i16,
        n.i32,
        n.i64,
        n.f32,
        n.f64,
        n.flag,
        n.name,
        list(n.u8s),
        list(n.u16s),
        list(n.u32s),
        list(n.u64s),
        list(n.i8s),
        list(n.i16s),
        list(n.i32s),
        list(n.i64s),
        list(n.f32s),
        list(n.f64s),
        list(n.flags),
        list(n.names),
        {c.key: c.value for c in n.counts},
        n.note if n._has("note") else None,  # a null pointer is the absent optional
        (inner.label, (point.x, point.y, point.z)),
        [_read_nested(c) for c in n.children],
    )


READ = {"product": _read_product, "trade": _read_trade, "nested": _read_nested}


def _access(schema: str, one: bool):
    read, cls, lst = READ[schema], TYPES[schema], LISTS[schema]

    def access_one(buf) -> tuple:
        with cls.from_bytes(buf) as m:
            return read(m)

    def access(buf) -> list:
        with lst.from_bytes(buf) as m:
            return [read(r) for r in m.records]

    return access_one if one else access


# --- decode: to_dict ----------------------------------------------------------------------------------

CAMEL = {"in_stock": "inStock", "small_int": "smallInt", "long_int": "longInt"}
ENUMS = {"buy": "Buy", "sell": "Sell"}


def _decoder(schema: str, one: bool):
    cls, lst = TYPES[schema], LISTS[schema]

    def decode_one(buf) -> dict:
        with cls.from_bytes(buf) as m:
            return m.to_dict()

    def decode(buf) -> dict:
        with lst.from_bytes(buf) as m:
            return m.to_dict()

    return decode_one if one else decode


def _dict_get(d: dict, name: str):
    v = d.get(CAMEL.get(name, name))  # to_dict leaves an absent optional (a null pointer) out
    if name == "counts" and v is not None:
        return {e["key"]: e["value"] for e in v}
    return v


def _codec(_fmt: str, schema: str, one: bool) -> Codec:
    return Codec(
        prepare=each(lambda r: typed.build(r, schema, typed.NATIVE), one),
        encode=_encoder(schema, one),
        decode=_decoder(schema, one),
        records=lambda d: d["records"],
        model=lambda d: typed.to_model(d, schema, get=_dict_get, enum=lambda v: ENUMS.get(v, v)),
        access=_access(schema, one),
        access_model=lambda t: typed.to_model(t, schema, get=None, enum=lambda v: NAMES.get(v, v)),
        walk={"mode": "item", "keys": CAMEL, "enum": ENUMS, "entries": ("key", "value")},
        access_walk={"enum": NAMES},
    )


BENCHES = [
    TypedBench(
        "pycapnp",
        "pycapnp",
        "pycapnp",
        ("capnp",),
        _codec,
        TYPED_TESTS,
        notes="Cython over the bundled C++ library; schema loaded at run time; build from the dataclass records field "
        "by field + to_bytes; access = from_bytes (bounds-checked) + every field through the readers; decode = "
        "from_bytes + to_dict()",
    )
]
