// bson (js-bson): MongoDB's BSON for JavaScript. useBigInt64: int64 reads as BigInt; promoteBuffers:
// binary reads as a Buffer; UTF-8 validated (its default). serialize writes a number that is an
// integer beyond int32 as a double (its documented rule: only BigInt and Long become int64), which
// changes the type of such integers held as numbers: a finding the check reports.

export const rows = [
  {
    id: "js-bson",
    library: "bson",
    pkg: "bson",
    bundle: ["bson"],
    formats: ["bson"],
    tests: ["write", "tree"],
    notes: "deserialize (useBigInt64, promoteBuffers, UTF-8 validated) / serialize; pure JS",
    load: async () => {
      const m = await import("bson");
      const opts = { useBigInt64: true, promoteBuffers: true, validation: { utf8: true } };
      return {
        tree: () => (bytes) => m.deserialize(bytes, opts),
        write: (_f, obj) => () => m.serialize(obj),
      };
    },
  },
];
