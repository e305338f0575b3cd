// The timed loop's pieces: Go's batch prediction, the latency histogram, the allocation pass.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as measure from "../lib/measure.mjs";

test("the next batch is the prediction plus 20%, at most 100 times and at least one more", () => {
  assert.equal(measure.nextBatch(10_000_000, 1, 1_000_000), 12);
  assert.equal(measure.nextBatch(10_000_000, 10, 1), 1000);
  assert.equal(measure.nextBatch(10_000_000, 10, 50_000_000), 11);
});

test("the histogram's percentiles are bucket highs within 1.6% and its buckets sum to the count", () => {
  const h = new measure.Histogram();
  for (let i = 1; i <= 100000; i++) h.record(i);
  const p50 = h.percentile(0.5);
  assert.ok(p50 >= 50000 && p50 <= 50000 * 1.016, String(p50));
  assert.equal(h.percentile(1), 100000);
  assert.equal(
    h.buckets().reduce((a, [, c]) => a + c, 0),
    100000,
  );
  const small = new measure.Histogram();
  small.record(0);
  small.record(7);
  assert.equal(small.percentile(1), 7);
});

test("the allocation pass counts the heap bytes an operation allocates, collections or not", () => {
  assert.equal(typeof globalThis.gc, "function", "the tests run with --expose-gc, as the harness does");
  let keep = null;
  const op = () => {
    keep = new Array(1000).fill(0).map((_, i) => ({ i }));
    return keep.length;
  };
  const a = measure.allocs(op, 20);
  // 1000 small objects and the arrays: at least 16 bytes each
  assert.ok(a.bytesPerOp > 16_000 && a.bytesPerOp < 200_000, String(a.bytesPerOp));
  const big = () => {
    keep = new Array(200_000).fill(0).map((_, i) => ({ i }));
    return 1;
  };
  const b = measure.allocs(big, 5);
  assert.ok(b.collections > 0, "a pass over several MB per op sees collections");
  assert.ok(b.bytesPerOp > 200_000 * 16, String(b.bytesPerOp));
});

test("the samples carry the canary and the batch reaches the minimum length", () => {
  let x = 0;
  const r = measure.runSamples(() => (x = (x + 1) | 0), 20_000_000, 3);
  assert.ok(r.samples.length >= 3);
  for (const s of r.samples) {
    assert.ok(s.iterations >= 1 && s.wall_ns > 0 && s.canary_ns > 0);
    assert.ok(s.wall_ns >= measure.MIN_BATCH_NS * 0.5, String(s.wall_ns));
  }
});
