// The reference decoders: what a file in each format means for this harness (the baselines' object,
// the input of write rows, the check of a write row's output). A port of the Go harness's refdec,
// for the same reasons:
//   - Iterative: containers are kept on a heap stack, so a document nested 10^6 deep decodes without
//     recursion.
//   - Strict: exactly the data model (spec/data-model.md, "What a reference decoder accepts"), whose
//     answers are vectors/conformance/manifest.json (selftest checks them).
//
// The tree is the harness's own object, what a JavaScript program holds as schemaless data: null,
// booleans, numbers (every integer within int32 and every float), BigInt (integers beyond int32),
// strings, Buffer (binary: Node's byte type, what its codecs give back), arrays and plain objects. A float whose value is also a safe integer
// (1.0) is an F64 here, since a number would read as the integer; `toApp` gives the plain-number
// object an application holds, which libraries write from.

import { F64 } from "./hash.mjs";

export class InputError extends Error {} // the input is not valid in the format: exit 6

export const FORMATS = ["json", "json-pretty", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain"];

export function decode(format, data) {
  switch (format) {
    case "json":
    case "json-pretty":
      return decodeJSON(data);
    case "msgpack":
      return decodeMsgpack(data);
    case "cbor":
      return decodeCBOR(data);
    case "bson":
      return decodeBSON(data);
    case "ubjson":
    case "ubjson-plain":
      return decodeUBJSON(data);
  }
  throw new InputError(`no reference decoder for format ${format}`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function text(bytes, at) {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InputError(`invalid UTF-8 in the string at offset ${at}`);
  }
}

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

/** An integer as the harness holds it: a number within int32, else a BigInt. That is what the
 * JavaScript binary codecs give back for the integers their formats store in 64 bits, and what they
 * write as 64-bit integers: a number beyond 32 bits is written as a double by msgpackr,
 * @msgpack/msgpack and js-bson (docs/libraries.md). */
export function int(v) {
  if (typeof v === "number") return v >= -2147483648 && v <= 2147483647 ? (v === 0 ? 0 : v) : BigInt(v);
  return v >= -2147483648n && v <= 2147483647n ? Number(v) : v;
}

/** A float64 as the harness holds it: an F64 where a number would read as an integer. */
export function float(f, at) {
  if (!Number.isFinite(f)) throw new InputError(`${f} at offset ${at} is not in the data model (floats are finite)`);
  return Number.isSafeInteger(f) && !Object.is(f, -0) ? new F64(f) : f;
}

function errRoot(what) {
  return new InputError(`the root is ${what}, not a map (spec/data-model.md: the root of every document is a map)`);
}

function kind(v) {
  if (v === null) return "null";
  if (typeof v === "boolean") return "a bool";
  if (typeof v === "number" || typeof v === "bigint") return "a number";
  if (v instanceof F64) return "a float";
  if (typeof v === "string") return "a string";
  if (v instanceof Uint8Array) return "a binary";
  if (Array.isArray(v)) return "an array";
  return "a map";
}

/** The tree under construction: a stack of open containers (each with the count still to come, -1
 * when a marker closes it, and the pending key of a map). */
class Tree {
  constructor() {
    this.stack = [];
    this.root = undefined;
    this.done = false;
  }
  expectsKey() {
    const n = this.stack.length;
    return n > 0 && this.stack[n - 1].isMap && !this.stack[n - 1].hasKey;
  }
  topIsMap() {
    const n = this.stack.length;
    return n > 0 && this.stack[n - 1].isMap;
  }
  open(isMap, left) {
    if (this.stack.length === 0 && !isMap) throw errRoot("an array");
    if (left === 0) return this.emit(isMap ? {} : []);
    // a map collects its entries and becomes an object when it closes (Object.fromEntries): an
    // object built one assignment at a time turns into a dictionary past a few dozen keys in V8,
    // which every reader then walks more slowly than the fast objects JSON.parse makes
    this.stack.push({ c: [], isMap, left, key: "", hasKey: false, seen: isMap ? new Set() : null });
  }
  setKey(k) {
    if (k.includes("\0")) throw new InputError("NUL in a string or key (the data model has no NUL)");
    const top = this.stack[this.stack.length - 1];
    if (top.seen.has(k)) throw new InputError(`duplicate map key ${JSON.stringify(k.slice(0, 40))}`);
    top.seen.add(k);
    top.key = k;
    top.hasKey = true;
  }
  emit(v) {
    if (typeof v === "string" && v.includes("\0"))
      throw new InputError("NUL in a string or key (the data model has no NUL)");
    for (;;) {
      const n = this.stack.length;
      if (n === 0) {
        if (kind(v) !== "a map") throw errRoot(kind(v));
        this.root = v;
        this.done = true;
        return;
      }
      const top = this.stack[n - 1];
      if (top.isMap) {
        if (!top.hasKey) throw new InputError("map value without a key");
        top.c.push([top.key, v]);
        top.hasKey = false;
      } else top.c.push(v);
      if (top.left < 0) return;
      top.left--;
      if (top.left > 0) return;
      v = this.pop();
    }
  }
  pop() {
    const f = this.stack.pop();
    return f.isMap ? Object.fromEntries(f.c) : f.c;
  }
  closeTop() {
    if (this.stack.length === 0) throw new InputError("close without an open container");
    this.emit(this.pop());
  }
  finish() {
    if (this.stack.length === 0 && this.done) return this.root;
    throw new InputError("document is incomplete");
  }
}

/** A bounds-checked cursor over the input. */
class Reader {
  constructor(d) {
    this.d = d;
    this.p = 0;
    this.view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  }
  left() {
    return this.d.length - this.p;
  }
  need(n) {
    if (n > this.left())
      throw new InputError(
        `truncated: ${n} bytes needed at offset ${this.p}, ${this.left()} left (a length larger than the input?)`,
      );
  }
  take(n) {
    this.need(n);
    const s = this.d.subarray(this.p, this.p + n);
    this.p += n;
    return s;
  }
  u8() {
    this.need(1);
    return this.d[this.p++];
  }
  /** a big-endian unsigned integer of n bytes, as a number (n <= 4) */
  be(n) {
    this.need(n);
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + this.d[this.p++];
    return v;
  }
  be64() {
    this.need(8);
    const v = this.view.getBigUint64(this.p);
    this.p += 8;
    return v;
  }
  utf8(n) {
    const at = this.p;
    return text(this.take(n), at);
  }
  /** a container count that must fit what is left, at `min` bytes an item */
  count(n, min, at) {
    if (n * min > this.left())
      throw new InputError(`the count ${n} at offset ${at} is larger than the ${this.left()} bytes left`);
    return n;
  }
}

// --- JSON (RFC 8259) ----------------------------------------------------------------------------------

function ws(d, p) {
  while (p < d.length) {
    const c = d[p];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    p++;
  }
  return p;
}

function eof(what) {
  return new InputError(`truncated: the input ends inside ${what}`);
}

function decodeJSON(d) {
  const t = new Tree();
  let p = 0;
  for (;;) {
    p = ws(d, p);
    if (p >= d.length) throw eof("the document");
    const c = d[p];
    if (c === 0x7b) {
      p = ws(d, p + 1);
      if (p < d.length && d[p] === 0x7d) {
        p++;
        t.emit({});
      } else {
        t.open(true, -1);
        p = jsonKey(d, p, t);
        continue;
      }
    } else if (c === 0x5b) {
      p = ws(d, p + 1);
      if (p < d.length && d[p] === 0x5d) {
        p++;
        t.emit([]);
      } else {
        t.open(false, -1);
        continue;
      }
    } else if (c === 0x22) {
      const [s, q] = jsonString(d, p);
      p = q;
      t.emit(s);
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? "true" : c === 0x66 ? "false" : "null";
      for (let i = 0; i < word.length; i++)
        if (d[p + i] !== word.charCodeAt(i)) throw new InputError(`invalid literal at offset ${p}`);
      p += word.length;
      t.emit(c === 0x74 ? true : c === 0x66 ? false : null);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const [v, q] = jsonNumber(d, p);
      p = q;
      t.emit(v);
    } else throw new InputError(`unexpected byte 0x${c.toString(16).padStart(2, "0")} at offset ${p}`);
    // after a value: a comma, the end of its container, or the end of the input
    for (;;) {
      p = ws(d, p);
      if (t.stack.length === 0) {
        if (p !== d.length) throw new InputError(`trailing bytes after the document at offset ${p}`);
        return t.finish();
      }
      const isMap = t.topIsMap();
      if (p >= d.length) throw eof(isMap ? "an object" : "an array");
      const e = d[p];
      if (e === 0x2c) {
        p++;
        if (isMap) p = jsonKey(d, ws(d, p), t);
        break;
      } else if ((e === 0x5d && !isMap) || (e === 0x7d && isMap)) {
        p++;
        t.closeTop();
      } else
        throw new InputError(
          `unexpected byte 0x${e.toString(16).padStart(2, "0")} at offset ${p} (',' or a close expected)`,
        );
    }
  }
}

function jsonKey(d, p, t) {
  if (p >= d.length) throw eof("an object");
  if (d[p] !== 0x22)
    throw new InputError(`unexpected byte 0x${d[p].toString(16)} at offset ${p} (a string key expected)`);
  const [k, q0] = jsonString(d, p);
  t.setKey(k);
  const q = ws(d, q0);
  if (q >= d.length) throw eof("an object");
  if (d[q] !== 0x3a) throw new InputError(`unexpected byte 0x${d[q].toString(16)} at offset ${q} (':' expected)`);
  return q + 1;
}

function hexDigit(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

function hex4(d, p) {
  if (p + 4 > d.length) throw eof("a \\u escape");
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const h = hexDigit(d[p + i]);
    if (h < 0) throw new InputError(`invalid \\u escape at offset ${p}`);
    v = v * 16 + h;
  }
  return v;
}

const ESC = { 0x22: '"', 0x5c: "\\", 0x2f: "/", 0x62: "\b", 0x66: "\f", 0x6e: "\n", 0x72: "\r", 0x74: "\t" };

/** The string whose quote is at p: [string, offset after the closing quote]. */
function jsonString(d, p) {
  let out = "";
  let i = p + 1;
  for (;;) {
    const start = i;
    while (i < d.length) {
      const c = d[i];
      if (c === 0x22 || c === 0x5c || c < 0x20) break;
      i++;
    }
    if (i > start) out += text(d.subarray(start, i), start);
    if (i >= d.length) throw eof("a string");
    const c = d[i];
    if (c === 0x22) return [out, i + 1];
    if (c === 0x5c) {
      if (i + 1 >= d.length) throw eof("a string");
      const e = d[i + 1];
      i += 2;
      if (e === 0x75) {
        const at = i - 2;
        const hi = hex4(d, i);
        i += 4;
        if (hi >= 0xd800 && hi <= 0xdbff) {
          if (i + 2 > d.length || d[i] !== 0x5c || d[i + 1] !== 0x75)
            throw new InputError(`lone surrogate \\u${hi.toString(16)} at offset ${at} (not UTF-8)`);
          const lo = hex4(d, i + 2);
          if (lo < 0xdc00 || lo > 0xdfff)
            throw new InputError(`lone surrogate \\u${hi.toString(16)} at offset ${at} (not UTF-8)`);
          i += 6;
          out += String.fromCharCode(hi, lo);
        } else if (hi >= 0xdc00 && hi <= 0xdfff) {
          throw new InputError(`lone surrogate \\u${hi.toString(16)} at offset ${at} (not UTF-8)`);
        } else out += String.fromCharCode(hi);
      } else {
        const ch = ESC[e];
        if (ch === undefined) throw new InputError(`invalid escape at offset ${i - 2}`);
        out += ch;
      }
    } else
      throw new InputError(
        `unescaped control character 0x${c.toString(16).padStart(2, "0")} in a string at offset ${i}`,
      );
  }
}

function digits(d, p) {
  while (p < d.length && d[p] >= 0x30 && d[p] <= 0x39) p++;
  return p;
}

const latin1 = new TextDecoder("latin1");

function jsonNumber(d, start) {
  const bad = () => new InputError(`invalid number at offset ${start}`);
  const neg = d[start] === 0x2d;
  const intStart = neg ? start + 1 : start;
  let p;
  if (intStart < d.length && d[intStart] === 0x30) p = intStart + 1;
  else if (intStart < d.length && d[intStart] >= 0x31 && d[intStart] <= 0x39) p = digits(d, intStart + 1);
  else throw bad();
  let isFloat = false;
  if (p < d.length && d[p] === 0x2e) {
    const q = digits(d, p + 1);
    if (q === p + 1) throw bad();
    p = q;
    isFloat = true;
  }
  if (p < d.length && (d[p] === 0x65 || d[p] === 0x45)) {
    p++;
    if (p < d.length && (d[p] === 0x2b || d[p] === 0x2d)) p++;
    const q = digits(d, p);
    if (q === p) throw bad();
    p = q;
    isFloat = true;
  }
  const s = latin1.decode(d.subarray(start, p));
  if (isFloat) {
    const f = Number(s);
    if (!Number.isFinite(f)) throw new InputError(`the number at offset ${start} is beyond the float64 range`);
    return [float(f, start), p];
  }
  if (p - intStart <= 15) {
    return [int(Number(s)), p]; // -0 is the integer 0
  }
  const v = BigInt(s);
  if (v < I64_MIN || v > U64_MAX) throw new InputError(`the integer at offset ${start} is outside int64/uint64`);
  return [int(v), p];
}

// --- MessagePack --------------------------------------------------------------------------------------

function decodeMsgpack(d) {
  const r = new Reader(d);
  const t = new Tree();
  while (!t.done) {
    const at = r.p;
    const m = r.u8();
    let strLen = -1;
    if (m >= 0xa0 && m <= 0xbf) strLen = m & 0x1f;
    else if (m === 0xd9 || m === 0xda || m === 0xdb) strLen = r.be(1 << (m - 0xd9));
    if (strLen >= 0) {
      const s = r.utf8(strLen);
      if (t.expectsKey()) t.setKey(s);
      else t.emit(s);
      continue;
    }
    if (t.expectsKey()) throw new InputError(`the map key at offset ${at} is not a string`);
    if (m <= 0x7f) t.emit(m);
    else if (m >= 0xe0) t.emit(m - 256);
    else if (m === 0xc0) t.emit(null);
    else if (m === 0xc2) t.emit(false);
    else if (m === 0xc3) t.emit(true);
    else if (m >= 0xc4 && m <= 0xc6) {
      const n = r.be(1 << (m - 0xc4));
      t.emit(Buffer.from(r.take(n)));
    } else if (m === 0xca) {
      r.need(4);
      const f = r.view.getFloat32(r.p);
      r.p += 4;
      t.emit(float(f, at));
    } else if (m === 0xcb) {
      r.need(8);
      const f = r.view.getFloat64(r.p);
      r.p += 8;
      t.emit(float(f, at));
    } else if (m >= 0xcc && m <= 0xcf) {
      t.emit(int(m === 0xcf ? r.be64() : r.be(1 << (m - 0xcc))));
    } else if (m >= 0xd0 && m <= 0xd3) {
      const size = 1 << (m - 0xd0);
      if (size === 8) t.emit(int(BigInt.asIntN(64, r.be64())));
      else {
        const x = r.be(size);
        const bits = 8 * size;
        t.emit(int(x >= 2 ** (bits - 1) ? x - 2 ** bits : x));
      }
    } else if ((m >= 0x80 && m <= 0x9f) || (m >= 0xdc && m <= 0xdf)) {
      let isMap, n;
      if (m <= 0x8f) {
        isMap = true;
        n = m & 0x0f;
      } else if (m <= 0x9f) {
        isMap = false;
        n = m & 0x0f;
      } else if (m === 0xdc || m === 0xdd) {
        isMap = false;
        n = r.be(2 << (m - 0xdc));
      } else {
        isMap = true;
        n = r.be(2 << (m - 0xde));
      }
      t.open(isMap, r.count(n, isMap ? 2 : 1, at));
    } else if (m === 0xc1) throw new InputError(`byte 0xc1 at offset ${at} is never used in MessagePack`);
    else throw new InputError(`the ext type at offset ${at} is not in the data model`);
  }
  if (r.left() !== 0) throw new InputError(`trailing bytes after the document at offset ${r.p}`);
  return t.finish();
}

// --- CBOR (RFC 8949) ----------------------------------------------------------------------------------

function f16(h) {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  let mag;
  if (exp === 0) mag = mant * 2 ** -24;
  else if (exp === 31) mag = mant === 0 ? Infinity : NaN;
  else mag = (mant + 1024) * 2 ** (exp - 25);
  return h & 0x8000 ? -mag : mag;
}

/** The argument of a head: [value (number, or BigInt for 8 bytes), definite]. */
function cborArg(r, ai, at) {
  if (ai <= 23) return [ai, true];
  if (ai <= 26) return [r.be(1 << (ai - 24)), true];
  if (ai === 27) return [r.be64(), true];
  if (ai === 31) return [0, false];
  throw new InputError(`reserved additional information ${ai} at offset ${at}`);
}

function cborLen(v, at) {
  if (typeof v === "bigint") {
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new InputError(`the length ${v} at offset ${at} is larger than the input`);
    return Number(v);
  }
  return v;
}

function cborString(r, major, n, definite, at) {
  const chunk = (len) => {
    const cAt = r.p;
    const b = r.take(cborLen(len, cAt));
    if (major === 3) text(b, cAt);
    return b;
  };
  if (definite) return Buffer.from(chunk(n));
  const parts = [];
  let total = 0;
  for (;;) {
    const cAt = r.p;
    const ib = r.u8();
    if (ib === 0xff) break;
    if (ib >> 5 !== major)
      throw new InputError(`chunk of another type at offset ${cAt} in the indefinite string at ${at}`);
    const [len, def] = cborArg(r, ib & 31, cAt);
    if (!def) throw new InputError(`nested indefinite string at offset ${cAt}`);
    const b = chunk(len);
    parts.push(b);
    total += b.length;
  }
  const out = Buffer.alloc(total);
  let o = 0;
  for (const b of parts) {
    out.set(b, o);
    o += b.length;
  }
  return out;
}

function decodeCBOR(d) {
  const r = new Reader(d);
  const t = new Tree();
  while (!t.done) {
    const at = r.p;
    const ib = r.u8();
    if (ib === 0xff) {
      const n = t.stack.length;
      if (n === 0 || t.stack[n - 1].left >= 0 || t.stack[n - 1].hasKey)
        throw new InputError(`unexpected break at offset ${at}`);
      t.closeTop();
      continue;
    }
    const major = ib >> 5,
      ai = ib & 31;
    const [arg, definite] = cborArg(r, ai, at);
    if (major === 3) {
      const s = text(cborString(r, 3, arg, definite, at), at);
      if (t.expectsKey()) t.setKey(s);
      else t.emit(s);
      continue;
    }
    if (t.expectsKey()) throw new InputError(`the map key at offset ${at} is not a string`);
    const needDef = (what) => {
      if (!definite) throw new InputError(`${what} at offset ${at} cannot have an indefinite length`);
    };
    switch (major) {
      case 0:
        needDef("an integer");
        t.emit(int(arg));
        break;
      case 1: {
        needDef("an integer");
        const v = -1n - BigInt(arg);
        if (v < I64_MIN) throw new InputError(`the integer at offset ${at} is below INT64_MIN`);
        t.emit(int(v));
        break;
      }
      case 2:
        t.emit(cborString(r, 2, arg, definite, at));
        break;
      case 4:
      case 5: {
        const isMap = major === 5;
        let n = -1;
        if (definite) n = r.count(cborLen(arg, at), isMap ? 2 : 1, at);
        t.open(isMap, n);
        break;
      }
      case 6:
        throw new InputError(`the tag at offset ${at} is not in the data model`);
      default:
        switch (ai) {
          case 20:
            t.emit(false);
            break;
          case 21:
            t.emit(true);
            break;
          case 22:
            t.emit(null);
            break;
          case 25:
            t.emit(float(f16(arg), at));
            break;
          case 26: {
            const dv = new DataView(new ArrayBuffer(4));
            dv.setUint32(0, arg);
            t.emit(float(dv.getFloat32(0), at));
            break;
          }
          case 27: {
            const dv = new DataView(new ArrayBuffer(8));
            dv.setBigUint64(0, arg);
            t.emit(float(dv.getFloat64(0), at));
            break;
          }
          case 23:
            throw new InputError(`undefined at offset ${at} is not in the data model`);
          default:
            if (!definite) throw new InputError(`unexpected break at offset ${at}`);
            throw new InputError(`the simple value at offset ${at} is not in the data model`);
        }
    }
  }
  if (r.left() !== 0) throw new InputError(`trailing bytes after the document at offset ${r.p}`);
  return t.finish();
}

// --- BSON 1.1 -----------------------------------------------------------------------------------------

const BSON_NAMES = {
  0x06: "undefined",
  0x07: "ObjectId",
  0x09: "UTC datetime",
  0x0b: "regex",
  0x0c: "DBPointer",
  0x0d: "JavaScript code",
  0x0e: "symbol",
  0x0f: "code with scope",
  0x11: "timestamp",
  0x13: "decimal128",
  0x7f: "max key",
  0xff: "min key",
};

function bsonTypeName(ty) {
  const h = ty.toString(16).padStart(2, "0");
  return BSON_NAMES[ty] ? `BSON type ${BSON_NAMES[ty]} (0x${h})` : `unknown BSON type 0x${h}`;
}

function decodeBSON(d) {
  if (d.length < 5) throw new InputError(`truncated: a BSON document is at least 5 bytes, the input has ${d.length}`);
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const n0 = view.getInt32(0, true);
  if (n0 < 5 || n0 !== d.length)
    throw new InputError(
      `the document length field says ${n0} (as unsigned ${n0 >>> 0}), the input has ${d.length} bytes`,
    );
  const t = new Tree();
  const docs = [{ end: d.length - 1, index: -1 }];
  t.open(true, -1);
  let p = 4;
  while (docs.length > 0) {
    const dc = docs[docs.length - 1];
    const end = dc.end;
    const at = p;
    const ty = d[p];
    if (ty === 0) {
      if (p !== end)
        throw new InputError(`document terminator at offset ${p}, but its length field puts the end at offset ${end}`);
      p++;
      docs.pop();
      t.closeTop();
      continue;
    }
    if (p === end) throw new InputError(`the document ending at offset ${end} is not terminated by 0x00`);
    const k0 = p + 1;
    const nul = d.indexOf(0, k0);
    if (nul < 0 || nul >= end) throw new InputError(`the key at offset ${k0} runs past the end of its document`);
    const keyBytes = d.subarray(k0, nul);
    if (dc.index >= 0) {
      if (latin1.decode(keyBytes) !== String(dc.index))
        throw new InputError(`array key at offset ${k0} is not the index ${dc.index}`);
      dc.index++;
    } else t.setKey(text(keyBytes, k0));
    p = nul + 1;
    const room = end - p;
    const need = (n) => {
      if (n > room)
        throw new InputError(`truncated: the value at offset ${p} needs ${n} bytes, its document has ${room} left`);
    };
    switch (ty) {
      case 0x01:
        need(8);
        t.emit(float(view.getFloat64(p, true), p));
        p += 8;
        break;
      case 0x02: {
        need(4);
        const n = view.getInt32(p, true);
        if (n < 1) throw new InputError(`the string length ${n} at offset ${p} is invalid (at least 1, for its 0x00)`);
        need(4 + n);
        const s = d.subarray(p + 4, p + 4 + n);
        if (s[n - 1] !== 0) throw new InputError(`the string at offset ${p} is not terminated by 0x00`);
        t.emit(text(s.subarray(0, n - 1), p));
        p += 4 + n;
        break;
      }
      case 0x03:
      case 0x04: {
        need(4);
        const n = view.getInt32(p, true);
        if (n < 5) throw new InputError(`the document length ${n} at offset ${p} is invalid (at least 5)`);
        need(n);
        const array = ty === 0x04;
        docs.push({ end: p + n - 1, index: array ? 0 : -1 });
        t.open(!array, -1);
        p += 4;
        break;
      }
      case 0x05: {
        need(5);
        const n = view.getInt32(p, true);
        if (n < 0) throw new InputError(`the binary length ${n} at offset ${p} is negative`);
        need(5 + n);
        let b = d.subarray(p + 5, p + 5 + n);
        if (d[p + 4] === 0x02) {
          if (b.length < 4)
            throw new InputError(
              `the old binary (subtype 0x02) at offset ${p} has ${b.length} bytes, too few for its int32 inner length`,
            );
          const inner = view.getInt32(p + 5, true);
          if (inner !== b.length - 4)
            throw new InputError(
              `the old binary (subtype 0x02) at offset ${p} says its inner length is ${inner}, but it holds ${b.length - 4} bytes after it`,
            );
          b = b.subarray(4);
        }
        t.emit(Buffer.from(b));
        p += 5 + n;
        break;
      }
      case 0x08:
        need(1);
        if (d[p] > 1) throw new InputError(`boolean byte 0x${d[p].toString(16)} at offset ${p} is neither 0 nor 1`);
        t.emit(d[p] === 1);
        p++;
        break;
      case 0x0a:
        t.emit(null);
        break;
      case 0x10:
        need(4);
        t.emit(view.getInt32(p, true));
        p += 4;
        break;
      case 0x12:
        need(8);
        t.emit(int(view.getBigInt64(p, true)));
        p += 8;
        break;
      default:
        throw new InputError(`${bsonTypeName(ty)} at offset ${at} is not in the data model`);
    }
  }
  return t.finish();
}

// --- UBJSON (Draft 12) --------------------------------------------------------------------------------

// the integer markers: [byte count, signed]
const UB_INT = { 0x69: [1, true], 0x55: [1, false], 0x49: [2, true], 0x6c: [4, true], 0x4c: [8, true] };

function ubInt(r, m) {
  const [size, signed] = UB_INT[m];
  r.need(size);
  let v;
  if (size === 1) v = signed ? r.view.getInt8(r.p) : r.view.getUint8(r.p);
  else if (size === 2) v = r.view.getInt16(r.p);
  else if (size === 4) v = r.view.getInt32(r.p);
  else v = r.view.getBigInt64(r.p);
  v = int(v);
  r.p += size;
  return v;
}

function ubLength(r, at) {
  const m = r.u8();
  if (!UB_INT[m]) throw new InputError(`a length at offset ${at} must be an integer, not marker 0x${m.toString(16)}`);
  const v = ubInt(r, m);
  if (typeof v === "bigint" || v < 0) throw new InputError(`the length ${v} at offset ${at} is negative or too large`);
  return v;
}

function ubString(r, at) {
  const n = ubLength(r, at);
  return r.utf8(n);
}

function ubHighPrecision(r, at) {
  const s = ubString(r, at);
  const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.exec(s);
  if (!m) throw new InputError(`the high-precision number at offset ${at} is not a JSON number`);
  const enc = new TextEncoder().encode(s);
  const [v] = jsonNumber(enc, 0);
  return v;
}

/** One value of marker m (not a container, not a no-op); the reader is after the marker. */
function ubScalar(r, m, at) {
  switch (m) {
    case 0x5a:
      return null;
    case 0x54:
      return true;
    case 0x46:
      return false;
    case 0x64: {
      r.need(4);
      const f = r.view.getFloat32(r.p);
      r.p += 4;
      return float(f, at);
    }
    case 0x44: {
      r.need(8);
      const f = r.view.getFloat64(r.p);
      r.p += 8;
      return float(f, at);
    }
    case 0x43: {
      const c = r.u8();
      if (c > 0x7f) throw new InputError(`the char at offset ${at} is not ASCII`);
      return String.fromCharCode(c);
    }
    case 0x53:
      return ubString(r, at);
    case 0x48:
      return ubHighPrecision(r, at);
  }
  if (UB_INT[m]) return ubInt(r, m);
  throw new InputError(`unknown UBJSON marker 0x${m.toString(16)} at offset ${at}`);
}

const UB_VALUE_MIN = {
  0x5a: 0,
  0x54: 0,
  0x46: 0,
  0x69: 1,
  0x55: 1,
  0x49: 2,
  0x6c: 4,
  0x4c: 8,
  0x64: 4,
  0x44: 8,
  0x43: 1,
};

function decodeUBJSON(d) {
  const r = new Reader(d);
  const t = new Tree();
  // per open container: its element type marker (0: none) and count (-1: closed by a marker)
  const types = [];
  while (!t.done) {
    const top = t.stack.length - 1;
    const typed = top >= 0 ? types[top] : 0;
    const at = r.p;
    // a map key (no marker: a length, then the bytes)
    if (t.expectsKey()) {
      if (t.stack[top].left < 0) {
        r.need(1);
        if (d[r.p] === 0x4e) {
          r.p++;
          continue;
        }
        if (d[r.p] === 0x7d) {
          r.p++;
          t.closeTop();
          types.pop();
          continue;
        }
      }
      t.setKey(ubString(r, at));
      continue;
    }
    if (top >= 0 && t.stack[top].left < 0) {
      r.need(1);
      if (d[r.p] === 0x5d) {
        r.p++;
        t.closeTop();
        types.pop();
        continue;
      }
    }
    const m = typed ? typed : r.u8();
    if (!typed && m === 0x4e) {
      if (t.stack.length === 0) throw new InputError(`a no-op at offset ${at} before the root (the root is a map)`);
      continue; // a no-op
    }
    if (m === 0x5b || m === 0x7b) {
      const isMap = m === 0x7b;
      let ty = 0,
        n = -1;
      r.need(1);
      if (d[r.p] === 0x24) {
        r.p++;
        ty = r.u8();
        if (ty === 0x4e || ty === 0x5d || ty === 0x7d || ty === 0x24 || ty === 0x23)
          throw new InputError(`invalid container type marker at offset ${r.p - 1}`);
        r.need(1);
        if (d[r.p] !== 0x23) throw new InputError(`a typed container at offset ${at} needs a count`);
      }
      r.need(1);
      if (d[r.p] === 0x23) {
        r.p++;
        n = ubLength(r, r.p);
        const min = (isMap ? 2 : 0) + (ty ? (UB_VALUE_MIN[ty] ?? 1) : 1);
        if (n * Math.max(min, ty && UB_VALUE_MIN[ty] === 0 ? 0 : 1) > r.left() && !(ty && UB_VALUE_MIN[ty] === 0))
          throw new InputError(`the count ${n} at offset ${at} is larger than the ${r.left()} bytes left`);
        if (ty && UB_VALUE_MIN[ty] === 0 && n > 1e7)
          throw new InputError(`the count ${n} at offset ${at} is beyond the harness's limit`);
      }
      t.open(isMap, n);
      if (n !== 0) types.push(ty);
      continue;
    }
    if (m === 0x5d || m === 0x7d) throw new InputError(`unexpected close at offset ${at}`);
    t.emit(ubScalar(r, m, at));
    // emit may have closed counted containers: drop their type markers
    while (types.length > t.stack.length) types.pop();
  }
  if (r.left() !== 0) throw new InputError(`trailing bytes after the document at offset ${r.p}`);
  return t.finish();
}

// --- the application's object -------------------------------------------------------------------------

/** The object an application holds: the tree with every F64 a plain number (the same tree when it
 * has none). Iterative. */
export function toApp(root) {
  let has = false;
  const todo = [root];
  while (todo.length > 0 && !has) {
    const v = todo.pop();
    if (v instanceof F64) has = true;
    else if (Array.isArray(v)) for (const x of v) todo.push(x);
    else if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) for (const k in v) todo.push(v[k]);
  }
  if (!has) return root;
  const conv = (v) => (v instanceof F64 ? v.v : v);
  const todo2 = [root];
  while (todo2.length > 0) {
    const v = todo2.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        v[i] = conv(v[i]);
        if (v[i] !== null && typeof v[i] === "object") todo2.push(v[i]);
      }
    } else if (v !== null && typeof v === "object" && !(v instanceof Uint8Array)) {
      for (const k in v) {
        v[k] = conv(v[k]);
        if (v[k] !== null && typeof v[k] === "object") todo2.push(v[k]);
      }
    }
  }
  return root;
}
