"""The Python harness's reference decoders: what a file in each format means (the baselines' check,
the input of write rows, and the check of a write row's output).

They are written here, not taken from the orchestrator's `corpus/formats.py` (which decodes with json,
msgpack, cbor2, bson and py-ubjson), for two reasons (spec/protocol.md, exit codes):

- **Iterative.** Open containers are kept in a list, so a document nested 100,000 deep decodes; the
  libraries stop with RecursionError (json, bson, py-ubjson) or a depth limit (msgpack, cbor2), which
  made the harness's own decoder fail on input a library under test may well accept.
- **Strict.** Exactly the data model (spec/data-model.md) in each format: truncation, trailing bytes,
  lengths and counts beyond the bytes left (checked before anything is read or allocated), BSON
  length fields that disagree with the content, invalid UTF-8 (and lone surrogates in JSON escapes),
  duplicate map keys, keys that are not strings, integers outside int64/uint64, NaN and infinities,
  and every type outside the model (MessagePack ext, CBOR tags and simple values, BSON types other
  than double, string, document, array, generic binary, bool, null, int32, int64; UBJSON high-precision
  numbers) are rejected with a `RefError` that says where.

A `RefError` is the input's, never a library's: the harness exits 6 for it.
"""

from __future__ import annotations

import json.decoder
import math
import re
import struct

INT64_MIN = -(1 << 63)
UINT64_MAX = (1 << 64) - 1


class RefError(ValueError):
    """The input is not valid in the format, or not in the data model."""


def _truncated(pos: int, need: int, have: int) -> RefError:
    return RefError(f"truncated: {need} bytes needed at offset {pos}, {have} left")


def _finite(f: float, at: int) -> float:
    if not math.isfinite(f):
        raise RefError(f"{f} at offset {at} is not in the data model (floats are finite)")
    return f


def _show(k: str) -> str:
    return repr(k[:40]) + ("..." if len(k) > 40 else "")


# spec/data-model.md: strings and keys carry no NUL (C APIs with NUL-terminated strings cannot).
_NUL = "NUL in a string or key (the data model has no NUL)"


class _Tree:
    """Open containers on a list (no recursion). A frame is [container, items left or -1 (closed by a
    marker), pending key or None, is_map]."""

    __slots__ = ("stack",)

    def __init__(self) -> None:
        self.stack: list[list] = []

    def expects_key(self) -> bool:
        s = self.stack
        return bool(s) and s[-1][3] and s[-1][2] is None

    def open(self, is_map: bool, left: int):
        """Opens a container; returns the empty container at once when its count is 0, else None."""
        c = {} if is_map else []
        if left == 0:
            return c
        self.stack.append([c, left, None, is_map])
        return None

    def emit(self, value):
        """Adds a finished value to the open container, closing the containers its count completes.
        Returns the root when the document is complete, else None (a root is never None: None is
        emitted as a value, and completion is `not self.stack`)."""
        s = self.stack
        if type(value) is str and "\0" in value:
            raise RefError(_NUL)
        while s:
            f = s[-1]
            c = f[0]
            if f[3]:
                k = f[2]
                if "\0" in k:
                    raise RefError(_NUL)
                if k in c:
                    raise RefError(f"duplicate map key {_show(k)}")
                c[k] = value
                f[2] = None
            else:
                c.append(value)
            if f[1] < 0:
                return None
            f[1] -= 1
            if f[1]:
                return None
            s.pop()
            value = c
        return value


_END = object()


def _emit(t: _Tree, value):
    """Emit, returning _END while the document is open."""
    r = t.emit(value)
    return _END if t.stack else r


# --- JSON (RFC 8259) ----------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_scanstring = json.decoder.scanstring  # the C scanner of one string: iterative, strict about controls


def _json_string(s: str, pos: int) -> tuple[str, int]:
    """The string whose opening quote is at pos; returns it and the index after the closing quote."""
    try:
        v, end = _scanstring(s, pos + 1, True)
    except json.decoder.JSONDecodeError as e:
        raise RefError(f"{e.msg} at character {e.pos}") from None
    if "\\" in s[pos:end] and _SURROGATE.search(v):
        raise RefError(f"lone surrogate escape in the string at character {pos} (not UTF-8)")
    return v, end


