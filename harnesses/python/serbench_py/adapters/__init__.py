"""One file per library; each defines BENCHES. Registering a library = one line in MODULES.

A capability left as None is unsupported (exit 5), never an `if` on library names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata

MODULES = [
    "baselines",
    "json_stdlib",
    "simplejson_",
    "orjson_",
    "ujson_",
    "rapidjson_",
    "msgpack_",
    "ormsgpack_",
    "cbor2_",
    "bson_",
    "ubjson_",
    "ijson_",
]

JSON_FORMATS = ("json", "json-pretty")


@dataclass(frozen=True)
class Bench:
    id: str
    library: str
    dist: str | None  # distribution whose version is reported; None = the Python runtime
    formats: tuple[str, ...]
    encode: Callable[[object], bytes] | None = None  # write
    decode: Callable[[bytes], object] | None = None  # tree
    stream: Callable[[bytes], object] | None = None  # incremental, timed: consumes the input
    stream_hash: Callable[[bytes], int] | None = None  # incremental, checked: hash from the same API
    notes: str = ""
    baseline: bool = False
    baseline_tests: tuple[str, ...] = ()

    @property
    def tests(self) -> tuple[str, ...]:
        if self.baseline:
            return self.baseline_tests
        caps = (("write", self.encode), ("tree", self.decode), ("incremental", self.stream))
        return tuple(t for t, fn in caps if fn is not None)

    @property
    def version(self) -> str:
        if self.dist is None:
            import platform

            return platform.python_version()
        try:
            return metadata.version(self.dist)
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


def load_all() -> dict[str, Bench]:
    out: dict[str, Bench] = {}
    for name in MODULES:
        mod = importlib.import_module(f"{__name__}.{name}")
        for b in mod.BENCHES:
            if b.id in out:
                raise ValueError(f"duplicate benchmark id {b.id}")
            out[b.id] = b
    return out


def drain(it: Iterable) -> None:
    """Consume an iterator at C speed with nothing kept (the incremental sink)."""
    import collections

    collections.deque(it, maxlen=0)
