package serbench;

/**
 * The canary (spec/protocol.md `run` step 4, protocol 1.9; docs/methodology.md, "The canary"): a
 * fixed loop that touches only registers and a 256-byte table in L1 and allocates nothing. Its
 * time changes only with how fast the core runs the process at that moment (frequency, a sibling
 * hyper-thread, a host that steals or throttles the vCPU). The harness times it alone just before
 * each timed batch and writes the time in the batch's `sample` row as `canary_ns`, so the
 * orchestrator can divide each process's times by its canary's median against the harness's
 * clean canary time, and take out the host's slowdowns that hit a whole process.
 *
 * <p>The computation is the same in every harness: the table {@code buf[i] = (i * 37 + 1) & 0xff}
 * lives as long as the canary (the process, for {@link #PROCESS}); each run starts four wrapping
 * 64-bit accumulators at 1, 2, 3, 4 and runs R rounds over the table, round r ending with
 * {@code buf[r & 255] ^= a & 0xff}; the result {@code a ^ b ^ c ^ d} is XORed into a volatile sink,
 * so the JIT cannot drop the loop. An instance holds its own table, so a test can start from a
 * fresh one (the reference values are those of a fresh table).
 */
public final class Canary {
    /** R for compiled harnesses (spec/protocol.md step 4: about 20 us on a clean core). */
    public static final int ROUNDS = 300;
    /** Untimed runs before the first sample, at least (Measure.sample runs one per warm-up window too). */
    public static final int WARM_RUNS = 20;

    /** The process-wide canary the timed loop runs (Measure.sample). */
    static final Canary PROCESS = new Canary();

    /** Every run's result is XORed into this volatile field: the JIT must compute it. */
    public static volatile long sink;

    private final byte[] buf = new byte[256];

    public Canary() {
        for (int i = 0; i < buf.length; i++) buf[i] = (byte) (i * 37 + 1);
    }

    /** One run of `rounds` rounds; returns a ^ b ^ c ^ d (also XORed into {@link #sink}). */
    public long run(int rounds) {
        byte[] t = buf;
        long a = 1, b = 2, c = 3, d = 4;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < 256; i += 4) {
                a = a * 31 + (t[i] & 0xff);
                b = b * 37 + (t[i + 1] & 0xff);
                c = c * 41 + (t[i + 2] & 0xff);
                d = d * 43 + (t[i + 3] & 0xff);
            }
            t[r & 255] ^= (byte) a;
        }
        long x = a ^ b ^ c ^ d;
        sink ^= x;
        return x;
    }

    /** One run of {@link #ROUNDS} rounds timed alone with System.nanoTime (the batches' clock), in ns. */
    public long timeNs() {
        long t0 = System.nanoTime();
        run(ROUNDS);
        return System.nanoTime() - t0;
    }
}
