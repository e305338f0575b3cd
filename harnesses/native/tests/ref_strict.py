#!/usr/bin/env python3
"""ctest: the native reference decoder is strict (spec/data-model.md, spec/protocol.md exit 6).

usage: ref_strict.py <serbench-native> <repo root>

Each case is a small input in one format, given to `verify --bench hash-data --test write` (which
decodes the file with the reference decoder, and its output, the same bytes, again). A valid input
must print the object hash of the expected value; an invalid one must exit 6 with an `error` naming
the reason. Then `run` on a rejected input must write an `error` row and exit 6 (never 3: the input
is at fault, not a library).
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

from protocol import limits


class R:
    """An expected rejection; `why` must appear in the error."""

    def __init__(self, why: str) -> None:
        self.why = why


def bson(body: bytes) -> bytes:
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def belem(t: int, key: bytes, payload: bytes) -> bytes:
    return bytes([t]) + key + b"\x00" + payload


def bstr(s: bytes) -> bytes:
    return struct.pack("<i", len(s) + 1) + s + b"\x00"


F64_NAN = struct.pack(">d", float("nan"))

CASES: list[tuple[str, str, bytes, object]] = [
    # --- JSON (RFC 8259) ---
    (
        "json",
        "every type",
        b'{"n":null,"t":true,"f":false,"i":-42,"u":18446744073709551615,"d":1.5,"s":"\\u00e9\xc3\xa9","a":[],"m":{}}',
        {"n": None, "t": True, "f": False, "i": -42, "u": 18446744073709551615, "d": 1.5, "s": "éé", "a": [], "m": {}},
    ),
    ("json", "whitespace", b' \n{ "a" : [ 1 , 2 ] }\t\r\n', {"a": [1, 2]}),
    ("json", "int64 min", b'{"a":-9223372036854775808}', {"a": -9223372036854775808}),
    ("json", "-0 is the integer 0", b'{"a":-0}', {"a": 0}),
    ("json", "float exponent", b'{"a":1E+2,"b":-2.5e-3}', {"a": 100.0, "b": -0.0025}),
    ("json", "underflow to 0.0 (as Python)", b'{"a":1e-400}', {"a": 0.0}),
    ("json", "surrogate pair", b'{"a":"\\ud83d\\ude00"}', {"a": "\U0001f600"}),
    ("json", "escapes", b'{"a":"\\"\\\\\\/\\b\\f\\n\\r\\t"}', {"a": '"\\/\b\f\n\r\t'}),
    ("json", "empty input", b"", R("empty input")),
    ("json", "trailing comma in a map", b'{"a":1,}', R("expected a string key")),
    ("json", "trailing comma in an array", b'{"a":[1,]}', R("expected a value")),
    ("json", "leading zero", b'{"a":01}', R("expected ','")),
    ("json", "NaN", b'{"a":NaN}', R("expected a value")),
    ("json", "Infinity", b'{"a":-Infinity}', R("expected a digit")),
    ("json", "1e400 overflows", b'{"a":1e400}', R("overflows a double")),
    ("json", "above uint64", b'{"a":18446744073709551616}', R("does not fit int64 or uint64")),
    ("json", "below int64", b'{"a":-9223372036854775809}', R("does not fit int64 or uint64")),
    ("json", "lone high surrogate", b'{"a":"\\ud800"}', R("lone high surrogate")),
    ("json", "lone low surrogate", b'{"a":"\\udc00"}', R("lone low surrogate")),
    ("json", "high surrogate then a non-surrogate", b'{"a":"\\ud800\\u0041"}', R("not followed by a low surrogate")),
    ("json", "duplicate key", b'{"a":1,"a":2}', R('duplicate key "a"')),
    ("json", "NUL escaped", b'{"a":"\\u0000"}', R("NUL")),
    ("json", "raw control character", b'{"a":"\x01"}', R("must be escaped")),
    ("json", "invalid UTF-8", b'{"a":"\xff"}', R("not valid UTF-8")),
    ("json", "overlong UTF-8", b'{"a":"\xc0\xaf"}', R("not valid UTF-8")),
    ("json", "UTF-8 encoded surrogate", b'{"a":"\xed\xa0\x80"}', R("not valid UTF-8")),
    ("json", "invalid UTF-8 in a key", b'{"\xe2\x82":1}', R("not valid UTF-8")),
    ("json", "byte order mark", b"\xef\xbb\xbf{}", R("byte order mark")),
    ("json", "array root", b"[1]", R("root must be a map")),
    ("json", "scalar root", b"1", R("root must be a map")),
    ("json", "trailing content", b"{} {}", R("trailing bytes")),
    ("json", "unterminated string", b'{"a":"x', R("string not closed")),
    ("json", "missing colon", b'{"a" 1}', R("expected ':'")),
    ("json", "bare key", b"{a:1}", R("expected a string key")),
    ("json", "fraction without digits", b'{"a":1.}', R("digit after '.'")),
    ("json", "leading plus", b'{"a":+1}', R("expected a value")),
    ("json", "bad literal", b'{"a":tru}', R("invalid literal")),
    ("json", "bad escape", b'{"a":"\\x"}', R("invalid escape")),
    ("json", "truncated", b'{"a":[1,2', R("truncated")),
    # --- MessagePack ---
    (
        "msgpack",
        "every type",
        b"\x87\xa1n\xc0\xa1t\xc3\xa1i\xd3\x80\x00\x00\x00\x00\x00\x00\x00\xa1u\xcf\xff\xff\xff\xff\xff\xff\xff\xff"
        b"\xa1f\xca\x3f\xc0\x00\x00\xa1b\xc4\x02\x00\x01\xa1s\xd9\x02\xc3\xa9",
        {"n": None, "t": True, "i": -(1 << 63), "u": (1 << 64) - 1, "f": 1.5, "b": b"\x00\x01", "s": "é"},
    ),
    ("msgpack", "empty input", b"", R("empty input")),
    ("msgpack", "trailing byte", b"\x80\xc0", R("trailing bytes")),
    ("msgpack", "array32 count 2^32-1", b"\x81\xa1a\xdd\xff\xff\xff\xff", R("cannot fit")),
    ("msgpack", "map16 count beyond the input", b"\x81\xa1a\xde\xff\xff\xa1b", R("cannot fit")),
    ("msgpack", "str32 length beyond the input", b"\x81\xa1a\xdb\x7f\xff\xff\xffabc", R("truncated")),
    ("msgpack", "ext", b"\x81\xa1a\xd4\x01\x00", R("ext")),
    ("msgpack", "0xc1", b"\x81\xa1a\xc1", R("never used")),
    ("msgpack", "integer key", b"\x81\x01\x01", R("map key is not a string")),
    ("msgpack", "binary key", b"\x81\xc4\x01a\x01", R("map key is not a string")),
    ("msgpack", "duplicate key", b"\x82\xa1a\x01\xa1a\x02", R('duplicate key "a"')),
    ("msgpack", "invalid UTF-8", b"\x81\xa1a\xa1\xff", R("not valid UTF-8")),
    ("msgpack", "NUL in a string", b"\x81\xa1a\xa1\x00", R("NUL")),
    ("msgpack", "NaN", b"\x81\xa1a\xcb" + F64_NAN, R("NaN")),
    ("msgpack", "infinity (float32)", b"\x81\xa1a\xca\x7f\x80\x00\x00", R("infinity")),
    ("msgpack", "array root", b"\x91\x01", R("root must be a map")),
    # --- CBOR (RFC 8949) ---
    (
        "cbor",
        "indefinite map, array and strings",
        b"\xbf\x61a\x9f\x01\xff\x61s\x7f\x61x\x62yz\xff\x61b\x5f\x41\x00\xff\xff",
        {"a": [1], "s": "xyz", "b": b"\x00"},
    ),
    ("cbor", "half and single floats", b"\xa2\x61h\xf9\x3e\x00\x61s\xfa\x3f\xc0\x00\x00", {"h": 1.5, "s": 1.5}),
    ("cbor", "non-shortest integer", b"\xa1\x61a\x18\x05", {"a": 5}),
    ("cbor", "int64 min", b"\xa1\x61a\x3b\x7f\xff\xff\xff\xff\xff\xff\xff", {"a": -(1 << 63)}),
    ("cbor", "tag", b"\xa1\x61a\xc2\x41\x05", R("tag 2")),
    ("cbor", "undefined", b"\xa1\x61a\xf7", R("undefined")),
    ("cbor", "simple value", b"\xa1\x61a\xf0", R("simple value 16")),
    ("cbor", "below int64", b"\xa1\x61a\x3b\xff\xff\xff\xff\xff\xff\xff\xff", R("below INT64_MIN")),
    ("cbor", "integer key", b"\xa1\x01\x01", R("map key is not a text string")),
    ("cbor", "duplicate key", b"\xa2\x61a\x01\x61a\x02", R('duplicate key "a"')),
    ("cbor", "trailing byte", b"\xa0\x00", R("trailing bytes")),
    ("cbor", "break outside", b"\xa1\x61a\xff", R("break (0xff) outside")),
    ("cbor", "break after a key", b"\xbf\x61a\xff", R("between a map key and its value")),
    ("cbor", "reserved additional information", b"\xa1\x61a\x1c", R("reserved")),
    ("cbor", "array count beyond the input", b"\xa1\x61a\x9b\x00\x00\x00\x01\x00\x00\x00\x00", R("cannot fit")),
    ("cbor", "text length 2^64-1", b"\xa1\x61a\x7b\xff\xff\xff\xff\xff\xff\xff\xff", R("truncated")),
    ("cbor", "NaN (half)", b"\xa1\x61a\xf9\x7e\x00", R("NaN")),
    ("cbor", "chunk of another type", b"\xa1\x61a\x7f\x41x\xff", R("same type")),
    ("cbor", "UTF-8 split across chunks", b"\xa1\x61a\x7f\x61\xc3\x61\xa9\xff", R("not valid UTF-8")),
    ("cbor", "array root", b"\x81\x01", R("root must be a map")),
    # --- BSON 1.1 ---
    (
        "bson",
        "every type",
        bson(
            belem(0x01, b"d", struct.pack("<d", 1.5))
            + belem(0x02, b"s", bstr("é".encode()))
            + belem(0x03, b"m", bson(b""))
            + belem(0x04, b"a", bson(belem(0x10, b"0", struct.pack("<i", 7))))
            + belem(0x05, b"b", struct.pack("<i", 2) + b"\x00\x01\x02")
            + belem(0x08, b"t", b"\x01")
            + belem(0x0A, b"n", b"")
            + belem(0x12, b"l", struct.pack("<q", -(1 << 63)))
        ),
        {"d": 1.5, "s": "é", "m": {}, "a": [7], "b": b"\x01\x02", "t": True, "n": None, "l": -(1 << 63)},
    ),
    ("bson", "document length 2^32-1", b"\xff\xff\xff\xff\x00", R("document length -1")),
    ("bson", "document length beyond the input", struct.pack("<i", 6) + b"\x00", R("exceeds the input")),
    ("bson", "trailing bytes", bson(b"") + b"\x00", R("trailing bytes")),
    ("bson", "document length below 5", struct.pack("<i", 4) + b"\x00", R("below the minimum")),
    ("bson", "no terminator", struct.pack("<i", 5) + b"\x01", R("0x00 terminator")),
    (
        "bson",
        "embedded length beyond its parent",
        bson(belem(0x03, b"m", struct.pack("<i", 200) + b"\x00")),
        R("does not fit its parent"),
    ),
    (
        "bson",
        "embedded document without its terminator",
        bson(belem(0x03, b"m", struct.pack("<i", 6) + b"\x00\x01")),
        R("embedded document does not end"),
    ),
    ("bson", "elements end before the length", struct.pack("<i", 7) + b"\x00\x00\x00", R("element list ends")),
    ("bson", "string length 0", bson(belem(0x02, b"s", struct.pack("<i", 0))), R("string length 0")),
    (
        "bson",
        "string length beyond its document",
        bson(belem(0x02, b"s", struct.pack("<i", 99) + b"x\x00")),
        R("does not fit its document"),
    ),
    (
        "bson",
        "string without its NUL",
        bson(belem(0x02, b"s", struct.pack("<i", 2) + b"xy")),
        R("not terminated by 0x00"),
    ),
    ("bson", "boolean 2", bson(belem(0x08, b"t", b"\x02")), R("neither 0x00 nor 0x01")),
    ("bson", "binary subtype 0x80", bson(belem(0x05, b"b", struct.pack("<i", 1) + b"\x80\x00")), {"b": b"\x00"}),
    (
        "bson",
        "old binary (0x02)",
        bson(belem(0x05, b"b", struct.pack("<i", 6) + b"\x02" + struct.pack("<i", 2) + b"xy")),
        {"b": b"xy"},
    ),
    (
        "bson",
        "old binary inner length",
        bson(belem(0x05, b"b", struct.pack("<i", 6) + b"\x02" + struct.pack("<i", 3) + b"xy")),
        R("inner length 3"),
    ),
    (
        "bson",
        "binary length beyond its document",
        bson(belem(0x05, b"b", struct.pack("<i", 50) + b"\x00\x00")),
        R("does not fit its document"),
    ),
    ("bson", "ObjectId", bson(belem(0x07, b"o", b"\x00" * 12)), R("ObjectId")),
    ("bson", "timestamp", bson(belem(0x11, b"t", b"\x00" * 8)), R("timestamp")),
    ("bson", "decimal128", bson(belem(0x13, b"x", b"\x00" * 16)), R("decimal128")),
    ("bson", "array keys out of order", bson(belem(0x04, b"a", bson(belem(0x0A, b"1", b"")))), R("is not its index 0")),
    ("bson", "duplicate key", bson(belem(0x0A, b"a", b"") + belem(0x0A, b"a", b"")), R('duplicate key "a"')),
    ("bson", "invalid UTF-8 key", bson(belem(0x0A, b"\xff", b"")), R("not valid UTF-8")),
    ("bson", "invalid UTF-8 string", bson(belem(0x02, b"s", bstr(b"\xc3"))), R("not valid UTF-8")),
    ("bson", "NUL inside a string", bson(belem(0x02, b"s", bstr(b"a\x00b"))), R("NUL")),
    ("bson", "NaN", bson(belem(0x01, b"d", struct.pack("<d", float("nan")))), R("NaN")),
    ("bson", "key without its NUL", struct.pack("<i", 8) + b"\x0aab\x00", R("key is not terminated")),
    # --- UBJSON (Draft 12) ---
    (
        "ubjson",
        "typed and sized containers",
        b"{#i\x04i\x01a[$i#i\x02\x01\xffi\x01u[$U#i\x02\x01\x02i\x01t[$T#i\x02i\x01n[$[#i\x02]]",
        {"a": [1, -1], "u": [1, 2], "t": [True, True], "n": [[], []]},
    ),
    ("ubjson", "typed map", b"{$D#i\x01i\x01d\x3f\xf8\x00\x00\x00\x00\x00\x00", {"d": 1.5}),
    ("ubjson", "no-op and char", b"{i\x01a[NCxN]}", {"a": ["x"]}),
    ("ubjson", "high-precision number", b"{i\x01aHi\x011}", {"a": 1}),
    ("ubjson", "high-precision float", b"{i\x01aHi\x031.5}", {"a": 1.5}),
    ("ubjson", "high-precision not a number", b"{i\x01aHi\x051.2.3}", R("not a JSON number")),
    ("ubjson", "high-precision infinity", b"{i\x01aHi\x051e400}", R("overflows a double")),
    ("ubjson", "no-op before a key", b"{Ni\x01aZN}", {"a": None}),
    ("ubjson", "type without a count", b"{i\x01a[$i\x01]}", R("followed by a count")),
    ("ubjson", "negative count", b"{i\x01a[#i\xff}", R("negative")),
    ("ubjson", "count beyond the input", b"{i\x01a[$L#l\x7f\xff\xff\xff}", R("cannot fit")),
    (
        "ubjson",
        "2^40 payload-free values",
        b"{i\x01a[$Z#L\x00\x00\x01\x00\x00\x00\x00\x00}",
        R("beyond the harness's limit"),
    ),
    ("ubjson", "string length beyond the input", b"{i\x01aSl\x7f\xff\xff\xffab}", R("truncated")),
    ("ubjson", "duplicate key", b"{i\x01aZi\x01aZ}", R('duplicate key "a"')),
    ("ubjson", "trailing byte", b"{}Z", R("trailing bytes")),
    ("ubjson", "array root", b"[Z]", R("root must be a map")),
    ("ubjson", "invalid marker", b"{i\x01aX}", R("invalid marker")),
    ("ubjson", "non-ASCII char", b"{i\x01aC\xe9}", R("not ASCII")),
    ("ubjson", "NaN", b"{i\x01aD" + F64_NAN + b"}", R("NaN")),
    ("ubjson", "key length not an integer", b"{Si\x01aZ}", R("must be an integer")),
    ("ubjson", "'}' closing an array", b"{i\x01a[}}", R("does not close the array")),
    ("ubjson", "NUL char", b"{i\x01aC\x00}", R("NUL")),
    ("ubjson-plain", "plain containers", b"{i\x01a[U\x01i\xffSi\x02\xc3\xa9]}", {"a": [1, -1, "é"]}),
]


def call(argv: list[str]) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return None


def main() -> int:
    drv, repo = sys.argv[1], Path(sys.argv[2])
    sys.path.insert(0, str(repo / "orchestrator" / "src" / "serbench"))
    import objhash  # stdlib only: the reference implementation of spec/hash.md

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (fmt, name, data, want) in enumerate(CASES):
            path = Path(tmp) / f"case{i}"
            path.write_bytes(data)
            r = call([drv, "verify", "--bench", "hash-data", "--test", "write", "--format", fmt, "--file", str(path)])
            where = f"{fmt} {name}"
            if r is None:
                failures.append(f"{where}: no answer within 30 s")
                continue
            out = json.loads(r.stdout) if r.stdout.strip() else {}
            if isinstance(want, R):
                if r.returncode != 6 or want.why not in out.get("error", ""):
                    failures.append(
                        f"{where}: want exit 6 with '{want.why}', got {r.returncode} {out or r.stderr.strip()}"
                    )
            else:
                h = objhash.hex64(objhash.hash_value(want))
                if r.returncode != 0 or out.get("hash") != h:
                    failures.append(f"{where}: want hash {h}, got exit {r.returncode} {out or r.stderr.strip()}")

        # `run` on input the reference decoder rejects: an error row with the reason, exit 6.
        bad = Path(tmp) / "bad.bson"
        bad.write_bytes(b"\xff\xff\xff\xff\x00")
        for bench, test in (("hash-data", "write"), ("hash-object", "tree")):
            res = Path(tmp) / f"{bench}.jsonl"
            r = call(
                [
                    drv,
                    "run",
                    "--bench",
                    bench,
                    "--test",
                    test,
                    "--format",
                    "bson",
                    "--file",
                    str(bad),
                    "--expect-hash",
                    "0000000000000000",
                    "--results",
                    str(res),
                    "--budget-ms",
                    "5",
                ]
            )
            if r is None:
                failures.append(f"run {bench}: no answer within 30 s")
                continue
            rows = [json.loads(x) for x in res.read_text().splitlines()] if res.exists() else []
            if (
                r.returncode != 6
                or [x["kind"] for x in rows] != ["error"]
                or "reference decoder" not in rows[0]["reason"]
            ):
                failures.append(f"run {bench} on a BSON length of 2^32-1: exit {r.returncode}, rows {rows}")

    for f in failures:
        print("FAIL:", f)
    print(f"{len(CASES) + 2} cases: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
