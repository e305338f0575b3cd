"""Where a read row's document differs, found through the row's own `verify` (issue 15, "Why incorrect?").

A tree or incremental row reports only the hash of what its library decoded (spec/protocol.md), so when
no systematic change of the whole document explains that hash (explain.py), serbench asks the library
again, on smaller documents, by delta debugging:

1. The expected document is cut down ("pruned"): the path from the root to the current node is kept,
   and within the current container only a subset of its children; every other sibling along the path
   is dropped. The result is a valid document of the data model in every format (its root is the
   original root, so a BSON root stays a document). It is written with serbench's reference encoder
   for the row's format (corpus/formats.py), decoded by the row's `verify`, and the hash the library
   gives is compared with the reference hash (objhash) of the cut-down document.
2. The children of the current container are searched by halving (a map hashes without order, so any
   subset of keys is a valid cut; an array is cut into contiguous slices): the first half is tried,
   and when it reads right the difference is taken to be in the second half, which is confirmed once a
   single child is left. The search descends into the first child whose cut reads wrong (one-child
   containers cost no call), and stops at a scalar, or at a container whose children all read right
   when alone: then the container itself differs (a key or an element lost, its count).
3. At the place found, what the library read is named by trying candidate values in its place (int and
   float swapped, float32 rounding, 1-4 ulps, the sign of zero, 64- and 32-bit wrapping, Unicode
   normalisation, CESU-8, cut strings, lost keys and elements, ...) and hashing the cut-down document
   with each: a candidate is given only when its hash is exactly the one the library reported.

Everything is deterministic (the same document and library give the same cuts, in the same order), and
bounded: at most MAX_CALLS verify calls and BUDGET_S seconds per document. A claim is made only from
what was observed: a library that fails on a smaller document (one the full document did not make it
fail on) ends the search where it is, and the message says how far it got.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import math
import struct
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import diff, objhash
from .corpus import formats as F

MAX_CALLS = 60  # verify processes per located cell
BUDGET_S = 60.0  # wall time per located cell; checked before each verify call
VERIFY_TIMEOUT_S = 10.0  # one verify process (a cut-down document is never bigger than the corpus file)
VERIFY_MEMORY_BYTES = 4096 << 20  # the address-space limit of one verify process (robustness/limits.py)
PREFIX_BYTES = 1024  # strings up to this many UTF-8 bytes have each of their prefixes tried as a candidate
MAX_DROP = 256  # containers up to this many children have each child's loss tried as a candidate

INT64_MIN, INT64_MAX, UINT64 = -(1 << 63), (1 << 63) - 1, 1 << 64

#: one verify: the bytes of a document in the row's format -> the hash the library printed (16 hex
#: digits), or None when it failed (rejected, crashed, timed out)
Verify = Callable[[bytes], "str | None"]

RIGHT, WRONG, FAIL, LIMIT = "right", "wrong", "fail", "limit"


@dataclass
class Location:
    message: str | None  # one line for the cell's reason, or None when nothing can be claimed
    path: str | None = None  # where the first difference is (or within which container it is)
    calls: int = 0  # verify calls made
    stopped: str = ""  # how the search ended, in words


class _Raw(bytes):
    """A string candidate given as its UTF-8-like bytes, which may not be valid UTF-8 (CESU-8, a cut
    character): the hash takes a string's bytes (spec/hash.md), so it can be hashed all the same."""


def _hash(v) -> int:
    if isinstance(v, _Raw):
        return objhash.hash_bytes(objhash.S_STRING, bytes(v))
    return objhash.hash_value(v)


def _fold(steps: list[tuple[object, object]], h: int) -> int:
    """The hash of the cut-down document whose node below `steps` has hash h: every container on the
    path holds one child, the one on the path."""
    for container, key in reversed(steps):
        if isinstance(container, dict):
            h = objhash.map_end(objhash.map_entry(_hash(key), h), 1)
        else:
            h = objhash.array_end(objhash.array_add(0, 0, h), 1)
    return h


def _build(steps: list[tuple[object, object]], node):
    for container, key in reversed(steps):
        node = {key: node} if isinstance(container, dict) else [node]
    return node


