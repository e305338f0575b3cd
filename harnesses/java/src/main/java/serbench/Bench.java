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

    /** typed-encode: prepares the library's encoder of the records (outside the loop). */
    @FunctionalInterface
    public interface TypedEncode {
        Encoder prepare(String fmt, Typed.Records r) throws Exception;
    }

    /** typed-decode / typed-access: decodes (or views) bytes, a fresh copy, and returns the typed hash. */
    @FunctionalInterface
    public interface TypedDecode {
        long decode(String fmt, Typed.Schema s, byte[] data) throws Exception;
    }

    /** One record at a time (--latency): record i's encoding, and the typed hash of one record's bytes. */
    public interface One {
        byte[] encode(int i) throws Exception;

        long decode(byte[] data) throws Exception;
    }

    @FunctionalInterface
    public interface OneCodec {
        One prepare(String fmt, Typed.Records r) throws Exception;
    }

    public final String id;
    public final String library;
    public final List<String> formats;
    public String notes = "";
    public Decode tree;
    public Decode incremental;
    public Write write;
    public TypedEncode typedEncode;
    public TypedDecode typedDecode;
    public TypedDecode typedAccess;
    public OneCodec one;
    /**
     * The Maven artifact whose jar and run-time dependencies are the row's code size (CodeSize), when
     * it is not the library itself (SBE's generated codecs run on Agrona, not on sbe-tool).
     */
    public String codeArtifact;
    /** baselines: the tests they run as (a row subtracts the one Bench.baselineOf names) */
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

    public Bench codeArtifact(String artifactId) {
        codeArtifact = artifactId;
        return this;
    }

    /** The artifact CodeSize measures for this row. */
    public String artifact() {
        return codeArtifact != null ? codeArtifact : library;
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

    /** A typed row: its encoder (typed-encode, and the bytes typed-decode reads) and its decoder. */
    public Bench typed(TypedEncode enc, TypedDecode dec) {
        typedEncode = enc;
        typedDecode = dec;
        return this;
    }

    public Bench access(TypedDecode acc) {
        typedAccess = acc;
        return this;
    }

    public Bench one(OneCodec o) {
        one = o;
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
        if (typedEncode != null) t.add("typed-encode");
        if (typedEncode != null && typedDecode != null) t.add("typed-decode");
        if (typedEncode != null && typedAccess != null) t.add("typed-access");
        return t;
    }

    /** The baseline a row of `test` subtracts (spec/fairness.md rule 5): the same hashing work. */
    public static String baselineOf(String test) {
        return switch (test) {
            case "write" -> "hash-data";
            case "incremental" -> "hash-events";
            case "typed-encode" -> "hash-data-typed";
            case "typed-decode", "typed-access" -> "hash-typed";
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
