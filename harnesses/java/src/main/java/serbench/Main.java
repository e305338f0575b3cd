package serbench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import serbench.Cell.Fail;

/** serbench Java harness: list, run, verify, selftest (spec/protocol.md, protocol 1). */
public final class Main {
    private Main() {}

    static final int EXIT_OK = 0, EXIT_USAGE = 2, EXIT_REJECTED = 3, EXIT_MISMATCH = 4, EXIT_UNSUPPORTED = 5, EXIT_INPUT = 6;
    static final List<String> PROTOCOL_TESTS = List.of("write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access");

    public static void main(String[] argv) {
        int code;
        try {
            code = dispatch(argv);
        } catch (Usage u) {
            code = usage(u.getMessage());
        }
        System.out.flush();
        System.exit(code);
    }

    static int dispatch(String[] argv) throws Usage {
        List<Bench> benches = Adapters.all();
        String cmd = argv.length > 0 ? argv[0] : "";
        String[] rest = argv.length > 0 ? java.util.Arrays.copyOfRange(argv, 1, argv.length) : argv;
        return switch (cmd) {
            case "list" -> list(benches);
            case "run" -> run(benches, runArgs(rest));
            case "run-cells" -> runCells(benches, Args.parse(rest, List.of("cells"), List.of()));
            case "verify" -> verify(benches, Args.parse(rest, List.of("bench", "test", "format", "file"), List.of()));
            case "selftest" -> Selftest.run(benches, Args.parse(rest, List.of("vectors"), List.of()));
            case "--help", "-h" -> {
                usage("help");
                yield EXIT_OK;
            }
            default -> usage("expected a command: list, run, run-cells, verify or selftest");
        };
    }

    static int usage(String msg) {
        System.err.println("serbench-java: " + msg);
        System.err.println("usage: serbench-java list | run --bench ID --test T --format F --file P --expect-hash H --results P"
                + " [--budget-ms N] [--min-samples N] [--alloc] [--latency] [--no-check] [--output-file P] [--seed N] [--iterations N] [--hold]"
                + " | run-cells --cells FILE (one run's arguments per line, tab-separated)"
                + " | verify --bench ID --test T --format F --file P | selftest --vectors DIR");
        return EXIT_USAGE;
    }

    /** A wrong command line (exit 2). */
    static final class Usage extends Exception {
        Usage(String msg) {
            super(msg);
        }
    }

    // --- facts about this JVM, recorded with every run ---------------------------------------

