package serbench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The timed loop (spec/protocol.md `run` steps 3-4) for the JVM: calibrate, warm up until the JIT
 * has settled, then sample. Wall time from System.nanoTime, thread CPU time from ThreadMXBean.
 * The garbage collector runs inside the batches at the JVM's default settings: a Java user pays
 * for it (DESIGN §10), and the run records the collector and heap (`runtime` in the info row).
 */
public final class Measure {
    private Measure() {}

    /** One timed operation; returns the hash of what it decoded or wrote. */
    @FunctionalInterface
    public interface Op {
        long run() throws Exception;
    }

    /**
     * The sink (spec/fairness.md rule 3): every op's result is XORed into a local, which is
     * stored into this volatile field after each batch. The JIT must compute every result (each
     * depends on the whole decode), and a volatile store cannot be removed.
     */
    public static volatile long sink;

    public static final long MIN_BATCH_NS = 1_000_000;
    /** warm-up: the length of one window of batches */
    static final long WARM_WINDOW_NS = 20_000_000;
    /** warm-up: windows in a row without JIT activity before it counts as settled: 3 (60 ms). A
     *  compilation in progress shows in the compiler threads' CPU ticks (compilerTicks) before it
     *  finishes, so the quiet time need not outlast a C2 compilation. 10 windows (200 ms, until
     *  2026-12-05) cost a quick process 2.25-2.35 s on the harness core, 3 cost 1.09-1.45 s; times
     *  moved by a median +0.7% to +2.9% and no cell beyond the noise of a pair of runs
     *  (docs/studies/jvm-levers.md). The orchestrator passes it as the system property
     *  serbench.warmQuietWindows (`run --jit-quiet-ms`, java.py JIT_QUIET_MS); this default serves
     *  direct invocations (jmh-crosscheck.py) */
    static final int WARM_QUIET_WINDOWS = Integer.getInteger("serbench.warmQuietWindows", 3);
    /** warm-up: and the last window may be at most this much faster than the one before */
    static final double WARM_SETTLED = 0.02;

    /**
     * One timed batch: its size, wall and thread CPU time, and canaryNs, the time of the canary
     * run alone just before it (Canary; spec/protocol.md step 4, docs/methodology.md "The canary").
     */
    public record Sample(long iterations, long wallNs, Long cpuNs, long canaryNs) {}

