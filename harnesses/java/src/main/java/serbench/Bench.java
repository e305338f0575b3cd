package serbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    /** test -> this row's steps where its loop does other work than the test's contract ({@link #steps(String, String...)}) */
    private final Map<String, List<String>> stepsOverride = new LinkedHashMap<>();

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

    /**
     * Declares that this row's timed loop for `test` does other work than the test's contract
     * ({@link #contract}): the steps it does perform, in order, with a deviation word
     * ({@link #DEVIATIONS}) in place of (or beside) a contract word. Only deviating rows call it.
     */
    public Bench steps(String test, String... words) {
        stepsOverride.put(test, List.of(words));
        return this;
    }

    /** The steps this row's timed loop performs for `test` (`list`'s `steps`): its contract unless declared otherwise. */
    public List<String> stepsOf(String test) {
        List<String> own = stepsOverride.get(test);
        return own != null ? own : contract(test, isBaseline());
    }

    /** `list`'s `steps`: each of the row's tests and the steps of its loop. */
    public Map<String, List<String>> steps() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (String t : tests()) m.put(t, stepsOf(t));
        return m;
    }

    /**
     * The words a row puts in place of a contract word where its loop does other work (DESIGN
     * section 12: such a row is a labelled variant, never ranked beside the rows that keep the
     * contract): `prebuilt` (a write from the library's own value built outside the loop),
     * `convert` (converting between the harness's records and the library's types inside the loop),
     * `decode-unchecked` / `view-unchecked` (the library's validation skipped), `decode-lazy` (values
     * left unmaterialised and not read in the loop).
     */
    public static final List<String> DEVIATIONS = List.of("prebuilt", "convert", "decode-unchecked", "view-unchecked", "decode-lazy");

    /**
     * The work contract of each test (spec/fairness.md, DESIGN section 12), in one place: the steps
     * every row's timed loop performs, and (baseline) those of the baseline that stands for it, whose
     * time is subtracted: the row's steps less the library's.
     */
    public static List<String> contract(String test, boolean baseline) {
        return switch (test) {
            case "write" -> baseline ? List.of("hash-output") : List.of("from-object", "encode", "hash-output");
            case "tree", "typed-decode" -> baseline ? List.of("copy-input", "visit-all") : List.of("copy-input", "decode", "visit-all");
            case "incremental" -> baseline ? List.of("copy-input", "hash-events") : List.of("copy-input", "parse-events", "hash-events");
            case "typed-encode" -> baseline ? List.of("hash-output") : List.of("encode", "hash-output");
            case "typed-access" -> baseline ? List.of("copy-input", "visit-all") : List.of("copy-input", "view", "visit-all");
            default -> throw new IllegalArgumentException("no contract for test " + test);
        };
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