def _json_key(s: str, pos: int, n: int) -> tuple[str, int]:
    """`"key" :` at pos; returns the key and the index after the colon and its whitespace."""
    if pos >= n:
        raise RefError("truncated: the input ends inside an object")
    if s[pos] != '"':
        raise RefError(f"unexpected {s[pos]!r} at character {pos} (a string key expected)")
    k, pos = _json_string(s, pos)
    pos = _WS.match(s, pos).end()
    if pos >= n:
        raise RefError("truncated: the input ends inside an object")
    if s[pos] != ":":
        raise RefError(f"unexpected {s[pos]!r} at character {pos} (':' expected)")
    return k, _WS.match(s, pos + 1).end()


def _json_number(s: str, pos: int) -> tuple[object, int]:
    m = _NUMBER.match(s, pos)
    if m is None:
        raise RefError(f"invalid number at character {pos}")
    text = m.group()
    if m.group(1) or m.group(2):
        f = float(text)
        if not math.isfinite(f):
            raise RefError(f"the number at character {pos} is beyond the float64 range")
        return f, m.end()
    if len(text) > 21:
        raise RefError(f"the integer at character {pos} is outside int64/uint64")
    v = int(text)
    if not INT64_MIN <= v <= UINT64_MAX:
        raise RefError(f"the integer at character {pos} is outside int64/uint64")
    return v, m.end()


_LITERALS = {"t": ("true", True), "f": ("false", False), "n": ("null", None)}


def decode_json(data: bytes):
    try:
        s = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RefError(f"invalid UTF-8 at byte {e.start}") from None
    n = len(s)
    ws = _WS.match
    t = _Tree()
    stack = t.stack
    pos = ws(s, 0).end()
    while True:
        # a value is expected at pos
        if pos >= n:
            raise RefError("truncated: the input ends where a value is expected")
        c = s[pos]
        if c == "{":
            pos = ws(s, pos + 1).end()
            if pos < n and s[pos] == "}":
                value, pos = {}, pos + 1
            else:
                stack.append([{}, -1, None, True])
                stack[-1][2], pos = _json_key(s, pos, n)
                continue
        elif c == "[":
            pos = ws(s, pos + 1).end()
            if pos < n and s[pos] == "]":
                value, pos = [], pos + 1
            else:
                stack.append([[], -1, None, False])
                continue
        elif c == '"':
            value, pos = _json_string(s, pos)
        elif c == "-" or "0" <= c <= "9":
            value, pos = _json_number(s, pos)
        elif c in _LITERALS and s.startswith(_LITERALS[c][0], pos):
            word, value = _LITERALS[c]
            pos += len(word)
        else:
            raise RefError(f"unexpected {c!r} at character {pos}")
        # after a value: a comma, the end of its container, or the end of the input
        while True:
            if not stack:
                if ws(s, pos).end() != n:
                    raise RefError(f"trailing characters after the document at character {pos}")
                return value
            t.emit(value)
            f = stack[-1]
            pos = ws(s, pos).end()
            if pos >= n:
                raise RefError("truncated: the input ends inside " + ("an object" if f[3] else "an array"))
            c = s[pos]
            if c == ",":
                pos = ws(s, pos + 1).end()
                if f[3]:
                    f[2], pos = _json_key(s, pos, n)
                break
            if c == ("}" if f[3] else "]"):
                pos += 1
                stack.pop()
                value = f[0]
                continue
            raise RefError(f"unexpected {c!r} at character {pos} (',' or a close expected)")


# --- MessagePack ----------------------------------------------------------------------------------

_U16 = struct.Struct(">H").unpack_from
_U32 = struct.Struct(">I").unpack_from
_U64 = struct.Struct(">Q").unpack_from
_I16 = struct.Struct(">h").unpack_from
_I32 = struct.Struct(">i").unpack_from
_I64 = struct.Struct(">q").unpack_from
_F32 = struct.Struct(">f").unpack_from
_F64 = struct.Struct(">d").unpack_from
_F16 = struct.Struct(">e").unpack_from

