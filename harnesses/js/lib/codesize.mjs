// Code size (spec/fairness.md rule 9, for JavaScript): the bundled size of each library's own code,
// an esbuild bundle (minified, ESM, platform node) of an entry that imports only what the row's
// adapter imports (`bundle` in adapters/), minus the bundle of an empty entry, as the JVM harness
// reports jar sizes. Computed by `main.mjs code-size` (the orchestrator's build with --code-size)
// into node_modules/.serbench-code-size.json, keyed by the lock file's SHA-256, which `list` reads.

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = path.join(DIR, "node_modules", ".serbench-code-size.json");

function lockDigest() {
  return crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(DIR, "package-lock.json")))
    .digest("hex");
}

/** Bundles every row's `bundle` entry and writes the cache; returns {library: bytes}. */
export async function measure(rows) {
  const esbuild = (await import("esbuild")).default;
  const size = (contents) =>
    esbuild.buildSync({
      stdin: { contents, resolveDir: DIR, loader: "js" },
      bundle: true,
      minify: true,
      platform: "node",
      format: "esm",
      write: false,
      logLevel: "silent",
      external: ["*.node"],
    }).outputFiles[0].contents.length;
  const empty = size("globalThis.__sb = {};");
  const sizes = {};
  for (const r of rows) {
    if (!r.bundle || sizes[r.library] !== undefined) continue;
    const imports = r.bundle.map((spec, i) => `import * as m${i} from ${JSON.stringify(spec)};`).join("\n");
    const uses = r.bundle.map((_s, i) => `m${i}`).join(", ");
    sizes[r.library] = { bytes: size(`${imports}\nglobalThis.__sb = [${uses}];`) - empty, entry: r.bundle };
  }
  const out = { lock_sha256: lockDigest(), esbuild: esbuild.version, empty_bytes: empty, libraries: sizes };
  fs.writeFileSync(CACHE, JSON.stringify(out, null, 1));
  return out;
}

/** The cached sizes, when they were measured from the current lock file; else null. */
export function cached() {
  try {
    const c = JSON.parse(fs.readFileSync(CACHE, "utf8"));
    return c.lock_sha256 === lockDigest() ? c : null;
  } catch {
    return null;
  }
}

export function method(c, lib) {
  const e = c.libraries[lib];
  return `esbuild ${c.esbuild} bundle (minified, ESM, platform node) of an entry importing only ${e.entry.join(" and ")}, minus an empty entry's bundle (${c.empty_bytes} bytes); native addons (.node files) not counted`;
}
