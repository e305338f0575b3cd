"""Number formatting shared by every exporter."""

from __future__ import annotations


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "–"
    a = abs(ns)
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if a >= div:
            return f"{ns / div:.3g} {unit}" if a / div < 100 else f"{ns / div:.0f} {unit}"
    return f"{ns:.3g} ns" if a < 100 else f"{ns:.0f} ns"


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "–"
    for unit, div in (("MB", 1e6), ("KB", 1e3)):
        if n >= div:
            return f"{n / div:.3g} {unit}"
    return f"{n:.0f} B"


def fmt_count(n: float | None) -> str:
    return "–" if n is None else f"{n:,.0f}"


def fmt_instr(n: float | None) -> str:
    """Instructions per operation: a mean over the k extra iterations, so it can have a fraction."""
    if n is None:
        return "–"
    return f"{n:,.0f}" if abs(n) >= 100 else f"{n:,.1f}"
