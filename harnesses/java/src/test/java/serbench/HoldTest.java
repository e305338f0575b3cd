package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `run --hold` (spec/protocol.md `run` step 10): the harness checks and prepares, then reads one
 * byte of standard input before it calibrates, warms up or times anything. In-process, as the other
 * tests run the harness: System.in is replaced by a stream that blocks until the test releases it.
 */
class HoldTest {
    @TempDir
    Path dir;

    /** Standard input that blocks in read() until released, then answers `answer` (a byte, or -1 for EOF). */
    static final class Gate extends InputStream {
        final CountDownLatch reading = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger reads = new AtomicInteger();
        volatile int answer = 'g';
        volatile boolean fails;

        @Override
        public int read() throws IOException {
            reads.incrementAndGet();
            reading.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new InterruptedIOException();
            }
            if (fails) throw new IOException("stdin went away");
            return answer;
        }
    }

    /** A harness run on another thread, with `stdin` as System.in while it runs. */
    static final class Held {
        final Thread thread;
        final AtomicReference<Object> result = new AtomicReference<>();

        Held(List<String> argv) {
            thread = new Thread(() -> {
                try {
                    result.set(Main.dispatch(argv.toArray(new String[0])));
                } catch (Throwable t) {
                    result.set(t);
                }
            }, "held-run");
            thread.start();
        }

        int exit() throws Exception {
            thread.join(TimeUnit.MINUTES.toMillis(2));
            assertFalse(thread.isAlive(), "the run did not finish");
            Object r = result.get();
            if (r instanceof Throwable t) throw new AssertionError(t);
            return (Integer) r;
        }
    }

    static List<String> argv(String bench, String test, String fmt, Path file, String expect, Path results, String... extra) {
        List<String> a = new ArrayList<>(List.of("run", "--bench", bench, "--test", test, "--format", fmt, "--file", file.toString(),
                "--expect-hash", expect, "--results", results.toString(), "--budget-ms", "1", "--min-samples", "3"));
        a.addAll(List.of(extra));
        return a;
    }

    /** The expected hash of a file: the schemaless tree hash of what the reference decoder reads. */
    static String hashOf(Path file) throws Exception {
        return Hash.hex(Model.hash(RefDecoder.decode("json", Files.readAllBytes(file))));
    }

    Path doc() throws Exception {
        Path p = dir.resolve("doc.json");
        Files.writeString(p, "{\"name\": \"held \\u2713\", \"values\": [1, -2, 3.5, true, null, \"x\"], \"inner\": {\"k\": -9007199254740993}}");
        return p;
    }

    Path trades() throws Exception {
        StringBuilder sb = new StringBuilder("{\"schema\":\"trade\",\"records\":[");
        for (int i = 0; i < 20; i++) {
            if (i > 0) sb.append(',');
            sb.append("{\"price\":").append(i / 4.0).append(",\"flag\":").append(i % 2 == 0).append(",\"text\":\"trade ").append(i)
                    .append("\",\"side\":\"").append(i % 2 == 0 ? "Buy" : "Sell").append("\",\"small_int\":").append(i * 1_000_003L)
                    .append(",\"long_int\":").append(Long.MAX_VALUE - i).append('}');
        }
        Path p = dir.resolve("trade.json");
        Files.writeString(p, sb.append("]}"), StandardCharsets.UTF_8);
        return p;
    }

    static List<String> kinds(Path results) throws Exception {
        List<String> k = new ArrayList<>();
        if (!Files.exists(results)) return k;
        for (String line : Files.readAllLines(results)) k.add(line.replaceAll("^\\{\"kind\": \"([a-z]+)\".*", "$1"));
        return k;
    }

    /** What a held run wrote before the byte and in all, and how long it ran after the byte. */
    record Released(List<String> before, List<String> all, List<String> lines, long afterNs) {}

    /**
     * The least a run can take after the byte if its warm-up runs after it: warm-up (Measure.sample
     * and Latency.run) ends only after WARM_QUIET_WINDOWS quiet windows of at least 20 ms, or at its
     * 5 s cap.
     */
    static final long WARMUP_MIN_NS = Measure.WARM_QUIET_WINDOWS * Measure.WARM_WINDOW_NS;

    /**
     * Runs `argv` with a gate as standard input: waits until the harness reads it, checks that the
     * rows written so far hold no `timed` kind (and stay so for a while), then writes the byte.
     * Rows alone cannot show that calibration and warm-up come after the byte (the samples are
     * written after all of them are taken), so it also checks that the run goes on for at least a
     * warm-up's minimum after the byte.
     */
    static Released holdThenRelease(List<String> argv, Path results, String timed) throws Exception {
        InputStream stdin = System.in;
        Gate gate = new Gate();
        System.setIn(gate);
        try {
            Held run = new Held(argv);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!gate.reading.await(20, TimeUnit.MILLISECONDS)) {
                assertTrue(run.thread.isAlive() && System.nanoTime() < deadline,
                        "the harness never read standard input: exit " + run.result.get() + ", rows " + kinds(results));
            }
            List<String> before = kinds(results);
            assertEquals("check", before.get(0), before.toString());
            assertFalse(before.contains(timed), before.toString());
            // held: nothing more is timed however long the byte takes
            Thread.sleep(300);
            assertTrue(run.thread.isAlive());
            assertEquals(before, kinds(results));
            long released = System.nanoTime();
            gate.release.countDown();
            assertEquals(Main.EXIT_OK, run.exit());
            long afterNs = System.nanoTime() - released;
            assertEquals(1, gate.reads.get(), "one byte is read");
            assertTrue(afterNs >= WARMUP_MIN_NS, "the run ended " + afterNs + " ns after the byte: warmed up before it");
            List<String> all = kinds(results);
            assertEquals(before, all.subList(0, before.size()), "rows before the byte stay as they were");
            return new Released(before, all, Files.readAllLines(results), afterNs);
        } finally {
            gate.release.countDown();
            System.setIn(stdin);
        }
    }

    @Test
    void a_held_run_writes_no_sample_until_a_byte_arrives_on_stdin_and_samples_after_it() throws Exception {
        Path doc = doc(), results = dir.resolve("tree.jsonl");
        Released r = holdThenRelease(argv("jackson", "tree", "json", doc, hashOf(doc), results, "--hold"), results, "sample");
        List<String> after = r.all().subList(r.before().size(), r.all().size());
        assertTrue(after.stream().filter("sample"::equals).count() >= 3, r.all().toString());
        // calibration and the JIT's warm-up ran after the byte, on the core the process was moved to
        String info = r.lines().stream().filter(l -> l.contains("\"calibration_ns\"")).findFirst().orElseThrow();
        long beforeSamples = Long.parseLong(info.replaceAll(".*\"calibration_ns\": (\\d+).*", "$1"))
                + Long.parseLong(info.replaceAll(".*\"warmup_ns\": (\\d+).*", "$1"));
        assertTrue(beforeSamples <= r.afterNs(), "calibration and warm-up took " + beforeSamples + " ns, the run " + r.afterNs() + " ns after the byte");
    }

    @Test
    void a_held_typed_run_writes_no_sample_until_a_byte_arrives_on_stdin() throws Exception {
        Path trades = trades(), results = dir.resolve("typed.jsonl");
        Released r = holdThenRelease(argv("jackson-typed", "typed-encode", "json", trades, hashOf(trades), results, "--hold"),
                results, "sample");
        assertTrue(r.all().subList(r.before().size(), r.all().size()).contains("sample"), r.all().toString());
    }

    @Test
    void a_held_latency_run_times_nothing_until_a_byte_arrives_on_stdin() throws Exception {
        Path trades = trades(), results = dir.resolve("latency.jsonl");
        Released r = holdThenRelease(argv("jackson-typed", "typed-decode", "json", trades, hashOf(trades), results, "--hold", "--latency"),
                results, "latency");
        assertEquals("latency", r.all().get(r.all().size() - 1), r.all().toString());
    }

    @Test
    void end_of_file_or_a_read_error_on_stdin_lets_a_held_run_complete() throws Exception {
        Path doc = doc();
        InputStream stdin = System.in;
        try {
            for (boolean fails : new boolean[] {false, true}) {
                Gate gate = new Gate();
                gate.answer = -1;
                gate.fails = fails;
                gate.release.countDown();
                System.setIn(gate);
                Path results = dir.resolve("eof-" + fails + ".jsonl");
                Held run = new Held(argv("jackson", "tree", "json", doc, hashOf(doc), results, "--hold"));
                assertEquals(Main.EXIT_OK, run.exit(), "read error: " + fails);
                assertEquals(1, gate.reads.get());
                assertTrue(kinds(results).contains("sample"), kinds(results).toString());
            }
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void a_failing_check_and_the_iterations_mode_never_read_stdin() throws Exception {
        Path doc = doc();
        InputStream stdin = System.in;
        Gate gate = new Gate();
        gate.answer = -1;
        gate.release.countDown();
        System.setIn(gate);
        try {
            Path wrong = dir.resolve("wrong.jsonl");
            assertEquals(Main.EXIT_MISMATCH, new Held(argv("jackson", "tree", "json", doc, "0123456789abcdef", wrong, "--hold")).exit());
            Path fixed = dir.resolve("fixed.jsonl");
            assertEquals(Main.EXIT_OK, new Held(argv("jackson", "tree", "json", doc, hashOf(doc), fixed, "--hold", "--iterations", "3")).exit());
            assertEquals(List.of("check", "info", "sample"), kinds(fixed));
            assertEquals(0, gate.reads.get(), "standard input was read");
        } finally {
            System.setIn(stdin);
        }
    }
}
