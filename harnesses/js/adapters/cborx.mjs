// cbor-x: CBOR by msgpackr's author, with its optional native string extractor (cbor-extract, a
// prebuilt N-API addon from the registry, pinned to 2.2.2, the newest version whose platform
// package the registry serves) as one row and pure JS as another (CBOR_NATIVE_ACCELERATION_DISABLED).
// Records off (useRecords: false), maps as objects; 64-bit integers beyond 2^53 read as BigInt.

function row(id, native) {
  return {
    id,
    library: "cbor-x",
    pkg: "cbor-x",
    bundle: ["cbor-x"],
    formats: ["cbor"],
    tests: ["write", "tree"],
    notes: native
      ? "Decoder/Encoder (useRecords: false, mapsAsObjects) with cbor-extract's native string extraction (prebuilt N-API addon); no UTF-8 check offered"
      : "Decoder/Encoder (useRecords: false, mapsAsObjects), pure JavaScript (CBOR_NATIVE_ACCELERATION_DISABLED=true); no UTF-8 check offered",
    env: native ? {} : { CBOR_NATIVE_ACCELERATION_DISABLED: "true" },
    load: async () => {
      const m = await import("cbor-x");
      if (native && !m.isNativeAccelerationEnabled)
        throw new Error("cbor-extract is not loaded (its prebuilt addon is missing)");
      if (!native && m.isNativeAccelerationEnabled)
        throw new Error("cbor-x's native acceleration is on in the pure-JS row");
      const dec = new m.Decoder({ useRecords: false, mapsAsObjects: true });
      const enc = new m.Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false });
      return {
        tree: () => (bytes) => dec.decode(bytes),
        write: (_f, obj) => () => enc.encode(obj),
      };
    },
  };
}

export const rows = [row("cbor-x", true), row("cbor-x-js", false)];
