"""Write every dataset once per format, plus manifest.json (spec/generator.md, "Corpus layout")."""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import zstandard

from ..objhash import HASH_VERSION, hash_value, hex64
from . import generator, typed
from .formats import DECODERS, FORMATS, IMPORT_EXTENSIONS, FormatError

MANIFEST = "manifest.json"
GZIP_LEVEL = 9
ZSTD_LEVEL = 19


@dataclass(frozen=True)
class Dataset:
    id: str
    kind: str  # schemaless | micro | user
    doc: object
    binary: bool = False
    size: int | None = None


def compressed_sizes(data: bytes) -> dict[str, int]:
    """gzip and zstd sizes at the corpus levels: one definition for corpus files and encoder output."""
    return {
        "gzip_bytes": len(gzip.compress(data, GZIP_LEVEL, mtime=0)),
        "zstd_bytes": len(zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(data)),
    }


def builtin_datasets(seed: int) -> list[Dataset]:
    out = [Dataset(f"size-{n}", "schemaless", generator.generate(n, seed), size=n) for n in range(1, 6)]
    for name, doc in generator.micro_datasets().items():
        out.append(Dataset(name, "micro", doc, binary=name == "micro-bin"))
    for name, records in typed.generate_typed(seed).items():
        out.append(Dataset(name, "typed", typed.typed_document(name, records)))
    return out


def _typed_extras(ds: Dataset) -> dict:
    """What typed datasets add to their manifest entry (spec/typed.md)."""
    if ds.kind != "typed":
        return {}
    records = ds.doc["records"]
    return {
        "schema": ds.doc["schema"],
        "records": len(records),
        "payload_bytes": typed.theoretical_payload_bytes(ds.id, records),
        "latency": ds.id in typed.latency_datasets,
    }


def check_data_model(v, path: str = "$") -> None:
    """Raise FormatError naming the first value outside the data model (DESIGN §3)."""
    if v is None or isinstance(v, (bool, str, bytes)):
        return
    if isinstance(v, int):
        if not -(1 << 63) <= v < (1 << 64):
            raise FormatError(f"{path}: integer {v} does not fit int64 or uint64")
        return
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise FormatError(f"{path}: NaN and infinity are not in the data model")
        return
    if isinstance(v, list):
        for i, x in enumerate(v):
            check_data_model(x, f"{path}[{i}]")
        return
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise FormatError(f"{path}: map key {k!r} is not a string")
            check_data_model(x, f"{path}.{k}")
        return
    raise FormatError(f"{path}: {type(v).__name__} is not in the data model")


def _has_binary(v) -> bool:
    if isinstance(v, bytes):
        return True
    if isinstance(v, list):
        return any(_has_binary(x) for x in v)
    if isinstance(v, dict):
        return any(_has_binary(x) for x in v.values())
    return False


def load_user_file(path: Path) -> Dataset:
    """A user's JSON, MessagePack or CBOR file as a dataset; FormatError with one line if it is not."""
    fmt = IMPORT_EXTENSIONS.get(path.suffix.lower())
    if fmt is None:
        raise FormatError(f"{path}: unknown extension; use .json, .msgpack, .mp or .cbor")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from e
    doc = DECODERS[fmt](data)
    check_data_model(doc)
    if not isinstance(doc, dict):
        raise FormatError(f"{path}: the root must be a map (BSON and most tree APIs need one)")
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in path.stem)
    return Dataset(f"user-{stem}", "user", doc, binary=_has_binary(doc))


def write_corpus(dest: Path, seed: int = generator.DEFAULT_SEED, user: list[Dataset] | None = None) -> dict:
    """Write the corpus to dest and return the manifest. Files go to dest/<dataset>.<ext>."""
    dest.mkdir(parents=True, exist_ok=True)
    entries = []
    for ds in builtin_datasets(seed) + (user or []):
        h = hex64(hash_value(ds.doc))
        files = {}
        skipped = {}
        for fid, fmt in FORMATS.items():
            if ds.kind == "typed" and fid != "json":
                continue  # typed tests read the canonical JSON and encode it with each library's schema
            if ds.binary and not fmt.binary_ok:
                skipped[fid] = "format has no binary type"
                continue
            try:
                data = fmt.encode(ds.doc)
            except FormatError as e:
                skipped[fid] = str(e)
                continue
            name = f"{ds.id}.{fmt.ext}"
            (dest / name).write_bytes(data)
            files[fid] = {
                "file": name,
                "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                **compressed_sizes(data),
            }
        entries.append(
            {
                "dataset": ds.id,
                "kind": ds.kind,
                "size": ds.size,
                "hash": h,
                "stats": generator.stats(ds.doc),
                "files": files,
                "skipped": skipped,
                **_typed_extras(ds),
            }
        )
    manifest = {
        "generator_version": generator.GENERATOR_VERSION,
        "hash_version": HASH_VERSION,
        "seed": seed,
        "code_sha256": code_fingerprint(),
        "compression": {"gzip_level": GZIP_LEVEL, "zstd_level": ZSTD_LEVEL},
        "datasets": entries,
    }
    (dest / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def code_fingerprint() -> str:
    """sha256 of the code that makes the corpus, so an edited generator never reuses stale files even
    before anyone bumps generator_version."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("generator.py", "typed.py", "formats.py", "build.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def load_manifest(dest: Path) -> dict | None:
    try:
        return json.loads((dest / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def ensure_corpus(dest: Path, seed: int, user: list[Dataset]) -> dict:
    """Reuse the corpus on disk when it was made by this generator, seed and user files."""
    m = load_manifest(dest)
    want_users = {d.id: hex64(hash_value(d.doc)) for d in user}
    if (
        m
        and m.get("generator_version") == generator.GENERATOR_VERSION
        and m.get("hash_version") == HASH_VERSION
        and m.get("seed") == seed
        and m.get("code_sha256") == code_fingerprint()
        and {e["dataset"]: e["hash"] for e in m["datasets"] if e["kind"] == "user"} == want_users
        and all((dest / f["file"]).exists() for e in m["datasets"] for f in e["files"].values())
    ):
        return m
    return write_corpus(dest, seed, user)
