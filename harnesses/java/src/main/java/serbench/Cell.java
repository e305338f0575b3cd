package serbench;

import java.util.List;

/**
 * One cell: a benchmark, a test and a format. Prepares what the timed loop needs (outside it),
 * checks the hash once, and builds the timed operation. Library calls are wrapped so that any
 * exception or stack overflow they raise is the library's rejection (exit 3); the harness's own
 * code (reference decoders, walks) is iterative and reports its own limits as the input's (exit 6).
 */
final class Cell {
    final Bench bench;
    final String test;
    final String fmt;

    private Object doc; // the reference tree (write rows, baselines)
    private FlatDoc flat; // hash-object, hash-events
    private final FlatDoc.Hasher flatHasher = new FlatDoc.Hasher(); // its stacks grow in the check
    private Bench.Encoder encoder; // write rows
    private final StreamHasher hasher = new StreamHasher();
    private List<Bench> all = List.of(); // every benchmark (the typed baselines' wire comes from the rows)
    Typed.Records records; // typed tests: the native records, loaded outside the loop
    private byte[] wire; // typed-decode/access: the row's own encoding; typed baselines: the shortest
    private Bench.Encoder typedEncoder; // typed-encode rows
    private byte[] in; // the fresh copy of the input each timed decode reads (fresh)
    private boolean once; // verify: checked once, never timed (releaseAfterEncode)

    Cell(Bench b, String test, String fmt) {
        this.bench = b;
        this.test = test;
        this.fmt = fmt;
    }

    /** Why a cell cannot be checked or measured, with its exit code. */
    static final class Fail extends Exception {
        final int code;

        Fail(int code, String msg) {
            super(msg);
            this.code = code;
        }
    }

    record Checked(long hash, byte[] output) {}

    static String measures(Bench b, String test) {
        if (b.isBaseline()) {
            return switch (b.id) {
                case "hash-data-typed" -> "hash of the records' encoding in the format (the shortest any row makes, made outside the loop)";
                case "hash-typed" -> "copy the format's encoding (into the cell's buffer) + typed hash of the prebuilt native records";
                case "hash-data" -> "hash of the input file's bytes (what a write row does with its output)";
                case "hash-events" -> "copy input (into the cell's buffer) + the harness's prebuilt object, flat, fed in document order into the streaming hash (keys and leaves hashed as hash-object's, no per-event type switch)";
                case "hash-object" -> "copy input (into the cell's buffer) + hash the harness's prebuilt object with its flat walk (pre-order primitive arrays, scalars through a table of type seeds: no type switch, no iterators): the hash's work";
                default -> "copy input (into the cell's buffer) + TreeWalk hash of the harness's prebuilt tree (an iterator per container, a type dispatch per value)";
            };
        }
        return switch (test) {
            case "typed-encode" -> "encode the native records (prepared outside the loop) + hash of the output bytes; the output is decoded by the same library and hashed once, outside the loop";
            case "typed-decode" -> "copy the library's own encoding (into the cell's buffer) + decode into native records (or the library's generated types) + typed hash walk";
            case "typed-access" -> "copy the library's own encoding (into the cell's buffer) + open the library's view + read every field through it with the typed hash";
            case "write" -> "encode from the harness's tree (library calls driven by an iterative walk) + hash of the output bytes; the output is decoded with the reference decoder and hashed once, outside the loop";
            case "tree" -> "copy input (into the cell's buffer) + parse to the library's tree + TreeWalk hash over it";
            default -> "copy input (into the cell's buffer) + streaming/pull parse feeding the streaming hash (no tree)";
        };
    }

    /** Finds the benchmark and checks (test, format): null means unsupported (exit 5, said on stderr). */
    static Cell lookup(List<Bench> benches, Args a) throws Main.Usage {
        String id = a.get("bench"), test = a.get("test"), fmt = a.get("format");
        if (!Main.PROTOCOL_TESTS.contains(test)) throw new Main.Usage("unknown test \"" + test + "\"");
        Bench b = benches.stream().filter(x -> x.id.equals(id)).findFirst().orElse(null);
        if (b == null) throw new Main.Usage("unknown benchmark \"" + id + "\"");
        if (!b.tests().contains(test) || !b.formats.contains(fmt)) {
            System.err.println(id + " does not support " + test + " on " + fmt);
            return null;
        }
        Cell c = new Cell(b, test, fmt);
        c.all = benches;
        return c;
    }

