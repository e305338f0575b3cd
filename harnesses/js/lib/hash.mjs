import fs from "node:fs";

// The object hash of spec/hash.md (version 2) in JavaScript, with no BigInt on its paths: a 64-bit
// value is two unsigned 32-bit halves (hi, lo), and a function that returns one sets the module's
// R[0] and R[1] (a pair of module variables, which V8 keeps unboxed; returning an object would allocate).
//
// Three forms: hashValue (the tree form over what a library decoded: a recursive walk with a depth
// bound, a type switch per value), StreamHasher (the streaming form, fed by parse events), and Flat
// (the harness's own object flattened into typed arrays, walked without a type switch: the
// hash-object and hash-events baselines, spec/fairness.md rule 5).

export class LimitError extends Error {} // beyond a limit of the harness's own code: exit 6
export class ModelError extends Error {} // a library gave back a value outside the data model: exit 3

/** A float64 whose value is also a safe integer (1.0, 0.0): the reference decoder's exact form of it,
 * where a plain number would read as an integer. JavaScript has one number type, so a library gives
 * such a float back as a number, which the tree walk hashes as an integer (known-deviations.json). */
export class F64 {
  constructor(v) {
    this.v = v;
  }
}

// the WebAssembly half of the hash (wasm/mum.wasm, from wasm/mum.wat by the pinned wabt:
// regen-schemas.sh), loaded synchronously; R and M are views of its one fixed page of memory
const WASM = new WebAssembly.Instance(
  new WebAssembly.Module(fs.readFileSync(new URL("../wasm/mum.wasm", import.meta.url))),
  {},
);

const M32 = 0x100000000;
// 2^64 / golden ratio and wyhash's secrets, as halves
const K = [0x9e3779b9, 0x7f4a7c15];
const P0H = 0xa0761d64,
  P0L = 0x78bd642f;
const P1H = 0xe7037ed1,
  P1L = 0xa0b428db;
const P2H = 0x8ebc6af0,
  P2L = 0x9c88c6e3;
const P3H = 0x589965cc,
  P3L = 0x75374cc3;

export const TAG = { NULL: 1, BOOL: 2, UINT: 3, NEGINT: 4, FLOAT: 5, STRING: 6, BINARY: 7, ARRAY: 8, MAP: 9 };

/** The result of every function that computes a 64-bit hash: R[0] its high half, R[1] its low half.
 * A typed array, so storing a half allocates nothing (a module `let` holding a value above 2^31 is
 * a heap number in V8, one allocation per store). */
export const R = new Uint32Array(WASM.exports.memory.buffer, 0, 2);

// wyhash's mum: the 128-bit product of (ah:al) and (bh:bl), low half XOR high half, into R.
export const M = new Uint32Array(WASM.exports.memory.buffer, 8, 4);

/** mum over M into R, in WebAssembly (wasm/mum.wat: one 64-bit multiply per 32-bit partial product;
 * 4-7 ns a call on Node here against 12-18 ns for the JavaScript below, and 2.5 against 40 on Bun). */
export const mum4 = WASM.exports.mum;

/** mum over M (the operands' halves: M[0]:M[1] and M[2]:M[3]), into R. Operands and result pass
 * through typed arrays because a function's numeric arguments above 2^30 are heap numbers in V8 (a
 * Smi has 31 bits): four allocations a call where it is not inlined. */
