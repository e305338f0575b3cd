"""The steps each test's timed loop performs (DESIGN §12, `steps` in `list`): the contract words per
test, in one place. A row whose loop differs names its own steps for that test (`steps=` on its Bench or
TypedBench), with a deviation word in place of a contract word:

- `prebuilt`: a write row encodes a structure built outside the loop (instead of `from-object`);
- `convert`: the loop converts between the harness's records and the library's types (protobuf-convert);
- `decode-unchecked` / `view-unchecked`: the library's decode or view without validation (FlatBuffers'
  Python runtime has no verifier);
- `decode-lazy`: a decode that leaves values to be made when read.
"""

from __future__ import annotations

#: test -> the steps of a row's loop (the contract)
ROW = {
    "write": ("from-object", "encode", "hash-output"),
    "tree": ("copy-input", "decode", "visit-all"),
    "incremental": ("copy-input", "parse-events", "hash-events"),
    "typed-encode": ("encode", "hash-output"),
    "typed-decode": ("copy-input", "decode", "visit-all"),
    "typed-access": ("copy-input", "view", "visit-all"),
}
#: test -> the steps of its baseline's loop (the row's steps less the library's)
BASELINE = {
    "write": ("hash-output",),
    "tree": ("copy-input", "visit-all"),
    "incremental": ("copy-input", "hash-events"),
    "typed-encode": ("hash-output",),
    "typed-decode": ("copy-input", "visit-all"),
    "typed-access": ("copy-input", "visit-all"),
}


def of(tests, baseline: bool, overrides: dict | None = None) -> dict[str, list[str]]:
    """`steps` of one `list` row: each test's contract steps unless the row overrides them."""
    default = BASELINE if baseline else ROW
    overrides = overrides or {}
    return {t: list(overrides.get(t, default[t])) for t in tests}
