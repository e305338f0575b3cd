import json

from . import JSON_FORMATS, Bench

_dec = json.JSONDecoder()


def _encode(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _decode(data: bytes):
    return json.loads(data)


BENCHES = [
    Bench(
        "json",
        "json (stdlib)",
        None,
        JSON_FORMATS,
        encode=_encode,
        decode=_decode,
        notes="C accelerator _json; output UTF-8 unescaped",
    )
]
