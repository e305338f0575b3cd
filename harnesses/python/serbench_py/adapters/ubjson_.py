import ubjson

from . import Bench

BENCHES = [
    Bench(
        "py-ubjson",
        "py-ubjson",
        "py-ubjson",
        ("ubjson", "ubjson-plain"),
        encode=ubjson.dumpb,
        decode=ubjson.loadb,
        notes="C extension" if ubjson.EXTENSION_ENABLED else "pure Python (C extension not built)",
    )
]
