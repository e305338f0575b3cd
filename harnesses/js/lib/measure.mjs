// The timed loop (spec/protocol.md run steps 3, 4 and 9), the allocation pass (step 6) and the
// latency histogram (step 7), for V8 (spec/fairness.md, the JavaScript rule):
//   - Calibration grows the batch by prediction, as the Go harness does, until one batch lasts
//     max(MIN_BATCH_NS, budget/50): 10 ms, so that every batch holds the minor collections (V8's
//     scavenges) its own allocation causes at their natural rate, and a process's time is the mean
//     of its batches (the orchestrator's Harness.process_mean).
//   - Warm-up: V8 compiles a hot function in tiers (Ignition, Sparkplug, Maglev, TurboFan), each
//     making it faster, and may deoptimize and compile it again. After calibration the loop runs
//     batches until WARM_STABLE batches in a row are no faster than the fastest before them by more
//     than WARM_GAIN (no tier-up shows any more), at least WARM_MIN_NS and at most warmMaxNs(budget)
//     of batches. tools: `node --trace-opt --trace-deopt main.mjs run ...` shows when the last
//     optimization happened against the "sampling" marker on stderr (docs/diagnostics in README.md).
//   - The heap is collected once (gc(), the process runs with --expose-gc) between warm-up and
//     sampling, as go test -bench and the Go harness do; collections then run inside the batches
//     at V8's default settings (no heap flags).
//   - The sink: every operation returns a number, summed into a module variable that the info row
//     prints at the end, so no operation is dead code.

import v8 from "node:v8";
import { IS_BUN, collect } from "./runtime.mjs";
import * as canary from "./canary.mjs";

export const MIN_BATCH_NS = 10_000_000;
export const WARM_STABLE = 3;
export const WARM_GAIN = 0.02;
export const WARM_MIN_NS = 30_000_000;
/** The most warm-up: 8 times the sampling budget, at least 200 ms (quick mode's 25 ms budget: 200 ms;
 * full mode's 300 ms: 2.4 s). An operation that lasts a batch alone (size 5: 100-300 ms) has run
 * its loops thousands of times inside each call, and V8 compiles them on stack (OSR) within the
 * first ones; three more batches of it were a second of every such process. */
export function warmMaxNs(budgetNs) {
  return Math.max(200_000_000, 8 * budgetNs);
}

let sinkAcc = 0;
/** The sink's value (printed at the end of a run, so it is used). */
export function sink() {
  return sinkAcc;
}

function now() {
  return process.hrtime.bigint();
}

function batch(op, n) {
  let acc = 0;
  for (let i = 0; i < n; i++) acc = (acc + op()) | 0;
  sinkAcc ^= acc;
}

/** Go's predictN: the count that lasts targetNs at the last batch's pace, plus 20%, at most 100 times
 * n and at least n + 1. */
export function nextBatch(targetNs, n, elapsedNs) {
  elapsedNs = Math.max(elapsedNs, 1);
  let next = Math.floor((targetNs * n) / elapsedNs);
  next += Math.floor(next / 5);
  return Math.max(Math.min(next, 100 * n, 1_000_000_000), n + 1);
}

/** Calibrates, warms up, collects the heap, then samples until the budget and minSamples are
 * reached, each batch preceded by the canary timed alone. Returns {samples, batch, calibrationNs,
 * warmupNs, warmupBatches}. `onSampling` is called just before the first sample. */
export function runSamples(op, budgetNs, minSamples, onSampling = () => {}) {
  const target = Math.max(MIN_BATCH_NS, Math.floor(budgetNs / 50));
  const start = now();
  let n = 1;
  let cold = true;
  for (;;) {
    const t0 = now();
    batch(op, n);
    const took = Number(now() - t0);
    if (took >= target && cold) {
      cold = false; // the first operation is the coldest: timed again before it sets the batch
      continue;
    }
    cold = false;
    if (took >= target) {
      n += Math.floor(n / 5);
      break;
    }
    n = nextBatch(target, n, took);
  }
  const cal = Number(now() - start);
  // warm-up: until WARM_STABLE batches in a row bring no gain over the fastest before them
  const w0 = now();
  let best = Infinity;
  let stable = 0;
  let batches = 0;
  for (;;) {
    const t0 = now();
    batch(op, n);
    const t1 = now();
    batches++;
    const took = Number(t1 - t0);
    if (took < best * (1 - WARM_GAIN)) stable = 0;
    else stable++;
    best = Math.min(best, took);
    const spent = Number(t1 - w0);
    if ((stable >= WARM_STABLE && spent >= WARM_MIN_NS) || spent >= warmMaxNs(budgetNs)) break;
  }
  const warm = Number(now() - w0);
  // a tier-up during warm-up can make the batch several times faster than at calibration (a loop of
  // cheap operations: 0.5 ms batches where 10 ms were calibrated): the batch is grown again from the
  // fastest warm-up batch, as calibration grows it, so every sample still lasts the minimum
  if (best < target) n = Math.min(Math.ceil((n * target * 1.2) / Math.max(best, 1)), 100 * n);
  collect();
  for (let i = 0; i < canary.WARMUPS; i++) canary.run(canary.processTable, canary.ROUNDS);
  onSampling();
  const samples = [];
  const s0 = now();
  while (Number(now() - s0) < budgetNs || samples.length < minSamples) {
    const c0 = now();
    canary.run(canary.processTable, canary.ROUNDS);
    const t0 = now();
    batch(op, n);
    const t1 = now();
    samples.push({ iterations: n, wall_ns: Number(t1 - t0), canary_ns: Number(t0 - c0) });
  }
  return { samples, batch: n, calibrationNs: cal, warmupNs: warm, warmupBatches: batches };
}

