"""The harness's compiled walks (sbwalk, harnesses/python/sbwalk/sbwalk.c) against the Python reference:
the tree hash on every golden vector (as every reference decoder reads it), on documents nested a million
deep and on values outside the model; the streaming form over ijson's events and over the harness's own
event list; the typed walk over every typed row's records, against typed.py's to_model + hash_value."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
import sbwalk
from deepdocs import deep
from serbench_py import typed
from serbench_py.hashing import DECODERS, ModelError, RefError, hash_events, hash_object, hash_value, model_events

VECTORS = Path(__file__).resolve().parents[3] / "vectors"
INDEX = json.loads((VECTORS / "vectors.json").read_text())


def _files():
    for v in INDEX["vectors"]:
        for fmt, name in v["files"].items():
            yield pytest.param(fmt, name, v["hash"], id=f"{v['name']}-{fmt}")


@pytest.mark.parametrize("fmt,name,want", list(_files()))
def test_tree_hash_equals_the_python_hash_on_every_vector(fmt, name, want):
    try:
        obj = DECODERS[fmt]((VECTORS / name).read_bytes())
    except RefError:
        pytest.skip("the reference decoder rejects it (root not a map)")
    assert hash_object(obj) == hash_value(obj) == int(want, 16)
    assert hash_events(model_events(obj)) == int(want, 16)


@pytest.mark.parametrize("maps", [False, True])
def test_deep_documents(maps):
    n = 1_000_000
    obj = DECODERS["msgpack"](deep("msgpack", n, maps))
    assert hash_object(obj) == hash_value(obj)
    assert hash_events(model_events(obj)) == hash_value(obj)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        1,
        -1,
        2**63 - 1,
        -(2**63),
        2**64 - 1,
        0.0,
        -0.0,
        1.5,
        math.inf,
        "",
        "abc",
        "é" * 40,
        "\U0001f600" * 9,
        "x" * 1000,
        b"",
        b"\x00" * 33,
        bytearray(b"ab"),
        memoryview(b"abc"),
        [1, [2, [3]]],
        (1, 2),
        {"a": {"b": []}},
        {"k": (1, "é")},
    ],
)
def test_values(value):
    assert hash_object(value) == hash_value(value)


def test_subclasses_hash_as_their_base_type():
    class Int(int):
        pass

    class D(dict):
        pass

    assert hash_object(D(a=Int(5), b=[1.5])) == hash_value({"a": 5, "b": [1.5]})


@pytest.mark.parametrize("bad", [{1: 2}, object(), "\ud800", {"\udc00": 1}, 2**64, -(2**63) - 1, set()])
def test_values_outside_the_model_raise_model_error(bad):
    with pytest.raises(ModelError):
        hash_object([bad])


def test_hash_binary():
    from serbench.objhash import S_BINARY, hash_bytes

    for n in (0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 1000):
        b = bytes(range(256)) * 4
        assert sbwalk.hash_binary(b[:n]) == hash_bytes(S_BINARY, b[:n])
        assert sbwalk.hash_binary(bytearray(b[:n])) == hash_bytes(S_BINARY, b[:n])


def test_events_from_ijson_equal_the_tree_hash():
    import ijson

    doc = {"a": [1, -2, 1.5, None, True, "é", {"b": {}}], "c": []}
    events = ijson.get_backend("yajl2_c").basic_parse(io.BytesIO(json.dumps(doc).encode()), use_float=True)
    assert hash_events(events) == hash_value(doc)


@pytest.mark.parametrize(
    "events",
    [
        [("end_map", None)],
        [("start_map", None), ("number", 1), ("end_map", None)],
        [("start_array", None), ("end_map", None)],
        [("start_map", None)],
        [("null", None), ("null", None)],
        [("bogus", 1)],
        [1],
    ],
)
def test_bad_event_sequences_raise_model_error(events):
    with pytest.raises(ModelError):
        hash_events(events)


def test_typed_walk_depth_is_bounded():
    from serbench.corpus.typed import generate_typed

    rec = typed.native("nested", generate_typed(1)["nested"][:1])[0]
    deepest = rec
    for _ in range(typed.MAX_DEPTH + 2):
        child = typed.native("nested", generate_typed(1)["nested"][:1])[0]
        child.children = []
        deepest.children = [child]
        deepest = child
    with pytest.raises(ModelError, match="deeper"):
        typed.plan("nested").hash([rec])
