import ormsgpack

from . import Bench

BENCHES = [
    Bench(
        "ormsgpack",
        "ormsgpack",
        "ormsgpack",
        ("msgpack",),
        encode=ormsgpack.packb,
        decode=ormsgpack.unpackb,
        notes="Rust extension",
    )
]
