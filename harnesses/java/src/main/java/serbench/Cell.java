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
    private Model.Events events; // hash-events
    private Bench.Encoder encoder; // write rows
    private final StreamHasher hasher = new StreamHasher();

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
                case "hash-data" -> "hash of the input file's bytes (what a write row does with its output)";
                case "hash-events" -> "copy input (byte[] clone) + the document's prebuilt parse events replayed into the streaming hash";
                default -> "copy input (byte[] clone) + TreeWalk hash of the harness's prebuilt tree";
            };
        }
        return switch (test) {
            case "write" -> "encode from the harness's tree (library calls driven by an iterative walk) + hash of the output bytes; the output is decoded with the reference decoder and hashed once, outside the loop";
            case "tree" -> "copy input (byte[] clone) + parse to the library's tree + TreeWalk hash over it";
            default -> "copy input (byte[] clone) + streaming/pull parse feeding the streaming hash (no tree)";
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
        return new Cell(b, test, fmt);
    }

    static String describe(Throwable e) {
        String name = e.getClass().getSimpleName();
        if (e instanceof StackOverflowError) return "library overflowed the stack (StackOverflowError)";
        if (e instanceof OutOfMemoryError) return "library ran out of memory (" + e.getMessage() + ")";
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

    void prepare(byte[] data) throws Fail {
        if (bench.isBaseline()) {
            if (bench.id.equals("hash-data")) return;
            doc = reference(data);
            if (bench.id.equals("hash-events")) {
                try {
                    events = Model.events(doc);
                } catch (Exception e) {
                    throw new Fail(Main.EXIT_INPUT, describe(e));
                }
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

    Checked check(byte[] data) throws Fail {
        try {
            if (bench.isBaseline()) {
                if (bench.id.equals("hash-data")) return new Checked(Model.hash(reference(data)), null);
                if (events != null) return new Checked(Model.hashEvents(events, hasher), null);
                return new Checked(Model.hash(doc), null);
            }
        } catch (Hash.OutOfModel e) {
            throw new Fail(Main.EXIT_INPUT, e.getMessage());
        }
        try {
            switch (test) {
                case "write" -> {
                    byte[] out = encoder.encode();
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

    Measure.Op timedOp(byte[] data) {
        if (bench.isBaseline()) {
            switch (bench.id) {
                case "hash-data":
                    return () -> Hash.ofOutput(data);
                case "hash-events": {
                    Model.Events ev = events;
                    StreamHasher h = hasher;
                    return () -> {
                        byte[] copy = data.clone();
                        return Model.hashEvents(ev, h) ^ copy.length;
                    };
                }
                default: {
                    Object d = doc;
                    Model.Walk walk = new Model.Walk();
                    return () -> {
                        byte[] copy = data.clone();
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
                return () -> dec.decode(f, data.clone());
            }
            default: {
                Bench.Decode dec = bench.incremental;
                String f = fmt;
                return () -> dec.decode(f, data.clone());
            }
        }
    }
}
