"""The reference decoders' conformance set (vectors/conformance/, corpus/conformance.py): the committed
files are what the generator writes, and every answer is one the case's specification allows."""

from __future__ import annotations

import json

from serbench import objhash
from serbench.corpus import conformance as C
from serbench.corpus.build import check_data_model
from serbench.corpus.formats import DECODERS, DEPTH_MESSAGE, MAX_DEPTH, FormatError
from serbench.robustness import cases as R
from serbench.robustness.grammar_cases import extra_cases

from .conftest import VECTORS

CONF = VECTORS / "conformance"


def _files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_committed_conformance_cases_are_exactly_what_the_generator_writes(tmp_path):
    C.write_conformance(tmp_path)
    assert _files(CONF) == _files(tmp_path)
    for name in _files(CONF):
        assert (CONF / name).read_bytes() == (tmp_path / name).read_bytes(), name


def test_every_case_has_one_answer_accept_with_a_hash_or_reject():
    m = json.loads((CONF / "manifest.json").read_text())
    assert m["version"] == C.VERSION
    names = set()
    for e in m["cases"]:
        assert (e["format"], e["name"]) not in names
        names.add((e["format"], e["name"]))
        assert e["expect"] in ("accept", "reject")
        assert ("hash" in e) == (e["expect"] == "accept"), e["name"]
        assert (CONF / e["file"]).is_file()


def test_an_implementation_defined_case_gets_an_answer_its_specification_allows():
    for c in R.all_cases():
        if c.expect != R.IMPL or c.cls in C.LEFT_OUT:
            continue
        expect, h, why = C.answer(c)
        assert why, c.name
        if expect == R.ACCEPT:
            assert not c.hashes or h in c.hashes, f"{c.format}/{c.name}"


def test_the_data_model_rules_are_pinned_in_every_format():
    by_rule: dict[str, set[str]] = {}
    for c in C.cases():
        by_rule.setdefault(c.cls, set()).add(c.format)
    for rule in ("rule/root-map", "rule/no-nul", "rule/depth"):
        assert by_rule[rule] >= {"json", "msgpack", "cbor", "ubjson"}, rule
    assert "bson" in by_rule["rule/no-nul"] and "bson" in by_rule["rule/depth"]
    depths = {c.name for c in C.cases() if c.cls in ("rule/depth", "mutation/deep-nesting") and c.format == "json"}
    for k in range(1, 7):  # DESIGN §12: nesting at 10^k for k up to 6
        assert f"nested-arrays-{10**k}" in depths or f"deep-{10**k}" in depths, k


def test_deep_cases_hash_as_the_nested_value_does():
    from serbench.objhash import hash_value, hex64

    v: object = {}
    for _ in range(9):
        v = {"a": v}
    assert C._deep_map_hash(10) == hex64(hash_value({"a": v}))


def test_the_second_round_is_in_the_set_but_for_repeated_bytes_and_files_over_the_bound():
    second = extra_cases()
    names = {(c.format, c.name) for c in second}
    taken = {(c.format, c.name) for c in C.cases()}
    before = {(c.format, c.data) for c in C.cases() if (c.format, c.name) not in names}
    left = []
    for c in second:
        if (c.format, c.name) in taken:
            continue
        assert c.cls in C.LEFT_OUT or len(c.data) > C.MAX_CASE_BYTES or (c.format, c.data) in before, c.name
        left.append((c.format, c.name))
    assert ("json", "line-separator-inside") in taken and ("cbor", "tag-on-tag") in taken
    assert ("bson", "deep-1000000") in left and ("json", "deep-map-1000") in left  # 8 MB; the rule case's bytes
    assert len(taken) - len(C._rule_cases()) - len([c for c in R.all_cases() if c.cls not in C.LEFT_OUT]) > 100


def _depth(name: str) -> int:
    """The nesting depth a depth case names (deep-3000, nested-maps-1000), else 0."""
    last = name.rsplit("-", 1)[-1]
    return int(last) if name.startswith(("deep", "nested")) and last.isdigit() else 0


def test_the_importer_of_a_users_file_answers_the_set_as_the_reference_decoders_do_up_to_its_depth_limit():
    """formats.py with check_data_model reads a user's JSON, MessagePack or CBOR file (`run --data`):
    every conformance case of those formats gets the manifest's answer from it, but that a document
    nested deeper than MAX_DEPTH is refused with its own message (spec/generator.md, "User files"),
    where the reference decoders have no limit. (Its BSON and UBJSON read back only serbench's own
    corpus: test_native_reference_decoder.py pins where they are laxer.)"""
    m = json.loads((CONF / "manifest.json").read_text())
    checked, refused_deep = 0, 0
    for c in m["cases"]:
        if c["format"] not in ("json", "msgpack", "cbor") or _depth(c["name"]) > 3_000:
            continue  # (deeper, only the limit's message would be checked again)
        try:
            doc = DECODERS[c["format"]]((CONF / c["file"]).read_bytes())
            check_data_model(doc)
            got = objhash.hex64(objhash.hash_value(doc)) if isinstance(doc, dict) else "not a map"
        except FormatError as e:
            got = "reject"
            if str(e) == DEPTH_MESSAGE and c["expect"] == "accept":  # (1,000 nested CBOR tags: both refuse)
                assert _depth(c["name"]) > MAX_DEPTH, c["name"]
                refused_deep += 1
                continue
        checked += 1
        assert got == (c["hash"] if c["expect"] == "accept" else "reject") or (
            got == "not a map" and c["expect"] == "reject"  # load_user_file refuses a root that is not a map
        ), f"{c['format']}/{c['name']}: {got}"
    assert checked > 450 and refused_deep >= 6
