"""The orchestrator's check of a harness's rows (rows.py) is spec/result.schema.json's: what it reports,
what `Outcome.kept` drops, and that it agrees with a JSON Schema validator on every field of every kind
it checks."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from serbench import latency, rows, runner

SCHEMA = json.loads(rows.SCHEMA_FILE.read_text())
LAT = {"kind": "latency", "count": 5, "p50_ns": 1, "p99_ns": 2, "p999_ns": 2, "p9999_ns": 2, "max_ns": 3}
GOOD = [
    {"kind": "sample", "iterations": 3, "wall_ns": 0, "cpu_ns": None},
    {"kind": "sample", "iterations": 3, "wall_ns": 10, "cpu_ns": 9, "canary_ns": 20_000},
    {"kind": "sample", "iterations": 3.0, "wall_ns": 10, "canary_ns": None},  # 3.0 is an integer in JSON
    {"kind": "alloc", "allocs_per_op": None, "alloc_bytes_per_op": 0.5, "method": "m"},
    LAT,
    LAT | {"buckets": [[1, 2], [2.5, 3]], "p99999_ns": 2},
    {"kind": "check", "ok": True},
    {"kind": "info", "batch": "anything"},
    {"kind": "a later protocol's", "x": None},
]


def test_a_row_outside_the_protocol_is_named_with_what_is_wrong_and_left_out():
    """What `_judge` reports and `Outcome.kept` drops: the numbers the store keeps, divides by or pools. A
    row the schema allows, with its optional fields null or missing, is kept."""
    assert [rows.fault(r) for r in GOOD] == [None] * len(GOOD)
    s = GOOD[0]
    bad = {
        "has iterations 1.5, not a whole number of at least 1": s | {"iterations": 1.5},
        "has iterations True, not a whole number of at least 1": s | {"iterations": True},
        "has no wall_ns (a whole number of at least 0)": {"kind": "sample", "iterations": 1},
        "has wall_ns -1, not a whole number of at least 0": s | {"wall_ns": -1},
        "has wall_ns 10.5, not a whole number of at least 0": s | {"wall_ns": 10.5},
        "has canary_ns 'x', not a whole number of at least 0 or null": s | {"canary_ns": "x"},
        "has cpu_ns inf, not a whole number of at least 0 or null": s | {"cpu_ns": float("inf")},
        "has allocs_per_op -2, not a number of at least 0 or null": GOOD[3] | {"allocs_per_op": -2},
        "has no method (a string)": {k: v for k, v in GOOD[3].items() if k != "method"},
        "has count 0, not a whole number of at least 1": LAT | {"count": 0},
        "has p99_ns None, not a number of at least 0": LAT | {"p99_ns": None},
        "has p99999_ns nan, not a number of at least 0": LAT | {"p99999_ns": float("nan")},
        "has buckets [[1]], not an array of arrays of 2 numbers of at least 0": LAT | {"buckets": [[1]]},
        "is not a JSON object": [1, 2],
        "has kind ['sample'], not a string": {"kind": ["sample"]},
        "has kind None, not a string": {"iterations": 1},
    }
    assert {rows.fault(r): r for r in bad.values()} == bad
    wrong = bad["has wall_ns -1, not a whole number of at least 0"]
    out = runner.Outcome("ok", None, [s, wrong, [1, 2]], 0.1)
    assert out.kept("sample") == [s] and out.first("alloc") is None
    assert runner._judge(
        out, 0, "", 0, runner.Mode("test", rounds=1, budget_ms=1, min_samples=1, timeout_s=1, n_boot=50)
    ) == ("failed", "the harness broke the protocol: line 2 (sample) has wall_ns -1, not a whole number of at least 0")


# Values of every JSON type and edge a field can be given; non-finite numbers are left to the test above
# (JSON has none, and a schema validator calls them numbers).
VALUES = [None, True, False, -1, 0, 1, 2, 1.0, 0.5, -0.5, "x", "", [], [1], [[1, 2]], [[1, -2]], [[1]], [[1, 2, 3]],
          [["a", 1]], {}, {"a": 1}]  # fmt: skip
MISSING = object()


def _variants():
    """Every good row of a checked kind with one of its schema's fields (or an unlisted one) set to each
    of VALUES or taken out."""
    for base in GOOD[:6]:
        fields = next(b for b in SCHEMA["oneOf"] if b["properties"]["kind"].get("const") == base["kind"])
        for name in [*fields["properties"], "unlisted"]:
            if name == "kind":
                continue
            for value in [*VALUES, MISSING]:
                row = copy.deepcopy(base)
                row.pop(name, None) if value is MISSING else row.__setitem__(name, value)
                yield pytest.param(row, id=f"{base['kind']}-{name}-{value if value is not MISSING else 'missing'}")


@pytest.mark.parametrize("row", list(_variants()))
def test_the_check_agrees_with_the_schema(row):
    """rows.py reads the schema and implements the keywords it uses; a JSON Schema validator is the judge.
    The one difference by design: a field the schema does not list is ignored (a harness's extra facts
    cannot fail a run), where the schema refuses one on a sample row."""
    listed = {k: v for k, v in row.items() if k != "unlisted"}
    try:
        jsonschema.validate(listed, SCHEMA)
        valid = True
    except jsonschema.ValidationError:
        valid = False
    assert (rows.fault(row) is None) == valid, rows.fault(row)


def test_every_percentile_latency_pools_is_in_the_schema():
    """latency.py pools the histogram's QUANTILES and max_ns: the schema must check each of them."""
    fields, required = rows.RULES["latency"]
    assert {*latency.QUANTILES, "max_ns", "count"} <= fields.keys()
    assert {*latency.QUANTILES, "max_ns", "count"} - required == {"p99999_ns"}  # only some harnesses time enough


def test_a_schema_with_a_keyword_the_check_does_not_know_fails_at_load(tmp_path):
    schema = copy.deepcopy(SCHEMA)
    sample = next(b for b in schema["oneOf"] if b["properties"]["kind"].get("const") == "sample")
    sample["properties"]["wall_ns"]["exclusiveMaximum"] = 10
    path = tmp_path / "result.schema.json"
    path.write_text(json.dumps(schema))
    with pytest.raises(ValueError, match=r"sample.wall_ns uses \['exclusiveMaximum'\], which serbench/rows.py"):
        rows.load(path)
    assert rows.load(rows.SCHEMA_FILE) == rows.RULES
