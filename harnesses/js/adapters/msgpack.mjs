// @msgpack/msgpack: the MessagePack organisation's JavaScript codec (pure JS). useBigInt64: int64
// and uint64 read as BigInt and BigInt written as 64-bit integers. One Decoder and one Encoder per
// cell, reused, as its README recommends for speed.

export const rows = [
  {
    id: "msgpack-javascript",
    library: "@msgpack/msgpack",
    pkg: "@msgpack/msgpack",
    bundle: ["@msgpack/msgpack"],
    formats: ["msgpack"],
    tests: ["write", "tree"],
    notes:
      "Decoder/Encoder instances reused (useBigInt64: true), pure JS; strings decoded without a UTF-8 check (none offered)",
    load: async () => {
      const m = await import("@msgpack/msgpack");
      const dec = new m.Decoder({ useBigInt64: true });
      const enc = new m.Encoder({ useBigInt64: true });
      return {
        tree: () => (bytes) => dec.decode(bytes),
        write: (_f, obj) => () => enc.encode(obj),
      };
    },
  },
];
