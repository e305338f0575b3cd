// Typed datasets (spec/typed.md): the native records, their typed hash, and the cells of the typed
// tests (typed-encode, typed-decode, and the latency pass of `run --latency`).
//
// The native records are JavaScript classes (Product, Trade, Nested, Inner, Point) with the
// data-model field names; a 64-bit integer field (u64, i64) holds a BigInt, every other integer a
// number, a float32 the number of its value, `side` its variant name, an absent `note` null, and
// `counts` a plain object. The typed hash walks a record's fields by a table of (name, type), so it
// knows each field's type: a float field is hashed as a float even when its value is integral, and a
// 64-bit field accepts a BigInt, a number or a Long (protobufjs's 64-bit type), whose halves it reads.

import * as hash from "./hash.mjs";
import { F64, R, M } from "./hash.mjs";
import * as refdec from "./refdec.mjs";

// field types
const U64 = 1,
  I64 = 2,
  INT = 3,
  F = 4,
  BOOL = 5,
  STR = 6,
  ENUM = 7,
  STRS = 8,
  INTS = 9,
  U64S = 10,
  I64S = 11,
  FS = 12,
  BOOLS = 13,
  MAP_I64 = 14,
  OPT_STR = 15,
  INNER = 16,
  POINT = 17,
  CHILDREN = 18;

export const SCHEMAS = {
  product: [
    ["id", U64],
    ["name", STR],
    ["price", F],
    ["in_stock", BOOL],
    ["tags", STRS],
  ],
  trade: [
    ["price", F],
    ["flag", BOOL],
    ["text", STR],
    ["side", ENUM],
    ["small_int", INT],
    ["long_int", I64],
  ],
  nested: [
    ["u8", INT],
    ["u16", INT],
    ["u32", INT],
    ["u64", U64],
    ["i8", INT],
    ["i16", INT],
    ["i32", INT],
    ["i64", I64],
    ["f32", F],
    ["f64", F],
    ["flag", BOOL],
    ["name", STR],
    ["u8s", INTS],
    ["u16s", INTS],
    ["u32s", INTS],
    ["u64s", U64S],
    ["i8s", INTS],
    ["i16s", INTS],
    ["i32s", INTS],
    ["i64s", I64S],
    ["f32s", FS],
    ["f64s", FS],
    ["flags", BOOLS],
    ["names", STRS],
    ["counts", MAP_I64],
    ["note", OPT_STR],
    ["inner", INNER],
    ["children", CHILDREN],
  ],
  inner: [
    ["label", STR],
    ["point", POINT],
  ],
  point: [
    ["x", F],
    ["y", F],
    ["z", F],
  ],
};
const SIDES = ["Buy", "Sell"];

// --- native records --------------------------------------------------------------------------------

export class Product {
  constructor(id, name, price, in_stock, tags) {
    this.id = id;
    this.name = name;
    this.price = price;
    this.in_stock = in_stock;
    this.tags = tags;
  }
}
export class Trade {
  constructor(price, flag, text, side, small_int, long_int) {
    this.price = price;
    this.flag = flag;
    this.text = text;
    this.side = side;
    this.small_int = small_int;
    this.long_int = long_int;
  }
}
export class Point {
  constructor(x, y, z) {
    this.x = x;
    this.y = y;
    this.z = z;
  }
}
export class Inner {
  constructor(label, point) {
    this.label = label;
    this.point = point;
  }
}
export class Nested {
  constructor(o) {
    for (const [name] of SCHEMAS.nested) this[name] = o[name];
  }
}

const num = (v) => (v instanceof F64 ? v.v : typeof v === "bigint" ? Number(v) : v);

/** A record of `schema` as the harness's class, from a plain object (the dataset file's, or a
 * library's decoded one: `side` may be its index, a 64-bit value a number, a Long or a BigInt). */
