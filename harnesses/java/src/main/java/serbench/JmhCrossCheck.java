package serbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH cross-check of issue 19: JMH times the very operation the harness times for a cell
 * (`Cell.timedOp`, after the same `prepare` and hash check), so the two figures measure the same code
 * and differ only in the timing method (JMH's forks, iterations and Blackhole against the harness's
 * calibrated batches and XOR sink). Compiled only in the `jmh` Maven profile; docs/java-jmh.md runs it
 * beside the harness and prints the ratios (harnesses/java/jmh-crosscheck.py).
 *
 * `cell` is bench/test/format/file, the file relative to `corpus`; the JMH defaults below (5 forks,
 * 5 x 1 s warm-up, 5 x 1 s measurement) are overridden by the command line (-f, -wi, -i, -w, -r).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(5)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class JmhCrossCheck {
    @Param({"jackson/tree/json/size-2.json", "msgpack-core/tree/msgpack/size-2.msgpack", "protobuf-java/typed-decode/protobuf/trade.json"})
    public String cell;

    @Param("../../corpus")
    public String corpus;

    private Measure.Op op;

    @Setup
    public void setup() throws Exception {
        String[] p = cell.split("/", 4);
        Args a = Args.parse(new String[] {"--bench", p[0], "--test", p[1], "--format", p[2], "--file", Path.of(corpus, p[3]).toString()},
                List.of("bench", "test", "format", "file"), List.of());
        Cell c = Cell.lookup(Adapters.all(), a);
        if (c == null) throw new IllegalArgumentException("unsupported cell " + cell);
        byte[] data = Files.readAllBytes(Path.of(corpus, p[3]));
        c.prepare(data);
        // the harness checks the hash before timing; so does this (its value is printed by the script's harness run)
        c.check(data);
        op = c.timedOp(data);
    }

    /** One operation of the cell, as the harness's batches run it; JMH's Blackhole sinks the result. */
    @Benchmark
    public long op() throws Exception {
        return op.run();
    }
}
