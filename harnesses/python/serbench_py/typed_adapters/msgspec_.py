"""msgspec with Struct types (JSON and MessagePack): typed encoders and decoders, validating the types
while decoding. `msgspec-typed`: structs written as maps (msgspec's default); `msgspec-typed-array`:
the same structs declared `array_like=True`, written as arrays of their fields in order (the layout of
Rust's rmp-serde row). Enums by value."""

from __future__ import annotations

import msgspec

from .. import typed
from ..typed import Side
from . import ENC_DEC, Codec, TypedBench, each


class Product(msgspec.Struct):
    id: int
    name: str
    price: float
    in_stock: bool
    tags: list[str]


class Trade(msgspec.Struct):
    price: float
    flag: bool
    text: str
    side: Side
    small_int: int
    long_int: int


class Point(msgspec.Struct):
    x: float
    y: float
    z: float


class Inner(msgspec.Struct):
    label: str
    point: Point


class Nested(msgspec.Struct):
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


# array_like variants: the same fields; the struct-typed fields re-declared with the array_like types
class ProductArray(Product, array_like=True):
    pass


class TradeArray(Trade, array_like=True):
    pass


class PointArray(Point, array_like=True):
    pass


class InnerArray(Inner, array_like=True):
    point: PointArray


class NestedArray(Nested, array_like=True):
    inner: InnerArray
    children: list[NestedArray]


MAKE = {"product": Product, "trade": Trade, "point": Point, "inner": Inner, "nested": Nested}
MAKE_ARRAY = {"product": ProductArray, "trade": TradeArray, "point": PointArray, "inner": InnerArray}
MAKE_ARRAY["nested"] = NestedArray
MODULES = {"json": msgspec.json, "msgpack": msgspec.msgpack}


def _codec_of(make: dict):
    def codec(fmt: str, schema: str, one: bool) -> Codec:
        mod, cls = MODULES[fmt], make[schema]
        return Codec(
            prepare=each(lambda r: typed.build(r, schema, make), one),
            encode=mod.Encoder().encode,
            decode=mod.Decoder(cls if one else list[cls]).decode,
            model=lambda r: typed.to_model(r, schema),
        )

    return codec


_codec = _codec_of(MAKE)


BENCHES = [
    TypedBench(
        "msgspec-typed",
        "msgspec",
        "msgspec",
        ("json", "msgpack"),
        _codec,
        ENC_DEC,
        notes="msgspec.Struct types; msgspec.json / msgspec.msgpack Encoder().encode and Decoder(list[T]).decode "
        "(typed, validating); structs as maps",
    ),
    TypedBench(
        "msgspec-typed-array",
        "msgspec",
        "msgspec",
        ("json", "msgpack"),
        _codec_of(MAKE_ARRAY),
        ENC_DEC,
        notes="as msgspec-typed, with array_like=True structs: each record an array of its fields in order (the "
        "layout of rmp-serde's default)",
    ),
]