    static String describe(Throwable e) {
        String name = e.getClass().getSimpleName();
        if (e instanceof StackOverflowError) return "library overflowed the stack (StackOverflowError)";
        if (e instanceof OutOfMemoryError) return "library ran out of memory (" + e.getMessage() + ")";
        // a library class whose static initialiser threw (LinkageError covers the first failure and the
        // NoClassDefFoundError of every later use)
        if (e instanceof ExceptionInInitializerError && e.getCause() != null) return "library failed to initialise: " + describe(e.getCause());
        String msg = e.getMessage();
        if (msg == null) return name;
        msg = msg.replace('\n', ' ');
        if (msg.length() > 300) msg = msg.substring(0, 300) + "...";
        return e instanceof Bench.LibraryError || e instanceof Hash.OutOfModel ? msg : name + ": " + msg;
    }

    private Object reference(byte[] data) throws Fail {
        try {
            return RefDecoder.decode(fmt, data);
        } catch (RefDecoder.Rejected e) {
            throw new Fail(Main.EXIT_INPUT, "the reference decoder rejects the input (" + fmt + "): " + e.getMessage());
        }
    }

    boolean typed() {
        return test.startsWith("typed-");
    }

    /** The typed dataset's records; a file that is not one is the input's fault (exit 6). */
    static Typed.Records loadTyped(byte[] data) throws Fail {
        try {
            return Typed.load(data);
        } catch (Typed.BadInput e) {
            throw new Fail(Main.EXIT_INPUT, e.getMessage());
        }
    }

