import io

import ijson

from ..hashing import ModelError, StreamHasher, hash_events
from . import Bench, lib_iter

_backend = ijson.get_backend("yajl2_c")


def _events(data: bytes):
    # use_float: doubles come as float, not Decimal, so they can hash as float64.
    return _backend.basic_parse(io.BytesIO(data), use_float=True)


def _hash(data: bytes) -> int:
    h = StreamHasher()
    on = {
        "start_map": lambda _: h.start_map(),
        "end_map": lambda _: h.end_map(),
        "start_array": lambda _: h.start_array(),
        "end_array": lambda _: h.end_array(),
        "map_key": h.key,
        "null": lambda _: h.null(),
        "boolean": h.boolean,
        "integer": h.integer,
        "double": h.double,
        "number": lambda v: h.integer(v) if isinstance(v, int) else h.double(v),
        "string": h.string,
    }
    # the events come from the library (each step through lib_iter); the hasher is the harness's: an
    # event sequence it cannot take is the library's result outside the data model
    try:
        for event, value in lib_iter(_events(data)):
            on[event](value)
        return h.value()
    except (ValueError, KeyError) as e:
        raise ModelError(f"ijson's events do not form a document of the data model: {e}") from e


BENCHES = [
    Bench(
        "ijson-yajl2c",
        "ijson (yajl2_c)",
        "ijson",
        ("json", "json-pretty"),
        stream=lambda d: hash_events(_events(d)),
        stream_hash=_hash,
        notes="pull events from the yajl2_c backend; the timed loop feeds them to the streaming hash in C "
        "(sbwalk.hash_events)",
    )
]
