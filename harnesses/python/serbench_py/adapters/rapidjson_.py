import rapidjson

from . import JSON_FORMATS, Bench


def _encode(obj) -> bytes:
    return rapidjson.dumps(obj, ensure_ascii=False).encode("utf-8")


BENCHES = [
    Bench(
        "python-rapidjson",
        "python-rapidjson",
        "python-rapidjson",
        JSON_FORMATS,
        encode=_encode,
        decode=rapidjson.loads,
        notes="RapidJSON C++ wrapper, default number mode",
    )
]