    /**
     * The records encoded in a typed wire format, for the baselines: the shortest encoding any row
     * of this harness makes in that format (rows sharing a format id may write different layouts,
     * and a baseline must never copy or hash more bytes than a row it is subtracted from does).
     */
    static byte[] typedWire(List<Bench> benches, String fmt, Typed.Records r) throws Fail {
        byte[] best = null;
        String lastErr = "no typed encoder for " + fmt;
        for (Bench b : benches) {
            if (b.typedEncode == null || !b.formats.contains(fmt)) continue;
            try {
                byte[] w = b.typedEncode.prepare(fmt, r).encode();
                if (best == null || w.length < best.length) best = w;
            } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
                // a library that cannot carry these records (bson and uint64) has no row to match here
                lastErr = describe(e);
            }
        }
        if (best == null) throw new Fail(Main.EXIT_REJECTED, lastErr);
        return best;
    }

    private void prepareTyped(byte[] data) throws Fail {
        records = loadTyped(data);
        if (bench.isBaseline()) {
            wire = typedWire(all, fmt, records);
            return;
        }
        try {
            typedEncoder = bench.typedEncode.prepare(fmt, records);
            if (!test.equals("typed-encode")) wire = typedEncoder.encode();
        } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
            throw new Fail(Main.EXIT_REJECTED, describe(e));
        }
    }

    /** For verify: the check runs once and nothing is timed after it, so a write row's check may drop
     *  the harness's tree once the library has encoded it (robustness's writers, docs/robustness.md). */
    void releaseAfterEncode() {
        once = true;
    }

    void prepare(byte[] data) throws Fail {
        if (typed()) {
            prepareTyped(data);
            return;
        }
        if (bench.isBaseline()) {
            if (bench.id.equals("hash-data")) return;
            doc = reference(data);
            try {
                if (bench.id.equals("hash-object") || bench.id.equals("hash-events")) {
                    flat = FlatDoc.of(doc);
                    doc = null; // the timed loop reads the flat document alone
                }
            } catch (Exception e) {
                throw new Fail(Main.EXIT_INPUT, describe(e));
            }
            return;
        }
        if (test.equals("write")) {
            doc = reference(data);
            try {
                encoder = bench.write.prepare(fmt, doc);
            } catch (Exception | StackOverflowError | OutOfMemoryError e) {
                throw new Fail(Main.EXIT_REJECTED, describe(e));
            }
        }
    }

    private Checked checkTyped() throws Fail {
        if (bench.isBaseline()) return new Checked(Typed.hash(records), null);
        try {
            if (test.equals("typed-encode")) {
                byte[] out = typedEncoder.encode();
                Bench.TypedDecode dec = bench.typedDecode != null ? bench.typedDecode : bench.typedAccess;
                long h;
                try {
                    h = dec.decode(fmt, records.schema(), out.clone());
                } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
                    throw new Fail(Main.EXIT_REJECTED, "cannot decode its own output: " + describe(e));
                }
                return new Checked(h, out);
            }
            Bench.TypedDecode dec = test.equals("typed-access") ? bench.typedAccess : bench.typedDecode;
            return new Checked(dec.decode(fmt, records.schema(), wire.clone()), null);
        } catch (Fail f) {
            throw f;
        } catch (Exception | StackOverflowError | OutOfMemoryError | LinkageError e) {
            throw new Fail(Main.EXIT_REJECTED, describe(e));
        }
    }

    Checked check(byte[] data) throws Fail {
        if (typed()) return checkTyped();
        try {
            if (bench.isBaseline()) {
                if (bench.id.equals("hash-data")) return new Checked(Model.hash(reference(data)), null);
                if (flat != null && bench.id.equals("hash-events")) return new Checked(flatHasher.hashEvents(flat, hasher), null);
                if (flat != null) return new Checked(flatHasher.hash(flat), null);
                return new Checked(Model.hash(doc), null);
            }
        } catch (Hash.OutOfModel e) {
            throw new Fail(Main.EXIT_INPUT, e.getMessage());
        }
        try {
            switch (test) {
                case "write" -> {
                    byte[] out = encoder.encode();
                    if (once) {
                        // the harness's tree (and the encoder holding it) are not needed again: a
                        // document nested 10^6 deep is held once, not beside its read-back copy
                        doc = null;
                        encoder = null;
                    }
                    Object back;
                    try {
                        back = RefDecoder.decode(fmt, out);
                    } catch (RefDecoder.Rejected e) {
                        throw new Fail(Main.EXIT_REJECTED, "the reference decoder cannot read the library's output: " + e.getMessage());
                    }
                    return new Checked(Model.hash(back), out);
                }
                case "tree" -> {
                    return new Checked(bench.tree.decode(fmt, data.clone()), null);
                }
                default -> {
                    return new Checked(bench.incremental.decode(fmt, data.clone()), null);
                }
            }
        } catch (Fail f) {
            throw f;
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            throw new Fail(Main.EXIT_REJECTED, describe(e));
        }
    }

    /**
     * Copies src into the cell's one buffer and returns it: spec/fairness.md rule 1's fresh input for
     * every timed operation, as the native harness's memcpy into its reused buffer. One buffer of
     * src's length, allocated once (the decoders take a whole array, and a cell's input has one
     * length): a clone per operation was a 250 KB array per operation at size 4, so the collector ran
     * every few operations in the baselines and rows alike (docs/studies/java-baselines.md, "Java's baselines").
     * The buffer is a field, so the copy is never optimised away.
     */
    private byte[] fresh(byte[] src) {
        byte[] b = in;
        if (b == null || b.length != src.length) in = b = new byte[src.length];
        System.arraycopy(src, 0, b, 0, src.length);
        return b;
    }

    private Measure.Op typedOp() {
        byte[] w = wire;
        Typed.Schema s = records.schema();
        String f = fmt;
        if (bench.isBaseline()) {
            if (bench.id.equals("hash-data-typed")) return () -> Hash.ofOutput(w);
            Typed.Records r = records;
            return () -> {
                byte[] copy = fresh(w);
                return Typed.hash(r) ^ copy.length;
            };
        }
        if (test.equals("typed-encode")) {
            Bench.Encoder enc = typedEncoder;
            return () -> Hash.ofOutput(enc.encode());
        }
        Bench.TypedDecode dec = test.equals("typed-access") ? bench.typedAccess : bench.typedDecode;
        return () -> dec.decode(f, s, fresh(w));
    }

    Measure.Op timedOp(byte[] data) {
        if (typed()) return typedOp();
        if (bench.isBaseline()) {
            switch (bench.id) {
                case "hash-data":
                    return () -> Hash.ofOutput(data);
                case "hash-events": {
                    FlatDoc d = flat;
                    FlatDoc.Hasher h = flatHasher;
                    StreamHasher s = hasher;
                    return () -> {
                        byte[] copy = fresh(data);
                        return h.hashEvents(d, s) ^ copy.length;
                    };
                }
                case "hash-object": {
                    FlatDoc d = flat;
                    FlatDoc.Hasher h = flatHasher;
                    return () -> {
                        byte[] copy = fresh(data);
                        return h.hash(d) ^ copy.length;
                    };
                }
                default: {
                    Object d = doc;
                    Model.Walk walk = new Model.Walk();
                    return () -> {
                        byte[] copy = fresh(data);
                        return walk.hash(d) ^ copy.length;
                    };
                }
            }
        }
        switch (test) {
            case "write": {
                Bench.Encoder enc = encoder;
                return () -> Hash.ofOutput(enc.encode());
            }
            case "tree": {
                Bench.Decode dec = bench.tree;
                String f = fmt;
                return () -> dec.decode(f, fresh(data));
            }
            default: {
                Bench.Decode dec = bench.incremental;
                String f = fmt;
                return () -> dec.decode(f, fresh(data));
            }
        }
    }
}