def _path(steps: list[tuple[object, object]]) -> str:
    p = "$"
    for _, key in steps:
        p = diff._step(p, key)
    return p


def _is_container(v) -> bool:
    return isinstance(v, (dict, list))


def _children(node) -> list:
    return list(node) if isinstance(node, dict) else list(range(len(node)))


def _cut(node, keys: list):
    return {k: node[k] for k in keys} if isinstance(node, dict) else [node[i] for i in keys]


def _show(v) -> str:
    if isinstance(v, _Raw):
        return f"string bytes {bytes(v[: diff.SHOW_CHARS]).hex()}" + ("…" if len(v) > diff.SHOW_CHARS else "")
    return diff.show(v)


def _show_key(k) -> str:
    if isinstance(k, _Raw):
        return f"the key bytes {bytes(k).hex()}"
    return f"the key {json.dumps(k, ensure_ascii=True)}"


# --- candidates: what a library may have read in place of a value -----------------------------------

_f32 = struct.Struct("<f")


def _to_float32(v: float) -> float:
    try:
        return _f32.unpack(_f32.pack(v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _ulps(v: float, n: int) -> float:
    for _ in range(abs(n)):
        v = math.nextafter(v, math.inf if n > 0 else -math.inf)
    return v


def _cesu8(s: str, modified: bool) -> bytes:
    """CESU-8 (characters above U+FFFF as two 3-byte surrogates), and Java's modified UTF-8 (also NUL as
    C0 80): what a decoder working in UTF-16 may hand back."""
    out = bytearray()
    for ch in s:
        c = ord(ch)
        if c > 0xFFFF:
            c -= 0x10000
            for u in (0xD800 | c >> 10, 0xDC00 | c & 0x3FF):
                out += bytes([0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F, 0x80 | u & 0x3F])
        elif c == 0 and modified:
            out += b"\xc0\x80"
        else:
            out += ch.encode("utf-8")
    return bytes(out)


def _int_candidates(v: int):
    if abs(v) < 1 << 1023:
        yield "the integer read as a double", float(v)
        if int(float(v)) != v:
            yield "the integer rounded to a double's 53 bits", int(float(v))
        yield "the integer read as a float32", _to_float32(float(v))
    if INT64_MAX < v < UINT64:
        yield "wrapped to a negative int64", v - UINT64
        yield "clamped to int64's maximum", INT64_MAX
    if INT64_MIN <= v < 0:
        yield "read as an unsigned 64-bit integer", v + UINT64
    if v < INT64_MIN:
        yield "clamped to int64's minimum", INT64_MIN
    yield "wrapped to int32", (v + (1 << 31)) % (1 << 32) - (1 << 31)
    yield "wrapped to uint32", v % (1 << 32)
    yield "one more", v + 1
    yield "one less", v - 1
    yield "its sign lost", abs(v)
    yield "negated", -v
    yield "read as the string of its digits", str(v)
    yield "read as null", None
    yield "read as 0", 0
    if v in (0, 1):
        yield "read as a boolean", bool(v)


def _float_candidates(v: float):
    if math.isfinite(v):
        for n in (1, 2, 3, 4):
            yield f"{n} ulp{'s' if n > 1 else ''} above", _ulps(v, n)
            yield f"{n} ulp{'s' if n > 1 else ''} below", _ulps(v, -n)
    yield "rounded to float32", _to_float32(v)
    if v == 0.0:
        yield "the sign of zero changed", -v
    if math.isfinite(v) and v.is_integer():
        yield "the integral double read as an integer", int(v)
    elif math.isfinite(v):
        yield "truncated to an integer", int(v)
        yield "rounded to an integer", round(v)
    if math.isfinite(v):
        for d in (6, 9, 15, 16, 17):
            yield f"printed with {d} significant digits and read back", float(f"{v:.{d}g}")
    yield "negated", -v
    yield "read as infinity", math.copysign(math.inf, v)
    yield "read as NaN", math.nan
    yield "read as the string of its digits", repr(v)
    yield "read as null", None
    yield "read as 0.0", 0.0
    yield "read as 0", 0


def _str_candidates(v: str):
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        yield f"normalised to {form}", unicodedata.normalize(form, v)
    if "\0" in v:
        yield "cut at its first NUL", v.split("\0", 1)[0]
    b = v.encode("utf-8")
    yield "its UTF-8 bytes read as Latin-1", b.decode("latin-1")
    with contextlib.suppress(UnicodeError):
        yield "decoded from UTF-8 twice", v.encode("latin-1").decode("utf-8")
    yield "characters above U+FFFF as CESU-8 surrogates", _Raw(_cesu8(v, False))
    yield "in Java's modified UTF-8 (CESU-8, NUL as C0 80)", _Raw(_cesu8(v, True))
    yield "its escapes left undecoded", json.dumps(v, ensure_ascii=False)[1:-1]
    yield "its escapes left undecoded (\\u form)", json.dumps(v)[1:-1]
    yield "non-ASCII characters replaced by U+FFFD", "".join(c if c < "\x80" else "\ufffd" for c in v)
    yield "non-ASCII bytes replaced by U+FFFD", b.decode("ascii", errors="replace")
    yield "non-ASCII characters replaced by '?'", "".join(c if c < "\x80" else "?" for c in v)
    yield "non-ASCII characters dropped", "".join(c for c in v if c < "\x80")
    yield "read as binary", b
    yield "read as null", None
    if len(b) <= PREFIX_BYTES:
        for n in range(len(b) - 1, -1, -1):
            yield f"cut to its first {n} bytes", _Raw(b[:n])


def _bytes_candidates(v: bytes):
    yield "read as a string (UTF-8, invalid bytes replaced)", v.decode("utf-8", errors="replace")
    yield "read as a string (Latin-1)", v.decode("latin-1")
    yield "read as its base64 text", base64.b64encode(v).decode()
    yield "read as an array of byte values", list(v)
    yield "read as null", None
    if len(v) <= PREFIX_BYTES:
        for n in range(len(v) - 1, -1, -1):
            yield f"cut to its first {n} bytes", v[:n]


def _other_candidates(v):
    if isinstance(v, bool):
        yield "negated", not v
        yield "read as the integer", int(v)
        yield "read as the string", json.dumps(v)
        yield "read as null", None
    elif v is None:
        yield "read as false", False
        yield "read as 0", 0
        yield "read as an empty string", ""
        yield 'read as the string "null"', "null"
        yield "read as an empty map", {}
        yield "read as an empty array", []
    elif isinstance(v, dict) and not v:
        yield "read as an empty array", []
        yield "read as null", None
    elif isinstance(v, list) and not v:
        yield "read as an empty map", {}
        yield "read as null", None


def value_candidates(v):
    """(what the library did, the value it then holds) for a scalar or an empty container, most likely
    first; duplicates and the value itself are left to the caller (it compares hashes)."""
    if isinstance(v, bool) or v is None or _is_container(v):
        return _other_candidates(v)
    if isinstance(v, int):
        return _int_candidates(v)
    if isinstance(v, float):
        return _float_candidates(v)
    if isinstance(v, str):
        return _str_candidates(v)
    if isinstance(v, (bytes, bytearray)):
        return _bytes_candidates(bytes(v))
    return iter(())


def _key_candidates(k: str):
    for label, c in _str_candidates(k):
        if isinstance(c, (str, _Raw)):
            yield label, c


# --- the search -------------------------------------------------------------------------------------


class _Search:
    def __init__(self, expected, encode, verify: Verify, max_calls: int, budget_s: float, clock) -> None:
        self.expected, self.encode, self.verify = expected, encode, verify
        self.max_calls, self.budget_s, self.clock = max_calls, budget_s, clock
        self.t0 = clock()
        self.calls = 0
        self.why = ""

    def check(self, steps: list, node) -> tuple[str, str | None]:
        """Verify the cut-down document `node` under `steps`: (RIGHT/WRONG, the library's hash), or
        (FAIL/LIMIT, None) with self.why saying why it is not informative."""
        self.why = ""
        if self.calls >= self.max_calls:
            self.why = f"its limit of {self.max_calls} verify calls was reached"
            return LIMIT, None
        if self.clock() - self.t0 >= self.budget_s:
            self.why = f"its time budget of {self.budget_s:g} s was spent"
            return LIMIT, None
        try:
            data = self.encode(_build(steps, node))
        except Exception as e:  # e.g. a value the format cannot carry once it stands alone
            self.why = f"serbench's encoder cannot write the smaller document ({e})"
            return FAIL, None
        want = objhash.hex64(_fold(steps, objhash.hash_value(node)))
        self.calls += 1
        try:
            got = self.verify(data)
        except Exception as e:  # the caller's verify should not raise; if it does, no claim
            self.why = f"verify raised {type(e).__name__}: {e}"
            return FAIL, None
        if not isinstance(got, str):
            self.why = "the library fails on a smaller document (one the whole document did not fail on)"
            return FAIL, None
        got = got.lower()
        return (RIGHT if got == want else WRONG), got

    def run(self) -> Location:
        verdict, got = self.check([], self.expected)
        if verdict == RIGHT:
            text = (
                "the library reads the same document right when serbench's reference encoder writes it, so the "
                "difference comes from how the file encodes it (1 verify call)"
            )
            return Location(text, "$", self.calls, "the re-encoded document reads right")
        if verdict != WRONG:
            self.why = self.why.replace(
                "a smaller document (one the whole document did not fail on)",
                "the document as serbench's encoder writes it",
            )
            return Location(None, None, self.calls, f"no claim: {self.why}")
        steps: list[tuple[object, object]] = []
        node = self.expected
        while _is_container(node) and node:
            keys = _children(node)
            if len(keys) == 1:  # the cut with that child is the document already known to be wrong
                steps.append((node, keys[0]))
                node = node[keys[0]]
                continue
            bad, bad_got = (0, len(keys)), got  # a range of children known to read wrong together
            lo, hi, known = 0, len(keys), True
            while hi - lo > 1 or not known:
                if hi - lo > 1:
                    mid = (lo + hi) // 2
                    verdict, h = self.check(steps, _cut(node, keys[lo:mid]))
                    if verdict == WRONG:
                        lo, hi, known, bad, bad_got = lo, mid, True, (lo, mid), h
                    elif verdict == RIGHT:
                        lo, known = mid, False  # the difference is in [mid, hi), or only in the whole
                    else:
                        return self._within(steps, node, keys[bad[0] : bad[1]])
                else:
                    verdict, h = self.check(steps, _cut(node, keys[lo:hi]))
                    if verdict == WRONG:
                        known, bad, bad_got = True, (lo, hi), h
                    elif verdict == RIGHT:  # every part reads right alone: the container itself differs
                        return self._container(steps, node, keys[bad[0] : bad[1]], bad_got)
                    else:
                        return self._within(steps, node, keys[bad[0] : bad[1]])
            got = bad_got
            steps.append((node, keys[lo]))
            node = node[keys[lo]]
        return self._leaf(steps, node, got)

    # -- what is said

    def _done(self, text: str, path: str, stopped: str, label: str = "") -> Location:
        calls = f"{self.calls} verify call{'s' if self.calls != 1 else ''}"
        said = f"{label}; " if label else ""
        return Location(f"{text} ({said}found with {calls} on cut-down documents)", path, self.calls, stopped)

    def _match(self, candidates, hash_of_candidate: Callable[[object], int], got: str):
        seen = set()
        for label, c in candidates:
            try:
                h = objhash.hex64(hash_of_candidate(c))
            except (TypeError, ValueError, OverflowError):
                continue
            if h in seen:
                continue
            seen.add(h)
            if h == got:
                return label, c
        return None

    def _ancestors(self, steps: list, child, got: str) -> Location | None:
        """Candidates on the path above the place found, nearest first: the child's key read as
        something else, the child lost, the whole child read as null."""
        h_child = objhash.hash_value(child)
        for j in range(len(steps) - 1, -1, -1):
            container, key = steps[j]
            below = _fold(steps[j + 1 :], h_child)
            here = _path(steps[:j])
            if isinstance(container, dict):
                found = self._match(
                    _key_candidates(key),
                    lambda k, j=j, below=below: _fold(
                        steps[:j], objhash.map_end(objhash.map_entry(_hash(k), below), 1)
                    ),
                    got,
                )
                if found:
                    label, k = found
                    text = f"first difference at {here}: expected {_show_key(key)}, got {_show_key(k)}"
                    return self._done(text, here, "a key candidate matched", label)
                if objhash.hex64(_fold(steps[:j], objhash.hash_value({}))) == got:
                    text = f"first difference at {here}: the key {json.dumps(key, ensure_ascii=True)} is missing"
                    return self._done(text, here, "a lost key matched")
            elif objhash.hex64(_fold(steps[:j], objhash.hash_value([]))) == got:
                return self._done(f"first difference at {here}: the element [{key}] is missing", here, "lost element")
            sub = _path(steps[: j + 1])
            if j < len(steps) - 1 and objhash.hex64(_fold(steps[: j + 1], objhash.hash_value(None))) == got:
                below_value = steps[j + 1][0]
                text = f"first difference at {sub}: expected {_show(below_value)}, got null"
                return self._done(text, sub, "the subtree read as null")
        return None

    def _leaf(self, steps: list, value, got: str) -> Location:
        path = _path(steps)
        found = self._match(value_candidates(value), lambda c: _fold(steps, _hash(c)), got)
        if found:
            label, c = found
            text = f"first difference at {path}: expected {_show(value)}, got {_show(c)}"
            return self._done(text, path, "a value candidate matched", label)
        return self._ancestors(steps, value, got) or self._done(
            f"first difference at {path}: expected {_show(value)}, got a different value (none of the "
            "candidates tried)",
            path,
            "no candidate matched",
        )

    def _container(self, steps: list, node, keys: list, got: str) -> Location:
        """Every part of the cut `keys` of `node` reads right alone, the cut as a whole does not: the
        container differs (a child lost, the order, its count)."""
        path = _path(steps)
        cut = _cut(node, keys)
        hs = [objhash.hash_value(node[k]) for k in keys]
        n = len(keys)

        def array_of(items: list[int]) -> int:
            acc = 0
            for i, h in enumerate(items):
                acc = objhash.array_add(acc, i, h)
            return objhash.array_end(acc, len(items))

        cands: list[tuple[str, int]] = []
        if isinstance(node, dict):
            entries = [objhash.map_entry(objhash.hash_str(k), h) for k, h in zip(keys, hs, strict=True)]
            total = sum(entries)
            for k, e in list(zip(keys, entries, strict=True))[:MAX_DROP]:
                miss = f"the key {json.dumps(k, ensure_ascii=True)} is missing"
                cands.append((miss, objhash.map_end((total - e) & objhash.MASK, n - 1)))
            cands.append(("read as an array of its values", array_of(hs)))
        else:
            if n <= MAX_DROP:
                for i, k in enumerate(keys):
                    cands.append((f"the element [{k}] is missing", array_of(hs[:i] + hs[i + 1 :])))
            cands.append(("its elements in reverse order", array_of(hs[::-1])))
            if n > 1:
                cands.append(("its last element read twice", array_of([*hs, hs[-1]])))
            as_map = sum(objhash.map_entry(objhash.hash_str(str(i)), h) for i, h in enumerate(hs))
            cands.append(('read as a map with keys "0", "1", ...', objhash.map_end(as_map & objhash.MASK, n)))
        cands.append(("read as null", objhash.hash_value(None)))
        for label, h in cands:
            if objhash.hex64(_fold(steps, h)) == got:
                if label.startswith(("the key", "the element")):
                    text = f"first difference at {path}: {label}"
                else:
                    text = f"first difference at {path}: expected {_show(cut)}, got it {label}"
                return self._done(text, path, "a container candidate matched")
        what = "entries" if isinstance(node, dict) else "elements"
        return self._ancestors(steps, cut, got) or self._done(
            f"first difference at {path}: the {_show(cut)} differs although each of its {what} reads right "
            "alone (none of the candidates tried: a count or order?)",
            path,
            "the container differs",
        )

    def _within(self, steps: list, node, keys: list) -> Location:
        """The search cannot go on (the library fails on a cut, or a limit): say how far it got, which
        is a claim only below the whole document."""
        if not steps and len(keys) == len(node):
            return Location(None, None, self.calls, f"no claim: {self.why}")
        path, cut = _path(steps), _cut(node, keys)
        calls = f"{self.calls} verify call{'s' if self.calls != 1 else ''}"
        return Location(
            f"the first difference is within {path} ({_show(cut)}); the search stopped there after {calls}: {self.why}",
            path,
            self.calls,
            self.why,
        )


def locate(
    expected,
    fmt: str,
    verify: Verify,
    *,
    max_calls: int = MAX_CALLS,
    budget_s: float = BUDGET_S,
    clock: Callable[[], float] = time.monotonic,
) -> Location:
    """Where the library behind `verify` reads `expected` (a document of the data model) wrong, when it
    is given in format `fmt`. Never raises for the library's behaviour."""
    form = F.FORMATS.get(fmt)
    if form is None:
        return Location(None, None, 0, f"no claim: serbench has no reference encoder for {fmt}")
    return _Search(expected, form.encode, verify, max_calls, budget_s, clock).run()


def harness_verify(harness, bench: dict, test: str, fmt: str, workdir: Path, ext: str, limits=None) -> Verify:
    """A Verify that runs `harness`'s `verify --bench ID --test T --format F --file P` (spec/protocol.md)
    on each document, under the limits robustness runs use (robustness/limits.py), in `workdir`."""
    from .robustness.limits import Limits, run_limited  # robustness imports runner, which imports this
    from .robustness.run import Row, classify, verify_argv

    limits = limits or Limits(timeout_s=VERIFY_TIMEOUT_S, memory_bytes=VERIFY_MEMORY_BYTES)
    row = Row(harness, bench, test, fmt)
    numbers = itertools.count()

    def verify(data: bytes) -> str | None:
        path = workdir / f"cut-{next(numbers):03d}.{ext}"
        path.write_bytes(data)
        try:
            ex = run_limited(verify_argv(row, path, limits), harness.env(), limits)
        finally:
            path.unlink(missing_ok=True)
        outcome, h, _ = classify(ex, [], limits)
        return h if outcome == "accepted" else None

    return verify


def locate_row(
    expected,
    harness,
    bench: dict,
    test: str,
    harness_format: str,
    source_format: str | None = None,
    *,
    limits=None,
    max_calls: int = MAX_CALLS,
    budget_s: float = BUDGET_S,
) -> Location:
    """`locate` through a harness row's own verify: documents in `source_format` (the corpus format the
    row reads; default `harness_format`), passed with `--format harness_format`. The cut-down files
    live in a temporary directory that is always removed. Never raises."""
    fmt = source_format or harness_format
    try:
        with tempfile.TemporaryDirectory(prefix="serbench-locate-") as tmp:
            ext = F.FORMATS[fmt].ext if fmt in F.FORMATS else "bin"
            verify = harness_verify(harness, bench, test, harness_format, Path(tmp), ext, limits)
            return locate(expected, fmt, verify, max_calls=max_calls, budget_s=budget_s)
    except Exception as e:  # an explanation is optional; the cell's result is not
        return Location(None, None, 0, f"no claim: locating failed ({type(e).__name__}: {e})")


def locate_file(path: Path, fmt: str, harness, bench: dict, test: str, *, limits=None, **bounds) -> Location:
    """`locate_row` for the document in a file of corpus format `fmt` (a robustness accept case whose
    hash came out wrong), decoded with serbench's reference decoder. Never raises."""
    try:
        expected = F.DECODERS[fmt](path.read_bytes())
    except Exception as e:  # not decodable, or deeper than the reference decoder recurses: no claim
        return Location(None, None, 0, f"no claim: the file does not decode with serbench's reference decoder ({e})")
    return locate_row(expected, harness, bench, test, fmt, limits=limits, **bounds)
