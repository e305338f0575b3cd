// The runtime this process runs on: Node.js (V8), the harness `js`, or Bun (JavaScriptCore), the
// harness `js-bun`, both pinned in package.json and run on the same code (spec/protocol.md, "One
// harness, two runtimes"). What differs is named here.

export const IS_BUN = typeof Bun !== "undefined";

/** The harness name `list` gives: one per runtime, as the orchestrator registers them. */
export const HARNESS = IS_BUN ? "js-bun" : "js";

/** The JavaScript engine: the library name of the runtime's own JSON and serializer rows. */
export const ENGINE = IS_BUN ? "JavaScriptCore" : "V8";

export function engineVersion() {
  return IS_BUN ? `Bun ${Bun.version} (JavaScriptCore)` : `V8 ${process.versions.v8}`;
}

export function runtimeInfo() {
  return IS_BUN
    ? `Bun ${Bun.version} (JavaScriptCore, ${process.platform}/${process.arch}, default heap settings)`
    : `Node.js ${process.version} (V8 ${process.versions.v8}, ${process.platform}/${process.arch}, ${process.execArgv.join(" ") || "no flags"})`;
}

/** A full collection, where the runtime offers one (Node with --expose-gc: gc(); Bun: Bun.gc(true)). */
export function collect() {
  if (IS_BUN) Bun.gc(true);
  else if (typeof globalThis.gc === "function") globalThis.gc();
}
