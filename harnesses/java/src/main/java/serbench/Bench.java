package serbench;

import java.util.ArrayList;
import java.util.List;

/**
 * One benchmark row: a library used one way (spec/protocol.md "Words"). Tests it does not give
 * a function for are unsupported (exit 5) without any code.
 */
public final class Bench {
    /** Decodes bytes (a fresh copy, the callee may keep or change it) and returns the object hash. */
    @FunctionalInterface
    public interface Decode {
        long decode(String fmt, byte[] data) throws Exception;
    }

    /** A write row's encoder, prepared from the harness's tree outside the timed loop. */
    @FunctionalInterface
    public interface Encoder {
        byte[] encode() throws Exception;
    }

    @FunctionalInterface
    public interface Write {
        Encoder prepare(String fmt, Object doc) throws Exception;
    }

    public final String id;
    public final String library;
    public final List<String> formats;
    public String notes = "";
    public Decode tree;
    public Decode incremental;
    public Write write;
    /** baselines: the tests they stand for */
    public List<String> baselineFor = List.of();

    public Bench(String id, String library, List<String> formats) {
        this.id = id;
        this.library = library;
        this.formats = formats;
    }

    public Bench notes(String n) {
        notes = n;
        return this;
    }

    public Bench tree(Decode d) {
        tree = d;
        return this;
    }

    public Bench incremental(Decode d) {
        incremental = d;
        return this;
    }

    public Bench write(Write w) {
        write = w;
        return this;
    }

    public boolean isBaseline() {
        return !baselineFor.isEmpty();
    }

    public List<String> tests() {
        if (isBaseline()) return baselineFor;
        List<String> t = new ArrayList<>();
        if (write != null) t.add("write");
        if (tree != null) t.add("tree");
        if (incremental != null) t.add("incremental");
        return t;
    }

    /** The baseline a row of `test` subtracts (spec/fairness.md rule 5): the same hashing work. */
    public static String baselineOf(String test) {
        return switch (test) {
            case "write" -> "hash-data";
            case "incremental" -> "hash-events";
            default -> "hash-object";
        };
    }

    /** Wraps a library's failure (exception or stack overflow) as the row's rejection (exit 3). */
    public static final class LibraryError extends Exception {
        public LibraryError(String msg) {
            super(msg);
        }
    }
}