/** Protocol step 9: one untimed warm-up operation, then exactly n as one batch; no clock read. */
export function fixed(op, n) {
  batch(op, 1);
  batch(op, n);
}

export const ALLOC_ITERATIONS = 20;
export const ALLOC_MIN_ITERATIONS = 2;
export const ALLOC_BUDGET_NS = 50_000_000;

export function allocCount(opNs) {
  if (!opNs) return ALLOC_ITERATIONS;
  return Math.min(Math.max(Math.floor(ALLOC_BUDGET_NS / opNs), ALLOC_MIN_ITERATIONS), ALLOC_ITERATIONS);
}

/** The allocation pass: bytes allocated in V8's heap per operation, over n operations after one
 * warm-up. V8 counts no allocations and the pinned Node (24) has no allocation counter, so the bytes
 * are the heap's used size after the operations less before, plus what every collection in between
 * freed (v8.GCProfiler's before/after used sizes of each): exact for the heap, whether or not a
 * scavenge ran. Not counted: ArrayBuffer backing stores outside the heap (Buffers above the pool
 * size), which V8 reports as external memory. */
export function allocs(op, n) {
  op();
  if (IS_BUN) return { bytesPerOp: null, collections: 0 };
  const empty = window(op, 0); // what the measurement itself allocates (its statistics objects)
  const w = window(op, n);
  return { bytesPerOp: Math.max(0, (w.bytes - empty.bytes) / n), collections: w.collections };
}

function window(op, n) {
  collect();
  const prof = new v8.GCProfiler();
  prof.start();
  const u0 = v8.getHeapStatistics().used_heap_size;
  let acc = 0;
  for (let i = 0; i < n; i++) acc = (acc + op()) | 0;
  const u1 = v8.getHeapStatistics().used_heap_size;
  const stats = prof.stop();
  sinkAcc ^= acc;
  let freed = 0;
  for (const s of stats.statistics)
    freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
  return { bytes: u1 - u0 + freed, collections: stats.statistics.length };
}

export const ALLOC_METHOD_BUN =
  "not measured: JavaScriptCore (Bun) exposes no allocation counter and no per-collection heap sizes (bun:jsc heapStats gives the live heap only), so bytes per op are null";

export const ALLOC_METHOD =
  "V8 heap bytes per op: v8.getHeapStatistics().used_heap_size after n ops less before, plus what each collection in between freed (v8.GCProfiler), mean of n ops after 1 warm-up (n as many as fit 50 ms, 2-20), less what the same measurement around no op counts; V8 counts no allocations (allocs_per_op null); ArrayBuffer backing stores outside the heap are not counted; the input copy goes into one buffer per cell";

// --- latency (protocol step 7) ---------------------------------------------------------------------

const SUB = 6;

function log2floor(v) {
  return v < 0x100000000 ? 31 - Math.clz32(v) : 63 - Math.clz32(Math.floor(v / 0x100000000));
}

function histIndex(v) {
  if (v <= 0) return 0;
  const k = log2floor(v);
  const j = k >= SUB ? Math.floor(v / 2 ** (k - SUB)) & 63 : (v * 2 ** (SUB - k)) & 63;
  return k * 64 + j;
}

function histHighest(i) {
  const k = Math.floor(i / 64),
    j = i & 63;
  if (k >= SUB) return (65 + j) * 2 ** (k - SUB) - 1;
  return Math.floor(((64 + j) * 2 ** k) / 64);
}

/** The log-bucketed latency histogram: 64 sub-buckets per power of two, as the Go and Rust harnesses. */
export class Histogram {
  constructor() {
    this.counts = new Float64Array(64 * 64);
    this.count = 0;
    this.max = 0;
  }
  record(ns) {
    this.counts[histIndex(ns)]++;
    this.count++;
    if (ns > this.max) this.max = ns;
  }
  buckets() {
    const out = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] !== 0) out.push([histHighest(i), this.counts[i]]);
    return out;
  }
  percentile(q) {
    const rank = Math.min(Math.max(Math.ceil(q * this.count), 1), Math.max(this.count, 1));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Math.min(histHighest(i), this.max);
    }
    return this.max;
  }
}

/** Times op(i) one record at a time, over every record in turn, until minOps operations and the
 * budget have passed. */
export function latency(op, records, budgetNs, minOps) {
  const h = new Histogram();
  // warm-up: every record once, untimed
  for (let i = 0; i < records; i++) sinkAcc ^= op(i);
  const s0 = now();
  let i = 0;
  while (h.count < minOps || Number(now() - s0) < budgetNs) {
    const t0 = now();
    const x = op(i);
    const t1 = now();
    sinkAcc ^= x;
    h.record(Number(t1 - t0));
    i = i + 1 === records ? 0 : i + 1;
  }
  return h;
}
