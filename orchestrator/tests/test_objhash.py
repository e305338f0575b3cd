"""The object hash (spec/hash.md) against the golden vectors and its own invariants."""

from __future__ import annotations

import pytest
from serbench.corpus.formats import DECODERS
from serbench.objhash import StreamHasher, hash_value, hex64, step

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
    # fmix, K, a tag or the string rule moves them.
    assert hex64(step(1, 0)) == "e220a8397b1dcdaf"
    assert hex64(hash_value(None)) == "e220a8397b1dcdaf"
    assert hex64(hash_value({})) == "da8df2d9244145b6"
    assert hex64(hash_value("abc")) == "6c023e2e38b2cffe"
    assert hex64(hash_value([1, -1, 1.5])) == "b1fd332f127c7e87"


def test_values_outside_the_data_model_are_refused():
    with pytest.raises(TypeError):
        hash_value({1: "int key"})
    with pytest.raises(TypeError):
        hash_value(object())
