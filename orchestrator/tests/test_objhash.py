"""The object hash (spec/hash.md) against the golden vectors and its own invariants."""

from __future__ import annotations

import struct

import pytest
from serbench.corpus import generator
from serbench.corpus.formats import DECODERS
from serbench.corpus.vectors import V
from serbench.objhash import (
    MASK,
    P0,
    S_BINARY,
    S_NULL,
    S_STRING,
    StreamHasher,
    array_add,
    array_end,
    hash_bytes,
    hash_value,
    hex64,
    map_end,
    map_entry,
    mum,
)

from .conftest import VECTORS


def test_every_vector_file_decodes_to_its_expected_hash(vectors):
    checked = 0
    for v in vectors:
        for fmt, name in v["files"].items():
            assert hex64(hash_value(DECODERS[fmt]((VECTORS / name).read_bytes()))) == v["hash"], (v["name"], fmt)
            checked += 1
    assert len(vectors) >= 40 and checked > 250


def _feed(h: StreamHasher, v) -> None:
    if isinstance(v, dict):
        h.start_map()
        for k, x in v.items():
            h.key(k)
            _feed(h, x)
        h.end_map()
    elif isinstance(v, list):
        h.start_array()
        for x in v:
            _feed(h, x)
        h.end_array()
    elif v is None:
        h.null()
    elif isinstance(v, bool):
        h.boolean(v)
    elif isinstance(v, int):
        h.integer(v)
    elif isinstance(v, float):
        h.double(v)
    elif isinstance(v, str):
        h.string(v)
    else:
        h.binary(v)


def test_streaming_hash_equals_tree_hash_on_every_vector(vectors):
    for v in vectors:
        doc = DECODERS["msgpack"]((VECTORS / v["files"]["msgpack"]).read_bytes())
        h = StreamHasher()
        _feed(h, doc)
        assert hex64(h.value()) == v["hash"], v["name"]


def test_map_key_order_does_not_change_the_hash():
    assert hash_value({"a": 1, "b": [2, {"x": None, "y": 1.5}]}) == hash_value(
        {"b": [2, {"y": 1.5, "x": None}], "a": 1}
    )


def test_array_order_changes_the_hash():
    assert hash_value([1, 2]) != hash_value([2, 1])


@pytest.mark.parametrize(
    "a,b", [(1, 1.0), (0.0, -0.0), (-1, (1 << 64) - 1), ("1", 1), ([], {}), ("", b""), (None, False), ([[]], [])]
)
def test_distinct_values_hash_differently(a, b):
    assert hash_value(a) != hash_value(b)


def test_one_ulp_of_a_double_changes_the_hash():
    assert hash_value(0.1) != hash_value(0.1 + 2**-56)


def test_string_padding_is_not_ambiguous():
    assert hash_value("a") != hash_value("a\x00")


def test_spec_worked_examples_are_pinned():
    # The worked examples other-language implementers check first (spec/hash.md): any change to
    # mum, a constant, a seed or the string rule moves them.
    assert hex64(mum(S_NULL, P0)) == "670527f286862c69"
    assert hex64(hash_value(None)) == "670527f286862c69"
    assert hex64(hash_value({})) == "365af1f36751b10a"
    assert hex64(hash_value([])) == "b9ebd45ee5d00974"
    assert hex64(hash_value("")) == hex64(S_STRING) == "b54cda58fbbee87e"
    assert hex64(hash_value("abc")) == "fffe66391ebe87c4"
    assert hex64(hash_value([1, -1, 1.5])) == "f40ed65b31c6a160"


def _flipped_bits(b: bytes):
    """b with one bit flipped, for every bit; of a long string only the bytes near both ends (where
    lanes and tails are) and every 61st byte, so the test stays fast."""
    n = len(b)
    for i in range(n):
        if n > 256 and 64 <= i < n - 64 and i % 61:
            continue
        for j in range(8):
            fb = bytearray(b)
            fb[i] ^= 1 << j
            yield bytes(fb)


def _raw(s) -> bytes:
    return s.encode("utf-8", "surrogateescape") if isinstance(s, str) else bytes(s)


