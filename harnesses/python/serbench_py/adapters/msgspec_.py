import msgspec

from . import JSON_FORMATS, Bench

# One Encoder and Decoder per format, made once: msgspec's documented way to encode or decode many
# messages (the module-level encode/decode functions look up a cached default instance per call).
# Decoder() with no type decodes into Any: dict, list, str, int, float, bool, None (and bytes, msgpack).
_json_enc, _json_dec = msgspec.json.Encoder(), msgspec.json.Decoder()
_mp_enc, _mp_dec = msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder()

BENCHES = [
    Bench(
        "msgspec-json",
        "msgspec",
        "msgspec",
        JSON_FORMATS,
        encode=_json_enc.encode,
        decode=_json_dec.decode,
        notes="C extension; schemaless (decode into Any); reused json.Encoder / json.Decoder",
    ),
    Bench(
        "msgspec-msgpack",
        "msgspec",
        "msgspec",
        ("msgpack",),
        encode=_mp_enc.encode,
        decode=_mp_dec.decode,
        notes="C extension; schemaless (decode into Any); reused msgpack.Encoder / msgpack.Decoder",
    ),
]
