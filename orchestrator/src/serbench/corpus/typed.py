"""Typed record datasets (spec/typed.md): deterministic from a seed, records as plain dicts.

`generate_typed(seed)` returns {dataset name: list of records}; enums are their names ("Buy"/"Sell").
`typed_document(dataset, records)` is what a typed file holds: {"schema": ..., "records": [...]},
whose object hash (spec/hash.md) is the dataset's expected hash.
`theoretical_payload_bytes(dataset, records)` is the sum of the raw field sizes (the size floor the
report compares encodings with); `latency_datasets` names the datasets measured one record at a time.
The whole generation takes well under a second.
"""

from __future__ import annotations

import random
import string

PRODUCT_COUNT = 10_000
#: product-large has names of 5,000-10,000 characters; 1,000 records (about 7.5 MB) keep quick mode quick
PRODUCT_LARGE_COUNT = 1_000
TRADE_COUNT = 10_000
NESTED_COUNT = 100
#: nested records have children to this depth (root 0, children 1, grandchildren 2 with no children)
NESTED_MAX_DEPTH = 2

#: datasets benchmarked one record at a time with latency percentiles (spec/protocol.md `--latency`)
latency_datasets = {"trade", "trade-seed"}
#: datasets a run measures only when named (`--dataset`): `trade-seed` is one record, there to set
#: sizes and latency beside a published table, and would add a cell per typed row to every default run
opt_in_datasets = {"trade-seed"}

SCHEMAS = {
    "product": "product",
    "product-large": "product",
    "trade": "trade",
    "nested": "nested",
    "trade-seed": "trade",
}

#: `trade-seed` (issue 19): the one message of Chronicle Wire's published comparison of wire formats
#: (price 1234, flag true, text "Hello World!", side Sell, smallInt 123, longInt 1234567890), so the
#: report's encoded sizes can be set beside that table byte for byte. Not drawn from the seed.
TRADE_SEED = {
    "price": 1234.0,
    "flag": True,
    "text": "Hello World!",
    "side": "Sell",
    "small_int": 123,
    "long_int": 1234567890,
}

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


#: 256 -> 52 letters: random bytes translated to letters (fast for product-large's long names)
_LETTER_TABLE = bytes(ord(_LETTERS[i % len(_LETTERS)]) for i in range(256))

