package serbench;

/**
 * `run --latency` (spec/protocol.md step 7, spec/typed.md "Latency"): one record at a time, each
 * operation timed alone into a log-bucketed histogram.
 */
public final class Latency {
    private Latency() {}

    /** One timed operation on record i; returns a hash (the sink). */
    @FunctionalInterface
    public interface OneOp {
        long run(int i) throws Exception;
    }

    /**
     * A log-bucketed histogram: bucket (k, j) holds values in [2^k (1 + j/64), 2^k (1 + (j+1)/64)),
     * under 1.6% relative error (as HdrHistogram with 2 significant digits); values under 64 ns are
     * exact. The same buckets as the Rust harness's.
     */
    public static final class Histogram {
        static final int SUB = 6; // 64 sub-buckets per power of two
        final long[] counts = new long[64 << SUB];
        long count;
        long max;

        static int index(long v) {
            if (v <= 0) return 0; // shares bucket 0 with 1 ns
            int k = 63 - Long.numberOfLeadingZeros(v);
            long j = k >= SUB ? (v >>> (k - SUB)) & 63 : (v << (SUB - k)) & 63;
            return (k << SUB) | (int) j;
        }

        /** The highest value that falls in bucket i. */
        static long highest(int i) {
            int k = i >>> SUB;
            long j = i & 63;
            return k >= SUB ? ((65 + j) << (k - SUB)) - 1 : ((64 + j) << k) >>> SUB;
        }

        public void record(long v) {
            counts[index(v)]++;
            count++;
            if (v > max) max = v;
        }

        public long count() {
            return count;
        }

        public long max() {
            return max;
        }

        /**
         * The non-empty buckets as [highest value, count] pairs, in order: what the orchestrator
         * pools over the forks of a cell (spec/protocol.md, the latency row's `buckets`).
         */
        public java.util.List<java.util.List<Long>> buckets() {
            java.util.List<java.util.List<Long>> out = new java.util.ArrayList<>();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != 0) out.add(java.util.List.of(highest(i), counts[i]));
            }
            return out;
        }

        /** The value at quantile q (0 < q <= 1): the bucket holding the ceil(q * count)-th smallest. */
        public long percentile(double q) {
            long rank = Math.max(1, Math.min((long) Math.ceil(q * count), Math.max(1, count)));
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) return Math.min(highest(i), max);
            }
            return max;
        }
    }

    /** Warm-up: at least this many passes over the records before timing. */
    static final int MIN_WARM_PASSES = 2;

    /**
     * The latency pass. Warm-up first: passes over all the records, untimed, until the JIT has been
     * quiet (no compilation finished, no compiler thread CPU) for Measure.WARM_QUIET_WINDOWS windows
     * of 20 ms in a row, or until Measure.warmCapNs(budget); then passes with each operation timed
     * alone (System.nanoTime around it) until `minOps` operations and `budgetNs` have passed. The result of every operation
     * is XORed into Measure.sink, so none can be removed.
     */
    public static Histogram run(OneOp op, int n, long budgetNs, long minOps) throws Exception {
        long acc = 0;
        long capNs = Measure.warmCapNs(budgetNs);
        long w0 = System.nanoTime();
        long jit = Measure.jitMs(), ticks = Measure.compilerTicks();
        int quiet = 0, passes = 0;
        long windowStart = System.nanoTime();
        while (System.nanoTime() - w0 < capNs) {
            for (int i = 0; i < n; i++) acc ^= op.run(i);
            passes++;
            if (System.nanoTime() - windowStart < Measure.WARM_WINDOW_NS) continue;
            long jitNow = Measure.jitMs(), ticksNow = Measure.compilerTicks();
            quiet = jitNow == jit && jit >= 0 && ticksNow == ticks ? quiet + 1 : 0;
            jit = jitNow;
            ticks = ticksNow;
            windowStart = System.nanoTime();
            if (quiet >= Measure.WARM_QUIET_WINDOWS && passes >= MIN_WARM_PASSES) break;
        }
        Measure.sink = acc;
        Histogram h = new Histogram();
        long start = System.nanoTime();
        while (true) {
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                long r = op.run(i);
                long dt = System.nanoTime() - t0;
                acc ^= r;
                h.record(dt);
            }
            Measure.sink = acc;
            if (h.count() >= minOps && System.nanoTime() - start >= budgetNs) return h;
        }
    }
}
