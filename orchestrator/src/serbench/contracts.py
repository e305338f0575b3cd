"""Work contracts (spec/fairness.md rule 12, DESIGN §12): the steps every test's timed loop must
contain, in every language. Each harness declares the steps of each row in `list` (`steps`); a row
whose steps differ from its test's contract does other work, so it is never ranked beside rows that
keep it, in a table, a summary line or the cross-language view: reports show it apart, with its steps.

The steps are words, so that a harness can say what its loop does without prose and the orchestrator
can compare without knowing any library. A deviation replaces or adds a word (`prebuilt` for
`from-object`, `decode-lazy` for `decode`, `convert` before `encode`).
"""

from __future__ import annotations

import json

#: test -> the steps its rows' timed loops must contain, in order
CONTRACTS: dict[str, tuple[str, ...]] = {
    "write": ("from-object", "encode", "hash-output"),
    "tree": ("copy-input", "decode", "visit-all"),
    "incremental": ("copy-input", "parse-events", "hash-events"),
    "typed-encode": ("encode", "hash-output"),
    "typed-decode": ("copy-input", "decode", "visit-all"),
    "typed-access": ("copy-input", "view", "visit-all"),
}

#: what each word means (spec/fairness.md rule 12 has the same table)
STEPS = {
    "copy-input": "a fresh copy of the input bytes (rule 1)",
    "decode": "the library decodes every value into its own values, checking the input as it documents",
    "view": "the library opens a zero-copy view over the bytes, checking them as it documents",
    "visit-all": "every decoded value (or field) read once, into the object hash",
    "parse-events": "the library's parser reports every value as an event, a token or a visitor call",
    "hash-events": "every event fed to the streaming hash as it comes",
    "from-object": "start from the harness's own object (or records) and build whatever the library writes from",
    "encode": "the library writes its output bytes",
    "hash-output": "the output bytes hashed",
    # deviations
    "prebuilt": "start from the library's own value, built once outside the loop (the dump alone)",
    "convert": "convert between the harness's records and the library's own types inside the loop",
    "decode-lazy": "the library parses but leaves values unmaterialized, and the loop does not read them",
    "decode-unchecked": "decode without the library's validation (unsafe/unchecked API)",
    "view-unchecked": "a zero-copy view without validation",
}

#: what a row of a harness that declares no steps for a test is stored with: never equal to a contract
UNDECLARED = ["undeclared"]


def stored_steps(bench: dict, test: str) -> str:
    """The JSON the store keeps for a row's steps in one test (`list`'s `steps`)."""
    return json.dumps((bench.get("steps") or {}).get(test) or UNDECLARED)


def steps_of(cell) -> list[str] | None:
    """A stored cell's steps; None for a cell stored before rows declared them."""
    raw = cell["steps"] if "steps" in cell.keys() else None
    return None if raw is None else json.loads(raw)


def _off_contract(test: str, steps: list[str] | None) -> str | None:
    """None when steps are test's contract (or unknown: None, or a test without one); else the steps."""
    want = CONTRACTS.get(test)
    if steps is None or want is None or tuple(steps) == want:
        return None
    return "steps not declared by the harness" if steps == UNDECLARED else " → ".join(steps)


def deviation(cell) -> str | None:
    """None when a cell's row keeps its test's contract (or was stored before steps existed); else one
    line saying what its loop does instead, e.g. 'prebuilt → encode → hash-output (contract: from-object
    → encode → hash-output)'."""
    off = _off_contract(cell["test"], steps_of(cell))
    if off is None or off.startswith("steps not declared"):
        return off
    return f"{off} (contract: {' → '.join(CONTRACTS[cell['test']])})"


def keeps_contract(cell) -> bool:
    return deviation(cell) is None


def split(rows: list) -> tuple[list, list]:
    """(rows that keep their test's contract, rows shown apart)."""
    return [c for c in rows if keeps_contract(c)], [c for c in rows if not keeps_contract(c)]


def listing_text(bench: dict) -> str:
    """What `serbench list` prints of a row's steps: "contract" when every test keeps its contract, else
    each test that does not, with its steps."""
    if bench.get("baseline"):
        return "-"  # the tests column says baseline already
    steps = bench.get("steps") or {}
    odd = [(t, _off_contract(t, steps.get(t, UNDECLARED))) for t in bench.get("tests", [])]
    odd = [f"{t}: {off}" for t, off in odd if off is not None]
    return "; ".join(odd) or "contract"
