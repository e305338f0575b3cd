"""Write every dataset once per format, plus manifest.json (spec/generator.md, "Corpus layout")."""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import re
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path

import zstandard

from .. import threads
from ..objhash import HASH_VERSION, hash_document, hex64
from . import generator, typed
from .dataset import Dataset, check_data_model
from .formats import FORMATS, FormatError
from .userfiles import (
    DATA_BYTES,
    ORIGINAL_SUFFIX,
    UserFile,
    _decode_user_file,
    load_user_file,
    open_user_files,
    user_dataset_names,
)

# the names other modules and the tests take from `serbench.corpus.build`
__all__ = [
    "DATA_BYTES",
    "ORIGINAL_SUFFIX",
    "Dataset",
    "UserFile",
    "check_data_model",
    "compressed_sizes",
    "ensure_corpus",
    "load_user_file",
    "open_user_files",
    "user_dataset_names",
    "write_corpus",
]

MANIFEST = "manifest.json"
GZIP_LEVEL = 9
ZSTD_LEVEL = 19


#: A user's file bigger than this has its compressed sizes taken at gzip's and zstd's own default
#: levels (what `gzip` and `zstd` give without options) instead of 9 and 19: zstd -19 compresses about
#: 0.75 MB/s here (70.6 s for a 53 MB JSON numbers array, 0.38 s at level 3), so the corpus of a 50 MB
#: file took minutes in compression alone (research/corpus_speed.py, issue 74). Every file of one
#: dataset uses one pair of levels, so its formats compare like for like; the manifest entry and the
#: reports say which levels a dataset used.
BIG_FILE_BYTES = 8 << 20
#: the corpus of a 50 MB user file took 11.0 to 24.9 s on the 2-vCPU machine, 0.24 to 0.47 s per MB
#: (docs/studies/corpus-speed.md: a numbers array, tweets, records nested 380 deep); the estimate it prints
CORPUS_S_PER_MB = 0.4
DEFAULT_LEVELS = {"gzip_level": GZIP_LEVEL, "zstd_level": ZSTD_LEVEL}
FAST_LEVELS = {"gzip_level": 6, "zstd_level": 3}


def compression_levels(ds: Dataset, figures: dict) -> dict[str, int]:
    """The levels a dataset's compressed sizes are taken at (BIG_FILE_BYTES): by the user's file, or by
    its pretty JSON (payload and indentation; a 1 MB file nested 380 deep pretty-prints to 53 MB)."""
    biggest = max(len(ds.original or b""), figures["payload_bytes"] + figures["indent_bytes"])
    return FAST_LEVELS if ds.original is not None and biggest > BIG_FILE_BYTES else DEFAULT_LEVELS


def compressed_sizes(data: bytes, gzip_level: int = GZIP_LEVEL, zstd_level: int = ZSTD_LEVEL) -> dict[str, int]:
    """gzip and zstd sizes at the corpus levels: one definition for corpus files and encoder output."""
    return {
        "gzip_bytes": len(gzip.compress(data, gzip_level, mtime=0)),
        "zstd_bytes": len(zstandard.ZstdCompressor(level=zstd_level).compress(data)),
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
        "default": ds.id not in typed.opt_in_datasets,
    }


# --- writing ------------------------------------------------------------------------------------------

Progress = Callable[[int, int, str], None]


def _no_progress(done: int, total: int, label: str) -> None:
    pass


