import umsgpack

from . import Bench

BENCHES = [
    Bench(
        "u-msgpack-python",
        "u-msgpack-python",
        "u-msgpack-python",
        ("msgpack",),
        encode=umsgpack.packb,
        decode=umsgpack.unpackb,
        notes="pure Python (umsgpack), a single module; floats packed as float64",
    )
]
