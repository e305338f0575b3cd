import simdjson

from . import JSON_FORMATS, Bench

# One Parser, reused: simdjson.loads makes a new Parser (and its buffers) on every call. recursive=True
# turns the whole document into dicts and lists at once; no lazy proxy outlives a parse, so reusing
# the parser is safe (it refuses to reparse while proxies into its last document exist).
_parser = simdjson.Parser()


def _decode(data: bytes):
    return _parser.parse(data, True)


BENCHES = [
    Bench(
        "pysimdjson",
        "pysimdjson",
        "pysimdjson",
        JSON_FORMATS,
        decode=_decode,
        notes="simdjson 3.12.3 (bundled C++); one reused Parser, parse(data, recursive=True) into dicts and "
        "lists; no write (pysimdjson's dumps is the stdlib's json.dumps)",
    )
]
