import ujson

from . import JSON_FORMATS, Bench


def _encode(obj) -> bytes:
    return ujson.dumps(obj, ensure_ascii=False).encode("utf-8")


BENCHES = [Bench("ujson", "ujson", "ujson", JSON_FORMATS, encode=_encode, decode=ujson.loads, notes="C extension")]