export function toNative(schema, o) {
  switch (schema) {
    case "product":
      return new Product(big64(o.id, true), o.name, num(o.price), o.in_stock, Array.from(o.tags));
    case "trade":
      return new Trade(
        num(o.price),
        o.flag,
        o.text,
        typeof o.side === "number" ? SIDES[o.side] : o.side,
        num(o.small_int),
        big64(o.long_int, false),
      );
    case "point":
      return new Point(num(o.x), num(o.y), num(o.z));
    case "inner":
      return new Inner(o.label, toNative("point", o.point));
  }
  const n = {};
  for (const [name, t] of SCHEMAS.nested) {
    const v = o[name];
    switch (t) {
      case U64:
      case I64:
        n[name] = big64(v, t === U64);
        break;
      case INT:
      case F:
        n[name] = num(v);
        break;
      case INTS:
      case FS:
        n[name] = Array.from(v, num);
        break;
      case U64S:
      case I64S:
        n[name] = Array.from(v, (x) => big64(x, t === U64S));
        break;
      case MAP_I64: {
        const m = {};
        for (const k in v) m[k] = big64(v[k], false);
        n[name] = m;
        break;
      }
      case OPT_STR:
        n[name] = v === undefined ? null : v;
        break;
      case INNER:
        n[name] = toNative("inner", v);
        break;
      case CHILDREN:
        n[name] = Array.from(v, (c) => toNative("nested", c));
        break;
      default:
        n[name] = Array.isArray(v) ? Array.from(v) : v;
    }
  }
  return new Nested(n);
}

/** A 64-bit value as a BigInt of the field's signedness, from a BigInt, a number or a Long. */
function big64(v, unsigned) {
  let b;
  if (typeof v === "bigint") b = v;
  else if (typeof v === "number") b = BigInt(v);
  else if (v instanceof F64) b = BigInt(v.v);
  else b = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  return unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
}

/** The dataset file (spec/typed.md): {schema, records}; the records as native classes. */
export function load(data) {
  let doc;
  try {
    doc = refdec.decode("json", data);
  } catch (e) {
    throw new refdec.InputError(`the typed dataset is not valid JSON: ${e.message}`);
  }
  const schema = doc.schema;
  if (!["product", "trade", "nested"].includes(schema) || !Array.isArray(doc.records))
    throw new refdec.InputError(`not a typed dataset (schema ${JSON.stringify(schema)})`);
  let records;
  try {
    records = doc.records.map((r) => toNative(schema, r));
  } catch (e) {
    throw new refdec.InputError(`a ${schema} record does not fit its schema: ${e.message}`);
  }
  return { schema, records };
}

// --- the typed hash ------------------------------------------------------------------------------------

const P0H = 0xa0761d64,
  P0L = 0x78bd642f,
  P1H = 0xe7037ed1,
  P1L = 0xa0b428db,
  P2H = 0x8ebc6af0,
  P2L = 0x9c88c6e3,
  P3H = 0x589965cc,
  P3L = 0x75374cc3;
const M32 = 0x100000000;

// each schema's fields with their key hashes, computed once; PLAN_CAMEL reads the same fields under
// lowerCamelCase property names (in_stock as inStock: protobuf-es's generated messages)
const camel = (n) => n.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
const PLAN = {};
const PLAN_CAMEL = {};
for (const [s, fields] of Object.entries(SCHEMAS)) {
  PLAN_CAMEL[s] = null;
  PLAN[s] = {
    names: fields.map(([n]) => n),
    types: Int32Array.from(fields.map(([, t]) => t)),
    kh: Uint32Array.from(fields.map(([n]) => (hash.hashString(n), R[0]))),
    kl: Uint32Array.from(fields.map(([n]) => (hash.hashString(n), R[1]))),
  };
}
for (const s of Object.keys(SCHEMAS)) PLAN_CAMEL[s] = { ...PLAN[s], names: PLAN[s].names.map(camel) };
const SCHEMA_KEY = (hash.hashString("schema"), [R[0], R[1]]);
const RECORDS_KEY = (hash.hashString("records"), [R[0], R[1]]);
const SIDE_HASH = SIDES.map((s) => (hash.hashString(s), [R[0], R[1]]));

const u64 = new BigUint64Array(1);
const u64w = new Uint32Array(u64.buffer);
const TAG_UINT = 3,
  TAG_NEGINT = 4,
  TAG_ARRAY = 8,
  TAG_MAP = 9;

/** A 64-bit integer field's hash: a BigInt, a number or a Long; `unsigned`: its 64 bits are a uint64
 * (a signed BigInt or Long of a u64 field, as Avro and Long give it, is read as the same bits). */
