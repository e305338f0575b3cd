"""pickle (standard library), protocol 5, of the harness's dataclass records: the row every Python user
compares with. Decode is pickle.loads (safe here only because the bytes are the row's own)."""

import pickle

from .. import typed
from . import ENC_DEC, Codec, TypedBench, each


def _encode(records) -> bytes:
    return pickle.dumps(records, protocol=5)


def _codec(_fmt: str, schema: str, one: bool) -> Codec:
    return Codec(
        prepare=each(lambda r: typed.build(r, schema, typed.NATIVE), one),
        encode=_encode,
        decode=pickle.loads,
        model=lambda r: typed.to_model(r, schema),
    )


BENCHES = [
    TypedBench(
        "pickle-typed",
        "pickle",
        None,
        ("pickle",),
        _codec,
        ENC_DEC,
        notes="standard library; pickle.dumps(protocol=5) / pickle.loads of a list of dataclasses (enum by reference)",
    )
]
