// selftest (spec/protocol.md): every vector of DIR/vectors.json through every row, test and format
// (the verify logic), and every case of DIR/conformance/manifest.json through the reference decoder
// and hash (what `verify --bench hash-object --test tree` does). A known deviation
// (known-deviations.json) is a skip, and a failure once it passes, so the list stays true.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { all } from "../adapters/index.mjs";
import { verify, Failure, EXIT } from "./cell.mjs";
import { FORMATS as REF_FORMATS } from "./refdec.mjs";
import { HARNESS } from "./runtime.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `only`: the ids of the rows to check (and no conformance cases), for a child process whose
 * environment a row needs (msgpackr-js); else every row without such an environment. */
export async function selftest(dir, write, only = null) {
  let pass = 0,
    fail = 0,
    skip = 0;
  const line = (bench, test, format, vector, status, reason) => {
    if (status === "pass") pass++;
    else if (status === "fail") fail++;
    else skip++;
    write(JSON.stringify({ bench, test, format, vector, status, reason: reason || null }));
  };
  const index = JSON.parse(fs.readFileSync(path.join(dir, "vectors.json"), "utf8"));
  const known = JSON.parse(fs.readFileSync(path.join(HERE, "..", "known-deviations.json"), "utf8"));
  if (!only) await conformance(dir, line);
  const rows = all().filter((r) => (only ? only.includes(r.id) : !r.env || Object.keys(r.env).length === 0));
  for (const v of index.vectors) {
    for (const row of rows) {
      for (const test of row.tests) {
        if (test.startsWith("typed-")) continue; // the vectors are schemaless documents
        for (const format of row.formats) {
          const file = v.files[format];
          if (!file) continue;
          if ((v.skip || []).includes(format) || (v.skip || []).includes(row.library)) {
            line(row.id, test, format, v.name, "skip", "vector lists it in skip");
            continue;
          }
          let err = "";
          try {
            const data = fs.readFileSync(path.join(dir, file));
            const h = await verify(row, test, format, new Uint8Array(data.buffer, data.byteOffset, data.length));
            if (h !== v.hash) err = `hash ${h} != ${v.hash}`;
          } catch (e) {
            err = e.message || String(e);
          }
          // a runtime's own deviations first ("js-bun:<id>/<test>"), then the row's on every runtime
          const why =
            (known[`${HARNESS}:${row.id}/${test}`] || {})[v.name] ?? (known[`${row.id}/${test}`] || {})[v.name];
          if (why !== undefined && err) line(row.id, test, format, v.name, "skip", `known: ${why}`);
          else if (why !== undefined) line(row.id, test, format, v.name, "fail", "known deviation now passes");
          else if (err) line(row.id, test, format, v.name, "fail", err);
          else line(row.id, test, format, v.name, "pass");
        }
      }
    }
  }
  return { pass, fail, skip };
}

async function conformance(dir, line) {
  const p = path.join(dir, "conformance", "manifest.json");
  if (!fs.existsSync(p)) return;
  const m = JSON.parse(fs.readFileSync(p, "utf8"));
  if (m.version !== 1) throw new Error(`${p}: version ${m.version} (this harness reads version 1)`);
  const ref = all().find((r) => r.id === "hash-object");
  for (const c of m.cases) {
    if (!REF_FORMATS.includes(c.format)) {
      line("hash-object", "conformance", c.format, c.name, "skip", `no ${c.format} reference decoder`);
      continue;
    }
    let reason = "";
    try {
      const data = fs.readFileSync(path.join(dir, "conformance", c.file));
      let h = null,
        f = null;
      try {
        h = await verify(ref, "tree", c.format, new Uint8Array(data.buffer, data.byteOffset, data.length));
      } catch (e) {
        if (!(e instanceof Failure)) throw e;
        f = e;
      }
      if (c.expect === "reject" && !f) reason = `accepted (hash ${h}), expected a rejection (${c.rule})`;
      else if (c.expect === "reject" && f.code !== EXIT.INPUT)
        reason = `rejected with exit ${f.code}, expected ${EXIT.INPUT}: ${f.message}`;
      else if (c.expect === "accept" && f) reason = `rejected, expected an accept (${c.rule}): ${f.message}`;
      else if (c.expect === "accept" && h !== c.hash) reason = `hash ${h} != ${c.hash}`;
      else if (c.expect !== "accept" && c.expect !== "reject") reason = `unknown expectation ${c.expect}`;
    } catch (e) {
      reason = `the harness threw: ${e && e.stack ? e.stack.split("\n").slice(0, 3).join(" | ") : e}`;
    }
    line("hash-object", "conformance", c.format, c.name, reason ? "fail" : "pass", reason);
  }
}
