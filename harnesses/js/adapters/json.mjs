// JSON.parse and JSON.stringify: V8's own JSON, in C++ inside the engine. Two rows: the plain calls
// (numbers beyond 2^53 read as doubles, BigInt cannot be written: incorrect or failed on the corpus,
// which is the finding), and the same calls made exact for int64 with the engine's own source-text
// access (a reviver reading context.source, ES2026 "JSON.parse source text access", and
// JSON.rawJSON in a replacer), the correct JSON row.

import { ENGINE, engineVersion } from "../lib/runtime.mjs";
import { F64 } from "../lib/hash.mjs";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes to the string JSON.parse takes, with UTF-8 checked (TextDecoder's fatal mode: the check
 * the runtime offers, spec/fairness.md rule 12). */
export function text(bytes) {
  return utf8.decode(bytes);
}

const JSON_FORMATS = ["json", "json-pretty"];

function floatSyntax(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 || c === 101 || c === 69) return true;
  }
  return false;
}

// Every number keeps its type: an integer beyond 2^53 becomes a BigInt (from its source text), a
// float whose value is integral (3.0) the harness's F64 (a JavaScript number cannot say 3.0 from 3),
// and the integer -0 the integer 0.
function reviver(_key, v, context) {
  if (typeof v !== "number") return v;
  if (Number.isSafeInteger(v)) {
    const fl = floatSyntax(context.source);
    if (Object.is(v, -0)) return fl ? v : 0;
    return fl ? new F64(v) : v;
  }
  if (Number.isInteger(v) && !floatSyntax(context.source)) return BigInt(context.source);
  return v;
}

// BigInt and F64 by their text; a float that JSON.stringify would write without a fraction or an
// exponent (-0, 2^53) with ".0", so that it reads back as a float
function replacer(_key, v) {
  if (typeof v === "number") {
    if (Number.isInteger(v) && (Object.is(v, -0) || !Number.isSafeInteger(v))) {
      const s = Object.is(v, -0) ? "-0" : String(v);
      return JSON.rawJSON(floatSyntax(s) ? s : `${s}.0`);
    }
    return v;
  }
  if (typeof v === "bigint") return JSON.rawJSON(v.toString());
  if (v instanceof F64) return JSON.rawJSON(`${v.v}.0`);
  return v;
}

export const rows = [
  {
    id: "json-parse-source",
    exact: true,
    library: `JSON (${ENGINE})`,
    version: engineVersion,
    formats: JSON_FORMATS,
    tests: ["write", "tree"],
    notes:
      "JSON.parse with a reviver that reads each number's source text (context.source): an integer beyond 2^53 becomes a BigInt, an integral float (3.0) a float marker; JSON.stringify with a replacer that writes both with JSON.rawJSON: exact; input bytes to string with TextDecoder (fatal: UTF-8 checked)",
    load: async () => ({
      tree: () => (bytes) => JSON.parse(text(bytes), reviver),
      write: (format, obj) =>
        format === "json-pretty" ? () => JSON.stringify(obj, replacer, 2) : () => JSON.stringify(obj, replacer),
    }),
  },
  {
    id: "json-parse",
    library: `JSON (${ENGINE})`,
    version: engineVersion,
    formats: JSON_FORMATS,
    tests: ["write", "tree"],
    notes:
      "JSON.parse / JSON.stringify as they are: every number is a double, so integers beyond 2^53 lose digits (incorrect on the corpus), and JSON.stringify throws on a BigInt (the harness's form of an integer beyond 2^53: failed on the corpus); input bytes to string with TextDecoder (fatal: UTF-8 checked)",
    load: async () => ({
      tree: () => (bytes) => JSON.parse(text(bytes)),
      write: (format, obj) =>
        format === "json-pretty" ? () => JSON.stringify(obj, null, 2) : () => JSON.stringify(obj),
    }),
  },
];