# (payload bytes, reader) of fixed-size MessagePack scalars
_MP_FIXED = {
    0xCA: (4, lambda d, p: _F32(d, p)[0]),
    0xCB: (8, lambda d, p: _F64(d, p)[0]),
    0xCC: (1, lambda d, p: d[p]),
    0xCD: (2, lambda d, p: _U16(d, p)[0]),
    0xCE: (4, lambda d, p: _U32(d, p)[0]),
    0xCF: (8, lambda d, p: _U64(d, p)[0]),
    0xD0: (1, lambda d, p: d[p] - 256 if d[p] > 127 else d[p]),
    0xD1: (2, lambda d, p: _I16(d, p)[0]),
    0xD2: (4, lambda d, p: _I32(d, p)[0]),
    0xD3: (8, lambda d, p: _I64(d, p)[0]),
}
# markers whose payload starts with a length: str, bin, array, map (width of the length)
_MP_LEN = {0xD9: 1, 0xDA: 2, 0xDB: 4, 0xC4: 1, 0xC5: 2, 0xC6: 4, 0xDC: 2, 0xDD: 4, 0xDE: 2, 0xDF: 4}


def _utf8(b: bytes, at: int) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise RefError(f"invalid UTF-8 in the string at offset {at}") from None


def decode_msgpack(data: bytes):
    data = bytes(data)
    n = len(data)
    t = _Tree()
    pos = 0
    while True:
        if pos >= n:
            raise _truncated(pos, 1, 0)
        at = pos
        m = data[pos]
        pos += 1
        if 0xA0 <= m <= 0xBF:
            ln = m & 0x1F
        elif m in _MP_LEN:
            w = _MP_LEN[m]
            if pos + w > n:
                raise _truncated(pos, w, n - pos)
            ln = data[pos] if w == 1 else (_U16(data, pos)[0] if w == 2 else _U32(data, pos)[0])
            pos += w
        else:
            ln = -1
        if 0xA0 <= m <= 0xBF or 0xD9 <= m <= 0xDB:
            if pos + ln > n:
                raise _truncated(pos, ln, n - pos)
            value = _utf8(data[pos : pos + ln], pos)
            pos += ln
            if t.expects_key():
                t.stack[-1][2] = value
                continue
        elif t.expects_key():
            raise RefError(f"the map key at offset {at} is not a string")
        elif m <= 0x7F:
            value = m
        elif m >= 0xE0:
            value = m - 256
        elif m <= 0x9F or 0xDC <= m <= 0xDF:
            is_map = m <= 0x8F or m >= 0xDE
            if m <= 0x9F:
                ln = m & 0x0F
            if ln * (2 if is_map else 1) > n - pos:
                raise RefError(f"the count {ln} at offset {at} is larger than the {n - pos} bytes left")
            value = t.open(is_map, ln)
            if value is None:
                continue
        elif m == 0xC0:
            value = None
        elif m == 0xC2:
            value = False
        elif m == 0xC3:
            value = True
        elif 0xC4 <= m <= 0xC6:
            if pos + ln > n:
                raise _truncated(pos, ln, n - pos)
            value = data[pos : pos + ln]
            pos += ln
        elif m in _MP_FIXED:
            size, read = _MP_FIXED[m]
            if pos + size > n:
                raise _truncated(pos, size, n - pos)
            value = read(data, pos)
            pos += size
            if m <= 0xCB:
                _finite(value, at)
        elif m == 0xC1:
            raise RefError(f"byte 0xc1 at offset {at} is never used in MessagePack")
        else:
            raise RefError(f"the ext type at offset {at} is not in the data model")
        value = _emit(t, value)
        if value is not _END:
            if pos != n:
                raise RefError(f"trailing bytes after the document at offset {pos}")
            return value


# --- CBOR (RFC 8949) ----------------------------------------------------------------------------------


def _cbor_arg(data: bytes, pos: int, ai: int, at: int) -> tuple[int | None, int]:
    if ai < 24:
        return ai, pos
    if ai == 31:
        return None, pos
    if ai > 27:
        raise RefError(f"reserved additional information {ai} at offset {at}")
    w = 1 << (ai - 24)
    if pos + w > len(data):
        raise _truncated(pos, w, len(data) - pos)
    return int.from_bytes(data[pos : pos + w], "big"), pos + w


