import yyjson

from . import JSON_FORMATS, Bench


def _encode(obj) -> bytes:
    # Document(obj).dumps() returns str (minified, non-ASCII unescaped); the row's output is UTF-8 bytes.
    return yyjson.Document(obj).dumps().encode("utf-8")


def _decode(data: bytes):
    return yyjson.Document(data).as_obj


BENCHES = [
    Bench(
        "yyjson",
        "yyjson (Python)",
        "yyjson",
        JSON_FORMATS,
        encode=_encode,
        decode=_decode,
        notes="TkTech's binding, bundling yyjson 0.10.0 (C); Document(...).dumps() / Document(bytes).as_obj",
    )
]