export function mum4js() {
  const ah = M[0],
    al = M[1],
    bh = M[2],
    bl = M[3];
  // al * bl
  let a0 = al & 0xffff,
    a1 = al >>> 16,
    b0 = bl & 0xffff,
    b1 = bl >>> 16;
  let t = a0 * b0,
    m1 = a1 * b0,
    m2 = a0 * b1;
  let mid = (t >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
  const w0 = ((mid << 16) | (t & 0xffff)) >>> 0;
  const p0h = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + (mid >>> 16);
  // al * bh
  b0 = bh & 0xffff;
  b1 = bh >>> 16;
  t = a0 * b0;
  m1 = a1 * b0;
  m2 = a0 * b1;
  mid = (t >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
  const p1l = ((mid << 16) | (t & 0xffff)) >>> 0;
  const p1h = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + (mid >>> 16);
  // ah * bh
  a0 = ah & 0xffff;
  a1 = ah >>> 16;
  t = a0 * b0;
  m1 = a1 * b0;
  m2 = a0 * b1;
  mid = (t >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
  const p3l = ((mid << 16) | (t & 0xffff)) >>> 0;
  const p3h = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + (mid >>> 16);
  // ah * bl
  b0 = bl & 0xffff;
  b1 = bl >>> 16;
  t = a0 * b0;
  m1 = a1 * b0;
  m2 = a0 * b1;
  mid = (t >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
  const p2l = ((mid << 16) | (t & 0xffff)) >>> 0;
  const p2h = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + (mid >>> 16);
  const s1 = p0h + p1l + p2l; // < 3 * 2^32, exact in a double
  const s2 = p1h + p2h + p3l + Math.floor(s1 / M32);
  const w3 = p3h + Math.floor(s2 / M32);
  R[0] = s1 ^ w3; // the typed array keeps the low 32 bits
  R[1] = w0 ^ s2;
}

// S(t) = t * K, as halves, by tag
const SH = new Uint32Array(10);
const SL = new Uint32Array(10);
for (let t = 1; t <= 9; t++) {
  const s = BigInt.asUintN(64, BigInt(t) * ((BigInt(K[0]) << 32n) | BigInt(K[1])));
  SH[t] = Number(s >> 32n);
  SL[t] = Number(s & 0xffffffffn);
}
export const seedHi = (t) => SH[t];
export const seedLo = (t) => SL[t];

/** scalar(t, v) = mum(v ^ S(t), P0), into R[0]:R[1], with v's halves in M[0]:M[1]. */
export function scalarM(t) {
  M[0] ^= SH[t];
  M[1] ^= SL[t];
  M[2] = P0H;
  M[3] = P0L;
  mum4();
}

/** scalar(t, v) for callers outside the hot paths. */
export function scalar(t, vh, vl) {
  M[0] = vh;
  M[1] = vl;
  scalarM(t);
}

const f64 = new Float64Array(1);
const f64w = new Uint32Array(f64.buffer);

/** A float64's hash (its IEEE-754 bits). */
export function hashFloat(x) {
  f64[0] = x;
  ((M[0] = f64w[1]), (M[1] = f64w[0]), scalarM(TAG.FLOAT));
}

/** A safe integer's hash (int and uint are one number line). */
export function hashSafeInt(x) {
  if (x >= 0) ((M[0] = Math.floor(x / M32) >>> 0), (M[1] = x >>> 0), scalarM(TAG.UINT));
  else ((M[0] = Math.floor(x / M32) >>> 0), (M[1] = x >>> 0), scalarM(TAG.NEGINT));
}

/** A JavaScript number as the data model reads it: a safe integer other than -0 is an integer (a
 * library gives every integer it reads as a number within 2^53 and a BigInt beyond), anything else a
 * float64. An integral float within 2^53 therefore reads as an integer (F64 keeps it a float). */
export function hashNumber(x) {
  f64[0] = x;
  numberF();
}

/** hashNumber of f64[0]: the number passes through a Float64Array, since an unboxed double passed
 * to a call V8 does not inline becomes a heap number (16 bytes). */
function numberF() {
  const x = f64[0];
  if (Number.isSafeInteger(x) && !Object.is(x, -0)) {
    M[0] = Math.floor(x / M32);
    M[1] = x; // the store keeps x modulo 2^32 (two's complement for a negative x)
    scalarM(x >= 0 ? TAG.UINT : TAG.NEGINT);
  } else {
    M[0] = f64w[1];
    M[1] = f64w[0];
    scalarM(TAG.FLOAT);
  }
}

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

const u64 = new BigUint64Array(1);
const u64w = new Uint32Array(u64.buffer);

/** A BigInt within int64 or uint64: its two's-complement halves through a BigUint64Array (a store
 * there wraps modulo 2^64 and allocates nothing, where BigInt arithmetic makes new BigInts). */
export function hashBigInt(x) {
  if (x < I64_MIN || x > U64_MAX) throw new ModelError(`the integer ${x} is outside int64/uint64`);
  u64[0] = x;
  M[0] = u64w[1];
  M[1] = u64w[0];
  scalarM(x < 0n ? TAG.NEGINT : TAG.UINT);
}

// --- bytes --------------------------------------------------------------------------------------

// one scratch buffer for every string's UTF-8 and every binary: 16 zero bytes always follow the
// n bytes hashed, since words past n count as 0. It is the WebAssembly module's memory from byte 64
// (4 MiB in all, never grown), which `bytes` hashes there; a longer input (a write row's output of
// a size-5 document) goes to a JavaScript buffer of its own and is hashed by the JavaScript loop.
const WASM_SCRATCH = Buffer.from(WASM.exports.memory.buffer, 64, WASM.exports.memory.buffer.byteLength - 64);
const wasmBytes = WASM.exports.bytes;
let scratch = WASM_SCRATCH;
let scratch32 = new Uint32Array(scratch.buffer, scratch.byteOffset, scratch.length >>> 2);
let big = Buffer.alloc(0);

function room(n) {
  if (n + 32 <= WASM_SCRATCH.length) {
    if (scratch !== WASM_SCRATCH) {
      scratch = WASM_SCRATCH;
      scratch32 = new Uint32Array(scratch.buffer, scratch.byteOffset, scratch.length >>> 2);
    }
    return;
  }
  if (big.length < n + 32) {
    let size = Math.max(big.length, 1 << 16);
    while (size < n + 32) size *= 2;
    big = Buffer.alloc(size);
  }
  scratch = big;
  scratch32 = new Uint32Array(scratch.buffer, scratch.byteOffset, scratch.length >>> 2);
}

/** bytes(seed, scratch[0..n)), into R[0]:R[1]; the caller has zeroed scratch[n..n+16). */
function hashScratch(t, n) {
  if (scratch === WASM_SCRATCH) {
    wasmBytes(SH[t], SL[t], n);
    return;
  }
  hashScratchJS(t, n);
}

/** hashScratch in JavaScript: the inputs beyond the WebAssembly scratch, and the test's reference. */
export function hashScratchJS(t, n) {
  let ah = (SH[t] ^ Math.floor(n / M32)) >>> 0;
  let al = (SL[t] ^ n) >>> 0;
  let ch = 0,
    cl = 0;
  let i = 0;
  const w = scratch32;
  while (n - i >= 32) {
    const j = i >>> 2;
    ((M[0] = w[j + 1] ^ P1H), (M[1] = w[j] ^ P1L), (M[2] = w[j + 3] ^ ah ^ P2H), (M[3] = w[j + 2] ^ al ^ P2L), mum4());
    ah = R[0];
    al = R[1];
    ((M[0] = w[j + 5] ^ P3H),
      (M[1] = w[j + 4] ^ P3L),
      (M[2] = w[j + 7] ^ ch ^ P0H),
      (M[3] = w[j + 6] ^ cl ^ P0L),
      mum4());
    ch = R[0];
    cl = R[1];
    i += 32;
  }
  while (i < n) {
    const j = i >>> 2;
    ((M[0] = w[j + 1] ^ P1H), (M[1] = w[j] ^ P1L), (M[2] = w[j + 3] ^ ah ^ P2H), (M[3] = w[j + 2] ^ al ^ P2L), mum4());
    ah = R[0];
    al = R[1];
    i += 16;
  }
  R[0] = ah ^ ch;
  R[1] = al ^ cl;
}

function zeroTail(n) {
  // 16 zero bytes after n (the last 16-byte block is read whole)
  scratch32[n >>> 2] &= n & 3 ? (1 << (8 * (n & 3))) - 1 : 0;
  const j = (n >>> 2) + 1;
  scratch32[j] = 0;
  scratch32[j + 1] = 0;
  scratch32[j + 2] = 0;
  scratch32[j + 3] = 0;
}

/** A string's hash: its UTF-8 bytes (Buffer.write into the scratch buffer, which returns the byte
 * count and allocates nothing, where TextEncoder.encodeInto returns an object). A string with a lone
 * surrogate has no UTF-8 form: it is outside the data model (ModelError). */
export function hashString(s) {
  const len = s.length;
  room(len * 3);
  let n = 0;
  if (len <= SHORT) {
    // a short string is copied by a loop while it is ASCII (a call into C++ costs more than the
    // copy); a non-ASCII character hands the whole string to Buffer.write
    const b = scratch;
    for (; n < len; n++) {
      const c = s.charCodeAt(n);
      if (c >= 0x80) break;
      b[n] = c;
    }
  }
  if (n !== len) {
    n = scratch.write(s, 0, "utf8");
    if (n !== len && !s.isWellFormed()) throw new ModelError("a string with a lone surrogate (not UTF-8)");
  }
  zeroTail(n);
  hashScratch(TAG.STRING, n);
}

/** Strings up to this length are copied by hashString's own loop while they are ASCII. */
const SHORT = 32;

/** A binary's hash (any typed array view: its bytes). */
export function hashBinary(b) {
  const n = b.byteLength;
  room(n);
  scratch.set(b instanceof Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, n));
  zeroTail(n);
  hashScratch(TAG.BINARY, n);
}

/** hashBinary by the JavaScript loop alone, whatever the length (the test's reference). */
export function hashBinaryJS(b) {
  const n = b.byteLength;
  if (big.length < n + 32) big = Buffer.alloc(Math.max(n + 32, 1 << 16));
  const saved = scratch;
  scratch = big;
  scratch32 = new Uint32Array(big.buffer, big.byteOffset, big.length >>> 2);
  scratch.set(b instanceof Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, n));
  zeroTail(n);
  hashScratchJS(TAG.BINARY, n);
  scratch = saved;
  scratch32 = new Uint32Array(saved.buffer, saved.byteOffset, saved.length >>> 2);
}

/** bytes(S(BINARY), b) over a byte array (a write row's output, hash-data's input): the same words. */
export function hashBytes(b) {
  hashBinary(b);
}

// --- the tree form over a library's values --------------------------------------------------------

/** How deep the recursive tree walk goes before it hands the subtree to the iterative walk
 * (deepWalk): recursion is the fast path (for-in over an object allocates nothing), the iterative walk
 * takes any depth on the heap, so no input overflows the harness's stack. */
export const MAX_DEPTH = 1000;

/** The tree form over a value as libraries give it: null, boolean, number, bigint, string, a typed
 * array (binary), an F64, an array, a Map with string keys, or an object (its own enumerable keys).
 * Into R[0]:R[1]. Anything else is outside the data model (ModelError). */
export function hashValue(v) {
  walk(v, 0);
}

function walk(v, depth) {
  switch (typeof v) {
    case "number":
      hashNumber(v);
      return;
    case "string":
      hashString(v);
      return;
    case "boolean":
      ((M[0] = 0), (M[1] = v ? 1 : 0), scalarM(TAG.BOOL));
      return;
    case "bigint":
      hashBigInt(v);
      return;
    case "object":
      break;
    default:
      throw new ModelError(`a value of type ${typeof v} is not in the data model`);
  }
  if (v === null) {
    ((M[0] = 0), (M[1] = 0), scalarM(TAG.NULL));
    return;
  }
  if (depth >= MAX_DEPTH) {
    deepWalk(v);
    return;
  }
  if (Array.isArray(v)) {
    let sh = 0,
      sl = 0;
    const n = v.length;
    for (let i = 0; i < n; i++) {
      const x = v[i];
      // a number is hashed here, not passed to the recursive walk: an unboxed double (an array of
      // doubles) passed to a call that cannot be inlined becomes a heap number, 16 bytes a value
      if (typeof x === "number") {
        f64[0] = x;
        numberF();
      } else walk(x, depth + 1);
      ((M[0] = R[0] ^ P1H), (M[1] = R[1] ^ P1L), (M[2] = P2H), (M[3] = i ^ P2L), mum4());
      const lo = sl + R[1];
      sl = lo >>> 0;
      sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
    }
    ((M[0] = sh ^ SH[TAG.ARRAY]), (M[1] = sl ^ SL[TAG.ARRAY]), (M[2] = P3H), (M[3] = n ^ P3L), mum4());
    return;
  }
  if (ArrayBuffer.isView(v)) {
    hashBinary(v);
    return;
  }
  if (v instanceof F64) {
    hashFloat(v.v);
    return;
  }
  let sh = 0,
    sl = 0,
    n = 0;
  if (v instanceof Map) {
    for (const [k, x] of v) {
      if (typeof k !== "string") throw new ModelError(`a map key of type ${typeof k} (keys are strings)`);
      entry(k, x, depth);
      const lo = sl + R[1];
      sl = lo >>> 0;
      sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
      n++;
    }
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      const name = v.constructor && v.constructor.name ? v.constructor.name : "an object";
      throw new ModelError(`a value of class ${name} is not in the data model`);
    }
    for (const k in v) {
      hashString(k);
      const kh = R[0],
        kl = R[1];
      const x = v[k];
      if (typeof x === "number") {
        f64[0] = x;
        numberF();
      } else walk(x, depth + 1);
      ((M[0] = kh ^ P3H), (M[1] = kl ^ P3L), (M[2] = R[0] ^ P0H), (M[3] = R[1] ^ P0L), mum4());
      const lo = sl + R[1];
      sl = lo >>> 0;
      sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
      n++;
    }
  }
  ((M[0] = sh ^ SH[TAG.MAP]), (M[1] = sl ^ SL[TAG.MAP]), (M[2] = P3H), (M[3] = n ^ P3L), mum4());
}

/** One map entry's term, mum(hash(k) ^ P3, hash(v) ^ P0), into R[0]:R[1]. */
function entry(k, x, depth) {
  hashString(k);
  const kh = R[0],
    kl = R[1];
  if (typeof x === "number") {
    f64[0] = x;
    numberF();
  } else walk(x, depth + 1);
  ((M[0] = kh ^ P3H), (M[1] = kl ^ P3L), (M[2] = R[0] ^ P0H), (M[3] = R[1] ^ P0L), mum4());
}

/** The tree form with an explicit stack on the heap, for a subtree deeper than MAX_DEPTH: each
 * frame holds its container, its keys (a map's, from Object.keys or the Map), the next index and
 * the running sum; leaves are hashed as walk hashes them. */
function deepWalk(root) {
  const frames = [];
  let v = root;
  for (;;) {
    // descend into v: a container opens a frame, a leaf leaves its hash in R
    if (v !== null && typeof v === "object" && !ArrayBuffer.isView(v) && !(v instanceof F64)) {
      let keys = null,
        vals;
      if (Array.isArray(v)) vals = v;
      else if (v instanceof Map) {
        keys = [];
        vals = [];
        for (const [k, x] of v) {
          if (typeof k !== "string") throw new ModelError(`a map key of type ${typeof k} (keys are strings)`);
          keys.push(k);
          vals.push(x);
        }
      } else {
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null)
          throw new ModelError("a value of a class is not in the data model");
        keys = Object.keys(v);
        vals = keys.map((k) => v[k]);
      }
      frames.push({ keys, vals, i: 0, sh: 0, sl: 0, kh: 0, kl: 0 });
    } else {
      walk(v, 0);
      if (frames.length === 0) return;
      add(frames[frames.length - 1]);
    }
    // the next value to descend into, closing the frames that are complete
    for (;;) {
      const f = frames[frames.length - 1];
      if (f.i < f.vals.length) {
        if (f.keys !== null) {
          hashString(f.keys[f.i]);
          f.kh = R[0];
          f.kl = R[1];
        }
        v = f.vals[f.i];
        break;
      }
      const n = f.vals.length;
      const t = f.keys !== null ? TAG.MAP : TAG.ARRAY;
      ((M[0] = f.sh ^ SH[t]), (M[1] = f.sl ^ SL[t]), (M[2] = P3H), (M[3] = n ^ P3L), mum4());
      frames.pop();
      if (frames.length === 0) return;
      add(frames[frames.length - 1]);
    }
  }
}

