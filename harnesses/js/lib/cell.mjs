// One cell of the JavaScript harness: a (benchmark, test, format, file) prepared for the check
// (spec/protocol.md run step 2) and the timed operation, the rows' metadata for `list`, and the
// failures and their exit codes.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as hash from "./hash.mjs";
import { LimitError } from "./hash.mjs";
import * as refdec from "./refdec.mjs";
import { InputError } from "./refdec.mjs";
import { all } from "../adapters/index.mjs";
import * as typedlib from "./typed.mjs";
import { HARNESS, runtimeInfo } from "./runtime.mjs";
import { cached as cachedSizes, method as codeSizeMethod } from "./codesize.mjs";

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

export const EXIT = { OK: 0, USAGE: 2, REJECTED: 3, MISMATCH: 4, UNSUPPORTED: 5, INPUT: 6 };

/** Why a cell cannot be checked or measured, with its exit code. */
export class Failure extends Error {
  constructor(code, reason) {
    super(reason);
    this.code = code;
  }
}

/** A library's exception, or a value outside the data model it gave back: exit 3; a limit of the
 * harness's own code or an input the reference decoder rejects: exit 6. */
export function libraryFail(e) {
  if (e instanceof Failure) return e;
  if (e instanceof LimitError || e instanceof InputError) return new Failure(EXIT.INPUT, e.message);
  return new Failure(EXIT.REJECTED, e && e.message ? e.message : String(e));
}

/** Calls into a library: whatever it throws becomes a Failure (exit 3). */
function lib(f) {
  try {
    return f();
  } catch (e) {
    throw libraryFail(e);
  }
}

// --- list -------------------------------------------------------------------------------------------

const versions = new Map();
export function versionOf(row) {
  if (row.version) return row.version();
  if (row.baseline) return "0.1.0";
  if (!versions.has(row.pkg)) {
    let v = "unknown";
    try {
      v = JSON.parse(fs.readFileSync(path.join(HERE, "node_modules", row.pkg, "package.json"), "utf8")).version;
    } catch {
      // not installed: "unknown"
    }
    versions.set(row.pkg, v);
  }
  return versions.get(row.pkg);
}

export { runtimeInfo };

/** Each test's contract (spec/fairness.md rule 12): the row's steps, and its baseline's. */
export function contractSteps(test, baseline) {
  switch (test) {
    case "write":
      return baseline ? ["hash-output"] : ["from-object", "encode", "hash-output"];
    case "tree":
    case "typed-decode":
      return baseline ? ["copy-input", "visit-all"] : ["copy-input", "decode", "visit-all"];
    case "incremental":
      return baseline ? ["copy-input", "hash-events"] : ["copy-input", "parse-events", "hash-events"];
    case "typed-encode":
      return baseline ? ["hash-output"] : ["encode", "hash-output"];
    case "typed-access":
      return baseline ? ["copy-input", "visit-all"] : ["copy-input", "view", "visit-all"];
  }
  return [];
}

export function defaultBaseline(test) {
  return (
    {
      write: "hash-data",
      incremental: "hash-events",
      "typed-encode": "hash-data-typed",
      "typed-decode": "hash-typed",
      "typed-access": "hash-typed",
    }[test] || "hash-object"
  );
}

function stepsOf(row, test) {
  return (row.steps && row.steps[test]) || contractSteps(test, !!row.baseline);
}

const MEASURES = {
  write:
    "encode the harness's object (plain objects, numbers within int32, BigInt beyond) + hash of the output bytes (a string output encoded to UTF-8 into the hash's buffer); the output is decoded with the reference decoder and hashed once, outside the loop (GC included)",
  tree: "copy input + decode to the library's values + walk them with the hash (hashValue, recursive, a type switch per value) (GC included)",
  incremental: "copy input + streaming parse feeding the streaming hash, no tree (GC included)",
  "typed-encode":
    "encode the records (prepared outside the loop) + hash of the output bytes; the output is decoded by the same library and hashed once, outside the loop (GC included)",
  "typed-decode":
    "copy the library's own encoding + decode into records + typed hash walk of every field (GC included)",
  "typed-access":
    "copy the library's own encoding + read every field through the library's view with the typed hash (GC included)",
};

export function measuresOf(row, test) {
  return (row.measures && row.measures[test]) || MEASURES[test];
}

export function listing() {
  const sizes = cachedSizes();
  const benchmarks = all().map((r) => {
    const out = {
      id: r.id,
      library: r.library,
      version: versionOf(r),
      formats: r.own ? [r.own] : r.formats,
      tests: r.tests,
      baseline_for: r.baseline
        ? {}
        : Object.fromEntries(r.tests.map((t) => [t, (r.baselineOverride || {})[t] || defaultBaseline(t)])),
      notes: r.notes,
      baseline: !!r.baseline,
      measures: Object.fromEntries(r.tests.map((t) => [t, measuresOf(r, t)])),
      steps: Object.fromEntries(r.tests.map((t) => [t, stepsOf(r, t)])),
    };
    if (r.own) out.reads = { [r.own]: r.formats[0] };
    if (sizes && !r.baseline && sizes.libraries[r.library] && r.bundle) {
      out.code_size_bytes = sizes.libraries[r.library].bytes;
      out.code_size_method = codeSizeMethod(sizes, r.library);
    }
    return out;
  });
  return { protocol: 1, harness: HARNESS, runtime: runtimeInfo(), benchmarks };
}

