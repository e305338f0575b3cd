import bson

from . import Bench

BENCHES = [
    Bench(
        "bson",
        "bson (pymongo)",
        "pymongo",
        ("bson",),
        encode=bson.encode,
        decode=bson.decode,
        notes="pymongo's C extension _cbson",
    )
]
