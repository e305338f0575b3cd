"""Work contracts (spec/fairness.md rule 12): which rows keep their test's contract, and what `list`
and the reports say of the others."""

from __future__ import annotations

import json

from serbench import contracts

TREE = ["copy-input", "decode", "visit-all"]


def _cell(test: str, steps) -> dict:
    return {"test": test, "steps": None if steps is None else json.dumps(steps)}


def test_a_row_with_its_tests_contract_keeps_it_and_a_lazy_one_does_not():
    assert contracts.keeps_contract(_cell("tree", TREE))
    lazy = _cell("typed-decode", ["copy-input", "decode-lazy", "visit-all"])
    assert contracts.deviation(lazy) == (
        "copy-input → decode-lazy → visit-all (contract: copy-input → decode → visit-all)"
    )


def test_an_incremental_row_that_does_a_tree_rows_steps_is_apart():
    assert contracts.deviation(_cell("incremental", TREE)).startswith("copy-input → decode → visit-all (contract:")


def test_cells_stored_before_steps_existed_keep_their_ranking_and_undeclared_steps_do_not():
    assert contracts.keeps_contract(_cell("write", None))
    assert contracts.deviation(_cell("write", contracts.UNDECLARED)) == "steps not declared by the harness"


def test_list_says_contract_or_spells_out_each_test_off_it():
    row = {"tests": ["write", "tree"], "steps": {"write": ["prebuilt", "encode", "hash-output"], "tree": TREE}}
    assert contracts.listing_text(row) == "write: prebuilt → encode → hash-output"
    assert contracts.listing_text({"tests": ["tree"], "steps": {"tree": TREE}}) == "contract"
    assert contracts.listing_text({"tests": ["tree"]}) == "tree: steps not declared by the harness"
    assert contracts.listing_text({"baseline": True, "tests": ["tree"]}) == "-"


def test_the_spec_table_names_every_word_the_orchestrator_knows():
    from pathlib import Path

    rule = (Path(__file__).resolve().parents[2] / "spec" / "fairness.md").read_text()
    rule = rule[rule.index("12. **Work contracts.**") :]
    assert [w for w in contracts.STEPS if f"`{w}`" not in rule] == []
