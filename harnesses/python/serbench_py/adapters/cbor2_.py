import cbor2

from . import Bench

BENCHES = [
    Bench(
        "cbor2",
        "cbor2",
        "cbor2",
        ("cbor",),
        encode=cbor2.dumps,
        decode=cbor2.loads,
        notes="Rust (PyO3) extension _cbor2",
    )
]