    public record Result(List<Sample> samples, long batch, long calibrationNs, long warmupNs, int warmupBatches, boolean settled) {}

    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static Long threadCpuNs() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : null;
    }

    static long batch(Op op, long n) throws Exception {
        long acc = 0;
        for (long i = 0; i < n; i++) acc ^= op.run();
        sink = acc;
        return acc;
    }

    static long median(long[] xs, int from, int to) {
        long[] w = Arrays.copyOfRange(xs, from, to);
        Arrays.sort(w);
        return w[w.length / 2];
    }

    /**
     * CPU time, in clock ticks, that the JIT compiler threads ("C1 CompilerThread0", "C2
     * CompilerThread0", ...) have used so far, from /proc/self/task/TID/stat (Linux); -1 where
     * that cannot be read. The JVM hides its compiler threads from ThreadMXBean, and
     * CompilationMXBean counts a compilation only when it has finished, so this is the one signal
     * of a compilation still in progress.
     */
    static long compilerTicks() {
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) return -1;
        long ticks = 0;
        for (java.io.File t : tasks) {
            try {
                String stat = java.nio.file.Files.readString(new java.io.File(t, "stat").toPath());
                int open = stat.indexOf('('), close = stat.lastIndexOf(')');
                if (open < 0 || close < 0 || !stat.substring(open + 1, close).contains("CompilerThre")) continue;
                String[] f = stat.substring(close + 2).split(" ");
                // fields after the name: state(0) ... utime(11) stime(12)
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (java.io.IOException | RuntimeException e) {
                // a thread that ended while being read
            }
        }
        return ticks;
    }

    /** Milliseconds the JIT compilers have spent so far (-1 where the JVM does not say). */
    static long jitMs() {
        var c = ManagementFactory.getCompilationMXBean();
        return c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : -1;
    }

    /**
     * The warm-up cap: 100 budgets, at least 5 s and at most 20 s (quick mode's 40 ms: 5 s; full
     * mode's 300 ms: 20 s). Pinned to one CPU, the JIT shares it with the timed thread: Jackson's
     * tree on size-4 settled after 5.4 s at 3.5 ms per op, and a 2 s cap sampled it at 8.4 ms.
     */
    static long warmCapNs(long budgetNs) {
        return Math.min(20_000_000_000L, Math.max(5_000_000_000L, 100 * budgetNs));
    }

    /**
     * Calibrates (doubling the batch from 1 until one lasts max(1 ms, budget/50), as every
     * harness does), then warms up until the JIT has settled, then samples until the budget has
     * elapsed and `minSamples` samples exist, each batch preceded by a timed run of the canary
     * (Canary, protocol 1.9).
     *
     * How the harness knows the JIT has settled: it runs the batches in windows of at least 20 ms
     * and asks the JVM how long its JIT compilers have worked so far
     * (CompilationMXBean#getTotalCompilationTime, which grows when a compilation finishes) and
     * how much CPU its compiler threads have used (compilerTicks, which grows while one runs).
     * Warm-up ends after WARM_QUIET_WINDOWS windows in a row (60 ms) during which neither grew, the
     * last of them at most 2% faster per operation than the one before (a C2 compilation that
     * just landed would show as a faster window); or at the cap (warmCapNs). A per-batch time alone was not enough: the interpreter and C1 code run at a
     * steady pace for a while before C2 replaces them, and a 2% rule over five 1-ms batches
     * declared Jackson settled at 25 us per op on size-1 when it reaches 2 us. The info row says
     * whether warm-up settled or hit the cap, how long it took and how much the JIT compiled.
     */
    public static Result sample(Op op, long budgetNs, int minSamples) throws Exception {
        long target = Math.max(MIN_BATCH_NS, budgetNs / 50);
        long start = System.nanoTime();
        long n = 1;
        while (true) {
            long t0 = System.nanoTime();
            batch(op, n);
            if (System.nanoTime() - t0 >= target) break;
            n *= 2;
        }
        long calNs = System.nanoTime() - start;

        // protocol 1.9, step 4: the canary runs untimed at least 20 times before the first sample,
        // so that the JIT has compiled it and its table is warm: after the hold and calibration,
        // once at the start of every warm-up window (outside the window's timing), and after the
        // warm-up as many more times as make 20. Not 20 in a row, and not only 20: HotSpot compiles
        // it with C2 only through C1's profiled code, and the standard C2 compilation starts only at
        // a call made after C2's OSR code exists (JDK 17, -XX:+PrintCompilation, 2026-12-03). In a
        // test program, 20 runs in a row left C1 code: the next run took ~3 ms and started C2, which
        // would compile during the first timed batch. In the harness (jackson tree, a loaded host),
        // 20 runs one per window ended before C2's OSR code (its queue was busy with the library's
        // methods for 0.9 s), and all 49 samples' canaries ran C1 code: median 77 us, against 21 us
        // with a run in every window, as here, which keeps calling it until C2 has compiled it (1 s
        // before the samples). The orchestrator would take the 3.7 times for a slow core. The
        // warm-up's rule (windows without JIT activity) waits for that compilation to end.
        Canary canary = Canary.PROCESS;
        int canaryRuns = 0;

        long capNs = warmCapNs(budgetNs);
        boolean settled = false;
        int batches = 0, quiet = 0;
        double prevPerOp = Double.MAX_VALUE;
        long w0 = System.nanoTime();
        long jit = jitMs(), ticks = compilerTicks();
        while (System.nanoTime() - w0 < capNs) {
            canary.run(Canary.ROUNDS);
            canaryRuns++;
            long t0 = System.nanoTime(), ops = 0;
            do {
                batch(op, n);
                ops += n;
                batches++;
            } while (System.nanoTime() - t0 < WARM_WINDOW_NS);
            double perOp = (double) (System.nanoTime() - t0) / ops;
            long jitNow = jitMs(), ticksNow = compilerTicks();
            quiet = jitNow == jit && jit >= 0 && ticksNow == ticks ? quiet + 1 : 0;
            jit = jitNow;
            ticks = ticksNow;
            if (quiet >= WARM_QUIET_WINDOWS && perOp >= prevPerOp * (1 - WARM_SETTLED)) {
                settled = true;
                break;
            }
            prevPerOp = perOp;
        }
        for (; canaryRuns < Canary.WARM_RUNS; canaryRuns++) canary.run(Canary.ROUNDS);
        long warmNs = System.nanoTime() - w0;

        List<Sample> samples = new ArrayList<>();
        long s0 = System.nanoTime();
        while (System.nanoTime() - s0 < budgetNs || samples.size() < minSamples) {
            // the canary (spec/protocol.md step 4; docs/methodology.md, "The canary"), timed alone
            // just before the batch and outside its timing: how fast the core runs this process at
            // this moment, so that the orchestrator can divide out the host's slowdowns
            long canaryNs = canary.timeNs();
            Long c0 = threadCpuNs();
            long t0 = System.nanoTime();
            batch(op, n);
            long wall = System.nanoTime() - t0;
            Long c1 = threadCpuNs();
            samples.add(new Sample(n, wall, c0 != null && c1 != null ? Math.max(0, c1 - c0) : null, canaryNs));
        }
        return new Result(samples, n, calNs, warmNs, batches, settled);
    }

    /** The fixed-count loop of the instruction-count mode (step 9): one warm-up op, then n ops. */
    public static void fixed(Op op, long n) throws Exception {
        batch(op, 1);
        batch(op, n);
    }

    /** Bytes allocated by this thread (HotSpot's TLAB counter), or -1 where unsupported. */
    static long allocatedBytes() {
        if (THREADS instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported()) {
            return t.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    public static final int ALLOC_OPS = 20;

    /** The allocation pass: bytes allocated per op over ALLOC_OPS ops, after 5 untimed ones. */
    public static Double allocBytesPerOp(Op op) throws Exception {
        batch(op, 5);
        long a0 = allocatedBytes();
        batch(op, ALLOC_OPS);
        long a1 = allocatedBytes();
        return a0 < 0 ? null : (double) (a1 - a0) / ALLOC_OPS;
    }
}