def _flip_hashes(v):
    """(hash of v, iterator of the hashes of v with one bit of one scalar payload flipped). Ints flip
    a bit of their 64-bit word (a uint stays a uint; an int64 is re-read as an int64, so bit 63 moves
    it across zero and changes its tag); floats a bit of their IEEE-754 word; strings, keys and binary
    a bit of their bytes (hashed as bytes, valid UTF-8 or not). A container's new hash is recomputed
    from its cached sum minus the old term plus the new one: the same arithmetic as a full rehash,
    without redoing the siblings."""
    if isinstance(v, dict):
        items = [(_raw(k), *_flip_hashes(x)) for k, x in v.items()]
        terms = [(hash_bytes(S_STRING, kb), xh) for kb, xh, _ in items]
        s = sum(map_entry(kh, xh) for kh, xh in terms) & MASK
        keys = {kb for kb, _, _ in items}

        def gen():
            for (kb, xh, sub), (kh, _) in zip(items, terms, strict=True):
                rest = s - map_entry(kh, xh)
                for fk in _flipped_bits(kb):
                    if fk not in keys:  # a flip onto another key of the map is not one document
                        yield map_end((rest + map_entry(hash_bytes(S_STRING, fk), xh)) & MASK, len(v))
                for nh in sub:
                    yield map_end((rest + map_entry(kh, nh)) & MASK, len(v))

        return map_end(s, len(v)), gen()
    if isinstance(v, list):
        items = [_flip_hashes(x) for x in v]
        s = 0
        for i, (h, _) in enumerate(items):
            s = array_add(s, i, h)

        def gen():
            for i, (h, sub) in enumerate(items):
                rest = (s - array_add(0, i, h)) & MASK
                for nh in sub:
                    yield array_end(array_add(rest, i, nh), len(v))

        return array_end(s, len(v)), gen()
    if v is None or isinstance(v, bool):
        return hash_value(v), iter(())  # one bit of information: the vectors pin false/true/null
    if isinstance(v, int):
        flipped = ((v & MASK) ^ (1 << j) for j in range(64))
        return hash_value(v), (hash_value(w - (1 << 64) if v < 0 and w >> 63 else w) for w in flipped)
    if isinstance(v, float):
        (bits,) = struct.unpack("<Q", struct.pack("<d", v))
        return hash_value(v), (
            hash_value(struct.unpack("<d", struct.pack("<Q", bits ^ (1 << j)))[0]) for j in range(64)
        )
    s = S_STRING if isinstance(v, str) else S_BINARY
    return hash_bytes(s, _raw(v)), (hash_bytes(s, fb) for fb in _flipped_bits(_raw(v)))


def test_flipping_any_bit_of_any_scalar_changes_the_hash():
    """spec/hash.md "Strength": one flipped bit anywhere in a payload changes the document's hash."""
    docs = [d for _, d in V] + [generator.generate(2)]
    flips = 0
    for doc in docs:
        want, flipped = _flip_hashes(doc)
        assert want == hash_value(doc)
        for h in flipped:
            assert h != want
            flips += 1
    assert flips > 100_000


def test_values_outside_the_data_model_are_refused():
    with pytest.raises(TypeError):
        hash_value({1: "int key"})
    with pytest.raises(TypeError):
        hash_value(object())


def test_the_document_hash_in_c_gives_the_python_hash_on_every_vector_and_corpus_dataset():
    """objhash.hash_document uses the Python harness's C walk (sbwalk), which ./serbench's setup builds
    into this venv; the manifest's hashes must not depend on which of the two ran."""
    from serbench import objhash

    if objhash._c_hash_object is None:
        pytest.skip("sbwalk is not built into this interpreter (./serbench's setup builds it)")
    from serbench.corpus.build import builtin_datasets

    docs = [ds.doc for ds in builtin_datasets(1)]
    docs += [DECODERS["msgpack"](f.read_bytes()) for f in sorted(VECTORS.glob("*.msgpack"))]
    docs += [{"i": [-(2**63), 2**64 - 1, 0, -1], "f": [-0.0, 1e300], "b": b"\x00", "s": "é\u0001"}]
    assert len(docs) > 20
    for doc in docs:
        assert objhash.hash_document(doc) == objhash.hash_value(doc)
