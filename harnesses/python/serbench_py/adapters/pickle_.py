import pickle

from . import Bench


def _dumps(obj) -> bytes:
    return pickle.dumps(obj, protocol=5)


BENCHES = [
    Bench(
        "pickle",
        "pickle (stdlib)",
        None,
        ("pickle",),
        encode=_dumps,
        decode=pickle.loads,
        reads="msgpack",
        notes="C accelerator _pickle, protocol 5; the reference row every Python user compares with. pickle is "
        "no corpus format: the document is read from the MessagePack corpus file (`reads`, spec/protocol.md); "
        "write pickles it (checked by pickle.loads and the hash), tree unpickles pickle's own output of it, "
        "made outside the loop (never the input file: unpickling untrusted bytes runs code); output sizes are "
        "pickle's",
    )
]
