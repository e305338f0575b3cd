"""The Python harness's reference decoders (serbench_py/refcodec.py) are strict and iterative: they
accept the data model in each format, reject everything else with a RefError, never raise anything
else, and decode documents nested 100,000 deep."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from deepdocs import bson_doc, deep, deep_hash
from serbench_py.hashing import hash_value, hex64, objhash
from serbench_py.refcodec import DECODERS, RefError

VECTORS = Path(__file__).resolve().parents[3] / "vectors"
DEPTH = 100_000


def _vectors() -> list[tuple[str, str, bytes, str]]:
    index = json.loads((VECTORS / "vectors.json").read_text())
    out = []
    for v in index["vectors"]:
        out += [(v["name"], fmt, (VECTORS / f).read_bytes(), v["hash"]) for fmt, f in v["files"].items()]
    return out


def test_every_vector_decodes_to_its_hash_in_every_format():
    vs = _vectors()
    assert len(vs) >= 44 * 6
    for name, fmt, data, want in vs:
        obj = DECODERS[fmt](data)
        assert hex64(hash_value(obj)) == want == hex64(objhash.hash_value(obj)), (name, fmt)


@pytest.mark.parametrize("fmt", sorted(DECODERS))
def test_documents_nested_100000_deep_decode_and_hash_without_recursion(fmt):
    for maps in (False, True):
        obj = DECODERS[fmt](deep(fmt, DEPTH, maps))
        assert hex64(hash_value(obj)) == deep_hash(DEPTH, maps), (fmt, maps)
        del obj  # CPython frees nested lists and dicts without recursion (its trashcan)


def one(key: str, v) -> str:
    return hex64(hash_value({key: v}))


def test_json_accepts_the_data_model_and_its_edge_values():
    d = DECODERS["json"]
    assert hex64(hash_value(d(b' {"a" : -0 } '))) == one("a", 0)
    assert math.copysign(1, d(b'{"a":-0.0}')["a"]) == -1
    assert d(b'{"a":1E+2}') == {"a": 100.0} and type(d(b'{"a":1E+2}')["a"]) is float
    assert d(b'{"a":18446744073709551615,"b":-9223372036854775808}') == {"a": 2**64 - 1, "b": -(2**63)}
    assert d(rb'{"a":"\ud83d\ude00\u00e9\/\n"}') == {"a": "😀é/\n"}
    assert d(b'{"a\\u0062":null}') == {"ab": None}
    for root in (b"[]", b"1", b'"a"', b"null"):  # rule R1: the root is a map
        with pytest.raises(RefError, match="not a map"):
            d(root)


@pytest.mark.parametrize(
    "doc,why",
    [
        (b"", "truncated"),
        (b"{", "truncated"),
        (b'{"a":1', "truncated"),
        (b'{"a":"x', "Unterminated string"),
        (b'{"a":1}x', "trailing"),
        (b'{"a":1,"a":2}', "duplicate map key 'a'"),
        (b'{"a":"x\\u0000"}', "NUL in a string or key"),
        (b'{"a\\u0000":1}', "NUL in a string or key"),
        (rb'{"a":"\ud800"}', "lone surrogate"),
        (rb'{"a":"\udc00x"}', "lone surrogate"),
        (b'{"a":"\xff"}', "invalid UTF-8"),
        (b'{"\xed\xa0\x80":1}', "invalid UTF-8"),
        (b'{"a":"\x01"}', "Invalid control character"),
        (b'{"a":1e400}', "float64 range"),
        (b'{"a":18446744073709551616}', "outside int64/uint64"),
        (b'{"a":-9223372036854775809}', "outside int64/uint64"),
        (b'{"a":' + b"1" * 5000 + b"}", "outside int64/uint64"),
        (b'{"a":NaN}', "unexpected"),
        (b'{"a":-Infinity}', "invalid number"),
        (b'{"a":01}', "unexpected '1'"),
        (b'{"a":1.}', "unexpected '.'"),
        (b'{"a":.5}', "unexpected '.'"),
        (b"{a:1}", "a string key expected"),
        (b'{"a":1,}', "a string key expected"),
        (b"[1,]", "unexpected ']'"),
        (b"[1 2]", "unexpected '2'"),
        (b'{"a" 1}', "':' expected"),
        (b'{"a":tru}', "unexpected 't'"),
        (rb'{"a":"\x"}', "Invalid \\escape"),
        (b"\xef\xbb\xbf{}", "unexpected"),
    ],
)
def test_json_rejects_what_is_not_json_or_not_in_the_data_model(doc, why):
    with pytest.raises(RefError) as e:
        DECODERS["json"](doc)
    assert why in str(e.value), str(e.value)


@pytest.mark.parametrize(
    "fmt,doc,why",
    [
        ("msgpack", b"", "truncated"),
        ("msgpack", b"\x82\xa1a\x01", "larger than the 3 bytes left"),
        ("msgpack", b"\x80\x00", "trailing"),
        ("msgpack", b"\x81\xa1a\xdd\xff\xff\xff\xff\x00\x00", "count 4294967295"),
        ("msgpack", b"\x81\xa1a\xdf\xff\xff\xff\xff\xa1b\x00", "count 4294967295"),
        ("msgpack", b"\x81\xa1a\xdb\xff\xff\xff\xffab", "4294967295 bytes needed"),
        ("msgpack", b"\x81\xa1a\xc6\xff\xff\xff\xffab", "4294967295 bytes needed"),
        ("msgpack", b"\x81\xa1a\xc1", "never used"),
        ("msgpack", b"\x81\xa1a\xd4\x01\x00", "ext type"),
        ("msgpack", b"\x81\x01\x02", "not a string"),
        ("msgpack", b"\x81\xc4\x01a\x01", "not a string"),
        ("msgpack", b"\x81\xa1a\xa1\xff", "invalid UTF-8"),
        ("msgpack", b"\x82\xa1a\x01\xa1a\x02", "duplicate map key"),
        ("msgpack", b"\x81\xa1a\xa1\x00", "NUL in a string or key"),
        ("msgpack", b"\x81\xa1a\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00", "finite"),
        ("msgpack", b"\x81\xa1a\xca\x7f\x80\x00\x00", "finite"),
        ("cbor", b"\xa1\x61a", "truncated"),
        ("cbor", b"\xa0\x00", "trailing"),
        ("cbor", b"\xa1\x61a\xc1\x00", "tag"),
        ("cbor", b"\xa1\x61a\xf7", "undefined"),
        ("cbor", b"\xa1\x61a\xf0", "simple value"),
        ("cbor", b"\xa1\x61a\xf8\x20", "simple value"),
        ("cbor", b"\xa1\x61a\x1c", "reserved"),
        ("cbor", b"\xa1\x61a\x1f", "indefinite"),
        ("cbor", b"\xff", "unexpected break"),
        ("cbor", b"\xbf\x61a\xff", "unexpected break"),
        ("cbor", b"\x81\xff", "unexpected break"),
        ("cbor", b"\xa1\x01\x02", "not a string"),
        ("cbor", b"\xa2\x61a\x01\x61a\x02", "duplicate map key"),
        ("cbor", b"\xa1\x61a\x61\xff", "invalid UTF-8"),
        ("cbor", b"\xa1\x61a\x7f\x61\xc3\x61\xa9\xff", "invalid UTF-8"),
        ("cbor", b"\xa1\x61a\x7f\x41a\xff", "another type"),
        ("cbor", b"\xa1\x61a\x7f\x7f\xff\xff", "nested indefinite"),
        ("cbor", b"\xa1\x61a\x3b\x80\x00\x00\x00\x00\x00\x00\x00", "below INT64_MIN"),
        ("cbor", b"\xa1\x61a\xf9\x7e\x00", "finite"),
        ("cbor", b"\xa1\x61a\x9b" + b"\xff" * 8 + b"\x00", "count 18446744073709551615"),
        ("cbor", b"\xa1\x61a\x7b" + b"\xff" * 8 + b"ab", "bytes needed"),
        ("bson", b"", "truncated"),
        ("bson", b"\xff\xff\xff\xff\x0aa\0\0", "says -1 (as unsigned 4294967295)"),
        ("bson", b"\x06\0\0\0\x0aa\0\0", "the input has 8 bytes"),
        ("bson", b"\x08\0\0\0\x0aa\0\0\0", "the input has 9 bytes"),
        ("bson", b"\x08\0\0\0\x0aa\0\x01", "not terminated"),
        ("bson", b"\x09\0\0\0\x0aa\0\0\0", "document terminator at offset 7"),
        ("bson", bson_doc(b"\x0aab"), "runs past the end"),
        ("bson", bson_doc(b"\x0a\xff\0"), "invalid UTF-8"),
        ("bson", bson_doc(b"\x0aa\0\x0aa\0"), "duplicate map key"),
        ("bson", bson_doc(b"\x02a\0\0\0\0\0"), "string length 0"),
        ("bson", bson_doc(b"\x02a\0\xff\xff\xff\x7fab\0"), "needs 2147483651 bytes"),
        ("bson", bson_doc(b"\x02a\0\x02\0\0\0ab"), "not terminated by 0x00"),
        ("bson", bson_doc(b"\x03a\0\xff\xff\xff\x7f\0"), "needs 2147483647 bytes"),
        ("bson", bson_doc(b"\x03a\0\x05\0\0\0\x01"), "not terminated"),
        ("bson", bson_doc(b"\x04a\0\x0b\0\0\0\x0a1\0\x0a0\0\0"), "not the index 0"),
        ("bson", bson_doc(b"\x05a\0\x03\0\0\0\x02\x00\x00\x00"), "inner length"),  # rule R7
        ("bson", bson_doc(b"\x02a\0\x03\0\0\0x\0\0"), "NUL"),  # rule R2
        ("bson", bson_doc(b"\x08a\0\x02"), "neither 0 nor 1"),
        ("bson", bson_doc(b"\x07a\0" + b"\0" * 12), "ObjectId"),
        ("bson", bson_doc(b"\x13a\0"), "decimal128"),
        ("bson", bson_doc(b"\x01a\0\0\0\0\0\0\0\xf8\x7f"), "finite"),
        ("ubjson", b"{U\x01a", "truncated"),
        ("ubjson", b"{}x", "trailing"),
        ("ubjson", b"{U\x01aHU\x021x}", "not a JSON number"),  # H is JSON's number grammar (rule 5)
        ("ubjson", b"{U\x01aU\x01U\x01aU\x02}", "duplicate map key"),
        ("ubjson", b"{U\x01aSU\x01\xff}", "invalid UTF-8"),
        ("ubjson", b"{U\x01aC\xc3}", "not ASCII"),
        ("ubjson", b"{U\x01aD\x7f\xf0\0\0\0\0\0\0}", "finite"),
        ("ubjson", b"{U\x01a[#L\x7f\xff\xff\xff\xff\xff\xff\xffU\x01}", "count 9223372036854775807"),
        ("ubjson", b"{U\x01a[$Z#L\x7f\xff\xff\xff\xff\xff\xff\xff}", "beyond this decoder's limit"),
        ("ubjson", b"{U\x01aSL\x7f\xff\xff\xff\xff\xff\xff\xffab}", "bytes needed"),
        ("ubjson", b"{U\x01a[#i\xff]}", "negative length"),
        ("ubjson", b"{U\x01a[$U]}", "followed by a count"),
        ("ubjson", b"{U\x01a[$N#U\x01}", "strong type"),  # a no-op is no value's type
        ("ubjson", b"{U\x01aN}", "unexpected marker '}'"),  # the no-op is skipped, then no value
        ("ubjson", b"{SU\x01aU\x01}", "must be an integer"),
    ],
)
def test_binary_formats_reject_malformed_documents_and_values_outside_the_model(fmt, doc, why):
    with pytest.raises(RefError) as e:
        DECODERS[fmt](doc)
    assert why in str(e.value), str(e.value)


def test_binary_formats_accept_their_edge_values():
    assert DECODERS["msgpack"](b"\x81\xa1a\xd0\x05") == {"a": 5}
    assert DECODERS["msgpack"](b"\x81\xa1a\xcf" + b"\xff" * 8) == {"a": 2**64 - 1}
    assert DECODERS["cbor"](b"\xa1\x61a\xf9\x3c\x00") == {"a": 1.0}
    assert DECODERS["cbor"](b"\xa1\x61a\x7f\x61x\x62yz\xff") == {"a": "xyz"}
    assert DECODERS["cbor"](b"\xbf\x61a\x9f\x01\xff\xff") == {"a": [1]}
    assert DECODERS["cbor"](b"\xa1\x61a\x3b\x7f" + b"\xff" * 7) == {"a": -(2**63)}
    assert DECODERS["ubjson"](b"{U\x01a[$U#U\x02\x01\x02U\x01bC}}") == {"a": [1, 2], "b": "}"}
    assert DECODERS["ubjson"](b"{U\x01a[NU\x01N]}") == {"a": [1]}, "no-ops between the items of an unsized container"
    assert DECODERS["ubjson"](b"{#U\x01U\x01a[$T#U\x03") == {"a": [True, True, True]}


def test_every_truncation_of_every_vector_is_rejected():
    for name, fmt, data, _ in _vectors():
        step = max(1, len(data) // 300)
        for cut in [*range(0, len(data), step), *range(max(0, len(data) - 16), len(data))]:
            if fmt == "json-pretty" and cut == len(data) - 1:
                continue  # complete without its final newline
            with pytest.raises(RefError):
                DECODERS[fmt](data[:cut])
                pytest.fail(f"{name} {fmt}: the first {cut} of {len(data)} bytes accepted")


def test_mutated_vectors_raise_nothing_but_refcodec_errors():
    """Bit flips, byte changes, insertions and deletions (fixed seed): Ok or RefError, nothing else."""
    rng = random.Random(1234)
    accepted = 0
    for _, fmt, data, _ in _vectors():
        for _ in range(40):
            m = bytearray(data)
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(max(1, len(m)))
                op = rng.randrange(4)
                if op == 0 and m:
                    m[i] ^= 1 << rng.randrange(8)
                elif op == 1 and m:
                    m[i] = rng.randrange(256)
                elif op == 2:
                    m.insert(i, rng.randrange(256))
                elif m:
                    del m[i]
            try:
                obj = DECODERS[fmt](bytes(m))
            except RefError:
                continue
            accepted += 1
            hash_value(obj)
    assert accepted > 0
