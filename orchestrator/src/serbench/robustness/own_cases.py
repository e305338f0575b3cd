"""Your own robustness cases (`serbench robustness --cases PATH`): a folder of files, or one file, each a
case whose expectation its name's prefix gives, copied beside the built-in cases (cases.py)."""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

from .. import objhash
from ..corpus import formats as F
from .cases import ACCEPT, FORMATS, IMPL, MANIFEST_VERSION, REJECT, Case, _write_atomic, hash_of

#: where your own cases are copied, beside the built-in ones (which a run with them leaves as they are)
USER_FOLDER = "robustness-user"
#: a file name's prefix that says what a correct decoder must do, as JSONTestSuite names its files
#: (github.com/nst/JSONTestSuite, test_parsing/: y_ must be accepted, n_ rejected, i_ either)
PREFIXES = {"y_": ACCEPT, "n_": REJECT, "i_": IMPL}


class CaseFolderError(ValueError):
    """A --cases folder that cannot be used: one line naming it and what to do."""


def _ext_formats() -> dict[str, str]:
    return {F.FORMATS[f].ext: f for f in FORMATS} | {"mp": "msgpack", "ubj": "ubjson"}


def _case_name(stem: str) -> str:
    """[a-z0-9-]+ from a file name: JSONTestSuite's `n_string_1_surrogate_then_escape_u1x` becomes
    `n-string-1-surrogate-then-escape-u1x`."""
    name = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in stem.lower())
    return "-".join(part for part in name.split("-") if part) or "case"


def user_case(path: Path, fmt: str, cls: str) -> Case:
    """One file as a case: its expectation from its name's prefix (PREFIXES; any other name:
    implementation-defined, so only crashes, hangs and blow-ups count against a library). A file that
    must be accepted is held to the hash of what the strict reference decoder reads; when that decoder
    refuses it (a value outside serbench's data model, such as a duplicate key or a number beyond a
    double), accepting any value or rejecting is right, and the description says why."""
    data = path.read_bytes()
    expect = next((e for p, e in PREFIXES.items() if path.name.startswith(p)), IMPL)
    desc, hashes = f"{path.name} (your file)", ()
    if expect == ACCEPT:
        try:
            value = F.DECODERS[fmt](data)
            hashes = (hash_of(value),)
        except (F.FormatError, TypeError, ValueError, RecursionError) as e:
            expect = IMPL
            desc += f"; valid, but serbench's reference decoder cannot read it ({str(e)[:200]})"
        else:
            if fmt == "json" and not _finite(value):
                # 1e400 is valid JSON text, but RFC 8259 §6 lets a parser limit the range of numbers
                # (the built-in case json/number-overflow is implementation-defined for that reason)
                expect, hashes = IMPL, ()
                desc += "; a number beyond binary64, which RFC 8259 §6 lets a parser refuse"
    elif expect == IMPL and not any(path.name.startswith(p) for p in PREFIXES):
        desc += "; no y_, n_ or i_ prefix: any clean answer is right"
    return Case(_case_name(path.stem), fmt, cls, desc, expect, data, hashes)


def _finite(value) -> bool:
    """No infinite or NaN float anywhere in a decoded value (iterative: a case may nest deeply)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def user_cases(folder: Path) -> tuple[list[Case], list[str]]:
    """The cases of a folder of your own files (the folder and its subfolders), or of one such file
    (the input that broke a service), by extension (.json, .msgpack or .mp, .cbor, .bson, .ubjson or
    .ubj), and the names of the files skipped for another extension. Their class is `user/<folder
    name>` (a single file's folder); two names that clean to one get -2, -3, ..."""
    formats, cases, skipped, taken = _ext_formats(), [], [], set()
    exts = ", ".join(sorted(f".{e}" for e in formats))
    if not folder.exists():
        raise CaseFolderError(f"{folder}: no such file or folder; give a folder of case files (or one) to --cases")
    if folder.is_file():
        if formats.get(folder.suffix.lower().lstrip(".")) is None:
            raise CaseFolderError(f"{folder}: not a case file (the extensions read are {exts})")
        files, top = [folder], folder.parent
    elif folder.is_dir():
        files, top = sorted(p for p in folder.rglob("*") if p.is_file()), folder
    else:
        raise CaseFolderError(f"{folder}: neither a folder nor a file; give a folder of case files to --cases")
    cls = f"user/{_case_name(top.resolve().name)}"
    for path in files:
        fmt = formats.get(path.suffix.lower().lstrip("."))
        if fmt is None:
            skipped.append(str(path.relative_to(top)))
            continue
        try:
            case = user_case(path, fmt, cls)
        except OSError as e:
            raise CaseFolderError(f"{path}: cannot read it ({e.strerror or e})") from None
        name, n = case.name, 1
        while (fmt, name) in taken:
            n += 1
            name = f"{case.name}-{n}"
        taken.add((fmt, name))
        cases.append(dataclasses.replace(case, name=name))
    if not cases:
        raise CaseFolderError(f"{folder}: no case file in it (the extensions read are {exts})")
    return cases, skipped


def write_user_cases(corpus_dir: Path, folder: Path, cases: list[Case]) -> dict:
    """Copy your cases to `<corpus_dir>/robustness-user/` (what was there before goes) and return
    their manifest, which names the folder they came from."""
    dest = corpus_dir / USER_FOLDER
    if dest.exists():
        shutil.rmtree(dest)
    for c in cases:
        path = dest / c.file
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, c.data)
    manifest = {
        "version": MANIFEST_VERSION,
        "seed": None,
        "source": str(folder.resolve()),
        "folder": USER_FOLDER,
        "hash_version": objhash.HASH_VERSION,
        "cases": [c.entry() for c in cases],
    }
    _write_atomic(dest / "manifest.json", json.dumps(manifest, indent=1).encode())
    return manifest