function int64(v, unsigned) {
  let neg;
  if (typeof v === "bigint") {
    u64[0] = v;
    M[0] = u64w[1];
    M[1] = u64w[0];
    neg = v < 0n;
  } else if (typeof v === "number") {
    M[0] = Math.floor(v / M32);
    M[1] = v;
    neg = v < 0;
  } else {
    M[0] = v.high;
    M[1] = v.low;
    neg = v.high < 0;
  }
  hash.scalarM(unsigned || !neg ? TAG_UINT : TAG_NEGINT);
}

/** An integer field within 32 bits (a number, or a BigInt where a format gives one). */
function int32(v) {
  if (typeof v === "number") hash.hashNumber(v);
  else hash.hashBigInt(big64(v, false));
}

const f64 = new Float64Array(1);
const f64w = new Uint32Array(f64.buffer);
function float(v) {
  f64[0] = v;
  M[0] = f64w[1];
  M[1] = f64w[0];
  hash.scalarM(5);
}

/** Array of n element hashes: call `each(i)` to leave element i's hash in R. */
function array(n, each) {
  let sh = 0,
    sl = 0;
  for (let i = 0; i < n; i++) {
    each(i);
    M[0] = R[0] ^ P1H;
    M[1] = R[1] ^ P1L;
    M[2] = P2H;
    M[3] = i ^ P2L;
    hash.mum4();
    const lo = sl + R[1];
    sl = lo >>> 0;
    sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
  }
  M[0] = sh ^ hash.seedHi(TAG_ARRAY);
  M[1] = sl ^ hash.seedLo(TAG_ARRAY);
  M[2] = P3H;
  M[3] = n ^ P3L;
  hash.mum4();
}

function field(t, v, c) {
  switch (t) {
    case U64:
      return int64(v, true);
    case I64:
      return int64(v, false);
    case INT:
      return int32(v);
    case F:
      return float(v);
    case BOOL:
      return hash.scalar(2, 0, v ? 1 : 0);
    case STR:
      return hash.hashString(v);
    case ENUM: {
      const s = typeof v === "number" ? SIDE_HASH[v] : SIDE_HASH[v === "Buy" ? 0 : v === "Sell" ? 1 : -1];
      if (!s) throw new hash.ModelError(`side ${v} is not a Side`);
      R[0] = s[0];
      R[1] = s[1];
      return;
    }
    case STRS:
      return array(v.length, (i) => hash.hashString(v[i]));
    case INTS:
      return array(v.length, (i) => int32(v[i]));
    case U64S:
      return array(v.length, (i) => int64(v[i], true));
    case I64S:
      return array(v.length, (i) => int64(v[i], false));
    case FS:
      return array(v.length, (i) => float(v[i]));
    case BOOLS:
      return array(v.length, (i) => hash.scalar(2, 0, v[i] ? 1 : 0));
    case MAP_I64: {
      let sh = 0,
        sl = 0,
        n = 0;
      for (const k in v) {
        hash.hashString(k);
        const kh = R[0],
          kl = R[1];
        int64(v[k], false);
        M[0] = kh ^ P3H;
        M[1] = kl ^ P3L;
        M[2] = R[0] ^ P0H;
        M[3] = R[1] ^ P0L;
        hash.mum4();
        const lo = sl + R[1];
        sl = lo >>> 0;
        sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
        n++;
      }
      M[0] = sh ^ hash.seedHi(TAG_MAP);
      M[1] = sl ^ hash.seedLo(TAG_MAP);
      M[2] = P3H;
      M[3] = n ^ P3L;
      hash.mum4();
      return;
    }
    case OPT_STR:
      if (v === null || v === undefined) return hash.scalar(1, 0, 0);
      return hash.hashString(v);
    case INNER:
      return record("inner", v, c);
    case POINT:
      return record("point", v, c);
    case CHILDREN:
      return array(v.length, (i) => record("nested", v[i], c));
  }
}

