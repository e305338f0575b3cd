"""Latency percentiles pooled over a cell's forks (issue 19).

One process's latency pass (spec/protocol.md step 7) measures one JIT's, one heap's, one memory
layout's tail; another process of the same build has another. Chronicle Wire's reference pools the
histograms of 10 JVM forks, so full mode runs `Mode.latency_forks` latency processes per cell and
pools them here. A harness's `latency` row may carry `buckets`: its histogram's non-empty buckets as
`[highest_ns, count]` pairs, in the log buckets every harness shares (2^k (1 + j/64), under 1.6%
error; spec/typed.md "Latency"). Pooling sums the counts per bucket; a percentile is the highest value
of the bucket that holds the ceil(q n)-th smallest operation, capped at the pooled maximum, which is
what each harness computes for its own histogram, so one fork pooled is that fork's row.

A row without `buckets` cannot be pooled: the cell then keeps its first fork's percentiles, and says
how many forks they cover (`lat_forks` 1).
"""

from __future__ import annotations

import math

#: the percentile fields of a latency row and their quantiles
QUANTILES = {"p50_ns": 0.5, "p99_ns": 0.99, "p999_ns": 0.999, "p9999_ns": 0.9999, "p99999_ns": 0.99999}


def merge(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    """Two bucket lists summed per bucket, in bucket order."""
    counts: dict[int, int] = {}
    for highest, n in [*a, *b]:
        counts[int(highest)] = counts.get(int(highest), 0) + int(n)
    return [[h, counts[h]] for h in sorted(counts)]


def figures(buckets: list[list[int]], max_ns: float) -> dict:
    """count, the percentiles and max_ns of a (pooled) histogram, as a harness's latency row gives them."""
    total = sum(n for _, n in buckets)
    out: dict = {"count": total, "max_ns": max_ns}
    for field, q in QUANTILES.items():
        rank = max(1, min(math.ceil(q * total), max(1, total)))
        seen, value = 0, max_ns
        for highest, n in buckets:
            seen += n
            if seen >= rank:
                value = min(highest, max_ns)
                break
        out[field] = value
    return out


def pool(previous: dict | None, row: dict) -> dict | None:
    """The cell's latency state after one more fork's row: {"forks", "buckets" (None when not
    poolable), and the row fields}, or None to leave the cell as it is (a fork that cannot be
    pooled after the first)."""
    buckets = row.get("buckets")
    if previous is None or not previous.get("forks"):
        return {**{k: v for k, v in row.items() if k != "buckets"}, "forks": 1, "buckets": buckets}
    if not buckets or not previous.get("buckets"):
        return None
    merged = merge(previous["buckets"], buckets)
    max_ns = max(previous.get("max_ns") or 0, row.get("max_ns") or 0)
    return {**figures(merged, max_ns), "forks": previous["forks"] + 1, "buckets": merged}