// --- one cell ---------------------------------------------------------------------------------------

function reference(format, data) {
  try {
    return refdec.decode(format, data);
  } catch (e) {
    if (e instanceof InputError)
      throw new Failure(EXIT.INPUT, `the reference decoder rejects the input (${format}): ${e.message}`);
    throw e;
  }
}

/** The hash of the reference decoder's tree (exact: the flat walk over it). */
function referenceHash(format, data) {
  const f = new hash.Flat(reference(format, data));
  f.hash();
  return hash.hex();
}

/** The hash of a write row's output bytes (a string is encoded to UTF-8 into the hash's buffer). */
function hashOutput(out) {
  if (typeof out === "string") hash.hashString(out);
  else hash.hashBytes(out);
  return hash.sinkValue();
}

function outputBytes(out) {
  return typeof out === "string" ? Buffer.from(out, "utf8") : out;
}

/** A prepared (benchmark, test, format, file): `check()` is the correctness check (run step 2) and
 * `op` the timed operation, which returns a number for the sink. */
export async function prepare(row, test, format, data) {
  if (test.startsWith("typed-")) return typedlib.prepare(row, test, format, data, lib, Failure, EXIT);
  for (const [k, v] of Object.entries(row.env || {})) process.env[k] = v;
  // the fresh copy of the input each decode iteration reads: one buffer per cell (fairness.md rule 1)
  const input = Buffer.allocUnsafeSlow(data.length);
  const fresh = () => {
    input.set(data);
    return input;
  };
  const c = { format, data, input, fresh };
  if (row.baseline) {
    if (test === "write") {
      c.check = () => ({ hash: referenceHash(format, data) });
      c.op = () => {
        hash.hashBytes(data);
        return hash.sinkValue();
      };
      return c;
    }
    const tree = reference(format, data);
    if (row.id === "hash-walk") {
      c.check = () => {
        hash.hashValue(tree);
        return { hash: hash.hex() };
      };
      c.op = () => {
        fresh();
        hash.hashValue(tree);
        return hash.sinkValue();
      };
      return c;
    }
    const flat = new hash.Flat(tree);
    const events = row.id === "hash-events";
    c.check = () => {
      if (events) flat.hashEvents();
      else flat.hash();
      return { hash: hash.hex() };
    };
    c.op = events
      ? () => {
          fresh();
          return flat.hashEvents();
        }
      : () => {
          fresh();
          return flat.hash();
        };
    return c;
  }
  const impl = await lib(() => row.load()).catch((e) => {
    throw libraryFail(e);
  });
  if (row.own) {
    // a format only this runtime has: the document from the corpus file, and for tree the
    // runtime's own encoding of it, made here, outside the loop
    const obj = refdec.toApp(reference(format, data));
    const own = impl.own;
    if (test === "write") {
      c.check = () => {
        const out = lib(() => own.encode(obj));
        let v;
        try {
          v = own.decode(out);
        } catch (e) {
          throw new Failure(EXIT.REJECTED, `the library cannot decode its own ${row.own} output: ${e.message}`);
        }
        hash.hashValue(v);
        return { hash: hash.hex(), output: out };
      };
      c.op = () => hashOutput(own.encode(obj));
      return c;
    }
    const wire = lib(() => own.encode(obj));
    const input2 = Buffer.allocUnsafeSlow(wire.length);
    const fresh2 = () => {
      input2.set(wire);
      return input2;
    };
    c.check = () => {
      const v = lib(() => own.decode(fresh2()));
      lib(() => hash.hashValue(v));
      return { hash: hash.hex() };
    };
    c.op = () => {
      hash.hashValue(own.decode(fresh2()));
      return hash.sinkValue();
    };
    return c;
  }
  if (test === "write") {
    const tree = reference(format, data);
    const obj = row.exact ? tree : refdec.toApp(tree);
    const encode = lib(() => impl.write(format, obj));
    c.check = () => {
      const out = lib(encode);
      const bytes = outputBytes(out);
      let h;
      try {
        h = referenceHash(format, bytes);
      } catch (e) {
        throw new Failure(EXIT.REJECTED, `the reference decoder cannot read the library's output: ${e.message}`);
      }
      return { hash: h, output: bytes };
    };
    c.op = () => hashOutput(encode());
    return c;
  }
  if (test === "tree") {
    const decode = lib(() => impl.tree(format));
    c.check = () => {
      const v = lib(() => decode(fresh()));
      try {
        hash.hashValue(v);
      } catch (e) {
        throw libraryFail(e);
      }
      return { hash: hash.hex() };
    };
    c.op = () => {
      hash.hashValue(decode(fresh()));
      return hash.sinkValue();
    };
    return c;
  }
  // incremental: the parser's events into one streaming hasher per cell (reset per document)
  const parse = lib(() => impl.incremental(format));
  const s = new hash.StreamHasher();
  const one = () => {
    s.reset();
    parse(fresh(), s);
    if (!s.done()) throw new Error("the parser ended before the document was complete");
    s.result();
    return hash.sinkValue();
  };
  c.check = () => {
    lib(one);
    return { hash: hash.hex() };
  };
  c.op = one;
  return c;
}

// --- verify -------------------------------------------------------------------------------------------

export async function verify(row, test, format, data) {
  const c = await prepare(row, test, format, data);
  return c.check().hash;
}
