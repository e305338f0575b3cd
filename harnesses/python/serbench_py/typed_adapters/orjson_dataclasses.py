"""orjson with dataclasses: orjson.dumps serialises the harness's dataclass records natively; decode is
orjson.loads followed by the dataclass constructors, the code a user writes (orjson has no typed decode)."""

import orjson

from .. import typed
from ..typed import Inner, Nested, Point, Product, Side, Trade
from . import ENC_DEC, Codec, TypedBench, each


def _product(d: dict) -> Product:
    return Product(**d)


def _trade(d: dict) -> Trade:
    d["side"] = Side(d["side"])
    return Trade(**d)


def _nested(d: dict) -> Nested:
    inner = d["inner"]
    d["inner"] = Inner(inner["label"], Point(**inner["point"]))
    d["children"] = [_nested(c) for c in d["children"]]
    return Nested(**d)


MAKE = {"product": _product, "trade": _trade, "nested": _nested}


def _codec(_fmt: str, schema: str, one: bool) -> Codec:
    make = MAKE[schema]
    return Codec(
        prepare=each(lambda r: typed.build(r, schema, typed.NATIVE), one),
        encode=orjson.dumps,
        decode=(lambda b: make(orjson.loads(b))) if one else (lambda b: [make(d) for d in orjson.loads(b)]),
        model=lambda r: typed.to_model(r, schema),
    )


BENCHES = [
    TypedBench(
        "orjson-dataclasses",
        "orjson",
        "orjson",
        ("json",),
        _codec,
        ENC_DEC,
        notes="orjson.dumps of dataclasses (native support; enums by value); decode = orjson.loads + the dataclass "
        "constructors (Python code, nested records recursively)",
    )
]
