"""The harness registry. Adding a language = one class in its own module + one line here."""

from __future__ import annotations

import difflib
import functools
import importlib
from pathlib import Path

from .. import stats
from .base import BuildOptions, Harness, HarnessError, release_harness_locks

# (module, class). A module that is absent is simply not registered.
REGISTRY = [
    ("python", "PythonHarness"),
    ("native", "NativeHarness"),
    ("rust", "RustHarness"),
    ("go", "GoHarness"),
    ("java", "JavaHarness"),
    ("js", "JsHarness"),
    ("js", "JsBunHarness"),
]


def harness_classes() -> dict[str, type[Harness]]:
    out: dict[str, type[Harness]] = {}
    for mod, cls in REGISTRY:
        try:
            m = importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{mod}":
                continue
            raise
        c = getattr(m, cls)
        out[c.name] = c
    return out


@functools.cache  # the registry is fixed in a process; compare and finalize ask once or more per cell
def process_center(name: str) -> stats.Center:
    """What a process's samples give as its time for the harness called `name`: their mean when the
    harness says so (`Harness.process_mean`), else their median (also for a harness no longer registered)."""
    c = harness_classes().get(name)
    return stats.center_for(c is not None and c.process_mean is not None)


class UnknownHarness(ValueError):
    """--lang names no registered harness (bad input, not a broken toolchain)."""


def check_names(names: list[str] | None) -> None:
    """UnknownHarness for the first name no harness has, with the near miss (`--lang pyton`)."""
    classes = harness_classes()
    unknown = [n for n in names or [] if n not in classes]
    if unknown:
        near = difflib.get_close_matches(unknown[0].lower(), list(classes), n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise UnknownHarness(f"unknown language {unknown[0]!r}; {hint}known: {', '.join(sorted(classes))}")


def make(names: list[str] | None, root: Path, options: BuildOptions) -> list[Harness]:
    check_names(names)
    classes = harness_classes()
    return [classes[n](root, options) for n in (names or list(classes))]


__all__ = [
    "BuildOptions",
    "Harness",
    "HarnessError",
    "UnknownHarness",
    "check_names",
    "harness_classes",
    "make",
    "process_center",
    "release_harness_locks",
]
