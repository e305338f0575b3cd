import simplejson

from . import JSON_FORMATS, Bench


def _encode(obj) -> bytes:
    return simplejson.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


BENCHES = [
    Bench(
        "simplejson",
        "simplejson",
        "simplejson",
        JSON_FORMATS,
        encode=_encode,
        decode=simplejson.loads,
        notes="C speedups",
    )
]
