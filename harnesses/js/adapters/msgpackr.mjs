// msgpackr: MessagePack in JavaScript, with its optional native string extractor (msgpackr-extract,
// a prebuilt N-API addon from the registry) as one row and without it (pure JS) as another. The
// extractor is chosen when msgpackr is first imported (MSGPACKR_NATIVE_ACCELERATION_DISABLED), so
// each row's process sets it before loading the library. Records (useRecords) are off: the corpus
// is plain MessagePack; int64 and uint64 read as BigInt (int64AsType "bigint", the default).

function row(id, native) {
  return {
    id,
    library: "msgpackr",
    pkg: "msgpackr",
    bundle: ["msgpackr"],
    formats: ["msgpack"],
    tests: ["write", "tree"],
    notes: native
      ? "Unpackr/Packr (useRecords: false, mapsAsObjects), with msgpackr-extract's native string extraction (prebuilt N-API addon); no UTF-8 check offered"
      : "Unpackr/Packr (useRecords: false, mapsAsObjects), pure JavaScript (MSGPACKR_NATIVE_ACCELERATION_DISABLED=true); no UTF-8 check offered",
    env: native ? {} : { MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" },
    load: async () => {
      const m = await import("msgpackr");
      if (native && !m.isNativeAccelerationEnabled)
        throw new Error("msgpackr-extract is not loaded (its prebuilt addon is missing)");
      if (!native && m.isNativeAccelerationEnabled)
        throw new Error("msgpackr's native acceleration is on in the pure-JS row");
      const unpackr = new m.Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: "bigint" });
      const packr = new m.Packr({ useRecords: false });
      return {
        tree: () => (bytes) => unpackr.unpack(bytes),
        write: (_f, obj) => () => packr.pack(obj),
      };
    },
  };
}

export const rows = [row("msgpackr", true), row("msgpackr-js", false)];
