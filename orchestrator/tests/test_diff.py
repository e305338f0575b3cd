"""diff.first_difference: the first path where two data-model documents differ, with both values."""

from __future__ import annotations

from serbench import objhash
from serbench.corpus.formats import decode_json
from serbench.diff import explain_output, first_difference
from serbench.explain import Explainer, transform


def test_equal_documents_have_no_difference_whatever_their_map_order():
    assert first_difference({"a": 1, "b": [1.5, "x", None]}, {"b": [1.5, "x", None], "a": 1}) is None


def test_a_double_that_lost_its_last_bit_is_named_with_both_values():
    got = first_difference({"k": [0, 0.1]}, {"k": [0, 0.10000000000000002]})
    assert got == "at $.k[1]: expected float 0.1, got float 0.10000000000000002"


def test_int_and_float_and_bool_are_different_types_but_int_and_uint_are_one():
    assert first_difference({"n": 1}, {"n": 1.0}) == "at $.n: expected int 1, got float 1.0"
    assert first_difference([True], [1]) == "at $[0]: expected bool true, got int 1"
    assert first_difference([-0.0], [0.0]) == "at $[0]: expected float -0.0, got float 0.0"
    assert first_difference([2**63], [2**63]) is None


def test_missing_and_extra_keys_and_array_lengths_are_reported_at_their_container():
    assert first_difference({"a": {"x": 1, "y": 2}}, {"a": {"x": 1}}) == 'at $.a: the key "y" is missing'
    assert first_difference({"a": {}}, {"a": {"z": 1}}) == 'at $.a: an extra key "z"'
    assert first_difference({"a": [1, 2]}, {"a": [1]}) == "at $.a: expected an array of 2 values, got 1"


def test_keys_that_are_not_identifiers_are_quoted_and_long_strings_are_cut():
    long = "é" * 100
    got = first_difference({"a b": [long]}, {"a b": [long[:-1]]})
    assert got.startswith('at $["a b"][0]: expected string (100 chars) "\\u00e9')
    assert "…, got string (99 chars)" in got


def test_the_first_difference_is_the_first_in_document_order():
    e = {"a": [1, 2], "b": 3}
    assert first_difference(e, {"a": [1, 5], "b": 4}) == "at $.a[1]: expected int 2, got int 5"


def test_a_document_deeper_than_the_recursion_limit_is_compared_without_recursion():
    deep_e, deep_g = [], []
    e, g = deep_e, deep_g
    for _ in range(100_000):
        e.append([])
        g.append([])
        e, g = e[0], g[0]
    e.append("x")
    g.append("y")
    assert first_difference(deep_e, deep_g).endswith('expected string (1 chars) "x", got string (1 chars) "y"')


def test_an_output_the_reference_decoder_refuses_is_said_so():
    assert explain_output(decode_json, {"a": 1}, b'{"a":').startswith(
        "the output does not decode with serbench's reference decoder"
    )
    assert explain_output(decode_json, {"a": 1}, b'{"a":2}') == "first difference at $.a: expected int 1, got int 2"


def test_a_hash_is_explained_when_a_systematic_change_of_the_document_gives_it():
    doc = {"n": [1, -(2**63), 2**64 - 1], "f": [-0.0, 2.5], "s": "a\0b"}
    ex = Explainer(doc)

    def hash_with(change) -> str:
        return objhash.hex64(objhash.hash_value(transform(doc, change)[0]))

    every_double = {"n": [1.0, float(-(2**63)), float(2**64 - 1)], "f": [-0.0, 2.5], "s": "a\0b"}
    assert ex.explain(objhash.hex64(objhash.hash_value(every_double))) == (
        "the hash is the document's with every number read as a double (first at $.n[0]: expected int 1, got float 1.0)"
    )
    no_neg_zero = {"n": [1, -(2**63), 2**64 - 1], "f": [0.0, 2.5], "s": "a\0b"}
    assert ex.explain(objhash.hex64(objhash.hash_value(no_neg_zero))).startswith(
        "the hash is the document's with -0.0 read as +0.0 (first at $.f[0]: expected float -0.0, got float 0.0)"
    )
    overflow = {"n": [1, float(-(2**63)), float(2**64 - 1)], "f": [-0.0, 2.5], "s": "a\0b"}
    assert "an int64 magnitude overflowed" in ex.explain(objhash.hex64(objhash.hash_value(overflow)))
    assert "cut at their first NUL" in ex.explain(hash_with(lambda v: "a" if v == "a\0b" else None))
    assert ex.explain("0123456789abcdef") is None  # nothing known explains it: nothing is claimed


def test_transform_keeps_the_document_and_reports_the_first_change_in_document_order():
    doc = {"a": [1, 2.0], "b": {"c": 3}}
    changed, first = transform(doc, lambda v: float(v) if isinstance(v, int) else None)
    assert changed == {"a": [1.0, 2.0], "b": {"c": 3.0}} and doc == {"a": [1, 2.0], "b": {"c": 3}}
    assert first == ("$.a[0]", 1, 1.0)
    assert transform(doc, lambda v: None)[1] is None


def test_text_read_back_as_latin1_of_its_utf8_is_explained_in_keys_and_values():
    # Chronicle Bytes' writer()/reader() and RawWire's UTF-8 mode: UTF-8 written, one char per byte read
    doc = {"records": [{"name": "plain", "tags": ["über"]}], "ключ": 1}
    garbled = {"records": [{"name": "plain", "tags": ["Ã¼ber"]}], "ключ".encode().decode("latin-1"): 1}
    why = Explainer(doc).explain(objhash.hex64(objhash.hash_value(garbled)))
    assert why == (
        "the hash is the document's with non-ASCII text read back as the Latin-1 reading of its UTF-8 bytes "
        '(first at $.records[0].tags[0]: expected string (4 chars) "\\u00fcber", '
        'got string (5 chars) "\\u00c3\\u00bcber")'
    )


def test_a_changed_key_is_reported_in_document_order_and_keeps_its_place():
    doc = {"a": {"b": "x"}, "é": "y"}
    changed, first = transform(doc, lambda v: v.upper() if isinstance(v, str) else None)
    assert list(changed) == ["A", "É"] and changed["A"] == {"B": "X"}
    assert first == ("$.a (its key)", "a", "A")
    changed, first = transform({"k": 1, "é": 2}, lambda v: "e" if v == "é" else None)
    assert changed == {"k": 1, "e": 2} and first == ("$.é (its key)", "é", "e")
