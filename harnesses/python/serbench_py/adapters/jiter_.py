import jiter

from . import JSON_FORMATS, Bench

BENCHES = [
    Bench(
        "jiter",
        "jiter",
        "jiter",
        JSON_FORMATS,
        decode=jiter.from_json,
        notes="Rust extension; from_json with defaults (string cache 'all', floats as float); decode only",
    )
]