def _cbor_string(data: bytes, pos: int, major: int, ln: int | None, at: int) -> tuple[bytes, int]:
    """A byte or text string (head read): definite, or the definite chunks of an indefinite one (each
    text chunk valid UTF-8 on its own)."""
    n = len(data)

    def chunk(pos: int, ln: int) -> tuple[bytes, int]:
        if pos + ln > n:
            raise _truncated(pos, ln, n - pos)
        b = data[pos : pos + ln]
        if major == 3:
            _utf8(b, pos)
        return b, pos + ln

    if ln is not None:
        return chunk(pos, ln)
    parts = []
    while True:
        if pos >= n:
            raise _truncated(pos, 1, 0)
        c_at = pos
        ib = data[pos]
        if ib == 0xFF:
            return b"".join(parts), pos + 1
        if ib >> 5 != major:
            raise RefError(f"chunk of another type at offset {c_at} in the indefinite string at {at}")
        ln, pos = _cbor_arg(data, pos + 1, ib & 31, c_at)
        if ln is None:
            raise RefError(f"nested indefinite string at offset {c_at}")
        b, pos = chunk(pos, ln)
        parts.append(b)


_CBOR_FLOATS = {25: _F16, 26: _F32, 27: _F64}


def decode_cbor(data: bytes):
    data = bytes(data)
    n = len(data)
    t = _Tree()
    stack = t.stack
    pos = 0
    while True:
        if pos >= n:
            raise _truncated(pos, 1, 0)
        at = pos
        ib = data[pos]
        if ib == 0xFF:
            # break: ends an indefinite-length array, or a map between entries
            if not stack or stack[-1][1] >= 0 or stack[-1][2] is not None:
                raise RefError(f"unexpected break at offset {at}")
            value = stack.pop()[0]
            pos += 1
            value = _emit(t, value)
            if value is not _END:
                break
            continue
        major, ai = ib >> 5, ib & 31
        if major == 7 and ai in _CBOR_FLOATS:
            w = 1 << (ai - 24)
            if pos + 1 + w > n:
                raise _truncated(pos + 1, w, n - pos - 1)
            arg, pos = _CBOR_FLOATS[ai](data, pos + 1)[0], pos + 1 + w
        else:
            arg, pos = _cbor_arg(data, pos + 1, ai, at)
        if major == 3:
            b, pos = _cbor_string(data, pos, 3, arg, at)
            value = b.decode("utf-8")
            if t.expects_key():
                stack[-1][2] = value
                continue
        elif t.expects_key():
            raise RefError(f"the map key at offset {at} is not a string")
        elif major == 6:
            raise RefError(f"the tag at offset {at} is not in the data model")
        elif major == 7:
            if ai == 20:
                value = False
            elif ai == 21:
                value = True
            elif ai == 22:
                value = None
            elif ai in _CBOR_FLOATS:
                value = _finite(arg, at)
            elif ai == 23:
                raise RefError(f"undefined at offset {at} is not in the data model")
            else:
                raise RefError(f"the simple value at offset {at} is not in the data model")
        elif major == 2:
            value, pos = _cbor_string(data, pos, 2, arg, at)
        elif major in (4, 5):
            if arg is not None and arg * (major - 3) > n - pos:
                raise RefError(f"the count {arg} at offset {at} is larger than the {n - pos} bytes left")
            value = t.open(major == 5, -1 if arg is None else arg)
            if value is None:
                continue
        elif arg is None:
            raise RefError(f"an integer at offset {at} cannot have an indefinite length")
        elif major == 0:
            value = arg
        else:
            if arg > (1 << 63) - 1:
                raise RefError(f"the integer at offset {at} is below INT64_MIN")
            value = -1 - arg
        value = _emit(t, value)
        if value is not _END:
            break
    if pos != n:
        raise RefError(f"trailing bytes after the document at offset {pos}")
    return value


# --- BSON 1.1 -------------------------------------------------------------------------------------

_BSON_TYPES = {
    0x06: "undefined",
    0x07: "ObjectId",
    0x09: "UTC datetime",
    0x0B: "regex",
    0x0C: "DBPointer",
    0x0D: "JavaScript code",
    0x0E: "symbol",
    0x0F: "code with scope",
    0x11: "timestamp",
    0x13: "decimal128",
    0x7F: "max key",
    0xFF: "min key",
}
_LE_I32 = struct.Struct("<i").unpack_from
_LE_I64 = struct.Struct("<q").unpack_from
_LE_F64 = struct.Struct("<d").unpack_from


