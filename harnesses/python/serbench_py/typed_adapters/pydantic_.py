"""pydantic v2 models: model_validate_json / model_dump_json (pydantic-core, Rust) of a RootModel holding
the list of records. model_dump_json returns str: the loop encodes it to UTF-8 bytes, as a user sending
it anywhere does."""

from __future__ import annotations

import pydantic

from .. import typed
from ..typed import Side
from . import ENC_DEC, Codec, TypedBench, each


class Product(pydantic.BaseModel):
    id: int
    name: str
    price: float
    in_stock: bool
    tags: list[str]


class Trade(pydantic.BaseModel):
    price: float
    flag: bool
    text: str
    side: Side
    small_int: int
    long_int: int


class Point(pydantic.BaseModel):
    x: float
    y: float
    z: float


class Inner(pydantic.BaseModel):
    label: str
    point: Point


class Nested(pydantic.BaseModel):
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


MAKE = {"product": Product, "trade": Trade, "point": Point, "inner": Inner, "nested": Nested}
LISTS = {name: pydantic.RootModel[list[cls]] for name, cls in MAKE.items() if name in typed.SCHEMAS}


def _dump(model: pydantic.BaseModel) -> bytes:
    return model.model_dump_json().encode("utf-8")


def _codec(_fmt: str, schema: str, one: bool) -> Codec:
    cls, many = MAKE[schema], LISTS[schema]
    build = each(lambda r: typed.build(r, schema, MAKE), one)
    return Codec(
        prepare=build if one else (lambda records: many(build(records))),
        encode=_dump,
        decode=(cls if one else many).model_validate_json,
        records=lambda m: m.root,
        model=lambda r: typed.to_model(r, schema),
    )


BENCHES = [
    TypedBench(
        "pydantic",
        "pydantic",
        "pydantic",
        ("json",),
        _codec,
        ENC_DEC,
        notes="pydantic v2 BaseModel types (pydantic-core); RootModel[list[T]].model_validate_json / "
        "model_dump_json().encode() (str to UTF-8 bytes in the loop)",
    )
]
