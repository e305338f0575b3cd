"""The golden documents in vectors/ (spec/hash.md): every type and edge case, each written in every
format that can carry it, with its expected hash. `serbench vectors` rewrites them; a test checks the
committed files are exactly what this module produces."""

from __future__ import annotations

import json
from pathlib import Path

from ..objhash import HASH_VERSION, hash_value, hex64
from .formats import FORMATS, encode_json

I64_MIN = -(1 << 63)
I64_MAX = (1 << 63) - 1


def _nest(depth: int, leaf, kind: str = "array"):
    v = leaf
    for i in range(depth):
        v = [v] if kind == "array" or i % 2 else {"d": v}
    return v


LANE_LENGTHS = (15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97, 200)


def _varied(n: int) -> str:
    return "".join(chr(ord("a") + (i * 7 + n) % 26) for i in range(n))


ESC = '"\\/\b\f\n\r\t\x01\x1f\x7f'
V = [
    ("empty-map", {}),
    ("empty-array", {"a": []}),
    ("empty-nested", {"a": [], "m": {}, "s": "", "aa": [[]], "mm": {"m": {}}}),
    ("null", {"n": None}),
    ("bools", {"t": True, "f": False}),
    ("int-zero", {"i": 0}),
    ("int-small", {"a": [1, -1, 127, 128, -128, -129, 255, 256]}),
    (
        "int-16-32",
        {
            "a": [
                32767,
                32768,
                -32768,
                -32769,
                65535,
                65536,
                2147483647,
                2147483648,
                -2147483648,
                -2147483649,
                4294967295,
                4294967296,
            ]
        },
    ),
    ("int64-min", {"i": I64_MIN}),
    ("int64-max", {"i": I64_MAX}),
    ("int64-extremes", {"a": [I64_MIN, I64_MIN + 1, -1, 0, 1, I64_MAX - 1, I64_MAX]}),
    ("uint-large", {"u": [1 << 32, (1 << 53) + 1, 1 << 62, I64_MAX]}),
    ("int-vs-float", {"i": 1, "f": 1.0}),
    ("float-zero", {"f": 0.0}),
    ("float-neg-zero", {"f": -0.0}),
    (
        "float-17-digits",
        {"a": [0.1, 1 / 3, 2 / 3, 0.30000000000000004, 1.0000000000000002, 9007199254740993.0, 123456789.12345679]},
    ),
    (
        "float-extremes",
        {
            "a": [
                2.2250738585072014e-308,
                1.7976931348623157e308,
                5e-324,
                -1.7976931348623157e308,
                4.9406564584124654e-324,
            ]
        },
    ),
    ("float-exponents", {"a": [1e16, 1e-7, 1.5e300, -2.5e-300, 123e45, 6.02214076e23]}),
    ("float-integral", {"a": [2.0, -3.0, 1e15, 4294967296.0]}),
    ("string-empty", {"s": ""}),
    ("string-ascii", {"s": "hello, world"}),
    ("string-lengths", {"a": ["a" * n for n in (1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255, 256, 65536)]}),
    # Hash v2 takes 32 bytes per step in two lanes, then 16: varied bytes around each boundary, so a
    # swapped lane, word or tail shows.
    ("string-lanes", {"a": [_varied(n) for n in LANE_LENGTHS]}),
    ("string-escapes", {"s": ESC, "q": 'say "hi"', "b": "C:\\path\\file", "nl": "a\nb\r\nc\td"}),
    ("string-control", {"s": "".join(chr(c) for c in range(1, 32))}),
    ("string-utf8-2", {"s": "café ñ ß Ω ж ש"}),
    ("string-utf8-3", {"s": "日本語 € ‰ ☃ ﬀ \u2028\u2029"}),
    ("string-utf8-4", {"s": "😀 𝄞 𠜎 \U0010ffff"}),
    ("string-utf8-mixed", {"s": 'a\u00e9\u20ac\U0001f600\n"z', "k": "\u0800\u07ff\uffff\U00010000"}),
    ("string-json-escaped", {"s": 'é€😀\x01\x1f"\\'}),  # JSON files use \\uXXXX escapes
    ("keys-unicode", {"ключ": 1, "键": 2, "🔑": 3, "a b": 4, "": 5}),
    ("keys-escaped", {'q"uote': 1, "back\\slash": 2, "new\nline": 3, "tab\t": 4}),
    ("map-order-a", {"alpha": 1, "beta": [1, 2], "gamma": {"x": None, "y": True}}),
    ("map-order-b", {"gamma": {"y": True, "x": None}, "beta": [1, 2], "alpha": 1}),
    ("array-order", {"a": [2, 1]}),
    ("array-mixed", {"a": [None, True, False, 0, -1, 1.5, "s", [], {}, [1, [2, [3]]]]}),
    ("array-same-type", {"i": [1, 2, 3, 4, 5], "f": [1.5, 2.5, 3.5], "s": ["x", "yy", "zzz"]}),
    ("deep-array-64", {"d": _nest(64, 1, "array")}),
    ("deep-mixed-40", {"d": _nest(40, "leaf", "mixed")}),
    ("wide-map", {f"k{i}": i for i in range(300)}),
    ("wide-array", {"a": list(range(-500, 500))}),
    ("micro-like", {"data": [{"one": 1}] * 5 + [[1, 2, 3]] * 5}),
    (
        "all-types",
        {
            "n": None,
            "b": True,
            "i": -42,
            "u": 42,
            "f": 3.141592653589793,
            "s": "π",
            "a": [1, "two", 3.0],
            "m": {"k": "v"},
        },
    ),
    ("binary-empty", {"b": b""}),
    ("binary-bytes", {"b": bytes(range(256)), "short": b"\x00\x01", "s": "not binary"}),
    ("binary-lanes", {"a": [_varied(n).encode() for n in LANE_LENGTHS]}),
]

JSON_ASCII = {"string-json-escaped"}


def vector_files(name: str, doc) -> dict[str, bytes]:
    """Every format that can carry doc: {format id: bytes}."""
    out: dict[str, bytes] = {}
    has_binary = "binary" in name
    for fid, fmt in FORMATS.items():
        if has_binary and not fmt.binary_ok:
            continue
        if fid == "ubjson" or fid == "ubjson-plain":
            if has_binary:
                continue
        if name in JSON_ASCII and fid.startswith("json"):
            out[fid] = encode_json(doc, pretty=fid == "json-pretty", ascii_only=True)
        else:
            out[fid] = fmt.encode(doc)
    return out


def write_vectors(dest: Path) -> int:
    """Write vectors/<name>.<ext> and vectors/vectors.json; returns the number of vectors."""
    dest.mkdir(parents=True, exist_ok=True)
    index = []
    for name, doc in V:
        files = {}
        for fid, data in vector_files(name, doc).items():
            fname = f"{name}.{FORMATS[fid].ext}"
            (dest / fname).write_bytes(data)
            files[fid] = fname
        index.append({"name": name, "hash": hex64(hash_value(doc)), "files": files})
    doc = {
        "hash_version": HASH_VERSION,
        "note": "Golden documents; see spec/hash.md. Generated by `serbench vectors`.",
        "vectors": index,
    }
    (dest / "vectors.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return len(index)