def decode_bson(data: bytes):
    data = bytes(data)
    n = len(data)
    if n < 5:
        raise RefError(f"truncated: a BSON document is at least 5 bytes, the input has {n}")
    ln = _LE_I32(data, 0)[0]
    if ln < 5 or ln != n:
        raise RefError(f"the document length field says {ln} (as unsigned {ln & 0xFFFFFFFF}), the input has {n} bytes")
    # frames: [container, end (offset of the terminator), next array index or -1 (a map), pending key]
    root: dict = {}
    docs: list[list] = [[root, n - 1, -1, None]]
    pos = 4
    while docs:
        f = docs[-1]
        end = f[1]
        ty = data[pos]
        if ty == 0:
            if pos != end:
                raise RefError(f"document terminator at offset {pos}, but its length field puts the end at {end}")
            pos += 1
            docs.pop()
            if docs:
                _bson_add(docs[-1], f[0])
            continue
        if pos == end:
            raise RefError(f"the document ending at offset {end} is not terminated by 0x00")
        k0 = pos + 1
        nul = data.find(b"\0", k0, end)
        if nul < 0:
            raise RefError(f"the key at offset {k0} runs past the end of its document")
        key = data[k0:nul]
        if f[2] >= 0:
            if key != str(f[2]).encode():
                raise RefError(f"array key at offset {k0} is not the index {f[2]}")
            f[2] += 1
        else:
            f[3] = _utf8(key, k0)
        pos = nul + 1
        room = end - pos

        def need(k: int, pos: int = pos, room: int = room) -> None:
            if k > room:
                raise RefError(f"truncated: the value at offset {pos} needs {k} bytes, its document has {room} left")

        if ty == 0x01:
            need(8)
            value = _finite(_LE_F64(data, pos)[0], pos)
            pos += 8
        elif ty == 0x02:
            need(4)
            sl = _LE_I32(data, pos)[0]
            if sl < 1:
                raise RefError(f"the string length {sl} at offset {pos} is invalid (at least 1, for its 0x00)")
            need(4 + sl)
            if data[pos + 3 + sl] != 0:
                raise RefError(f"the string at offset {pos} is not terminated by 0x00")
            value = _utf8(data[pos + 4 : pos + 3 + sl], pos)
            if "\0" in value:
                raise RefError(_NUL)
            pos += 4 + sl
        elif ty in (0x03, 0x04):
            need(4)
            dl = _LE_I32(data, pos)[0]
            if dl < 5:
                raise RefError(f"the document length {dl} at offset {pos} is invalid (at least 5)")
            need(dl)
            docs.append([[] if ty == 0x04 else {}, pos + dl - 1, 0 if ty == 0x04 else -1, None])
            pos += 4
            continue
        elif ty == 0x05:
            need(5)
            bl = _LE_I32(data, pos)[0]
            if bl < 0:
                raise RefError(f"the binary length {bl} at offset {pos} is negative")
            need(5 + bl)
            value = data[pos + 5 : pos + 5 + bl]
            if data[pos + 4] == 0x02:
                # the old binary subtype: an int32 inner length, then the bytes (rule R7)
                inner = _LE_I32(data, pos + 5)[0] if bl >= 4 else -1
                if bl < 4 or inner != bl - 4:
                    raise RefError(f"binary subtype 0x02 at offset {pos}: inner length {inner} is not {bl - 4}")
                value = value[4:]
            pos += 5 + bl
        elif ty == 0x08:
            need(1)
            if data[pos] > 1:
                raise RefError(f"boolean byte 0x{data[pos]:02x} at offset {pos} is neither 0 nor 1")
            value = data[pos] == 1
            pos += 1
        elif ty == 0x0A:
            value = None
        elif ty == 0x10:
            need(4)
            value = _LE_I32(data, pos)[0]
            pos += 4
        elif ty == 0x12:
            need(8)
            value = _LE_I64(data, pos)[0]
            pos += 8
        else:
            name = _BSON_TYPES.get(ty)
            what = f"BSON type {name} (0x{ty:02x})" if name else f"unknown BSON type 0x{ty:02x}"
            raise RefError(f"{what} at offset {pos - len(key) - 2} is not in the data model")
        _bson_add(f, value)
    return root


