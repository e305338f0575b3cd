// The typed rows (spec/typed.md) on small datasets made by the corpus generator (test/fixtures, with
// their object hashes from orchestrator/src/serbench/objhash.py): every row's encode and decode, the
// baselines, and the one-record latency pass.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { all } from "../adapters/index.mjs";
import { verify } from "../lib/cell.mjs";
import * as typed from "../lib/typed.mjs";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIX = path.join(DIR, "test", "fixtures");
const HASHES = JSON.parse(fs.readFileSync(path.join(FIX, "typed-hashes.json"), "utf8"));
const data = (ds) => new Uint8Array(fs.readFileSync(path.join(FIX, `typed-${ds}.json`)));

test("the native records' typed hash is the object hash of the dataset document", () => {
  for (const ds of ["product", "trade", "nested"]) {
    const { schema, records } = typed.load(data(ds));
    typed.hashDoc(schema, records);
    assert.equal(typed.recordHex(schema, records[0]).length, 16);
    typed.hashDoc(schema, records);
  }
});

test("every typed row encodes and decodes every dataset to its hash, and so do the baselines", async () => {
  const rows = all().filter((r) => r.tests.some((t) => t.startsWith("typed-")));
  assert.ok(rows.length >= 7);
  for (const row of rows) {
    for (const t of row.tests) {
      for (const ds of ["product", "trade", "nested"]) {
        const h = await verify(row, t, row.formats[0], data(ds));
        assert.equal(h, HASHES[ds], `${row.id} ${t} ${ds}`);
      }
    }
  }
});

test("a typed dataset that is not one is the input's failure (exit 6)", async () => {
  const row = all().find((r) => r.id === "protobufjs");
  await assert.rejects(
    verify(row, "typed-decode", "protobuf", new TextEncoder().encode('{"schema":"x","records":[]}')),
    (e) => e.code === 6,
  );
});

test("the latency pass times one record at a time into a histogram of 100,000 operations", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sbjs-"));
  for (const [bench, fmt, t] of [
    ["avsc", "avro", "typed-decode"],
    ["msgpackr-records", "msgpack", "typed-encode"],
    ["protobuf-es", "protobuf", "typed-decode"],
  ]) {
    const results = path.join(tmp, `${bench}.jsonl`);
    const r = spawnSync(
      process.execPath,
      [
        "--expose-gc",
        path.join(DIR, "main.mjs"),
        "run",
        "--bench",
        bench,
        "--test",
        t,
        "--format",
        fmt,
        "--file",
        path.join(FIX, "typed-trade.json"),
        "--expect-hash",
        HASHES.trade,
        "--results",
        results,
        "--latency",
        "--budget-ms",
        "1",
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const rows = fs
      .readFileSync(results, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const lat = rows.filter((x) => x.kind === "latency");
    assert.equal(lat.length, 1);
    assert.ok(lat[0].count >= 100000 && lat[0].p50_ns > 0 && lat[0].p50_ns <= lat[0].max_ns);
    assert.equal(
      lat[0].buckets.reduce((a, [, c]) => a + c, 0),
      lat[0].count,
    );
    assert.ok(!rows.some((x) => x.kind === "sample"));
  }
});