#: field types per record type, in schema order (spec/typed.md, spec/schemas/typed.*).
#: Scalars: u8..u64, i8..i64, f32, f64, bool, string, enum; ("list", T); ("map", "string", T);
#: ("optional", T); ("struct", name).
FIELDS: dict[str, list[tuple[str, object]]] = {
    "product": [
        ("id", "u64"),
        ("name", "string"),
        ("price", "f64"),
        ("in_stock", "bool"),
        ("tags", ("list", "string")),
    ],
    "trade": [
        ("price", "f64"),
        ("flag", "bool"),
        ("text", "string"),
        ("side", "enum"),
        ("small_int", "i32"),
        ("long_int", "i64"),
    ],
    "point": [("x", "f64"), ("y", "f64"), ("z", "f32")],
    "inner": [("label", "string"), ("point", ("struct", "point"))],
    "nested": [
        *[(t, t) for t in ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64")],
        ("flag", "bool"),
        ("name", "string"),
        *[(t + "s", ("list", t)) for t in ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64")],
        ("flags", ("list", "bool")),
        ("names", ("list", "string")),
        ("counts", ("map", "string", "i64")),
        ("note", ("optional", "string")),
        ("inner", ("struct", "inner")),
        ("children", ("list", ("struct", "nested"))),
    ],
}

#: raw size in bytes of each scalar type (theoretical payload, spec/typed.md)
_RAW = {"u8": 1, "i8": 1, "bool": 1, "enum": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "f32": 4}
_RAW.update({"u64": 8, "i64": 8, "f64": 8})


def _int_range(t: str) -> tuple[int, int]:
    bits = int(t[1:])
    return (0, (1 << bits) - 1) if t[0] == "u" else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def _f32(rng: random.Random) -> float:
    """An exactly representable float32 (17 significant bits at most), as a Python float."""
    return rng.randint(-(1 << 16), 1 << 16) / 256.0


def _nonzero_float(x: float) -> float:
    return x if x != 0.0 else 0.5  # no -0.0/0.0 ambiguity for proto3 (spec/typed.md)


def _product(rng: random.Random, name_len: tuple[int, int] = (5, 10)) -> dict:
    price = 1.0 + rng.random() * 999.0
    while price >= 1000.0:  # keep the half-open range exact
        price = 1.0 + rng.random() * 999.0
    n = rng.randint(*name_len)
    if n > 100:
        name = rng.randbytes(n).translate(_LETTER_TABLE).decode("ascii")
    else:
        name = "".join(rng.choice(_LETTERS) for _ in range(n))
    return {
        "id": rng.getrandbits(64),  # full uint64 range
        "name": name,
        "price": price,
        "in_stock": rng.random() < 0.5,
        "tags": [rng.choice(_TAGS) for _ in range(rng.randint(0, 5))],
    }


def _product_large(rng: random.Random) -> dict:
    return _product(rng, (5_000, 10_000))


def _trade(rng: random.Random) -> dict:
    return {
        "price": rng.uniform(0.01, 100_000.0),
        "flag": rng.random() < 0.5,
        "text": "".join(rng.choice(_TEXT) for _ in range(rng.randint(8, 40))),
        "side": rng.choice(("Buy", "Sell")),
        "small_int": rng.randint(INT32_MIN, INT32_MAX),
        "long_int": rng.randint(INT64_MIN, INT64_MAX),
    }


def _word(rng: random.Random) -> str:
    return rng.choice(_TAGS) + "-" + "".join(rng.choice(_LETTERS) for _ in range(rng.randint(1, 6)))


def _scalar(rng: random.Random, t: str):
    if t == "f32":
        return _f32(rng)
    if t == "f64":
        return _nonzero_float(rng.uniform(-1e6, 1e6))
    if t == "bool":
        return rng.random() < 0.5
    if t == "string":
        return _word(rng)
    lo, hi = _int_range(t)
    return rng.choice((lo, hi, rng.randint(lo, hi), rng.randint(lo, hi)))  # the extremes are common


def _nested(rng: random.Random, depth: int = 0) -> dict:
    rec: dict = {}
    for name, t in FIELDS["nested"]:
        if isinstance(t, str):
            rec[name] = _scalar(rng, t)
        elif t[0] == "list" and t[1] != ("struct", "nested"):
            rec[name] = [_scalar(rng, t[1]) for _ in range(rng.randint(0, 4))]
    rec["counts"] = {_word(rng): _scalar(rng, "i64") for _ in range(rng.randint(0, 3))}
    rec["note"] = _word(rng) if rng.random() < 0.5 else None
    rec["inner"] = {
        "label": _word(rng),
        "point": {"x": _scalar(rng, "f64"), "y": _scalar(rng, "f64"), "z": _f32(rng)},
    }
    n_children = rng.randint(0, 3) if depth < NESTED_MAX_DEPTH else 0
    rec["children"] = [_nested(rng, depth + 1) for _ in range(n_children)]
    return rec


def generate_typed(seed: int) -> dict[str, list[dict]]:
    """All typed datasets for one seed (each dataset has its own stream, so counts are independent)."""
    out: dict[str, list[dict]] = {}
    for i, (name, make, count) in enumerate(
        (
            ("product", _product, PRODUCT_COUNT),
            ("product-large", _product_large, PRODUCT_LARGE_COUNT),
            ("trade", _trade, TRADE_COUNT),
            ("nested", _nested, NESTED_COUNT),
        )
    ):
        rng = random.Random(f"serbench-typed-{seed}-{i}-{name}")
        out[name] = [make(rng) for _ in range(count)]
    out["trade-seed"] = [dict(TRADE_SEED)]
    return out


def typed_document(dataset: str, records: list[dict]) -> dict:
    """The content of a typed dataset file (JSON): its object hash is the expected hash."""
    return {"schema": SCHEMAS[dataset], "records": records}


def _payload(t, v) -> int:
    if isinstance(t, str):
        return len(v.encode("utf-8")) if t == "string" else _RAW[t]
    kind = t[0]
    if kind == "list":
        return sum(_payload(t[1], x) for x in v)
    if kind == "map":
        return sum(_payload(t[1], k) + _payload(t[2], x) for k, x in v.items())
    if kind == "optional":
        return 0 if v is None else _payload(t[1], v)
    return sum(_payload(ft, v[fn]) for fn, ft in FIELDS[t[1]])  # struct


def theoretical_payload_bytes(dataset: str, records: list[dict]) -> int:
    """The sum of the records' raw field sizes (spec/typed.md): integers, floats, bools and enums at
    their width (u64/i64/f64 8, u32/i32/f32 4, u16/i16 2, u8/i8/bool/enum 1), strings at their UTF-8
    length, an absent optional 0; lists, maps and structs add nothing of their own."""
    schema = ("struct", SCHEMAS[dataset])
    return sum(_payload(schema, r) for r in records)
