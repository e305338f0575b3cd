// v8.serialize / v8.deserialize: V8's structured-clone wire format (the one worker threads and
// IPC use), a format of its own that only this runtime reads: its rows read the document from the
// MessagePack corpus file (`reads`), write encodes it in V8's format, and tree decodes V8's own
// encoding of it, made outside the timed loop (a round trip through the same runtime).

import { IS_BUN, engineVersion } from "../lib/runtime.mjs";

export const rows = [
  {
    id: "v8-serialize",
    library: "node:v8",
    version: () => (IS_BUN ? engineVersion() : `Node.js ${process.version} (V8 ${process.versions.v8})`),
    formats: ["msgpack"],
    own: "v8",
    tests: ["write", "tree"],
    notes:
      "v8.serialize / v8.deserialize (structured clone format, round trip through the same runtime); reads the MessagePack corpus file",
    load: async () => {
      const v8 = await import("node:v8");
      return {
        own: { encode: (obj) => v8.serialize(obj), decode: (bytes) => v8.deserialize(bytes) },
      };
    },
  },
];
