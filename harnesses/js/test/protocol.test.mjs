// The harness as the orchestrator runs it: list's rows and steps, selftest over vectors/ (the golden
// vectors through every row, the conformance set through the reference decoders), and the exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const VECTORS = path.join(DIR, "..", "..", "vectors");
const MAIN = path.join(DIR, "main.mjs");

function harness(...args) {
  return spawnSync(process.execPath, ["--expose-gc", MAIN, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
}

test("list gives every row its tests, formats, baselines and steps, and the correct JSON row first", () => {
  const r = harness("list");
  assert.equal(r.status, 0, r.stderr);
  const l = JSON.parse(r.stdout);
  assert.equal(l.protocol, 1);
  assert.match(l.runtime, /^Node\.js v24\./);
  const ids = l.benchmarks.map((b) => b.id);
  for (const b of l.benchmarks) {
    assert.deepEqual(Object.keys(b.steps).sort(), [...b.tests].sort(), b.id);
    for (const base of Object.values(b.baseline_for)) assert.ok(ids.includes(base), `${b.id}: ${base}`);
  }
  const first = l.benchmarks.find((b) => !b.baseline && b.tests.includes("tree"));
  assert.equal(first.id, "json-parse-source");
  for (const id of [
    "msgpackr",
    "msgpackr-js",
    "msgpack-javascript",
    "cbor-x",
    "cbor-x-js",
    "cborg",
    "node-cbor",
    "js-bson",
  ])
    assert.ok(ids.includes(id), id);
  const v8row = l.benchmarks.find((b) => b.id === "v8-serialize");
  assert.deepEqual(v8row.formats, ["v8"]);
  assert.deepEqual(v8row.reads, { v8: "msgpack" });
});

test("selftest passes every vector and every conformance case, known deviations skipped", () => {
  const r = harness("selftest", "--vectors", VECTORS);
  assert.equal(
    r.status,
    0,
    r.stdout
      .split("\n")
      .filter((l) => l.includes('"fail"'))
      .slice(0, 5)
      .join("\n") + r.stderr,
  );
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const conf = lines.filter((l) => l.test === "conformance");
  const cases = JSON.parse(fs.readFileSync(path.join(VECTORS, "conformance", "manifest.json"), "utf8")).cases;
  assert.equal(conf.length, cases.length);
  assert.ok(
    conf.every((l) => l.status === "pass"),
    "every format, UBJSON included, has a reference decoder",
  );
  // the pure-JS rows ran in their own processes, with their environment
  assert.ok(lines.some((l) => l.bench === "msgpackr-js" && l.status === "pass"));
  assert.ok(lines.some((l) => l.bench === "cbor-x-js" && l.status === "pass"));
});

test("a library's rejection exits 3, the reference decoder's 6, an unknown row 2, an unsupported format 5", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sbjs-"));
  const bad = path.join(tmp, "bad.bin");
  fs.writeFileSync(bad, Buffer.from("c1ff007b5b67617262616765", "hex"));
  const v = (...a) => harness("verify", "--test", "tree", "--file", bad, ...a);
  let r = v("--bench", "msgpackr", "--format", "msgpack");
  assert.equal(r.status, 3, r.stdout + r.stderr);
  assert.ok(JSON.parse(r.stdout).error);
  r = v("--bench", "hash-object", "--format", "msgpack");
  assert.equal(r.status, 6, r.stdout + r.stderr);
  r = v("--bench", "no-such-row", "--format", "msgpack");
  assert.equal(r.status, 2);
  r = v("--bench", "msgpackr", "--format", "cbor");
  assert.equal(r.status, 5);
  // a library's tree deeper than the walk's recursion: walked all the same (JSON.parse is iterative)
  const deep = path.join(tmp, "deep.json");
  fs.writeFileSync(deep, '{"a":' + "[".repeat(100000) + "]".repeat(100000) + "}");
  r = harness("verify", "--bench", "json-parse", "--test", "tree", "--format", "json", "--file", deep);
  const ref = harness("verify", "--bench", "hash-object", "--test", "tree", "--format", "json", "--file", deep);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout, ref.stdout);
});

test("run writes the check, samples with their canary, and the allocation pass after them", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sbjs-"));
  const results = path.join(tmp, "r.jsonl");
  const index = JSON.parse(fs.readFileSync(path.join(VECTORS, "vectors.json"), "utf8"));
  const v = index.vectors.find((x) => x.name === "micro-like");
  const file = path.join(VECTORS, v.files.msgpack);
  const r = harness(
    "run",
    "--bench",
    "msgpackr",
    "--test",
    "tree",
    "--format",
    "msgpack",
    "--file",
    file,
    "--expect-hash",
    v.hash,
    "--results",
    results,
    "--budget-ms",
    "20",
    "--min-samples",
    "3",
    "--alloc",
  );
  assert.equal(r.status, 0, r.stderr);
  const rows = fs
    .readFileSync(results, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const kinds = rows.map((x) => x.kind);
  assert.equal(kinds[0], "check");
  assert.ok(rows[0].ok);
  const samples = rows.filter((x) => x.kind === "sample");
  assert.ok(samples.length >= 3 && samples.every((s) => s.canary_ns > 0 && s.wall_ns > 0));
  assert.ok(kinds.lastIndexOf("sample") < kinds.indexOf("alloc"));
  assert.equal(rows.find((x) => x.kind === "alloc").allocs_per_op, null);
});

test("the pinned Bun runs the same harness as js-bun: its list, a verify and its runtime's own rows", () => {
  const bun = path.join(DIR, "node_modules", "@oven", "bun-linux-x64", "bin", "bun");
  const r = spawnSync(bun, [MAIN, "list"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const l = JSON.parse(r.stdout);
  assert.equal(l.harness, "js-bun");
  assert.match(l.runtime, /^Bun 1\.4\.5 \(JavaScriptCore/);
  assert.equal(l.benchmarks.find((b) => b.id === "json-parse-source").library, "JSON (JavaScriptCore)");
  const index = JSON.parse(fs.readFileSync(path.join(VECTORS, "vectors.json"), "utf8"));
  const v = index.vectors.find((x) => x.name === "int64-extremes");
  const file = path.join(VECTORS, v.files.json);
  const out = spawnSync(
    bun,
    [MAIN, "verify", "--bench", "json-parse-source", "--test", "tree", "--format", "json", "--file", file],
    { encoding: "utf8" },
  );
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { hash: v.hash }, "JavaScriptCore has JSON.parse's source text access too");
});

test("code-size bundles each library with the pinned esbuild, and list gives the sizes of the current lock", () => {
  const r = harness("code-size");
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout);
  assert.ok(c.libraries.msgpackr.bytes > 10_000 && c.libraries.msgpackr.bytes < 1_000_000);
  const l = JSON.parse(harness("list").stdout);
  const row = l.benchmarks.find((b) => b.id === "cborg");
  assert.equal(row.code_size_bytes, c.libraries.cborg.bytes);
  assert.match(row.code_size_method, /esbuild .* minus an empty entry's bundle/);
  assert.equal(
    l.benchmarks.find((b) => b.id === "json-parse-source").code_size_bytes,
    undefined,
    "the engine's JSON has none",
  );
});
