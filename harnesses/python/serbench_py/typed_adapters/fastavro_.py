"""fastavro (Cython): schemaless_writer / schemaless_reader with an Avro schema written for the records
(below). fastavro's records are dicts, enums their symbol names, so the dataset's records are its input
as they are. Avro has no unsigned integers: u8, u16 and u32 travel as int or long, and uint64 as
long, which cannot hold values above INT64_MAX (`product` ids and `nested` u64 fields use the full
range): fastavro refuses those records, and the cells fail with its reason (spec/typed.md)."""

import io

import fastavro

from .. import typed
from . import ENC_DEC, Codec, TypedBench, each

_INT = {"u8": "int", "u16": "int", "u32": "long", "u64": "long", "i8": "int", "i16": "int", "i32": "int"}
_TYPES = {**_INT, "i64": "long", "f32": "float", "f64": "double", "bool": "boolean", "string": "string"}

PRODUCT = {
    "type": "record",
    "name": "Product",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "name", "type": "string"},
        {"name": "price", "type": "double"},
        {"name": "in_stock", "type": "boolean"},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
    ],
}
TRADE = {
    "type": "record",
    "name": "Trade",
    "fields": [
        {"name": "price", "type": "double"},
        {"name": "flag", "type": "boolean"},
        {"name": "text", "type": "string"},
        {"name": "side", "type": {"type": "enum", "name": "Side", "symbols": ["Buy", "Sell"]}},
        {"name": "small_int", "type": "int"},
        {"name": "long_int", "type": "long"},
    ],
}
_SCALARS = ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64")
NESTED = {
    "type": "record",
    "name": "Nested",
    "fields": [
        *({"name": t, "type": _TYPES[t]} for t in _SCALARS),
        {"name": "flag", "type": "boolean"},
        {"name": "name", "type": "string"},
        *({"name": t + "s", "type": {"type": "array", "items": _TYPES[t]}} for t in _SCALARS),
        {"name": "flags", "type": {"type": "array", "items": "boolean"}},
        {"name": "names", "type": {"type": "array", "items": "string"}},
        {"name": "counts", "type": {"type": "map", "values": "long"}},
        {"name": "note", "type": ["null", "string"]},
        {
            "name": "inner",
            "type": {
                "type": "record",
                "name": "Inner",
                "fields": [
                    {"name": "label", "type": "string"},
                    {
                        "name": "point",
                        "type": {
                            "type": "record",
                            "name": "Point",
                            "fields": [
                                {"name": "x", "type": "double"},
                                {"name": "y", "type": "double"},
                                {"name": "z", "type": "float"},
                            ],
                        },
                    },
                ],
            },
        },
        {"name": "children", "type": {"type": "array", "items": "Nested"}},
    ],
}
SCHEMAS = {"product": PRODUCT, "trade": TRADE, "nested": NESTED}


def _item(d: dict, name: str):
    return d[name]


def _codec(_fmt: str, schema: str, one: bool) -> Codec:
    record = SCHEMAS[schema]
    parsed = fastavro.parse_schema(record if one else {"type": "array", "items": record})

    def encode(records) -> bytes:
        out = io.BytesIO()
        fastavro.schemaless_writer(out, parsed, records)
        return out.getvalue()

    return Codec(
        prepare=each(dict, one),  # the records are fastavro's input as they are (a shallow copy of each)
        encode=encode,
        decode=lambda b: fastavro.schemaless_reader(io.BytesIO(b), parsed, None),
        model=lambda r: typed.to_model(r, schema, get=_item, enum=str),
        walk={"mode": "item", "enum": {}},
    )


BENCHES = [
    TypedBench(
        "fastavro",
        "fastavro",
        "fastavro",
        ("avro",),
        _codec,
        ENC_DEC,
        notes="Cython; schemaless_writer / schemaless_reader (BytesIO) with a hand-written Avro schema (an array "
        "of records); records are dicts; no uint64: fails product and nested",
    )
]
