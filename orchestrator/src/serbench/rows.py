"""What a results row must be before the store keeps it (spec/protocol.md, "Results file"), read from
spec/result.schema.json, so that the orchestrator and the conformance tests hold a harness to one
definition instead of two that can disagree (before, a list of fields here accepted a null
`canary_ns` that the schema refused, and the schema had no `buckets`).

Only the kinds whose numbers the store keeps, divides by or pools are checked, each against its branch
of the schema: `sample`, `alloc` and `latency`. A `check` row's hash is only compared, an `info` row is
free-form, and a kind this orchestrator does not know (a later protocol's) is ignored. Fields the
schema does not list are ignored too (the conformance tests refuse them): a harness's extra facts
cannot break a run. The checker understands the few keywords those branches use; a schema that uses
another fails at import, rather than a rule going unenforced.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

SCHEMA_FILE = Path(__file__).resolve().parents[3] / "spec" / "result.schema.json"
CHECKED = ("sample", "alloc", "latency")
KEYWORDS = frozenset({"type", "minimum", "items", "minItems", "maxItems", "description"})


def load(path: Path = SCHEMA_FILE) -> dict[str, tuple[dict[str, dict], frozenset[str]]]:
    """{kind: ({field: its schema}, the required fields)} for the CHECKED kinds."""
    rules = {}
    for branch in json.loads(path.read_text())["oneOf"]:
        fields = dict(branch["properties"])
        kind = fields.pop("kind")["const"]
        if kind in CHECKED:
            for name, spec in fields.items():
                _understood(path, f"{kind}.{name}", spec)
            rules[kind] = (fields, frozenset(branch.get("required", ())) - {"kind"})
    if missing := set(CHECKED) - rules.keys():
        raise ValueError(f"{path}: no branch for the row kinds {sorted(missing)}")
    return rules


def _understood(path: Path, where: str, spec: dict) -> None:
    if "type" not in spec or (unknown := spec.keys() - KEYWORDS):
        what = f"uses {sorted(unknown)}" if "type" in spec else "has no type"
        raise ValueError(f"{path}: {where} {what}, which serbench/rows.py cannot check")
    if "items" in spec:
        _understood(path, where + "[]", spec["items"])


RULES = load()


def fault(row: object) -> str | None:
    """Why `row` is not one the schema allows, for the kinds the store keeps, or None. A harness's own
    code must never write one (its bug, not the library's), but the orchestrator must not store, divide
    by or pool it either (before the check, a sample without wall_ns stopped the whole run with a
    KeyError, and one of 0 iterations stopped finalize with a ZeroDivisionError)."""
    if not isinstance(row, dict):
        return "is not a JSON object"
    kind = row.get("kind")
    if not isinstance(kind, str):
        return f"has kind {kind!r}, not a string"
    fields, required = RULES.get(kind, ({}, frozenset()))
    for name, spec in fields.items():
        if name not in row:
            if name in required:
                return f"has no {name} ({describe(spec)})"
        elif not fits(spec, row[name]):
            return f"has {name} {row[name]!r}, not {describe(spec)}"
    return None


def _types(spec: dict) -> list[str]:
    t = spec["type"]
    return [t] if isinstance(t, str) else list(t)


def fits(spec: dict, x: object) -> bool:
    """JSON Schema's meaning of the KEYWORDS (draft 2020-12: an integer is any number without a fraction,
    and a boolean is no number), except that a number must be finite: JSON has no infinities, but
    Python's parser reads `Infinity` and `NaN`, and the store would divide by them."""
    types = _types(spec)
    if x is None:
        return "null" in types
    if isinstance(x, bool):
        return "boolean" in types
    if isinstance(x, int | float):
        if not math.isfinite(x) or x < spec.get("minimum", -math.inf):
            return False
        return "number" in types or ("integer" in types and float(x).is_integer())
    if isinstance(x, str):
        return "string" in types
    if isinstance(x, list):
        return (
            "array" in types
            and spec.get("minItems", 0) <= len(x) <= spec.get("maxItems", math.inf)
            and ("items" not in spec or all(fits(spec["items"], v) for v in x))
        )
    return isinstance(x, dict) and "object" in types


_NOUNS = {"integer": "whole number", "number": "number", "string": "string", "boolean": "boolean",
          "object": "object"}  # fmt: skip


def describe(spec: dict, plural: bool = False) -> str:
    """What `fits` wants, in words: "a whole number of at least 1", "a number of at least 0 or null",
    "an array of arrays of 2 numbers of at least 0"."""
    types = _types(spec)
    words = []
    for t in types:
        if t == "null":
            continue
        if t == "array":
            n = spec.get("minItems")
            size = f"{n} " if n is not None and n == spec.get("maxItems") else ""
            noun = "arrays" if plural else "array"
            items = f" of {size}{describe(spec['items'], plural=True)}" if "items" in spec else ""
            words.append(noun + items)
        else:
            noun = _NOUNS[t] + ("s" if plural else "")
            least = spec.get("minimum")
            words.append(noun + (f" of at least {least:g}" if least is not None else ""))
    text = " or ".join(words) + (" or null" if "null" in types else "")
    return text if plural else ("an " if text[0] in "aeiou" else "a ") + text
