"""Baselines subtracted from the rows (spec/fairness.md rule 5): each does the hashing work of the rows
it stands for, with the harness's C walks (sbwalk), and no library. Each builds its timed op from the
input file's bytes and the reference decoder's object (`base_op`)."""

from ..hashing import hash_binary, hash_events, hash_object, model_events
from . import Bench

ALL = ("json", "json-pretty", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain")


def _copy(data: bytes) -> bytes:
    return bytes(memoryview(data))  # a real copy (fairness rule 1), as every read row's


def _hash_data(data: bytes, _obj):
    return hash_binary, data


def _hash_object(data: bytes, obj):
    def op(d, copy=_copy, walk=hash_object, obj=obj):
        copy(d)
        return walk(obj)

    return op, data


def _hash_events(data: bytes, obj):
    events = model_events(obj)

    def op(d, copy=_copy, feed=hash_events, events=events):
        copy(d)
        return feed(events)

    return op, data


BENCHES = [
    Bench(
        "hash-data",
        "baseline",
        None,
        ALL,
        baseline=True,
        baseline_tests=("write",),
        base_op=_hash_data,
        notes="hashes the input file's bytes with sbwalk.hash_binary: the hash of its output every write row does",
    ),
    Bench(
        "hash-object",
        "baseline",
        None,
        ALL,
        baseline=True,
        baseline_tests=("tree",),
        base_op=_hash_object,
        notes="copies the input bytes and walks the harness's own object (the reference decoder's dicts, lists, "
        "str, int, float, bool, None, bytes: the types the decoders give) with sbwalk.hash_object, the walk every "
        "tree row runs over its library's result",
    ),
    Bench(
        "hash-events",
        "baseline",
        None,
        ALL,
        baseline=True,
        baseline_tests=("incremental",),
        base_op=_hash_events,
        notes="copies the input bytes and feeds the harness's object as ijson's (event, value) pairs (a list made "
        "outside the loop) to sbwalk.hash_events, the streaming hash every event row runs over its parser's events",
    ),
]
