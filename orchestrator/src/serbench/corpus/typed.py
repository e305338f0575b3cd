"""Typed record datasets (spec/typed.md): deterministic from a seed, records as plain dicts.

`generate_typed(seed)` returns {dataset name: list of records}; enums are their names ("Buy"/"Sell").
`typed_document(dataset, records)` is what a typed file holds: {"schema": ..., "records": [...]},
whose object hash (spec/hash.md) is the dataset's expected hash.
"""

from __future__ import annotations

import random
import string

PRODUCT_COUNT = 10_000
PRODUCT_LARGE_COUNT = 100_000
TRADE_COUNT = 10_000
NESTED_COUNT = 100
#: levels per nested record (root = depth 0); stays under prost's default recursion limit of 100
NESTED_DEPTH = 96

#: dataset -> schema (the record type, spec/schemas/typed.*)
SCHEMAS = {"product": "product", "product-large": "product", "trade": "trade", "nested": "nested"}

_LETTERS = string.ascii_letters
_TEXT = string.ascii_letters + string.digits + " "
_TAGS = [
    "red",
    "green",
    "blue",
    "small",
    "large",
    "new",
    "sale",
    "eco",
    "gift",
    "home",
    "garden",
    "kitchen",
    "sport",
    "kids",
    "office",
    "travel",
    "vintage",
    "handmade",
    "bulk",
    "premium",
    "basic",
    "outdoor",
    "winter",
    "summer",
    "café",
    "naïve",
    "über",
    "日本",
    "東京",
    "ok",
    "a",
    "limited",
]
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def _product(rng: random.Random) -> dict:
    price = 1.0 + rng.random() * 999.0
    while price >= 1000.0:  # keep the half-open range exact
        price = 1.0 + rng.random() * 999.0
    return {
        "id": rng.getrandbits(64),  # full uint64 range
        "name": "".join(rng.choice(_LETTERS) for _ in range(rng.randint(5, 10))),
        "price": price,
        "in_stock": rng.random() < 0.5,
        "tags": [rng.choice(_TAGS) for _ in range(rng.randint(0, 5))],
    }


def _trade(rng: random.Random) -> dict:
    return {
        "price": rng.uniform(0.01, 100_000.0),
        "flag": rng.random() < 0.5,
        "text": "".join(rng.choice(_TEXT) for _ in range(rng.randint(8, 40))),
        "side": rng.choice(("Buy", "Sell")),
        "small_int": rng.randint(INT32_MIN, INT32_MAX),
        "long_int": rng.randint(INT64_MIN, INT64_MAX),
    }


def _nested(rng: random.Random) -> dict:
    node = None
    for depth in range(NESTED_DEPTH - 1, -1, -1):
        node = {"depth": depth, "name": f"level-{depth}", "value": rng.random(), "child": node}
    return node


def generate_typed(seed: int) -> dict[str, list[dict]]:
    """All typed datasets for one seed (each dataset has its own stream, so counts are independent)."""
    out: dict[str, list[dict]] = {}
    for i, (name, make, count) in enumerate(
        (
            ("product", _product, PRODUCT_COUNT),
            ("product-large", _product, PRODUCT_LARGE_COUNT),
            ("trade", _trade, TRADE_COUNT),
            ("nested", _nested, NESTED_COUNT),
        )
    ):
        rng = random.Random(f"serbench-typed-{seed}-{i}-{name}")
        out[name] = [make(rng) for _ in range(count)]
    return out


def typed_document(dataset: str, records: list[dict]) -> dict:
    """The content of a typed dataset file (JSON): its object hash is the expected hash."""
    return {"schema": SCHEMAS[dataset], "records": records}