/** Adds the finished value in R to frame f (its element i, or its entry under its pending key). */
function add(f) {
  if (f.keys !== null) ((M[0] = f.kh ^ P3H), (M[1] = f.kl ^ P3L), (M[2] = R[0] ^ P0H), (M[3] = R[1] ^ P0L), mum4());
  else ((M[0] = R[0] ^ P1H), (M[1] = R[1] ^ P1L), (M[2] = P2H), (M[3] = f.i ^ P2L), mum4());
  const lo = f.sl + R[1];
  f.sl = lo >>> 0;
  f.sh = (f.sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
  f.i++;
}

/** 16 lowercase hex digits of R[0]:R[1] (or of the given halves). */
export function hex(h = R[0], l = R[1]) {
  return h.toString(16).padStart(8, "0") + l.toString(16).padStart(8, "0");
}

/** The hash of a value as 16 hex digits. */
export function hashHex(v) {
  hashValue(v);
  return hex();
}

/** R[0]:R[1] folded into a number for the sink (never 0-cost to compute, never dropped). */
export function sinkValue() {
  return (R[0] ^ R[1]) & 0x3fffffff;
}

// --- the streaming form --------------------------------------------------------------------------

/** The streaming form (spec/hash.md): a stack of frames, an array frame (sum, n) or a map frame
 * (sum, n, pending key), in typed arrays that grow and are kept, so a reused hasher allocates
 * nothing. Feed scalars, strings, keys and container starts and ends in document order; `done()`
 * tells that the root was closed and `result()` sets R[0]:R[1] to its hash. */
export class StreamHasher {
  constructor() {
    this.cap = 16;
    this.isMap = new Uint8Array(16);
    this.sh = new Uint32Array(16);
    this.sl = new Uint32Array(16);
    this.n = new Float64Array(16);
    this.kh = new Uint32Array(16);
    this.kl = new Uint32Array(16);
    this.reset();
  }
  reset() {
    this.depth = 0;
    this.rh = 0;
    this.rl = 0;
    this.finished = false;
  }
  grow() {
    const cap = this.cap * 2;
    for (const f of ["isMap", "sh", "sl", "n", "kh", "kl"]) {
      const a = new this[f].constructor(cap);
      a.set(this[f]);
      this[f] = a;
    }
    this.cap = cap;
  }
  /** Feeds the hash in R[0]:R[1] to the open frame (or makes it the root's). */
  feed() {
    const d = this.depth;
    if (d === 0) {
      this.rh = R[0];
      this.rl = R[1];
      this.finished = true;
      return;
    }
    const i = d - 1;
    if (this.isMap[i] === 1)
      ((M[0] = this.kh[i] ^ P3H), (M[1] = this.kl[i] ^ P3L), (M[2] = R[0] ^ P0H), (M[3] = R[1] ^ P0L), mum4());
    else {
      const n = this.n[i];
      ((M[0] = R[0] ^ P1H), (M[1] = R[1] ^ P1L), (M[2] = Math.floor(n / M32) ^ P2H), (M[3] = n ^ P2L), mum4());
    }
    const lo = this.sl[i] + R[1];
    this.sl[i] = lo;
    this.sh[i] = this.sh[i] + R[0] + (lo >= M32 ? 1 : 0);
    this.n[i]++;
  }
  null() {
    ((M[0] = 0), (M[1] = 0), scalarM(TAG.NULL));
    this.feed();
  }
  bool(b) {
    ((M[0] = 0), (M[1] = b ? 1 : 0), scalarM(TAG.BOOL));
    this.feed();
  }
  number(x) {
    hashNumber(x);
    this.feed();
  }
  float(x) {
    hashFloat(x);
    this.feed();
  }
  bigint(x) {
    hashBigInt(x);
    this.feed();
  }
  /** A value as a library gives it (a scalar of any JS type, or F64): hashed with the tree rules. */
  value(v) {
    hashValue(v);
    this.feed();
  }
  string(s) {
    hashString(s);
    this.feed();
  }
  binary(b) {
    hashBinary(b);
    this.feed();
  }
  key(s) {
    hashString(s);
    const i = this.depth - 1;
    this.kh[i] = R[0];
    this.kl[i] = R[1];
  }
  start(isMap) {
    if (this.depth === this.cap) this.grow();
    const i = this.depth++;
    this.isMap[i] = isMap ? 1 : 0;
    this.sh[i] = 0;
    this.sl[i] = 0;
    this.n[i] = 0;
  }
  startArray() {
    this.start(false);
  }
  startMap() {
    this.start(true);
  }
  end() {
    const i = --this.depth;
    const t = this.isMap[i] === 1 ? TAG.MAP : TAG.ARRAY;
    const n = this.n[i];
    ((M[0] = this.sh[i] ^ SH[t]),
      (M[1] = this.sl[i] ^ SL[t]),
      (M[2] = Math.floor(n / M32) ^ P3H),
      (M[3] = n ^ P3L),
      mum4());
    this.feed();
  }
  done() {
    return this.finished && this.depth === 0;
  }
  result() {
    R[0] = this.rh;
    R[1] = this.rl;
  }
}

// --- the flat form: the harness's own object for the baselines ------------------------------------

const K_SCALAR = 0,
  K_STRING = 1,
  K_BINARY = 2,
  K_ARRAY = 3,
  K_MAP = 4;

/** The harness's object (the reference decoder's tree) as a flat pre-order array of nodes: a
 * container's children follow it, a map's entries are (key, value) pairs. A scalar node holds its
 * payload halves and its seed's tag, so hashing it is one mum with no type switch (the seed table);
 * a string node the JS string, which is encoded to UTF-8 and hashed as every row's strings are. The
 * same layout as the Go harness's hash.Flat. Flattening is iterative: any depth costs heap. */
export class Flat {
  constructor(root) {
    const kinds = [];
    const a = [];
    const b = [];
    const refs = [];
    let maxDepth = 0;
    // what is left to write, last first: [value, depth, isKey]
    const todo = [[root, 1, false]];
    while (todo.length > 0) {
      const [v, depth, isKey] = todo.pop();
      if (isKey || typeof v === "string") {
        kinds.push(K_STRING);
        a.push(0);
        b.push(0);
        refs.push(v);
        continue;
      }
      if (v === null) {
        kinds.push(K_SCALAR);
        a.push(0);
        b.push(0);
        refs.push(TAG.NULL);
      } else if (typeof v === "boolean") {
        kinds.push(K_SCALAR);
        a.push(0);
        b.push(v ? 1 : 0);
        refs.push(TAG.BOOL);
      } else if (typeof v === "number" || typeof v === "bigint" || v instanceof F64) {
        if (typeof v === "number" && Number.isSafeInteger(v) && !Object.is(v, -0)) hashHalvesInt(v);
        else if (typeof v === "bigint") {
          const u = BigInt.asUintN(64, v);
          FH = Number(u >> 32n);
          FL = Number(u & 0xffffffffn);
          FT = v < 0n ? TAG.NEGINT : TAG.UINT;
        } else {
          f64[0] = typeof v === "number" ? v : v.v;
          FH = f64w[1];
          FL = f64w[0];
          FT = TAG.FLOAT;
        }
        kinds.push(K_SCALAR);
        a.push(FH);
        b.push(FL);
        refs.push(FT);
      } else if (ArrayBuffer.isView(v)) {
        kinds.push(K_BINARY);
        a.push(0);
        b.push(0);
        refs.push(v);
      } else if (Array.isArray(v)) {
        kinds.push(K_ARRAY);
        a.push(v.length);
        b.push(0);
        refs.push(null);
        maxDepth = Math.max(maxDepth, depth);
        for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], depth + 1, false]);
      } else {
        const keys = Object.keys(v);
        kinds.push(K_MAP);
        a.push(keys.length);
        b.push(0);
        refs.push(null);
        maxDepth = Math.max(maxDepth, depth);
        for (let i = keys.length - 1; i >= 0; i--) {
          todo.push([v[keys[i]], depth + 1, false]);
          todo.push([keys[i], depth + 1, true]);
        }
      }
    }
    this.kinds = Uint8Array.from(kinds);
    this.a = Uint32Array.from(a);
    this.b = Uint32Array.from(b);
    this.refs = refs;
    this.tags = Uint8Array.from(refs.map((r) => (typeof r === "number" ? r : 0)));
    this.maxDepth = maxDepth;
    const cap = maxDepth + 1;
    // the walk's stack, made once and reused by every operation
    this.left = new Float64Array(cap);
    this.isMap = new Uint8Array(cap);
    this.sh = new Uint32Array(cap);
    this.sl = new Uint32Array(cap);
    this.idx = new Float64Array(cap);
    this.cnt = new Float64Array(cap);
    this.kh = new Uint32Array(cap);
    this.kl = new Uint32Array(cap);
    this.keyNext = new Uint8Array(cap);
    this.stream = new StreamHasher();
  }

  /** The tree form over the flat nodes (hash-object): into R[0]:R[1], and returns a sink value. */
  hash() {
    const kinds = this.kinds,
      A = this.a,
      B = this.b,
      refs = this.refs,
      tags = this.tags;
    const left = this.left,
      isMap = this.isMap,
      sh = this.sh,
      sl = this.sl,
      idx = this.idx,
      cnt = this.cnt,
      kh = this.kh,
      kl = this.kl,
      keyNext = this.keyNext;
    let d = 0; // open containers
    const n = kinds.length;
    for (let p = 0; p < n; p++) {
      const k = kinds[p];
      if (k === K_SCALAR) {
        const t = tags[p];
        ((M[0] = A[p] ^ SH[t]), (M[1] = B[p] ^ SL[t]), (M[2] = P0H), (M[3] = P0L), mum4());
      } else if (k === K_STRING) {
        hashString(refs[p]);
        if (d > 0 && keyNext[d - 1] === 1) {
          kh[d - 1] = R[0];
          kl[d - 1] = R[1];
          keyNext[d - 1] = 0;
          continue;
        }
      } else if (k === K_BINARY) {
        hashBinary(refs[p]);
      } else {
        const c = A[p];
        const m = k === K_MAP;
        if (c > 0) {
          left[d] = c;
          isMap[d] = m ? 1 : 0;
          sh[d] = 0;
          sl[d] = 0;
          idx[d] = 0;
          cnt[d] = c;
          keyNext[d] = m ? 1 : 0;
          d++;
          continue;
        }
        const t = m ? TAG.MAP : TAG.ARRAY;
        ((M[0] = SH[t]), (M[1] = SL[t]), (M[2] = P3H), (M[3] = P3L), mum4());
      }
      // a finished value in R[0]:R[1]: into its container, closing the containers it completes
      while (d > 0) {
        const i = d - 1;
        if (isMap[i] === 1) {
          ((M[0] = kh[i] ^ P3H), (M[1] = kl[i] ^ P3L), (M[2] = R[0] ^ P0H), (M[3] = R[1] ^ P0L), mum4());
          keyNext[i] = 1;
        } else {
          const j = idx[i];
          ((M[0] = R[0] ^ P1H), (M[1] = R[1] ^ P1L), (M[2] = P2H), (M[3] = j ^ P2L), mum4());
          idx[i] = j + 1;
        }
        const lo = sl[i] + R[1];
        sl[i] = lo;
        sh[i] = sh[i] + R[0] + (lo >= M32 ? 1 : 0);
        if (--left[i] > 0) break;
        const t = isMap[i] === 1 ? TAG.MAP : TAG.ARRAY;
        const c = cnt[i];
        ((M[0] = sh[i] ^ SH[t]), (M[1] = sl[i] ^ SL[t]), (M[2] = Math.floor(c / M32) ^ P3H), (M[3] = c ^ P3L), mum4());
        d--;
      }
    }
    return (R[0] ^ R[1]) & 0x3fffffff; // a Smi: returning it allocates nothing
  }

  /** The streaming form over the flat nodes (hash-events): the document's events in order through a
   * StreamHasher, as incremental rows feed theirs. Into R[0]:R[1]; returns a sink value. */
  hashEvents() {
    const s = this.stream;
    s.reset();
    const kinds = this.kinds,
      A = this.a,
      B = this.b,
      refs = this.refs,
      tags = this.tags;
    const left = this.left,
      keyNext = this.keyNext;
    let d = 0;
    const n = kinds.length;
    for (let p = 0; p < n; p++) {
      const k = kinds[p];
      if (k === K_SCALAR) {
        const t = tags[p];
        ((M[0] = A[p] ^ SH[t]), (M[1] = B[p] ^ SL[t]), (M[2] = P0H), (M[3] = P0L), mum4());
        s.feed();
      } else if (k === K_STRING) {
        if (d > 0 && keyNext[d - 1] === 1) {
          s.key(refs[p]);
          keyNext[d - 1] = 0;
          continue;
        }
        s.string(refs[p]);
      } else if (k === K_BINARY) {
        s.binary(refs[p]);
      } else {
        const c = A[p];
        const m = k === K_MAP;
        s.start(m);
        if (c > 0) {
          left[d] = c;
          keyNext[d] = m ? 1 : 0;
          d++;
          continue;
        }
        s.end();
      }
      while (d > 0) {
        const i = d - 1;
        if (this.isMapAt(i)) keyNext[i] = 1;
        if (--left[i] > 0) break;
        s.end();
        d--;
      }
    }
    s.result();
    return (R[0] ^ R[1]) & 0x3fffffff; // a Smi: returning it allocates nothing
  }

  isMapAt(i) {
    return this.stream.isMap[i] === 1;
  }
}

let FH = 0,
  FL = 0,
  FT = 0;
function hashHalvesInt(x) {
  FH = Math.floor(x / M32) >>> 0;
  FL = x >>> 0;
  FT = x >= 0 ? TAG.UINT : TAG.NEGINT;
}
