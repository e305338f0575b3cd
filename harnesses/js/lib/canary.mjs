// The canary of spec/protocol.md run step 4: a fixed loop, timed alone just before each timed batch,
// whose time moves only with the speed the core gives the process. The same computation as every
// harness's: a 256-byte table buf[i] = (i*37 + 1) & 0xff, four wrapping 64-bit accumulators
// a, b, c, d = 1, 2, 3, 4, and R rounds of a = a*31 + buf[i] (b: 37, c: 41, d: 43) over the table
// four bytes at a time, round r ending with buf[r & 255] ^= a & 0xff. JavaScript has no 64-bit
// integer but BigInt, which allocates: each accumulator is two 32-bit halves in locals, and x*k + byte
// is exact in a double for the low half (< 2^38), its carry added to the high half with Math.imul.
// It allocates nothing, and stays in registers and L1 once V8 has compiled it (the 20 untimed runs
// before the first sample, Warmups).

/** R for this harness: 300 rounds, as the compiled harnesses (about 40 µs on a clean core here). */
export const ROUNDS = 300;
/** Untimed runs before the first sample. */
export const WARMUPS = 20;

const M32 = 0x100000000;

/** A canary table (the process keeps one, `processTable`; a test takes a fresh one). */
export function newTable() {
  const buf = new Uint8Array(256);
  for (let i = 0; i < 256; i++) buf[i] = (i * 37 + 1) & 0xff;
  return buf;
}

export const processTable = newTable();

/** The sink: every run XORs its result's halves in, so no run can be dropped. */
export const sink = new Uint32Array(2);

/** One run: returns a ^ b ^ c ^ d as 16 hex digits when `asHex`, else nothing (the halves go to
 * the sink). */
export function run(buf, rounds, asHex = false) {
  let ah = 0,
    al = 1,
    bh = 0,
    bl = 2,
    ch = 0,
    cl = 3,
    dh = 0,
    dl = 4;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i <= 252; i += 4) {
      let x = al * 31 + buf[i];
      al = x >>> 0;
      ah = (Math.imul(ah, 31) + ((x / M32) | 0)) >>> 0;
      x = bl * 37 + buf[i + 1];
      bl = x >>> 0;
      bh = (Math.imul(bh, 37) + ((x / M32) | 0)) >>> 0;
      x = cl * 41 + buf[i + 2];
      cl = x >>> 0;
      ch = (Math.imul(ch, 41) + ((x / M32) | 0)) >>> 0;
      x = dl * 43 + buf[i + 3];
      dl = x >>> 0;
      dh = (Math.imul(dh, 43) + ((x / M32) | 0)) >>> 0;
    }
    buf[r & 255] ^= al & 0xff;
  }
  const h = (ah ^ bh ^ ch ^ dh) >>> 0;
  const l = (al ^ bl ^ cl ^ dl) >>> 0;
  sink[0] ^= h;
  sink[1] ^= l;
  if (asHex) return h.toString(16).padStart(8, "0") + l.toString(16).padStart(8, "0");
  return undefined;
}