/** A record's typed hash (a map of its fields), into R; `c`: its properties are lowerCamelCase. */
export function record(schema, r, c = false) {
  const p = c ? PLAN_CAMEL[schema] : PLAN[schema];
  const names = p.names,
    types = p.types,
    kh = p.kh,
    kl = p.kl;
  let sh = 0,
    sl = 0;
  const n = names.length;
  for (let i = 0; i < n; i++) {
    field(types[i], r[names[i]], c);
    M[0] = kh[i] ^ P3H;
    M[1] = kl[i] ^ P3L;
    M[2] = R[0] ^ P0H;
    M[3] = R[1] ^ P0L;
    hash.mum4();
    const lo = sl + R[1];
    sl = lo >>> 0;
    sh = (sh + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
  }
  M[0] = sh ^ hash.seedHi(TAG_MAP);
  M[1] = sl ^ hash.seedLo(TAG_MAP);
  M[2] = P3H;
  M[3] = n ^ P3L;
  hash.mum4();
}

/** The dataset's hash: {"schema": schema, "records": [...]}, from any records a library gave back
 * (field names of the data model). Returns a sink value; the hash is in R. */
export function hashDoc(schema, records, c = false) {
  array(records.length, (i) => record(schema, records[i], c));
  M[0] = RECORDS_KEY[0] ^ P3H;
  M[1] = RECORDS_KEY[1] ^ P3L;
  M[2] = R[0] ^ P0H;
  M[3] = R[1] ^ P0L;
  hash.mum4();
  const ah = R[0],
    al = R[1];
  hash.hashString(schema);
  M[0] = SCHEMA_KEY[0] ^ P3H;
  M[1] = SCHEMA_KEY[1] ^ P3L;
  M[2] = R[0] ^ P0H;
  M[3] = R[1] ^ P0L;
  hash.mum4();
  const lo = al + R[1];
  const sl = lo >>> 0;
  const sh = (ah + R[0] + (lo >= M32 ? 1 : 0)) >>> 0;
  M[0] = sh ^ hash.seedHi(TAG_MAP);
  M[1] = sl ^ hash.seedLo(TAG_MAP);
  M[2] = P3H;
  M[3] = 2 ^ P3L;
  hash.mum4();
  return hash.sinkValue();
}

/** A write's output hashed as bytes (a string encoded to UTF-8 into the hash's buffer, as the
 * schemaless write rows). Returns a sink value. */
function hashOut(out) {
  if (typeof out === "string") hash.hashString(out);
  else hash.hashBytes(out);
  return hash.sinkValue();
}

/** One record's hash as 16 hex digits (the latency check). */
export function recordHex(schema, r, c = false) {
  record(schema, r, c);
  return hash.hex();
}

// --- cells --------------------------------------------------------------------------------------------

/** The encoding of the records in `format` that the baselines hash: the shortest any typed row of
 * this harness makes (spec/typed.md). */
async function shortestWire(format, schema, records, rows) {
  let best = null;
  for (const row of rows) {
    if (row.baseline || !row.typed || !row.formats.includes(format)) continue;
    if (row.env && Object.keys(row.env).length > 0) continue; // its library is imported differently
    try {
      const impl = (await row.load()).typed(schema, records);
      let w = impl.encode();
      if (typeof w === "string") w = Buffer.from(w, "utf8");
      if (best === null || w.length < best.length) best = w;
    } catch {
      // a row that cannot encode this dataset makes no baseline encoding
    }
  }
  if (best === null) throw new Error(`no typed row of this harness encodes ${schema} records in ${format}`);
  return best;
}

export async function prepare(row, test, format, data, lib, Failure, EXIT) {
  let ds;
  try {
    ds = load(data);
  } catch (e) {
    throw new Failure(EXIT.INPUT, e.message);
  }
  const { schema, records } = ds;
  const c = { schema, records };
  // one buffer per cell for the input copies (fairness.md rule 1; a Buffer's memory is 8-byte aligned)
  let input = null;
  const fresh = (wire) => {
    if (input === null || input.length !== wire.length) input = Buffer.allocUnsafeSlow(wire.length);
    input.set(wire);
    return input;
  };
  if (row.baseline) {
    const { all } = await import("../adapters/index.mjs");
    const wire = await shortestWire(format, schema, records, all()).catch((e) => {
      throw new Failure(EXIT.REJECTED, e.message);
    });
    c.check = () => {
      hashDoc(schema, records);
      return { hash: hash.hex() };
    };
    c.op =
      test === "typed-encode"
        ? () => {
            hash.hashBytes(wire);
            return hash.sinkValue();
          }
        : () => {
            fresh(wire);
            return hashDoc(schema, records);
          };
    return c;
  }
  const mod = await lib(() => row.load()).catch((e) => {
    throw lib(() => {
      throw e;
    });
  });
  const impl = lib(() => mod.typed(schema, records));
  const decodeHash = (bytes) => {
    const recs = lib(() => impl.decode(bytes));
    try {
      hashDoc(schema, recs, impl.camel === true);
    } catch (e) {
      throw new Failure(EXIT.REJECTED, `the decoded records do not fit the schema: ${e.message}`);
    }
    return hash.hex();
  };
  if (test === "typed-encode") {
    c.check = () => {
      let out = lib(() => impl.encode());
      if (typeof out === "string") out = Buffer.from(out, "utf8");
      let h;
      try {
        h = decodeHash(fresh(out));
      } catch (e) {
        throw new Failure(EXIT.REJECTED, `the library cannot decode its own output: ${e.message}`);
      }
      return { hash: h, output: out };
    };
    c.op = () => hashOut(impl.encode());
  } else {
    let wire = lib(() => impl.encode());
    if (typeof wire === "string") wire = Buffer.from(wire, "utf8");
    c.check = () => ({ hash: decodeHash(fresh(wire)) });
    const cc = impl.camel === true;
    c.op = () => hashDoc(schema, impl.decode(fresh(wire)), cc);
  }
  c.latency = (budgetMs, verify, out) => latency(c, impl, test, budgetMs, verify, out, lib, Failure, EXIT, fresh);
  return c;
}

/** `run --latency` (protocol step 7): one record at a time. Returns the timed part, or an exit code. */
function latency(c, impl, test, budgetMs, verify, out, lib, Failure, EXIT, fresh) {
  const { schema, records } = c;
  const n = records.length;
  if (n === 0) {
    out("error", { reason: "the dataset has no records (a typed dataset for --latency needs one)" });
    return EXIT.INPUT;
  }
  if (!impl.encodeOne || !impl.decodeOne) {
    out("error", { reason: "this row has no one-record codec" });
    return EXIT.UNSUPPORTED;
  }
  let wires;
  try {
    wires = records.map((r) => {
      const w = lib(() => impl.encodeOne(r));
      return typeof w === "string" ? Buffer.from(w, "utf8") : w;
    });
    if (verify) {
      for (let i = 0; i < n; i++) {
        const want = recordHex(schema, records[i]);
        const got = recordHex(
          schema,
          lib(() => impl.decodeOne(fresh(wires[i]))),
          impl.camel === true,
        );
        if (got !== want) {
          out("check", { ok: false, hash: got, expected: want, reason: `record ${i}: hash ${got} != ${want}` });
          return EXIT.MISMATCH;
        }
      }
    }
  } catch (e) {
    out("error", { reason: e.message });
    return e.code || EXIT.REJECTED;
  }
  const what =
    test === "typed-encode"
      ? "encode one record (prepared outside the loop) + hash of its bytes"
      : "copy one record's encoding + decode it + typed hash of the record";
  const op =
    test === "typed-encode"
      ? (i) => hashOut(impl.encodeOne(records[i]))
      : (i) => {
          // each record's own buffer, allocated once (as the Java harness's latency pass)
          const b = bufs[i];
          b.set(wires[i]);
          record(schema, impl.decodeOne(b), cc);
          return hash.sinkValue();
        };
  const cc = impl.camel === true;
  const bufs = test === "typed-encode" ? [] : wires.map((w) => Buffer.allocUnsafeSlow(w.length));
  out("info", {
    measures: what,
    records: n,
    histogram: "log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)",
  });
  return async () => {
    const measure = await import("./measure.mjs");
    let h;
    try {
      h = measure.latency(op, n, budgetMs * 1e6, 100_000);
    } catch (e) {
      out("error", { reason: e.message });
      return EXIT.REJECTED;
    }
    out("latency", {
      count: h.count,
      p50_ns: h.percentile(0.5),
      p99_ns: h.percentile(0.99),
      p999_ns: h.percentile(0.999),
      p9999_ns: h.percentile(0.9999),
      max_ns: h.max,
      buckets: h.buckets(),
    });
    return EXIT.OK;
  };
}