def _bson_add(f: list, value) -> None:
    c = f[0]
    if f[2] >= 0:
        c.append(value)
        return
    k = f[3]
    if k in c:
        raise RefError(f"duplicate map key {_show(k)}")
    c[k] = value


# --- UBJSON (Draft 12) ------------------------------------------------------------------------------

# (payload bytes, reader) of UBJSON scalars with a fixed size; N (no-op) is handled apart
_UB_FIXED = {
    ord("Z"): (0, lambda d, p: None),
    ord("T"): (0, lambda d, p: True),
    ord("F"): (0, lambda d, p: False),
    ord("i"): (1, lambda d, p: d[p] - 256 if d[p] > 127 else d[p]),
    ord("U"): (1, lambda d, p: d[p]),
    ord("I"): (2, lambda d, p: _I16(d, p)[0]),
    ord("l"): (4, lambda d, p: _I32(d, p)[0]),
    ord("L"): (8, lambda d, p: _I64(d, p)[0]),
    ord("d"): (4, lambda d, p: _F32(d, p)[0]),
    ord("D"): (8, lambda d, p: _F64(d, p)[0]),
    ord("C"): (1, lambda d, p: d[p]),
}
_UB_INTS = {ord(c) for c in "iUIlL"}
# a strong type may be any value's marker, containers included ([$[: every child an array, its own
# marker left out), but not the no-op or an end marker
_UB_TYPEABLE = set(_UB_FIXED) | {ord(c) for c in "SH[{"}


class _Ub:
    """A cursor over UBJSON bytes."""

    __slots__ = ("d", "n", "pos")

    def __init__(self, data: bytes) -> None:
        self.d, self.n, self.pos = data, len(data), 0

    def byte(self) -> int:
        if self.pos >= self.n:
            raise _truncated(self.pos, 1, 0)
        b = self.d[self.pos]
        self.pos += 1
        return b

    def scalar(self, m: int, at: int):
        """The payload of a scalar of type m (the marker is read); None for a non-scalar marker
        (raises for a marker outside the data model)."""
        if m in _UB_FIXED:
            size, read = _UB_FIXED[m]
            if self.pos + size > self.n:
                raise _truncated(self.pos, size, self.n - self.pos)
            v = read(self.d, self.pos)
            self.pos += size
            if m == ord("d") or m == ord("D"):
                _finite(v, at)
            elif m == ord("C"):
                if v > 127:
                    raise RefError(f"char 0x{v:02x} at offset {at} is not ASCII")
                v = chr(v)
            return v
        if m == ord("S"):
            ln = self.length(at)
            if self.pos + ln > self.n:
                raise _truncated(self.pos, ln, self.n - self.pos)
            s = _utf8(self.d[self.pos : self.pos + ln], self.pos)
            self.pos += ln
            return s
        if m == ord("H"):
            # a high-precision number is a string in JSON's number grammar: read as JSON reads it (an
            # integer within int64/uint64, else refused; with a fraction or exponent, the nearest finite
            # double), as every reference decoder does (spec/data-model.md, rule 5)
            ln = self.length(at)
            if self.pos + ln > self.n:
                raise _truncated(self.pos, ln, self.n - self.pos)
            text = _utf8(self.d[self.pos : self.pos + ln], self.pos)
            self.pos += ln
            v, end = _json_number(text, 0)
            if end != len(text):
                raise RefError(f"the high-precision number at offset {at} is not a JSON number")
            return v
        raise RefError(f"unexpected marker {chr(m)!r} (0x{m:02x}) at offset {at}")

    def length(self, at: int) -> int:
        """A length or count: an integer marker and its value, not negative."""
        m = self.byte()
        if m not in _UB_INTS:
            raise RefError(f"a length at offset {at} must be an integer, not {chr(m)!r}")
        v = self.scalar(m, at)
        if v < 0:
            raise RefError(f"negative length {v} at offset {at}")
        return v


