import io

import msgpack
import msgpack.fallback

from ..hashing import hash_object
from . import Bench, lib_call

CHUNK = 64 * 1024


def _stream(data: bytes):
    # The streaming API: an Unpacker reading a file-like object 64 KiB at a time.
    return next(msgpack.Unpacker(io.BytesIO(data), read_size=CHUNK, raw=False))


BENCHES = [
    Bench(
        "msgpack",
        "msgpack (C extension)",
        "msgpack",
        ("msgpack",),
        encode=msgpack._cmsgpack.Packer().pack,
        decode=msgpack._cmsgpack.unpackb,
        stream=lambda d: hash_object(_stream(d)),
        stream_hash=lambda d: hash_object(lib_call(_stream, d)),
        # the Unpacker gives the whole document as one tree, not events: its loop is a tree row's
        steps={"incremental": ("copy-input", "decode", "visit-all")},
        baseline_of={"incremental": "hash-object"},
        notes="Cython extension; incremental = Unpacker over a stream, 64 KiB reads, into one tree walked with the "
        "tree hash (its steps and baseline are a tree row's)",
    ),
    Bench(
        "msgpack-fallback",
        "msgpack (pure Python)",
        "msgpack",
        ("msgpack",),
        encode=msgpack.fallback.Packer().pack,
        decode=msgpack.fallback.unpackb,
        notes="msgpack.fallback, the pure-Python implementation",
    ),
]
