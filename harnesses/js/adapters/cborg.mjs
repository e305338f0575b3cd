// cborg: a strict CBOR codec (pure JS, IPLD's). decode with its defaults (integers beyond 2^53 as
// BigInt, maps as objects); encode with its defaults, which sort map keys (its deterministic form).

export const rows = [
  {
    id: "cborg",
    library: "cborg",
    pkg: "cborg",
    bundle: ["cborg"],
    formats: ["cbor"],
    tests: ["write", "tree"],
    notes:
      "decode/encode with the defaults (encode sorts map keys: cborg's deterministic form); pure JS; strings decoded without a UTF-8 check (none offered)",
    load: async () => {
      const m = await import("cborg");
      return {
        tree: () => (bytes) => m.decode(bytes),
        write: (_f, obj) => () => m.encode(obj),
      };
    },
  },
];
