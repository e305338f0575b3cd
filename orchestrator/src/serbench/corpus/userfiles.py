"""The user's own files (`--data`): opened, named as datasets and decoded, with one line for a file
that cannot be used."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .dataset import Dataset, _check_json_overflow, check_data_model
from .formats import DECODERS, IMPORT_EXTENSIONS, FormatError, IntegerTooLong


@dataclass(frozen=True)
class UserFile:
    """A --data file, opened and named but not yet decoded (decoding a large file takes a while, and
    is skipped when the corpus already holds this file's datasets)."""

    path: Path  # as the user gave it (messages name it so)
    fmt: str
    name: str  # dataset id of the re-encoded dataset; the exact bytes are `<name>.original`
    bytes: int
    sha256: str

    @property
    def original_name(self) -> str:
        return self.name + ORIGINAL_SUFFIX

    def source(self) -> dict:
        return {"path": str(self.path.absolute()), "format": self.fmt, "bytes": self.bytes, "sha256": self.sha256}


# The exact bytes of a user's file are dataset `<name>.original`: a '.' never occurs in a name made
# from a file stem, so it cannot collide with another file's dataset.
ORIGINAL_SUFFIX = ".original"
DATA_BYTES = ("both", "original", "reencoded")


def _sanitize(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in text)


def _unique_names(paths: list[Path]) -> list[str]:
    """`user-<stem>`; files whose names collide are told apart by their folders, then by their
    extensions, then by a number, so two --data files never share a dataset."""
    res = [p.resolve() for p in paths]
    folders = [[x for x in r.parent.parts if x != r.anchor] for r in res]
    names = [f"user-{_sanitize(p.stem)}" for p in paths]
    for _ in range(8):
        groups: dict[str, list[int]] = {}
        for i, n in enumerate(names):
            groups.setdefault(n, []).append(i)
        clashes = [g for g in groups.values() if len(g) > 1]
        if not clashes:
            return names
        for g in clashes:
            if len({res[i].parent for i in g}) > 1:
                for k in range(1, max(len(folders[i]) for i in g) + 1):
                    cand = {i: "user-" + _sanitize("-".join([*folders[i][-k:], res[i].stem])) for i in g}
                    if len(set(cand.values())) == len(g):
                        break
                for i, n in cand.items():
                    names[i] = n
            elif len({paths[i].suffix.lower() for i in g}) > 1:
                for i in g:
                    names[i] = f"{names[i]}-{_sanitize(paths[i].suffix.lower().lstrip('.'))}"
            else:
                for n, i in enumerate(g[1:], 2):
                    names[i] = f"{names[i]}-{n}"
    return [f"{n}-{i + 1}" for i, n in enumerate(names)]  # still clashing after all that: number them all


def open_user_files(paths: list) -> list[UserFile]:
    """Check each --data file can be read (FormatError: one line naming the file and what to do), and
    give each a unique dataset name. The same file twice is an error."""
    out, seen = [], {}
    paths = [Path(p) for p in paths]
    for path in paths:
        fmt = IMPORT_EXTENSIONS.get(path.suffix.lower())
        try:
            if path.is_dir():
                raise FormatError(f"{path}: is a directory; give the path of a .json, .msgpack or .cbor file")
            if not path.exists():
                raise FormatError(f"{path}: no such file; check the path")
            if fmt is None:
                raise FormatError(
                    f"{path}: unknown extension {path.suffix or '(none)'!r}; use .json, .msgpack, .mp or .cbor "
                    "(the extension says how to read the file)"
                )
            data = path.read_bytes()
        except OSError as e:
            raise FormatError(f"{path}: cannot read it ({e.strerror}); check its permissions") from e
        key = path.resolve()
        if key in seen:
            raise FormatError(f"{path}: given twice (also as {seen[key]}); give each --data file once")
        seen[key] = path
        out.append((path, fmt, len(data), hashlib.sha256(data).hexdigest()))
    names = _unique_names(paths)
    return [UserFile(p, fmt, name, n, sha) for (p, fmt, n, sha), name in zip(out, names, strict=True)]


def user_dataset_names(users: list[UserFile], which: str = "both") -> list[str]:
    """The datasets --data adds to a run: the re-encoded one, the exact bytes, or both."""
    out = []
    for u in users:
        if which in ("both", "reencoded"):
            out.append(u.name)
        if which in ("both", "original"):
            out.append(u.original_name)
    return out


def _decode_user_file(u: UserFile) -> Dataset:
    try:
        data = u.path.read_bytes()
    except OSError as e:
        raise FormatError(f"{u.path}: cannot read it ({e.strerror}); check its permissions") from e
    if hashlib.sha256(data).hexdigest() != u.sha256:
        raise FormatError(f"{u.path}: the file changed while serbench was reading it; run again when it is written")
    try:
        try:
            doc = DECODERS[u.fmt](data)
        except IntegerTooLong:
            _check_json_overflow(data.decode("utf-8"))
            raise
        if not isinstance(doc, dict):
            raise FormatError(
                'the root must be a map (BSON and most tree APIs need one); wrap the document as {"data": ...}'
            )
        try:
            _, binary = check_data_model(doc)
        except FormatError:
            if u.fmt == "json":
                _check_json_overflow(data.decode("utf-8"))
            raise
    except FormatError as e:
        raise FormatError(f"{u.path}: {e}") from e
    return Dataset(u.name, "user", doc, binary=binary, source=u.source(), original=data, original_format=u.fmt)


def load_user_file(path: Path) -> Dataset:
    """A user's JSON, MessagePack or CBOR file as a dataset; FormatError with one line if it is not."""
    return _decode_user_file(open_user_files([path])[0])
