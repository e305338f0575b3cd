"""The harness's tree walk of the hash (serbench_py/hashing.py) agrees with the reference
implementation (serbench.objhash) and never recurses."""

from __future__ import annotations

import collections
import random

import pytest
from serbench_py.hashing import ModelError, hash_value, objhash


def _random_doc(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 6 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randrange(-(2**63), 2**64)
    if kind == 3:
        return rng.uniform(-1e300, 1e300)
    if kind == 4:
        return "".join(chr(rng.choice([0x41, 0xE9, 0x3C0, 0x1F600])) for _ in range(rng.randrange(20)))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(20)))
    if kind in (6, 7):
        return [_random_doc(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {f"k{i}": _random_doc(rng, depth + 1) for i in range(rng.randrange(5))}


def test_the_iterative_walk_agrees_with_objhash_on_random_documents():
    rng = random.Random(7)
    for _ in range(500):
        doc = _random_doc(rng)
        assert hash_value(doc) == objhash.hash_value(doc)


def test_subclasses_hash_as_their_base_types():
    class Int64(int):
        pass

    doc = collections.OrderedDict(a=Int64(5), b=(1, 2.5), c=bytearray(b"x"), d=True)
    assert hash_value(doc) == objhash.hash_value({"a": 5, "b": [1, 2.5], "c": b"x", "d": True})


def test_a_document_nested_100000_deep_hashes_without_recursion():
    doc: list = []
    for _ in range(100_000):
        doc = [doc, {"k": None}]
    with pytest.raises(RecursionError):
        objhash.hash_value(doc)  # the reference walk recurses: why the harness has its own
    assert isinstance(hash_value(doc), int)


@pytest.mark.parametrize(
    "value,why",
    [
        ({1: 2}, "map key must be a string"),
        ({"a": {1, 2}}, "not in the serbench data model"),
        ({"a": "\ud800"}, "not valid Unicode"),
        ({"\udc00": 1}, "not valid Unicode"),
        ([object()], "not in the serbench data model"),
    ],
)
def test_values_outside_the_data_model_raise_model_error(value, why):
    with pytest.raises(ModelError, match=why):
        hash_value(value)
