"""The corpus: determinism, one hash per dataset across formats, sizes, and user files."""

from __future__ import annotations

import hashlib
import json

import msgpack
import pytest
from serbench.corpus import generator
from serbench.corpus.build import load_user_file, write_corpus
from serbench.corpus.formats import DECODERS, FORMATS, FormatError
from serbench.corpus.vectors import write_vectors
from serbench.objhash import hash_value, hex64

from .conftest import VECTORS


def test_the_same_seed_writes_the_same_bytes(corpus, tmp_path):
    first_dir, first = corpus
    second = write_corpus(tmp_path)
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    for d in second["datasets"]:
        for f in d["files"].values():
            assert (first_dir / f["file"]).read_bytes() == (tmp_path / f["file"]).read_bytes(), f["file"]


def test_every_format_of_a_dataset_has_the_manifest_hash(corpus):
    dest, manifest = corpus
    n = 0
    for d in manifest["datasets"]:
        for fmt, f in d["files"].items():
            data = (dest / f["file"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == f["sha256"]
            assert hex64(hash_value(DECODERS[fmt](data))) == d["hash"], (d["dataset"], fmt)
            n += 1
    assert n >= 5 * len(FORMATS)


def test_sizes_grow_tenfold_around_the_msgpack_targets(corpus):
    _, manifest = corpus
    for d in manifest["datasets"]:
        if d["kind"] == "schemaless":
            target = generator.SIZE_TARGET_BYTES[d["size"]]
            assert 0.9 * target <= d["files"]["msgpack"]["bytes"] <= 1.25 * target, d["dataset"]


def test_the_manifest_shows_the_mix_of_types(corpus):
    _, manifest = corpus
    kinds = next(d for d in manifest["datasets"] if d["dataset"] == "size-5")["stats"]["kinds"]
    total = sum(kinds.values())
    strings = kinds["string"] + kinds["string-nonascii"]
    assert 0.15 < strings / total < 0.35  # "about a quarter of the values"
    assert 0.15 < kinds["string-nonascii"] / strings < 0.35
    assert kinds["uint"] > 0 and kinds["float"] > 0 and kinds["null"] > 0


def test_a_different_seed_gives_a_different_document():
    assert generator.generate(2, seed=1) != generator.generate(2, seed=2)


def test_msgpack_size_estimate_is_exact():
    doc = generator.generate(3)
    assert generator.msgpack_size(doc) == len(msgpack.packb(doc, use_bin_type=True))


def test_generated_doubles_round_trip_through_their_shortest_repr():
    rng = generator.Rng(7)
    for _ in range(2000):
        f = generator.gen_float(rng)
        assert float(repr(f)) == f and f != 0 and abs(f) > 2.2250738585072014e-308


def test_xoshiro256starstar_matches_the_reference_sequence():
    # First outputs of xoshiro256** for state {1, 2, 3, 4} (from the reference C code).
    r = generator.Rng(0)
    r.s = [1, 2, 3, 4]
    assert [r.next() for _ in range(3)] == [11520, 0, 1509978240]


def test_committed_vectors_are_exactly_what_the_generator_writes(tmp_path):
    write_vectors(tmp_path)
    committed = sorted(p.name for p in VECTORS.iterdir() if p.is_file())  # conformance/: test_conformance.py
    assert committed == sorted(p.name for p in tmp_path.iterdir())
    for name in committed:
        assert (VECTORS / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_a_user_json_file_becomes_a_dataset(tmp_path):
    p = tmp_path / "my data.json"
    p.write_text('{"a": [1, 2.5, "x"], "b": null}')
    ds = load_user_file(p)
    assert ds.id == "user-my-data" and ds.doc == {"a": [1, 2.5, "x"], "b": None}
    m = write_corpus(tmp_path / "c", user=[ds])
    entry = next(d for d in m["datasets"] if d["dataset"] == "user-my-data")
    assert entry["hash"] == hex64(hash_value(ds.doc)) and "bson" in entry["files"]


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("bad.json", b'{"a": [1, 2', "invalid JSON"),
        ("nan.json", b'{"a": NaN}', "NaN"),
        ("root.json", b"[1, 2]", "root must be a map"),
        ("bad.msgpack", b"\xc1", "invalid MessagePack: the byte 0xc1, which the format never uses"),
        ("keys.msgpack", msgpack.packb({1: 2}), "invalid MessagePack: a map key is an integer; the data model's"),
        ("nullkey.msgpack", b"\x81\xc0\x01", "a map key is null;"),
        ("binkey.msgpack", b"\x81\xc4\x01a\x01", r"\$: a map key is binary \(b'a'\);"),
        ("twobinkeys.msgpack", b"\x82\xc4\x01a\x01\xc4\x01a\x02", r"\$: a map key is binary \(b'a'\);"),
        ("nestedbinkey.msgpack", b"\x81\xa1x\x81\xc4\x01a\x01", r"\$\.x: a map key is binary \(b'a'\);"),
        ("intkey.cbor", b"\xa1\x01\x02", "invalid CBOR: a map key is an integer;"),
        ("data.xml", b"<a/>", "unknown extension"),
    ],
)
def test_a_malformed_user_file_is_refused_with_a_reason(tmp_path, name, content, message):
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(FormatError, match=message):
        load_user_file(p)


def test_ubjson_optimised_and_plain_decode_to_the_same_hash():
    doc = generator.generate(2)
    a = DECODERS["ubjson"](FORMATS["ubjson"].encode(doc))
    b = DECODERS["ubjson-plain"](FORMATS["ubjson-plain"].encode(doc))
    assert hash_value(a) == hash_value(b) == hash_value(doc)
    assert b"$" in FORMATS["ubjson"].encode({"a": [1.5, 2.5]}) and b"#" in FORMATS["ubjson"].encode({})


def test_trade_seed_is_the_one_message_of_chronicles_table(corpus):
    """issue 19: `trade-seed` holds exactly the reference message, as a typed trade dataset."""
    dest, manifest = corpus
    entry = next(d for d in manifest["datasets"] if d["dataset"] == "trade-seed")
    assert entry["kind"] == "typed" and entry["schema"] == "trade" and entry["records"] == 1 and entry["latency"]
    doc = json.loads((dest / entry["files"]["json"]["file"]).read_bytes())
    message = {"price": 1234.0, "flag": True, "text": "Hello World!", "side": "Sell"}
    message |= {"small_int": 123, "long_int": 1234567890}
    assert doc == {"schema": "trade", "records": [message]}
    # price stays a float (a harness's f64 field), and the manifest's hash is the document's
    assert isinstance(doc["records"][0]["price"], float)
    assert entry["hash"] == hex64(hash_value(doc))
    # measured only when named: a one-record dataset would add a cell per typed row to every default run
    assert entry["default"] is False
    assert all(d["default"] for d in manifest["datasets"] if d["kind"] == "typed" and d["dataset"] != "trade-seed")
    from argparse import Namespace

    from serbench.cli import _datasets

    default = _datasets(Namespace(size=[], dataset=[], data=[]), manifest, [])
    assert "trade-seed" not in default and "trade" in default
    assert _datasets(Namespace(size=[], dataset=["trade-seed"], data=[]), manifest, []) == ["trade-seed"]


def test_compressed_sizes_are_computed_beside_the_encoding_at_most_two_at_a_time_and_land_in_each_entry(
    tmp_path, monkeypatch
):
    """The sizes of a dataset's files come from worker threads (zlib and zstd release the GIL), yet
    each entry carries exactly what compressed_sizes gives its file, in the manifest's key order, and
    no more than SIZE_WORKERS files wait in memory at once."""
    import threading
    import time

    from serbench.corpus import build

    active, peak, lock = [0], [0], threading.Lock()
    real = build.compressed_sizes

    def slow_sizes(data: bytes, **levels) -> dict:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        return real(data, **levels)

    monkeypatch.setattr(build, "compressed_sizes", slow_sizes)
    user = tmp_path / "mine.json"
    user.write_text(json.dumps({"a": [1, 2.5, "x" * 300], "b": {"c": None, "d": True}}))
    entries = build._write_dataset(tmp_path, load_user_file(user), lambda label: None)
    files = [f for e in entries for f in e["files"].values()]
    assert len(files) == len(FORMATS) + 1  # every format, and the file's exact bytes
    for f in files:
        assert list(f) == ["file", "bytes", "sha256", "gzip_bytes", "zstd_bytes"]
        assert {k: f[k] for k in ("gzip_bytes", "zstd_bytes")} == real((tmp_path / f["file"]).read_bytes())
    assert 1 <= peak[0] <= build.SIZE_WORKERS


def test_a_user_file_over_the_big_file_size_is_compressed_at_the_tools_default_levels_and_says_so(
    tmp_path, monkeypatch
):
    """zstd -19 compresses under 1 MB/s: a big user file's sizes are taken at gzip 6 and zstd 3 (every
    file of the dataset alike), the entries record the levels, and the size tables name them."""
    from serbench.corpus import build
    from serbench.report.facts import compression_sentence

    monkeypatch.setattr(build, "BIG_FILE_BYTES", 1000)
    user = tmp_path / "big.json"
    user.write_text(json.dumps({"a": [f"value {i}" for i in range(200)]}))
    entries = build._write_dataset(tmp_path, load_user_file(user), lambda label: None)
    assert [e["compression"] for e in entries] == [build.FAST_LEVELS] * 2
    for e in entries:
        for f in e["files"].values():
            data = (tmp_path / f["file"]).read_bytes()
            assert f["zstd_bytes"] == build.compressed_sizes(data, **build.FAST_LEVELS)["zstd_bytes"]
    small = tmp_path / "small.json"
    small.write_text("{}")
    (plain, _) = build._write_dataset(tmp_path, load_user_file(small), lambda label: None)
    assert "compression" not in plain
    manifest = {"compression": build.DEFAULT_LEVELS, "datasets": [*entries, plain]}
    sentence = compression_sentence(manifest, manifest["datasets"])
    assert sentence.startswith("gzip level 9, zstd level 19. ")
    assert "user-big, user-big.original: gzip level 6, zstd level 3" in sentence


def test_json_pretty_is_skipped_with_the_reason_when_indentation_would_blow_up_the_file(tmp_path, monkeypatch):
    """A document nested hundreds deep pretty-prints to a hundred times its size (10 MB to 833 MB):
    the corpus writes every other format and says why json-pretty is missing."""
    from serbench.corpus import build, formats

    doc: dict = {"leaf": 1}
    for _ in range(300):
        doc = {"child": doc}
    user = tmp_path / "deep.json"
    user.write_text(json.dumps({"chains": [doc] * 20}))
    monkeypatch.setattr(formats, "PRETTY_INDENT_LIMIT_BYTES", 2 << 20)  # and 4x its payload (18 KB)
    entry = build._write_dataset(tmp_path, load_user_file(user), lambda label: None)[0]
    assert "json-pretty" not in entry["files"] and "json" in entry["files"]
    assert entry["skipped"]["json-pretty"].startswith("indentation would add ")
    assert entry["skipped"]["json-pretty"].endswith("(values nested 303 deep), over 2 MiB and 4x the payload")
    monkeypatch.setattr(formats, "PRETTY_INDENT_LIMIT_BYTES", 10**9)
    entry = build._write_dataset(tmp_path, load_user_file(user), lambda label: None)[0]
    assert "json-pretty" in entry["files"]


def test_the_stats_walk_counts_the_bytes_indentation_adds_to_pretty_json():
    from serbench.corpus import formats, generator

    for doc in ({"a": [1, [2, {"b": []}], {}], "c": "x"}, {"d": [[[]]]}, {}):
        _, indent = generator.walk_stats(doc)
        pretty, plain = formats.encode_json(doc, pretty=True), formats.encode_json(doc)
        assert len(pretty) == len(plain) + indent + 1  # and the final newline