def _write_atomic(path: Path, data: bytes) -> None:
    """Write under a temporary name, then rename: a file in the corpus is always complete. An
    interruption removes the temporary file; a kill leaves it to `_remove_leftovers`."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


#: threads that compute a dataset's compressed sizes while the next format is encoded: zlib and zstd
#: release the GIL, and gzip -9 plus zstd -19 were 199 s of the 272 s a 35 MB user file's 9 files took
#: one after another (cProfile; two threads compress two of its 19 MB files in 12.8 s instead of 23.7)
SIZE_WORKERS = 2


class _Entries:
    """Manifest entries of one dataset's files, their gzip and zstd sizes computed on SIZE_WORKERS
    threads; at most that many files wait for theirs, so memory stays bounded for a large file.
    `done` fills the sizes in, in the entries' own key order; `close` lets the threads go."""

    def __init__(self) -> None:
        self._pool = threads.pool(SIZE_WORKERS)
        self._pending: list[tuple[dict, Future]] = []
        self.levels = DEFAULT_LEVELS  # set per dataset before its first file (compression_levels)

    def add(self, name: str, data: bytes) -> dict:
        running = [f for _, f in self._pending if not f.done()]
        if len(running) >= SIZE_WORKERS:
            wait(running, return_when=FIRST_COMPLETED)
        entry = {"file": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        self._pending.append((entry, self._pool.submit(compressed_sizes, data, **self.levels)))
        return entry

    def done(self) -> None:
        for entry, f in self._pending:
            entry.update(f.result())

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _steps(ds: Dataset) -> int:
    """Progress steps of one dataset: one per format it is written in, one for its hash, and one for
    the exact bytes of a user's file."""
    return (1 if ds.kind == "typed" else len(FORMATS)) + 1 + (ds.original is not None)


def _write_dataset(dest: Path, ds: Dataset, tick: Callable[[str], None]) -> list[dict]:
    """Every file of one dataset, and its manifest entries (two for a user's file: re-encoded, and
    the exact bytes)."""
    entries = _Entries()
    try:
        out = _write_files(dest, ds, tick, entries)
        entries.done()
        return out
    finally:
        entries.close()


def _write_files(dest: Path, ds: Dataset, tick: Callable[[str], None], entries: _Entries) -> list[dict]:
    tick(f"{ds.id}: hash and statistics")
    h = hex64(hash_document(ds.doc))
    stats, indent = generator.walk_stats(ds.doc)
    figures = {"indent_bytes": indent, "max_depth": stats["max_depth"], "payload_bytes": stats["payload_bytes"]}
    entries.levels = compression_levels(ds, figures)
    files = {}
    skipped = {}
    for fid, fmt in FORMATS.items():
        if ds.kind == "typed" and fid != "json":
            continue  # typed tests read the canonical JSON and encode it with each library's schema
        tick(f"{ds.id}: {fid}")
        if ds.binary and not fmt.binary_ok:
            skipped[fid] = "format has no binary type"
            continue
        refused = fmt.refuse(figures)
        if refused:
            skipped[fid] = refused
            continue
        try:
            data = fmt.encode(ds.doc)
        except FormatError as e:
            skipped[fid] = str(e)
            continue
        name = f"{ds.id}.{fmt.ext}"
        _write_atomic(dest / name, data)
        files[fid] = entries.add(name, data)
    entry = {
        "dataset": ds.id,
        "kind": ds.kind,
        "size": ds.size,
        "hash": h,
        "stats": stats,
        "files": files,
        "skipped": skipped,
        **_typed_extras(ds),
    }
    if entries.levels != DEFAULT_LEVELS:
        entry["compression"] = entries.levels
    if ds.original is None:
        return [entry]
    entry |= {"source": ds.source, "reencoded": True}
    tick(f"{ds.id}: your file's exact bytes")
    oid = ds.id + ORIGINAL_SUFFIX
    name = f"{oid}.{FORMATS[ds.original_format].ext}"
    _write_atomic(dest / name, ds.original)
    original = {
        "dataset": oid,
        "kind": ds.kind,
        "size": None,
        "hash": h,
        "stats": stats,
        "files": {ds.original_format: entries.add(name, ds.original)},
        "skipped": {},
        "source": ds.source,
        "original": True,
    }
    if "compression" in entry:
        original["compression"] = entry["compression"]
    return [entry, original]


def _manifest(seed: int, entries: list[dict]) -> dict:
    return {
        "generator_version": generator.GENERATOR_VERSION,
        "hash_version": HASH_VERSION,
        "seed": seed,
        "code_sha256": code_fingerprint(),
        "compression": {"gzip_level": GZIP_LEVEL, "zstd_level": ZSTD_LEVEL},
        "datasets": entries,
    }


def _save_manifest(dest: Path, manifest: dict) -> None:
    _write_atomic(dest / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


class _Journal:
    """`.serbench-writing-<pid>.json` lists the files being written until the manifest holds them, so
    files of a dataset cut short by an interruption or a kill are removed (now, or at the next start)."""

    def __init__(self, dest: Path):
        self.path = dest / f".serbench-writing-{os.getpid()}.json"
        self.files: list[str] = []

    def add(self, name: str) -> None:
        self.files.append(name)
        _write_atomic(self.path, json.dumps({"files": self.files}).encode())

    def done(self) -> None:
        self.files = []
        self.path.unlink(missing_ok=True)

    def abandon(self, dest: Path, keep: set[str]) -> None:
        for name in self.files:
            if name not in keep:
                (dest / name).unlink(missing_ok=True)
        self.done()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _remove_leftovers(dest: Path, keep: set[str]) -> None:
    """Temporary files and journalled files of serbench processes that are gone (killed mid-write)."""
    for p in dest.iterdir():
        m = re.fullmatch(r"\.(.+)\.tmp-(\d+)", p.name)
        if m and not _alive(int(m[2])):
            p.unlink(missing_ok=True)
            continue
        m = re.fullmatch(r"\.serbench-writing-(\d+)\.json", p.name)
        if m and not _alive(int(m[1])):
            try:
                names = json.loads(p.read_text()).get("files", [])
            except (OSError, ValueError, AttributeError):
                names = []
            for name in names:
                if isinstance(name, str) and "/" not in name and not name.startswith(".") and name not in keep:
                    (dest / name).unlink(missing_ok=True)
            p.unlink(missing_ok=True)


def _write_all(
    dest: Path, datasets: list[Dataset], progress: Progress, out: dict[str, dict], seed: int, base: dict[str, dict]
) -> None:
    """Write `datasets`, adding their entries to `out`. With user datasets the manifest (`base` and
    `out`) is saved after each, so an interruption loses at most the dataset in progress; the files of
    that dataset are removed (the journal), so nothing half-written stays behind."""
    total = sum(_steps(ds) for ds in datasets)
    done = 0

    def tick(label: str) -> None:
        nonlocal done
        progress(done, total, label)
        done += 1

    journal = _Journal(dest)
    for ds in datasets:
        try:
            for f in FORMATS.values():
                journal.add(f"{ds.id}.{f.ext}")
            if ds.original is not None:
                journal.add(f"{ds.id}{ORIGINAL_SUFFIX}.{FORMATS[ds.original_format].ext}")
            for e in _write_dataset(dest, ds, tick):
                out[e["dataset"]] = e
            if ds.kind == "user":
                _save_manifest(dest, _manifest(seed, list((base | out).values())))
                journal.done()
        except BaseException:
            journal.abandon(dest, {f["file"] for e in (base | out).values() for f in e["files"].values()})
            raise
    journal.done()
    if datasets:
        progress(total, total, "")


def write_corpus(
    dest: Path, seed: int = generator.DEFAULT_SEED, user: list[Dataset] | None = None, progress: Progress | None = None
) -> dict:
    """Write the whole corpus to dest (files dest/<dataset>.<ext>) and return the manifest."""
    dest.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(dest, set())
    entries: dict[str, dict] = {}
    _write_all(dest, builtin_datasets(seed) + (user or []), progress or _no_progress, entries, seed, {})
    manifest = _manifest(seed, list(entries.values()))
    _save_manifest(dest, manifest)
    return manifest


def code_fingerprint() -> str:
    """sha256 of the code that makes the corpus, so an edited generator never reuses stale files even
    before anyone bumps generator_version."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("generator.py", "typed.py", "formats.py", "build.py", "dataset.py", "userfiles.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()


def load_manifest(dest: Path) -> dict | None:
    try:
        m = json.loads((dest / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return m if isinstance(m, dict) and isinstance(m.get("datasets"), list) else None


def _intact(dest: Path, entry: dict) -> bool:
    """Every file of a manifest entry is on disk at its size (the sha256 is checked by every harness
    through the object hash, which fails loudly on a changed file)."""
    try:
        return all((dest / f["file"]).stat().st_size == f["bytes"] for f in entry["files"].values())
    except (OSError, KeyError, TypeError):
        return False


def _source_unchanged(entry: dict) -> bool:
    src = entry.get("source") or {}
    try:
        p = Path(src["path"])
        return p.stat().st_size == src["bytes"] and hashlib.sha256(p.read_bytes()).hexdigest() == src["sha256"]
    except (OSError, KeyError, TypeError):
        return False


def _drop(dest: Path, entries: dict[str, dict], name: str) -> None:
    e = entries.pop(name, None)
    for f in (e or {}).get("files", {}).values():
        (dest / f["file"]).unlink(missing_ok=True)


def ensure_corpus(
    dest: Path,
    seed: int,
    user: list[UserFile],
    progress: Progress | None = None,
    note: Callable[[str], None] | None = None,
) -> dict:
    """Write only what is missing: the standard datasets when the generator code, versions or seed
    changed (or a file is gone), and each user file whose datasets are not already there for its
    exact bytes (SHA-256). Returns the manifest of the standard datasets and the given user files;
    manifest.json on disk also keeps earlier user files' datasets while those files are unchanged."""
    progress, note = progress or _no_progress, note or (lambda msg: None)
    dest.mkdir(parents=True, exist_ok=True)
    # One writer at a time per corpus folder: a second command would otherwise take the first's
    # temporary files for an interrupted write's leftovers, and both would rewrite manifest.json.
    # flock(2) is released by the kernel when its holder dies, so a killed writer blocks nobody. The
    # lock is taken on the folder itself, so it adds no file to the corpus.
    lock = os.open(dest, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            note(f"waiting: another serbench process is writing the corpus in {dest}...")
            fcntl.flock(lock, fcntl.LOCK_EX)
        return _ensure_corpus(dest, seed, user, progress, note)
    finally:
        os.close(lock)


def _ensure_corpus(dest: Path, seed: int, user: list[UserFile], progress: Progress, note) -> dict:
    old = load_manifest(dest)
    same_code = bool(
        old
        and old.get("generator_version") == generator.GENERATOR_VERSION
        and old.get("hash_version") == HASH_VERSION
        and old.get("code_sha256") == code_fingerprint()
    )
    old_entries = old["datasets"] if same_code else []
    standard = {e["dataset"]: e for e in old_entries if e.get("kind") != "user"}
    users_kept = {e["dataset"]: e for e in old_entries if e.get("kind") == "user" and _intact(dest, e)}
    _remove_leftovers(dest, {f["file"] for e in old_entries for f in e["files"].values()})
    wanted = {n for u in user for n in (u.name, u.original_name)}
    for name, e in list(users_kept.items()):
        # An earlier --data file's datasets stay while that file is unchanged; the others are removed.
        if name not in wanted and not _source_unchanged(e):
            _drop(dest, users_kept, name)
    todo = []
    for u in user:
        have = [users_kept.get(n) for n in (u.name, u.original_name)]
        # the same bytes read as another format (ok.msgpack copied to ok.cbor) are another dataset: the
        # format, from the extension, is part of what was measured (issue 74)
        want = {"sha256": u.sha256, "format": u.fmt}
        if all(e and {k: (e.get("source") or {}).get(k) for k in want} == want for e in have):
            # the key: the bytes, the format and the file's name (the dataset's name comes from it); the
            # same bytes at another path are the same data, and the reports name the path given now
            for e in have:
                e["source"] = e["source"] | {"path": str(u.path.absolute())}
            note(f"{u.path}: reusing datasets {u.name} and {u.original_name} in {dest} (same bytes, format and name)")
            continue
        _drop(dest, users_kept, u.name)
        _drop(dest, users_kept, u.original_name)
        if u.bytes > 1 << 20:
            about = max(1, round(u.bytes / 1e6 * CORPUS_S_PER_MB))
            note(
                f"{u.path}: reading {u.bytes:,} bytes of {u.fmt.upper()}; writing its corpus takes about {about} s "
                "on a 2-core machine"
            )
        todo.append(_decode_user_file(u))  # first, so a bad file is refused before anything is written
    if not standard or old.get("seed") != seed or not all(_intact(dest, e) for e in standard.values()):
        # Until the standard corpus is complete again the manifest holds only the user datasets.
        note(f"writing the standard corpus to {dest} (about half a minute)")
        _save_manifest(dest, _manifest(seed, list(users_kept.values())))
        standard = {}
        _write_all(dest, builtin_datasets(seed), progress, standard, seed, users_kept)
    kept = standard | users_kept
    _save_manifest(dest, _manifest(seed, list(kept.values())))
    for ds in todo:
        note(f"writing {ds.id} (re-encoded in every format) and {ds.id}{ORIGINAL_SUFFIX} (the file's exact bytes)")
        written: dict[str, dict] = {}
        _write_all(dest, [ds], progress, written, seed, kept)
        kept |= written
    manifest = _manifest(seed, list(kept.values()))
    _save_manifest(dest, manifest)
    order = list(standard) + [n for u in user for n in (u.name, u.original_name)]
    return manifest | {"datasets": [kept[n] for n in order]}
