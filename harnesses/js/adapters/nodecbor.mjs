// cbor (node-cbor): the long-standing Node.js CBOR codec (pure JS, Node streams underneath).
// decodeFirstSync reads exactly one item (extra bytes are an error); integers beyond 2^53 come back
// as BigInt; encode writes the smallest float that keeps the value.

export const rows = [
  {
    id: "node-cbor",
    library: "cbor",
    pkg: "cbor",
    bundle: ["cbor"],
    formats: ["cbor"],
    tests: ["write", "tree"],
    notes:
      "decodeFirstSync / Encoder.encodeOne with collapseBigIntegers (a BigInt within 64 bits as a CBOR integer, not a bignum tag) and highWaterMark 256 MB (below an output's size encodeOne truncates it silently), pure JS; strings decoded without a UTF-8 check (none offered)",
    load: async () => {
      const m = (await import("cbor")).default;
      // encodeOne returns only what its stream buffered up to highWaterMark (16 KB by default): a larger
      // output comes back truncated, silently (size-4: 65,582 of its bytes); the limit is raised to 256 MB
      const opts = { collapseBigIntegers: true, highWaterMark: 1 << 28 };
      return {
        tree: () => (bytes) => m.decodeFirstSync(bytes),
        write: (_f, obj) => () => m.Encoder.encodeOne(obj, opts),
      };
    },
  },
];
