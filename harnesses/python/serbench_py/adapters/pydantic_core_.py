import pydantic_core

from . import JSON_FORMATS, Bench

BENCHES = [
    Bench(
        "pydantic-core",
        "pydantic-core",
        "pydantic-core",
        JSON_FORMATS,
        decode=pydantic_core.from_json,
        notes="Rust extension (jiter inside); from_json into Python objects with defaults (string cache on); "
        "decode only",
    )
]
