"""The native harness's reference decoder (harnesses/native/common/ref.cpp), driven through the
protocol (`verify --bench hash-data --test write` decodes a file with it): it reads every corpus file
to its manifest hash, and it differs from the Python reference codec (corpus/formats.py, as
load_user_file uses it) only where docs/libraries.md says ("The native reference decoder")."""

from __future__ import annotations

import json
import struct
import subprocess

import pytest
from serbench import objhash
from serbench.corpus.build import check_data_model
from serbench.corpus.formats import DECODERS, FormatError

from .conftest import built_harness


@pytest.fixture(scope="module")
def native():
    return built_harness("native")


def _native(native, fmt: str, path) -> tuple[int, dict]:
    res = subprocess.run(
        native.command() + ["verify", "--bench", "hash-data", "--test", "write", "--format", fmt, "--file", str(path)],
        capture_output=True,
        text=True,
        env=native.env(),
        timeout=300,
    )
    return res.returncode, json.loads(res.stdout) if res.stdout.strip() else {}


def _python_accepts(fmt: str, data: bytes) -> bool:
    """What load_user_file does with a file: decode, check the data model, require a map root."""
    try:
        doc = DECODERS[fmt](data)
        check_data_model(doc)
    except FormatError:
        return False
    return isinstance(doc, dict)


def test_native_reference_decoder_reads_every_corpus_file_to_its_manifest_hash(native, corpus):
    dest, manifest = corpus
    wrong = []
    for ds in manifest["datasets"]:
        for fmt, f in ds["files"].items():
            rc, out = _native(native, fmt, dest / f["file"])
            if rc != 0 or out.get("hash") != ds["hash"]:
                wrong.append((ds["dataset"], fmt, rc, out))
    assert not wrong


def _bson(body: bytes) -> bytes:
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


# (format, input, formats.py accepts, native accepts, why they differ; None: they agree). formats.py
# reads the user's formats (JSON, MessagePack, CBOR) as strictly as the native decoder; its BSON and
# UBJSON decoders only read back the corpus it wrote, and stay lax where noted.
CASES = [
    ("json", b'{"a":[1,-2,1.5,"x\\u00e9"],"b":{}}', True, True, None),
    ("json", b'{"a":1', False, False, None),
    ("json", b'{"a":1,}', False, False, None),
    ("json", b'{"a":NaN}', False, False, None),
    ("json", b'{"a":1e400}', False, False, None),
    ("json", b'{"a":18446744073709551616}', False, False, None),
    ("json", b"[1]", False, False, None),
    ("json", b'{"a":1,"a":2}', False, False, None),
    ("json", b'{"a":"\\ud800"}', False, False, None),
    ("json", b'{"a":"\\u0000"}', False, False, None),
    ("msgpack", b"\x82\xa1a\x01\xa1b\xc4\x01\x00", True, True, None),
    ("msgpack", b"\x80\x00", False, False, None),
    ("msgpack", b"\x81\xa1a\xd4\x01\x00", False, False, None),
    ("msgpack", b"\x82\xa1a\x01\xa1a\x02", False, False, None),
    ("msgpack", b"\x81\xa1a\xa1\x00", False, False, None),
    ("cbor", b"\xbf\x61a\x9f\x01\xff\xff", True, True, None),
    ("cbor", b"\xa1\x61a\xf7", False, False, None),
    ("cbor", b"\xa0\x00", False, False, None),
    ("cbor", b"\xa1\x61a\xc2\x41\x05", False, False, None),
    ("cbor", b"\xa2\x61a\x01\x61a\x02", False, False, None),
    ("bson", b"\xff\xff\xff\xff\x00", False, False, None),
    ("bson", _bson(b"\x0aa\x00\x0aa\x00"), True, False, "duplicate keys"),
    ("bson", _bson(b"\x04a\x00" + _bson(b"\x0a7\x00")), True, False, "array keys not 0, 1, ..."),
    (
        "bson",
        _bson(b"\x05b\x00" + struct.pack("<i", 1) + b"\x80\x00"),
        False,
        True,
        "binary subtype 0x80: the references read every subtype's bytes (spec/data-model.md rule 6);"
        " pymongo gives a Binary object for a subtype other than 0, which check_data_model refuses",
    ),
    ("ubjson", b"{i\x01a[$i#i\x02\x01\x02}", True, True, None),
    ("ubjson", b"{}Z", True, False, "trailing bytes: py-ubjson ignores them"),
    ("ubjson", b"{i\x01aZi\x01aZ}", True, False, "duplicate keys"),
]


@pytest.mark.parametrize("fmt,data,py_ok,native_ok,why", CASES)
def test_native_reference_decoder_differs_from_formats_py_only_where_documented(
    native, tmp_path, fmt, data, py_ok, native_ok, why
):
    assert _python_accepts(fmt, data) == py_ok
    path = tmp_path / "input"
    path.write_bytes(data)
    rc, out = _native(native, fmt, path)
    assert rc == (0 if native_ok else 6), out
    if native_ok and py_ok:
        assert out["hash"] == objhash.hex64(objhash.hash_value(DECODERS[fmt](data)))


def test_ubjson_typed_u_arrays_are_integers_in_the_native_decoder_and_bytes_in_formats_py(native, tmp_path):
    data = b"{i\x01a[$U#i\x02\x01\x02}"
    path = tmp_path / "u.ubjson"
    path.write_bytes(data)
    rc, out = _native(native, "ubjson", path)
    assert rc == 0 and out["hash"] == objhash.hex64(objhash.hash_value({"a": [1, 2]}))
    assert DECODERS["ubjson"](data) == {"a": b"\x01\x02"}
