// The object hash (spec/hash.md) against its worked examples and every golden vector, in its three
// forms (tree, streaming, flat), and the canary's reference values (spec/protocol.md run step 4).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as hash from "../lib/hash.mjs";
import * as refdec from "../lib/refdec.mjs";
import * as canary from "../lib/canary.mjs";

const VECTORS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "vectors");

test("the worked examples of spec/hash.md hash as the spec says", () => {
  const cases = [
    [null, "670527f286862c69"],
    [{}, "365af1f36751b10a"],
    [[], "b9ebd45ee5d00974"],
    ["", "b54cda58fbbee87e"],
    ["abc", "fffe66391ebe87c4"],
    [[1, -1, 1.5], "f40ed65b31c6a160"],
  ];
  for (const [v, h] of cases) assert.equal(hash.hashHex(v), h, JSON.stringify(v));
});

test("every vector's every format decodes to the vector's hash in the tree, flat and event forms", () => {
  const index = JSON.parse(fs.readFileSync(path.join(VECTORS, "vectors.json"), "utf8"));
  let n = 0;
  for (const v of index.vectors) {
    for (const [format, file] of Object.entries(v.files)) {
      const data = new Uint8Array(fs.readFileSync(path.join(VECTORS, file)));
      const tree = refdec.decode(format, data);
      hash.hashValue(tree);
      assert.equal(hash.hex(), v.hash, `${v.name} ${format} (tree)`);
      const flat = new hash.Flat(tree);
      flat.hash();
      assert.equal(hash.hex(), v.hash, `${v.name} ${format} (flat)`);
      flat.hashEvents();
      assert.equal(hash.hex(), v.hash, `${v.name} ${format} (events)`);
      n++;
    }
  }
  assert.ok(n > 250);
});

test("an integer is one number line whether a number or a BigInt, and an integral float differs from it", () => {
  assert.equal(hash.hashHex({ a: 5 }), hash.hashHex({ a: 5n }));
  assert.equal(hash.hashHex({ a: -(2 ** 40) }), hash.hashHex({ a: -(2n ** 40n) }));
  assert.notEqual(hash.hashHex({ a: 1 }), hash.hashHex({ a: new hash.F64(1) }));
  assert.notEqual(hash.hashHex({ a: 0 }), hash.hashHex({ a: -0 }), "-0 is a float");
  assert.throws(() => hash.hashValue({ a: 2n ** 64n }), hash.ModelError);
  assert.throws(() => hash.hashValue({ a: undefined }), hash.ModelError);
  assert.throws(() => hash.hashValue({ a: new Date(0) }), hash.ModelError);
});

test("a lone surrogate has no UTF-8 form and is outside the data model", () => {
  assert.throws(() => hash.hashValue({ a: "x\ud800" }), hash.ModelError);
  assert.equal(hash.hashHex({ a: "\ud83d\ude00" }), hash.hashHex({ a: "😀" }));
});

test("the tree walk takes any depth: past its recursion bound the iterative walk gives the same hash", () => {
  for (const depth of [hash.MAX_DEPTH - 1, hash.MAX_DEPTH + 5, 200000]) {
    let v = { z: [1, "x", 2.5] };
    for (let i = 0; i < depth; i++) v = i % 2 ? { a: v, b: [true, null] } : [v, -7n];
    const want = new hash.Flat(v);
    want.hash();
    const h = hash.hex();
    hash.hashValue(v);
    assert.equal(hash.hex(), h, `depth ${depth}`);
    hash.hashValue(new Map([["m", v]]));
  }
});

test("the flat walk and a reused StreamHasher take any depth (10^5 nested arrays)", () => {
  let inner = [];
  const root = { a: inner };
  for (let i = 0; i < 100000; i++) {
    const next = [];
    inner.push(next);
    inner = next;
  }
  const flat = new hash.Flat(root);
  flat.hash();
  const a = hash.hex();
  flat.hashEvents();
  assert.equal(hash.hex(), a);
  const s = new hash.StreamHasher();
  for (let k = 0; k < 2; k++) {
    s.reset();
    s.startMap();
    s.key("a");
    for (let i = 0; i <= 100000; i++) s.startArray();
    for (let i = 0; i <= 100000; i++) s.end();
    s.end();
    assert.ok(s.done());
    s.result();
    assert.equal(hash.hex(), a);
  }
});

test("the canary returns the protocol's four reference values", () => {
  let t = canary.newTable();
  assert.equal(canary.run(t, 1, true), "10bbdc9709c21044");
  assert.equal(canary.run(t, 1, true), "90a439f3bbe304e7");
  t = canary.newTable();
  assert.equal(canary.run(t, 300, true), "722b95da6743ec00");
  assert.equal(canary.run(t, 300, true), "2e4d829ed1573db4");
});

test("the WebAssembly mum gives the JavaScript mum's result on every kind of operand", () => {
  const edge = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff];
  const cases = [];
  for (const a of edge) for (const b of edge) cases.push([a, b, b, a], [a, a, b, b]);
  for (let i = 0; i < 20000; i++) cases.push([0, 0, 0, 0].map(() => Math.floor(Math.random() * 2 ** 32)));
  for (const c of cases) {
    hash.M.set(c);
    hash.mum4js();
    const js = [hash.R[0], hash.R[1]];
    hash.M.set(c);
    hash.mum4();
    assert.deepEqual([hash.R[0], hash.R[1]], js, c.join(","));
  }
});

test("the WebAssembly bytes hash gives the JavaScript one's result at every length, past its scratch too", () => {
  for (const n of [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 1000, 4099]) {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = (i * 131 + n) & 0xff;
    hash.hashBinaryJS(b);
    const js = hash.hex();
    hash.hashBinary(b);
    assert.equal(hash.hex(), js, `length ${n}`);
  }
  const huge = Buffer.alloc(5 << 20, 0x5a); // beyond the 4 MiB scratch: the JavaScript path
  hash.hashBinaryJS(huge);
  const js = hash.hex();
  hash.hashBinary(huge);
  assert.equal(hash.hex(), js);
  hash.hashString("after the big input, the WebAssembly scratch again");
  const a = hash.hex();
  hash.hashValue("after the big input, the WebAssembly scratch again");
  assert.equal(hash.hex(), a);
});
