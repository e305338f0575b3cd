"""One file per library; each defines BENCHES. Registering a library = one line in MODULES.

A capability left as None is unsupported (exit 5), never an `if` on library names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

# Adapter module -> the benchmark ids its BENCHES defines, in `list` order. The ids are here, and not
# only in the modules, so that `run` and `verify` of one benchmark import its module alone: every
# benchmark process is a fresh interpreter, and importing every library would cost each one the
# start-up of all of them (about 150 ms with a dozen libraries, growing with each one added).
MODULES: dict[str, tuple[str, ...]] = {
    "baselines": ("hash-data", "hash-object", "hash-events"),
    "json_stdlib": ("json",),
    "simplejson_": ("simplejson",),
    "orjson_": ("orjson",),
    "ujson_": ("ujson",),
    "rapidjson_": ("python-rapidjson",),
    "msgpack_": ("msgpack", "msgpack-fallback"),
    "ormsgpack_": ("ormsgpack",),
    "cbor2_": ("cbor2",),
    "bson_": ("bson",),
    "ubjson_": ("py-ubjson",),
    "ijson_": ("ijson-yajl2c",),
    "msgspec_": ("msgspec-json", "msgspec-msgpack"),
    "pysimdjson_": ("pysimdjson",),
    "yyjson_": ("yyjson",),
    "pydantic_core_": ("pydantic-core",),
    "jiter_": ("jiter",),
    "umsgpack_": ("u-msgpack-python",),
    "pickle_": ("pickle",),
}

JSON_FORMATS = ("json", "json-pretty")
#: test -> the baseline a row of that test subtracts (spec/fairness.md rule 5)
BASELINE_OF = {"write": "hash-data", "tree": "hash-object", "incremental": "hash-events"}


@dataclass(frozen=True)
class Bench:
    id: str
    library: str
    dist: str | None  # distribution whose version is reported; None = the Python runtime
    formats: tuple[str, ...]
    encode: Callable[[object], bytes] | None = None  # write
    decode: Callable[[bytes], object] | None = None  # tree
    stream: Callable[[bytes], int] | None = None  # incremental, timed: consumes the input, returns its hash
    stream_hash: Callable[[bytes], int] | None = None  # incremental, checked: hash from the same API
    notes: str = ""
    # A row of a format only its library has (pickle): the corpus format whose file it reads
    # (`reads` in `list`, spec/protocol.md); write encodes that document, tree decodes the library's
    # own encoding of it, made outside the loop, and the library's own decoder checks the write.
    reads: str | None = None
    baseline: bool = False
    baseline_tests: tuple[str, ...] = ()
    #: a baseline's timed op: (input bytes, the reference decoder's object) -> (op, arg)
    base_op: Callable[[bytes, object], tuple[Callable, object]] | None = None
    #: test -> this row's steps, where its loop differs from the contract (steps.py); {} = the contract
    steps: Mapping[str, tuple[str, ...]] | None = None
    #: test -> the baseline subtracted, where it is not the test's own (BASELINE_OF)
    baseline_of: Mapping[str, str] | None = None

    @property
    def tests(self) -> tuple[str, ...]:
        if self.baseline:
            return self.baseline_tests
        caps = (("write", self.encode), ("tree", self.decode), ("incremental", self.stream))
        return tuple(t for t, fn in caps if fn is not None)

    @property
    def version(self) -> str:
        return dist_version(self.dist)


def dist_version(dist: str | None) -> str:
    """The installed version of a distribution; None = the Python runtime (stdlib rows)."""
    if dist is None:
        import platform

        return platform.python_version()
    # imported here, for `list` only: importlib.metadata pulls in the email package, about 30 ms of
    # every benchmark process's start-up (python -X importtime), which `run` never needs
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


class LibraryError(Exception):
    """The library under test raised (or failed in another way): its rejection, exit 3."""


def lib_call(fn: Callable, *args):
    """Calls into the library under test: any exception it raises (RecursionError and MemoryError
    included) becomes a LibraryError naming it. Only library calls go through here, so an exception in
    the harness's own code is never reported as the library's rejection."""
    try:
        return fn(*args)
    except Exception as e:
        raise LibraryError(f"{type(e).__name__}: {e}") from e


def lib_iter(it: Iterable):
    """Iterates a library's lazy iterator (a pull parser): an exception in one of its steps is a
    LibraryError, while the caller's own code between the steps is not wrapped."""
    it = lib_call(iter, it)
    while True:
        try:
            x = next(it)
        except StopIteration:
            return
        except Exception as e:
            raise LibraryError(f"{type(e).__name__}: {e}") from e
        yield x


class Benches(Mapping[str, Bench]):
    """The registered benchmarks by id, each adapter module imported on first use: looking one id up
    (`run`, `verify`) imports its module only, while iterating the values (`list`, `selftest`) imports
    them all, in MODULES order. Ids and membership come from MODULES without any import. `package` is
    where the modules live (another registry of the same shape can use this class too)."""

    def __init__(self, modules: Mapping[str, tuple[str, ...]] = MODULES, package: str = __name__):
        self._modules, self._package = modules, package
        self._owner: dict[str, str] = {}
        for name, ids in modules.items():
            for bench_id in ids:
                if bench_id in self._owner:
                    raise ValueError(f"duplicate benchmark id {bench_id}")
                self._owner[bench_id] = name
        self._loaded: dict[str, dict[str, Bench]] = {}

    def _load(self, name: str) -> dict[str, Bench]:
        benches = self._loaded.get(name)
        if benches is None:
            mod = importlib.import_module(f"{self._package}.{name}")
            benches = {b.id: b for b in mod.BENCHES}
            # the registration must say what the module defines, or a lookup would miss a row
            if tuple(b.id for b in mod.BENCHES) != tuple(self._modules[name]):
                defined = [b.id for b in mod.BENCHES]
                registered = list(self._modules[name])
                raise ValueError(f"{self._package}.{name} defines {defined}, MODULES registers {registered}")
            self._loaded[name] = benches
        return benches

    def __getitem__(self, bench_id: str) -> Bench:
        return self._load(self._owner[bench_id])[bench_id]

    def __contains__(self, bench_id: object) -> bool:
        return bench_id in self._owner

    def __iter__(self) -> Iterator[str]:
        return iter(self._owner)

    def __len__(self) -> int:
        return len(self._owner)


def load_all() -> Benches:
    """Every registered benchmark, imported lazily (Benches)."""
    return Benches()
