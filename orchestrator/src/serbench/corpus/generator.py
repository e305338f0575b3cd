"""The deterministic schemaless generator (spec/generator.md; every number there is a constant here).

Only Python generates: other languages read the files. The PRNG is still specified exactly so the
corpus is reproducible from the spec alone.
"""

from __future__ import annotations

import math
import struct

GENERATOR_VERSION = 1
DEFAULT_SEED = 0x5EB0_2026
MASK = (1 << 64) - 1

# Target MessagePack size per size class (DESIGN §3): ~250 B, 2.5 KB, 25 KB, 250 KB, 2.5 MB.
SIZE_TARGET_BYTES = {1: 250, 2: 2_500, 3: 25_000, 4: 250_000, 5: 2_500_000}
MAX_DEPTH = 10

# Scalar kinds with weights in per mille (sum 1000). Strings ~ a quarter of values (DESIGN §3).
SCALAR_WEIGHTS = [("null", 40), ("bool", 100), ("int", 330), ("uint", 50), ("float", 230), ("string", 250)]
# Probability (per mille) that a child of a container is itself a container, while depth < MAX_DEPTH.
CONTAINER_PER_MILLE = 120
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
ASCII_TEXT = ALNUM + "     .,-_"
ESCAPES = '"\\\n\t\r\b\f\x01\x02\x07\x0b\x1b\x1f/'


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Rng:
    """xoshiro256** 1.0 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro256starstar.c),
    seeded by four outputs of splitmix64(seed) as its authors recommend."""

    def __init__(self, seed: int):
        s = seed & MASK
        self.s = []
        for _ in range(4):
            s = (s + 0x9E3779B97F4A7C15) & MASK
            z = s
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
        t = (s1 << 17) & MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) by Lemire's multiply-shift (bias < n / 2^64, documented)."""
        return (self.next() * n) >> 64

    def between(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def weighted(self, table: list[tuple[str, int]]) -> str:
        r = self.below(sum(w for _, w in table))
        for name, w in table:
            if r < w:
                return name
            r -= w
        raise AssertionError("unreachable")


def gen_int(rng: Rng) -> int:
    """60% in [0, 100), 25% in [-1000, 1000], 14% random bit length 1-63 with random sign,
    1% one of INT64_MIN, INT64_MAX, -1, 0."""
    r = rng.below(100)
    if r < 60:
        return rng.below(100)
    if r < 85:
        return rng.between(-1000, 1000)
    if r < 99:
        bits = rng.between(1, 63)
        v = rng.below(1 << bits)
        return -v - 1 if rng.below(2) else v
    return [-(1 << 63), (1 << 63) - 1, -1, 0][rng.below(4)]


def gen_uint(rng: Rng) -> int:
    """Bit length uniform in 33-63, so values sit above uint32 and at most INT64_MAX (BSON and UBJSON
    have no uint64)."""
    bits = rng.between(33, 63)
    return (1 << (bits - 1)) | rng.below(1 << (bits - 1))


def gen_float(rng: Rng) -> float:
    """Finite, normal, full 53-bit mantissa: sign random, biased exponent uniform in [1023-40, 1023+40]
    (about 1e-12 to 1e12), 52 random mantissa bits with the lowest bit forced to 1 so the shortest
    round-trip decimal needs 15-17 significant digits."""
    sign = rng.below(2)
    exp = rng.between(1023 - 40, 1023 + 40)
    mant = rng.below(1 << 52) | 1
    return struct.unpack("<d", struct.pack("<Q", (sign << 63) | (exp << 52) | mant))[0]


def _code_point(rng: Rng) -> str:
    """A rich-string character: 30% ASCII text, 15% an escape class, 20% 2-byte (U+0080-U+07FF),
    20% 3-byte (U+0800-U+FFFF without surrogates), 15% 4-byte (U+10000-U+10FFFF)."""
    r = rng.below(100)
    if r < 30:
        return ASCII_TEXT[rng.below(len(ASCII_TEXT))]
    if r < 45:
        return ESCAPES[rng.below(len(ESCAPES))]
    if r < 65:
        return chr(rng.between(0x80, 0x7FF))
    if r < 85:
        c = rng.between(0x800, 0xFFFF - 0x800)
        return chr(c if c < 0xD800 else c + 0x800)  # skip the surrogate block
    return chr(rng.between(0x10000, 0x10FFFF))


def gen_string(rng: Rng) -> str:
    """Length in code points: 60% 0-16, 30% 17-64, 10% 65-512. 25% are rich (see _code_point),
    the rest ASCII text."""
    r = rng.below(100)
    n = rng.between(0, 16) if r < 60 else rng.between(17, 64) if r < 90 else rng.between(65, 512)
    if rng.below(4) == 0:
        return "".join(_code_point(rng) for _ in range(n))
    return "".join(ASCII_TEXT[rng.below(len(ASCII_TEXT))] for _ in range(n))


def gen_key(rng: Rng) -> str:
    """Alphanumeric, length 1-16."""
    return "".join(ALNUM[rng.below(len(ALNUM))] for _ in range(rng.between(1, 16)))


def gen_scalar(rng: Rng):
    kind = rng.weighted(SCALAR_WEIGHTS)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.below(2) == 1
    if kind == "int":
        return gen_int(rng)
    if kind == "uint":
        return gen_uint(rng)
    if kind == "float":
        return gen_float(rng)
    return gen_string(rng)


def msgpack_size(v) -> int:
    """Exact MessagePack size of v as the reference encoder writes it, to steer towards the target
    without re-encoding (the test checks it against msgpack.packb)."""
    if v is None or v is True or v is False:
        return 1
    if isinstance(v, int):
        if -32 <= v <= 127:
            return 1
        if v >= 0:
            return 2 if v <= 0xFF else 3 if v <= 0xFFFF else 5 if v <= 0xFFFFFFFF else 9
        return 2 if v >= -128 else 3 if v >= -32768 else 5 if v >= -(1 << 31) else 9
    if isinstance(v, float):
        return 9
    if isinstance(v, str):
        n = len(v.encode("utf-8"))
        return n + (1 if n < 32 else 2 if n < 256 else 3 if n < 65536 else 5)
    n = len(v)
    head = 1 if n < 16 else 3 if n < 65536 else 5
    if isinstance(v, dict):
        return head + sum(msgpack_size(k) + msgpack_size(x) for k, x in v.items())
    return head + sum(msgpack_size(x) for x in v)


def gen_container(rng: Rng, budget: int, depth: int):
    """A map or array whose MessagePack size is about `budget` bytes. Children are scalars, or with
    probability CONTAINER_PER_MILLE a nested container given 5-50% of the remaining budget."""
    is_map = depth == 0 or rng.below(2) == 0
    out: dict | list = {} if is_map else []
    used = 1
    while used < budget:
        remaining = budget - used
        if depth < MAX_DEPTH and remaining > 64 and rng.below(1000) < CONTAINER_PER_MILLE:
            child = gen_container(rng, max(16, remaining * rng.between(5, 50) // 100), depth + 1)
        else:
            child = gen_scalar(rng)
        used += msgpack_size(child)
        if is_map:
            key = gen_key(rng)
            while key in out:
                key = gen_key(rng)
            out[key] = child
            used += msgpack_size(key)
        else:
            out.append(child)
    return out


def generate(size: int, seed: int = DEFAULT_SEED) -> dict:
    """The schemaless document of a size class (1-5). Each size has its own stream: seed + size."""
    if size not in SIZE_TARGET_BYTES:
        raise ValueError(f"size must be 1-5, got {size}")
    return gen_container(Rng(seed + size), SIZE_TARGET_BYTES[size], 0)


def micro_datasets() -> dict[str, dict]:
    """The micro datasets of DESIGN §3, each wrapped in a root map {"data": [...]}. `micro-bin` is binary
    and so only in formats that have a binary type; `micro-ascii` is its stand-in for the others."""
    rng = Rng(DEFAULT_SEED ^ 0xABCDEF)
    return {
        "micro-ints": {"data": [rng.below(100) for _ in range(1000)]},
        "micro-bin": {"data": [bytes(rng.below(256) for _ in range(rng.below(100))) for _ in range(1000)]},
        "micro-ascii": {"data": ["".join(ALNUM[rng.below(62)] for _ in range(rng.below(100))) for _ in range(1000)]},
        "micro-str128": {
            "data": ["".join(ALNUM[rng.below(62)] for _ in range(n)) for n in (rng.below(128) for _ in range(256))]
        },
        "micro-lists": {"data": [[1, 2, 3] for _ in range(1000)]},
        "micro-maps": {"data": [{"one": 1} for _ in range(1000)]},
    }


# kind and raw payload bytes of each scalar type (a dict lookup on `type` instead of an isinstance
# chain: the corpus of a user's 50 MB file walks millions of values, issue 74)
_SCALAR = {type(None): ("null", 0), bool: ("bool", 1), float: ("float", 8)}


def stats(doc) -> dict:
    """Distribution of value kinds in a document, shown in the manifest."""
    return walk_stats(doc)[0]


def walk_stats(doc) -> tuple[dict, int]:
    """`stats`, and the bytes JSON's 2-space indentation adds (a newline and two spaces per level
    before each value and each non-empty container's close), so a pretty form that indentation would
    blow up (a document nested hundreds deep) can be refused before it is written."""
    counts: dict[str, int] = {}
    depth_max = 0
    payload = 0  # raw payload: numbers 8 B, bool 1 B, null 0, strings, keys and binary their byte length
    indent = 0
    stack = [(doc, 0)]
    while stack:
        v, d = stack.pop()
        if d > depth_max:
            depth_max = d
        indent += 2 * d + 1 if d else 0
        t = type(v)
        if t is dict:
            k = "map"
            payload += sum(len(key.encode("utf-8")) for key in v)
            indent += (2 * d + 1) * bool(v) + len(v)  # the close's line, and ": " instead of ":"
            stack.extend((x, d + 1) for x in v.values())
        elif t is list:
            k = "array"
            indent += (2 * d + 1) * bool(v)
            stack.extend((x, d + 1) for x in v)
        elif t is str:
            k = "string" if v.isascii() else "string-nonascii"
            payload += len(v) if k == "string" else len(v.encode("utf-8"))
        elif t is int:
            k = "int" if v < (1 << 32) else "uint"  # "uint": above uint32, up to INT64_MAX
            payload += 8
        elif t in _SCALAR:
            k, n = _SCALAR[t]
            assert k != "float" or math.isfinite(v)
            payload += n
        elif isinstance(v, dict | list):  # subclasses: walked as their base type
            stack.append((dict(v) if isinstance(v, dict) else list(v), d))
            continue
        elif isinstance(v, (bytes, bytearray)):
            k = "binary"
            payload += len(v)
        else:
            raise TypeError(f"type {t.__name__} is not in the data model")
        counts[k] = counts.get(k, 0) + 1
    return {
        "values": sum(counts.values()),
        "max_depth": depth_max,
        "payload_bytes": payload,
        "kinds": dict(sorted(counts.items())),
    }, indent