def decode_ubjson(data: bytes):
    data = bytes(data)
    r = _Ub(data)
    t = _Tree()
    stack = t.stack
    # per open container, beside the tree's frame: its strong type (a marker) or None
    types: list[int | None] = []
    zero_budget = 16 * len(data) + 4096
    while True:
        f = stack[-1] if stack else None
        typed = types[-1] if types else None
        if f is not None and f[1] < 0:
            # an unsized container: its close marker, a no-op, or the next entry
            while r.pos < r.n and data[r.pos] == ord("N"):
                r.pos += 1
            if r.pos < r.n and data[r.pos] == (ord("}") if f[3] else ord("]")):
                r.pos += 1
                stack.pop()
                value = _emit(t, f[0])
                if value is not _END:
                    break
                del types[len(stack) :]
                continue
        if f is not None and f[3]:
            while r.pos < r.n and data[r.pos] == ord("N"):  # a no-op between a sized object's pairs
                r.pos += 1
            at = r.pos
            k = r.length(at)
            if r.pos + k > r.n:
                raise _truncated(r.pos, k, r.n - r.pos)
            f[2] = _utf8(data[r.pos : r.pos + k], r.pos)
            r.pos += k
        at = r.pos
        m = typed if typed is not None else r.byte()
        while m == ord("N") and typed is None and stack:
            # a no-op where a container's value may start is skipped and is not a child (Draft 12,
            # No-Op: "should be skipped"); at the root, or typed, it is an error below
            at = r.pos
            m = r.byte()
        if m == ord("[") or m == ord("{"):
            is_map = m == ord("{")
            strong = None
            count = -1
            if r.pos < r.n and data[r.pos] == ord("$"):
                r.pos += 1
                strong = r.byte()
                if strong not in _UB_TYPEABLE:
                    raise RefError(f"strong type {chr(strong)!r} at offset {r.pos - 1} is not supported")
                if r.pos >= r.n or data[r.pos] != ord("#"):
                    raise RefError(f"a strong type at offset {at} must be followed by a count (#)")
            if r.pos < r.n and data[r.pos] == ord("#"):
                r.pos += 1
                count = r.length(r.pos)
                if is_map or strong is None or _UB_FIXED.get(strong, (1,))[0]:
                    # every item takes a byte at least: its value, or a key's length (2 bytes at least)
                    if count * (2 if is_map else 1) > r.n - r.pos:
                        raise RefError(f"the count {count} at offset {at} is larger than the {r.n - r.pos} bytes left")
                else:
                    # an array typed Z, T or F: its items take no bytes at all, so what they may cost is
                    # bounded for the whole document instead (a limit of this decoder, not of UBJSON)
                    if count > zero_budget:
                        raise RefError(
                            f"the count {count} at offset {at} of items without payload is beyond this decoder's limit "
                            f"(16 per input byte, for the whole document)"
                        )
                    zero_budget -= count
            value = t.open(is_map, count)
            if value is None:
                types.append(strong)
                continue
        elif m == ord("N"):
            raise RefError(f"no-op (N) at offset {at} where a value must be")
        else:
            value = r.scalar(m, at)
        value = _emit(t, value)
        if value is not _END:
            break
        # a sized container that the value completed was closed by the tree: drop its type
        del types[len(stack) :]
    if r.pos != r.n:
        raise RefError(f"trailing bytes after the document at offset {r.pos}")
    return value


def _root_map(decode):
    """Rule R1 of the reference decoders: a document's root is a map (JSON object, MessagePack or CBOR
    map, BSON document, UBJSON object); any other root is rejected."""

    def dec(data: bytes):
        doc = decode(data)
        if type(doc) is not dict:
            raise RefError(f"the root is {type(doc).__name__ if doc is not None else 'null'}, not a map")
        return doc

    dec.__name__ = decode.__name__
    dec.__doc__ = decode.__doc__
    return dec


DECODERS = {
    "json": _root_map(decode_json),
    "json-pretty": _root_map(decode_json),
    "msgpack": _root_map(decode_msgpack),
    "cbor": _root_map(decode_cbor),
    "bson": decode_bson,
    "ubjson": _root_map(decode_ubjson),
    "ubjson-plain": _root_map(decode_ubjson),
}
