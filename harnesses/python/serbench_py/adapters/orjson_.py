import orjson

from . import JSON_FORMATS, Bench

BENCHES = [
    Bench(
        "orjson",
        "orjson",
        "orjson",
        JSON_FORMATS,
        encode=orjson.dumps,
        decode=orjson.loads,
        notes="Rust extension; dumps returns bytes",
    )
]