    static String runtime() {
        var rt = ManagementFactory.getRuntimeMXBean();
        List<String> gcs = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) gcs.add(gc.getName());
        return jdk() + ", " + rt.getVmName() + " " + System.getProperty("java.vm.version") + ", GC " + String.join(" + ", gcs)
                + ", max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB, flags "
                + (rt.getInputArguments().isEmpty() ? "(none)" : String.join(" ", rt.getInputArguments()));
    }

    /**
     * The JDK's distribution, version and vendor ("Temurin 25.0.3 (Eclipse Adoptium)", "OpenJDK 17.0.15
     * (Debian)"), named as the orchestrator names it in the run's record (harnesses/java.py, Jdk.label):
     * the JIT, collector and class library a cell measures come with it. java.vendor.version names a
     * distribution's build ("Temurin-25.0.3+9"); plain OpenJDK builds have none.
     */
    static String jdk() {
        String build = System.getProperty("java.vendor.version", "").trim();
        String name = build.isEmpty() ? System.getProperty("java.runtime.name", "Java").split(" ")[0] : build.split("-")[0].trim();
        return name + " " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")";
    }

    static String version(String library) {
        return Versions.of(library);
    }

    // --- list ----------------------------------------------------------------------------------

    static int list(List<Bench> benches) {
        List<Object> rows = new ArrayList<>();
        Map<String, CodeSize.Size> sizes = CodeSize.of(benches.stream().filter(b -> !b.isBaseline()).map(Bench::artifact).distinct().toList());
        for (Bench b : benches) {
            Map<String, Object> baselineFor = new TreeMap<>();
            Map<String, Object> measures = new TreeMap<>();
            for (String t : b.tests()) {
                if (!b.isBaseline()) baselineFor.put(t, Bench.baselineOf(t));
                measures.put(t, Cell.measures(b, t));
            }
            rows.add(JsonOut.obj("id", b.id, "library", b.library, "version", version(b.library), "formats", b.formats,
                    "tests", b.tests(), "baseline_for", baselineFor, "notes", b.notes, "baseline", b.isBaseline(),
                    "measures", measures, "steps", b.steps()));
            CodeSize.Size size = b.isBaseline() ? null : sizes.get(b.artifact());
            if (size != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> row = (Map<String, Object>) rows.get(rows.size() - 1);
                row.put("code_size_bytes", size.bytes());
                row.put("code_size_method", size.method());
            }
        }
        System.out.println(JsonOut.write(JsonOut.obj("protocol", 1, "harness", "java", "runtime", runtime(), "benchmarks", rows)));
        return EXIT_OK;
    }

    // --- run -----------------------------------------------------------------------------------

    static final class Results {
        final FileOutputStream out;

        Results(String path) throws IOException {
            out = new FileOutputStream(path, true);
        }

        void row(String kind, Object... kv) {
            Map<String, Object> m = JsonOut.obj("kind", kind);
            m.putAll(JsonOut.obj(kv));
            try {
                out.write((JsonOut.write(m) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                System.err.println("cannot write the results file: " + e.getMessage());
                System.exit(1);
            }
        }
    }

    static Args runArgs(String[] rest) throws Usage {
        return Args.parse(rest, List.of("bench", "test", "format", "file", "expect-hash", "results",
                "budget-ms", "min-samples", "seed", "output-file", "iterations"), List.of("alloc", "no-check", "latency", "hold"));
    }

    /**
     * Several cells in one JVM (issue 72's lever "several cells of one row in one process"): each line
     * of the --cells file holds one `run`'s arguments, tab-separated, each with its own results file;
     * they run in the file's order, each with its own check, calibration and JIT-settling warm-up, as
     * `run` does alone. Exit 0, or the first cell's non-zero exit code. research/jvm_levers.py
     * measures it against one cell per process; `serbench run` does not use it yet.
     */
    static int runCells(List<Bench> benches, Args a) throws Usage {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(a.get("cells")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Usage("cannot read " + a.get("cells") + ": " + e.getMessage());
        }
        int code = EXIT_OK;
        for (String line : lines) {
            if (line.isBlank()) continue;
            int c = run(benches, runArgs(line.split("\t")));
            if (code == EXIT_OK) code = c;
        }
        return code;
    }

    static int run(List<Bench> benches, Args a) throws Usage {
        Cell cell = Cell.lookup(benches, a);
        if (cell == null) return EXIT_UNSUPPORTED;
        String expect = a.get("expect-hash").toLowerCase();
        String resultsPath = a.get("results");
        long budgetMs = a.num("budget-ms", 300);
        int minSamples = (int) a.num("min-samples", 5);
        a.num("seed", 0);
        long iterations = a.num("iterations", 0);
        if (a.has("iterations") && iterations < 1) throw new Usage("--iterations must be at least 1");
        byte[] data = readFile(a.get("file"));
        Results out;
        try {
            out = new Results(resultsPath);
        } catch (IOException e) {
            throw new Usage("cannot open " + resultsPath + ": " + e.getMessage());
        }
        if (a.flag("latency") && !cell.test.equals("typed-encode") && !cell.test.equals("typed-decode")) {
            System.err.println("--latency applies to typed-encode and typed-decode only");
            return EXIT_UNSUPPORTED;
        }
        try {
            cell.prepare(data);
        } catch (Fail f) {
            out.row("error", "reason", f.getMessage());
            return f.code;
        }
        boolean encodes = cell.test.equals("write") || cell.test.equals("typed-encode");
        String outputFile = a.has("output-file") && encodes ? a.get("output-file") : null;
        if (!a.flag("no-check") || outputFile != null) {
            Cell.Checked c;
            try {
                c = cell.check(data);
            } catch (Fail f) {
                out.row("error", "reason", f.getMessage());
                return f.code;
            }
            if (outputFile != null && c.output() != null) {
                try {
                    Files.write(Path.of(outputFile), c.output());
                } catch (IOException e) {
                    throw new Usage("cannot write " + outputFile + ": " + e.getMessage());
                }
            }
            if (!a.flag("no-check")) {
                String got = Hash.hex(c.hash());
                boolean ok = got.equals(expect);
                Map<String, Object> row = JsonOut.obj("ok", ok, "hash", got, "expected", expect);
                if (encodes) row.put("output_bytes", c.output() == null ? null : c.output().length);
                if (!ok) row.put("reason", "hash " + got + " != expected " + expect);
                out.row("check", flatten(row));
                if (!ok) return EXIT_MISMATCH;
            }
        }
        if (a.flag("latency")) return runLatency(benches, cell, budgetMs, !a.flag("no-check"), a.flag("hold"), out);
        out.row("info", "measures", Cell.measures(cell.bench, cell.test), "runtime", runtime());
        Measure.Op op = cell.timedOp(data);
        try {
            if (iterations > 0) {
                Measure.fixed(op, iterations);
                out.row("sample", "iterations", iterations, "wall_ns", 0, "cpu_ns", null);
                return EXIT_OK;
            }
            // protocol step 10: checked and prepared; calibration and the JIT's warm-up run after
            // the hold, on the core the orchestrator has moved the process to
            if (a.flag("hold")) hold();
            Measure.Result r = Measure.sample(op, budgetMs * 1_000_000, minSamples);
            out.row("info", "batch", r.batch(), "calibration_ns", r.calibrationNs(), "warmup_ns", r.warmupNs(),
                    "warmup_batches", r.warmupBatches(), "warmup_settled", r.settled(),
                    "warmup_rule", "windows of >= " + Measure.WARM_WINDOW_NS / 1_000_000 + " ms until " + Measure.WARM_QUIET_WINDOWS + " in a row (" + Measure.WARM_QUIET_WINDOWS * Measure.WARM_WINDOW_NS / 1_000_000 + " ms) in which the JIT neither finished a compilation (CompilationMXBean) nor used CPU (compiler threads in /proc/self/task), the last < 2% faster than the one before; cap clamp(100 x budget, 5 s, 20 s)", "jit_compile_ms", Measure.jitMs());
            // canary_ns (protocol 1.9, step 4): the canary's time just before the batch, which the
            // orchestrator uses to divide out the host's slowdowns (docs/methodology.md, "The canary");
            // not in the --iterations row above (no clock there) nor in the latency path
            for (Measure.Sample s : r.samples()) {
                out.row("sample", "iterations", s.iterations(), "wall_ns", s.wallNs(), "cpu_ns", s.cpuNs(), "canary_ns", s.canaryNs());
            }
            if (a.flag("alloc")) {
                // protocol step 6, after the samples: the JIT has compiled the op, as in the timed loop
                Double bytes = Measure.allocBytesPerOp(op);
                out.row("alloc", "allocs_per_op", null, "alloc_bytes_per_op", bytes, "method",
                        "jvm-thread-allocated-bytes: com.sun.management.ThreadMXBean#getThreadAllocatedBytes, mean of "
                                + Measure.ALLOC_OPS + " ops after 5 untimed; bytes only, the JVM has no cheap count of allocations;"
                                + " the decode rows' input copy goes into one buffer per cell, so it is not counted");
            }
            return EXIT_OK;
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            out.row("error", "reason", Cell.describe(e));
            return EXIT_REJECTED;
        }
    }

    /**
     * `run --latency` (protocol step 7): one record at a time, each operation timed into the
     * log-bucketed histogram; writes one `latency` row. Baselines time the same per-record work
     * without the library, on the bytes of the first row of the format with a one-record codec.
     */
    static int runLatency(List<Bench> benches, Cell cell, long budgetMs, boolean verify, boolean hold, Results out) {
        Bench codecOf = cell.bench;
        if (cell.bench.isBaseline()) {
            codecOf = benches.stream().filter(b -> b.one != null && b.formats.contains(cell.fmt)).findFirst().orElse(null);
        }
        if (codecOf == null || codecOf.one == null) {
            System.err.println(cell.bench.id + " has no one-record codec for " + cell.fmt);
            return EXIT_UNSUPPORTED;
        }
        Object[] recs = cell.records.array();
        int n = recs.length;
        if (n == 0) {
            out.row("error", "reason", "the dataset has no records (a typed dataset for --latency needs one)");
            return EXIT_INPUT;
        }
        Bench.One codec;
        byte[][] wires = new byte[n][];
        long[] hashes = new long[n];
        try {
            codec = codecOf.one.prepare(cell.fmt, cell.records);
            for (int i = 0; i < n; i++) wires[i] = codec.encode(i);
        } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
            out.row("error", "reason", Cell.describe(e));
            return EXIT_REJECTED;
        }
        for (int i = 0; i < n; i++) hashes[i] = Typed.hashRecord(recs[i]);
        if (verify) {
            // every record round-trips on its own (outside the timed pass)
            for (int i = 0; i < n; i++) {
                long h;
                try {
                    h = codec.decode(wires[i].clone());
                } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
                    out.row("error", "reason", "record " + i + ": " + Cell.describe(e));
                    return EXIT_REJECTED;
                }
                if (h != hashes[i]) {
                    String reason = "record " + i + ": hash " + Hash.hex(h) + " != " + Hash.hex(hashes[i]);
                    out.row("check", "ok", false, "hash", Hash.hex(h), "expected", Hash.hex(hashes[i]), "reason", reason);
                    return EXIT_MISMATCH;
                }
            }
        }
        boolean base = cell.bench.isBaseline(), encode = cell.test.equals("typed-encode");
        String what = base ? (encode ? "hash of one record's encoding" : "copy one record's encoding (into its own buffer, allocated once) + typed hash of the prebuilt record")
                : (encode ? "encode one record (prepared outside the loop) + hash of its bytes"
                        : "copy one record's encoding (into its own buffer, allocated once) + decode it + typed hash of the record");
        out.row("info", "measures", what, "runtime", runtime(), "records", n, "histogram",
                "log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)",
                "warmup_rule", "untimed passes over the records until the JIT is quiet for " + Measure.WARM_QUIET_WINDOWS
                        + " windows of " + Measure.WARM_WINDOW_NS / 1_000_000 + " ms (as run's warm-up), at least 2 passes");
        Bench.One c = codec;
        // Each record's fresh copy goes into a buffer of its own, allocated here, once (the decoders
        // take a whole array, and the records' lengths differ), so the harness allocates nothing in a
        // timed operation, as the throughput loop's Cell.fresh and the Go harness's latency pass.
        // A clone per operation was the harness's own garbage in every operation; on trade's small
        // records its effect on jackson-typed's percentiles was within the host's noise (two runs of
        // 3 forks, before and after: p50 783 and 943 ns, p99.99 51 and 75 us, on a noisy host).
        byte[][] ins = new byte[n][];
        for (int i = 0; i < n; i++) ins[i] = new byte[wires[i].length];
        Latency.OneOp op;
        if (!base && encode) op = i -> Hash.ofOutput(c.encode(i));
        else if (!base) op = i -> c.decode(fresh(wires[i], ins[i]));
        else if (encode) op = i -> Hash.ofOutput(wires[i]);
        else op = i -> hashes[i] ^ fresh(wires[i], ins[i]).length;
        if (hold) hold(); // protocol step 10: the records are checked and encoded, nothing is timed yet
        try {
            Latency.Histogram h = Latency.run(op, n, budgetMs * 1_000_000, 100_000);
            // p99999_ns: the percentile issue 19 asks for; buckets: the histogram itself, which the
            // orchestrator pools over a cell's forks in full mode (spec/protocol.md)
            out.row("latency", "count", h.count(), "p50_ns", h.percentile(0.5), "p99_ns", h.percentile(0.99), "p999_ns",
                    h.percentile(0.999), "p9999_ns", h.percentile(0.9999), "p99999_ns", h.percentile(0.99999), "max_ns", h.max(),
                    "buckets", h.buckets());
            return EXIT_OK;
        } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
            out.row("error", "reason", Cell.describe(e));
            return EXIT_REJECTED;
        }
    }

    /**
     * Copies src into dst (of src's length) and returns dst: the latency pass's fresh input
     * (spec/fairness.md rule 1). dst is reachable from the pass's buffers, so the copy is kept.
     */
    static byte[] fresh(byte[] src, byte[] dst) {
        System.arraycopy(src, 0, dst, 0, src.length);
        return dst;
    }

    /**
     * `run --hold` (protocol step 10): waits for one byte on standard input, or its end, before
     * anything is timed. The orchestrator starts the process on a spare core with --hold while the
     * one before measures, then moves it (every thread) to the harness core and writes the byte;
     * so loading and the check overlap the other's measurement, and calibration, the JIT's
     * warm-up and the samples all run after the move. A read error goes on as end of file would.
     * Reads System.in when called (the tests replace it).
     */
    static void hold() {
        try {
            System.in.read();
        } catch (IOException e) {
            // go on, as at end of file
        }
    }

    private static Object[] flatten(Map<String, Object> m) {
        List<Object> kv = new ArrayList<>();
        m.forEach((k, v) -> {
            kv.add(k);
            kv.add(v);
        });
        return kv.toArray();
    }

    static byte[] readFile(String path) throws Usage {
        try {
            return Files.readAllBytes(Path.of(path));
        } catch (IOException | RuntimeException e) {
            throw new Usage("cannot read " + path + ": " + e.getMessage());
        }
    }

    // --- verify --------------------------------------------------------------------------------

    static int verify(List<Bench> benches, Args a) throws Usage {
        Cell cell = Cell.lookup(benches, a);
        if (cell == null) return EXIT_UNSUPPORTED;
        byte[] data = readFile(a.get("file"));
        try {
            cell.prepare(data);
            cell.releaseAfterEncode();
            long h = cell.check(data).hash();
            System.out.println(JsonOut.write(JsonOut.obj("hash", Hash.hex(h))));
            return EXIT_OK;
        } catch (Fail f) {
            System.out.println(JsonOut.write(JsonOut.obj("error", f.getMessage())));
            return f.code;
        }
    }
}
