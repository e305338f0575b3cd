// Every benchmark of the JavaScript harness: the baselines, then one file per library, in the order
// `list` gives them (the correct JSON row first). A row's metadata is here; its library is imported
// only when the row is run (`load`), so `list` starts fast and a row can set the environment a
// library reads when it is first imported (msgpackr's and cbor-x's native extractors).

import { rows as json } from "./json.mjs";
import { rows as streamparser } from "./streamparser.mjs";
import { rows as msgpackr } from "./msgpackr.mjs";
import { rows as msgpack } from "./msgpack.mjs";
import { rows as cborx } from "./cborx.mjs";
import { rows as cborg } from "./cborg.mjs";
import { rows as nodecbor } from "./nodecbor.mjs";
import { rows as bson } from "./bson.mjs";
import { rows as v8serialize } from "./v8serialize.mjs";
import { rows as typed } from "./typed.mjs";

const SCHEMALESS = ["json", "json-pretty", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain"];
export const TYPED_FORMATS = ["json", "msgpack", "cbor", "protobuf", "avro"];

const flatMeasures =
  "copy input + hash the harness's own object with its flat walk (lib/hash.mjs Flat, prebuilt outside the loop: pre-order typed arrays, scalars through a seed table, no type switch, no recursion): the hash's work (GC included)";

export const baselines = [
  {
    id: "hash-data",
    formats: SCHEMALESS,
    baselineFor: ["write"],
    notes: "write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)",
    measures: { write: "hash of the input file's bytes (the hash of a write row's output, without the write)" },
  },
  {
    id: "hash-object",
    formats: SCHEMALESS,
    baselineFor: ["tree", "incremental"],
    notes:
      "baseline for tree: copy input + hash the harness's object with its cheapest walk (flat pre-order, a seed table, no type switch)",
    steps: { incremental: ["copy-input", "visit-all"] },
    measures: { tree: flatMeasures, incremental: flatMeasures },
  },
  {
    id: "hash-walk",
    formats: SCHEMALESS,
    baselineFor: ["tree"],
    notes:
      "reference, never subtracted: copy input + walk the harness's object with the tree rows' walk (hashValue: a type switch per value, for-in over objects)",
    measures: {
      tree: "copy input + walk the harness's own object with hashValue, as tree rows walk theirs (GC included)",
    },
  },
  {
    id: "hash-events",
    formats: SCHEMALESS,
    baselineFor: ["incremental"],
    notes:
      "incremental baseline: copy input + the flat document's events in order through the streaming hash (StreamHasher), as token-reader rows feed theirs",
    measures: {
      incremental:
        "copy input + the harness's flat document walked in document order through StreamHasher (no per-value type switch) (GC included)",
    },
  },
  {
    id: "hash-data-typed",
    formats: TYPED_FORMATS,
    baselineFor: ["typed-encode"],
    notes:
      "typed-encode baseline: hashes the records' encoding in the format (the shortest any row of this harness makes), never more bytes than a row hashes",
    measures: { "typed-encode": "hash of the records' shortest encoding in the format (GC included)" },
  },
  {
    id: "hash-typed",
    formats: TYPED_FORMATS,
    baselineFor: ["typed-decode", "typed-access"],
    notes:
      "typed-decode baseline: copies the records' encoding in the format (the shortest any row makes) and hashes the prebuilt records with the typed hash the rows use",
    measures: {
      "typed-decode": "copy the shortest encoding + typed hash of the prebuilt records (GC included)",
      "typed-access": "copy the shortest encoding + typed hash of the prebuilt records (GC included)",
    },
  },
].map((b) => ({ ...b, library: "serbench-js", baseline: true, tests: b.baselineFor }));

export const rows = [
  ...json,
  ...streamparser,
  ...msgpackr,
  ...msgpack,
  ...cborx,
  ...cborg,
  ...nodecbor,
  ...bson,
  ...v8serialize,
  ...typed,
];

export function all() {
  return [...baselines, ...rows];
}
