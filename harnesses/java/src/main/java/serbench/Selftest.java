package serbench;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** `selftest --vectors DIR`: every benchmark, test and format against every golden vector. */
final class Selftest {
    private Selftest() {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> loadJson(byte[] data) throws RefDecoder.Rejected {
        return (Map<String, Object>) RefDecoder.decode("json", data);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> knownDeviations() {
        try (InputStream in = Selftest.class.getResourceAsStream("/known-deviations.json")) {
            return in == null ? Map.of() : loadJson(in.readAllBytes());
        } catch (Exception e) {
            throw new IllegalStateException("known-deviations.json is not valid: " + e.getMessage(), e);
        }
    }

    /** The outcome of one check: status pass|fail|skip and a reason (null when it passed). */
    record Outcome(String status, String reason) {}

    static Outcome check(Bench b, String test, String fmt, Path file, String expected, String knownWhy) {
        String err;
        try {
            byte[] data = Files.readAllBytes(file);
            Cell c = new Cell(b, test, fmt);
            c.prepare(data);
            String got = Hash.hex(c.check(data).hash());
            err = got.equals(expected) ? null : "hash " + got + " != " + expected;
        } catch (Cell.Fail f) {
            err = f.getMessage();
        } catch (Exception e) {
            err = Cell.describe(e);
        }
        if (knownWhy != null) return err != null ? new Outcome("skip", "known: " + knownWhy) : new Outcome("fail", "known deviation now passes");
        return err == null ? new Outcome("pass", null) : new Outcome("fail", err);
    }

    @SuppressWarnings("unchecked")
    static int run(List<Bench> benches, Args a) throws Main.Usage {
        Path dir = Path.of(a.get("vectors"));
        Map<String, Object> index;
        try {
            index = loadJson(Files.readAllBytes(dir.resolve("vectors.json")));
        } catch (Exception e) {
            throw new Main.Usage("cannot read " + dir + "/vectors.json: " + e.getMessage());
        }
        Map<String, Object> known = knownDeviations();
        int pass = 0, fail = 0, skip = 0;
        for (Object vo : (List<Object>) index.getOrDefault("vectors", List.of())) {
            Map<String, Object> v = (Map<String, Object>) vo;
            String name = (String) v.get("name");
            String expected = (String) v.get("hash");
            Map<String, Object> files = (Map<String, Object>) v.getOrDefault("files", Map.of());
            List<Object> skips = (List<Object>) v.getOrDefault("skip", List.of());
            for (Bench b : benches) {
                for (String test : b.tests()) {
                    // the vectors are schemaless documents: typed tests are covered by TypedTest
                    if (test.startsWith("typed-")) continue;
                    for (String fmt : b.formats) {
                        String file = (String) files.get(fmt);
                        if (file == null) continue;
                        Outcome o;
                        if (skips.contains(fmt) || skips.contains(b.library)) {
                            o = new Outcome("skip", "vector lists it in skip");
                        } else {
                            Map<String, Object> k = (Map<String, Object>) known.get(b.id + "/" + test);
                            o = check(b, test, fmt, dir.resolve(file), expected, k == null ? null : (String) k.get(name));
                        }
                        switch (o.status()) {
                            case "pass" -> pass++;
                            case "fail" -> fail++;
                            default -> skip++;
                        }
                        System.out.println(JsonOut.write(JsonOut.obj("bench", b.id, "test", test, "format", fmt, "vector", name,
                                "status", o.status(), "reason", o.reason())));
                    }
                }
            }
        }
        Path manifest = dir.resolve("conformance").resolve("manifest.json");
        if (Files.exists(manifest)) {
            List<Map<String, Object>> lines;
            try {
                lines = conformance(benches, dir.resolve("conformance"));
            } catch (Exception e) {
                throw new Main.Usage("cannot read " + manifest + ": " + Cell.describe(e));
            }
            for (Map<String, Object> line : lines) {
                switch ((String) line.get("status")) {
                    case "pass" -> pass++;
                    case "fail" -> fail++;
                    default -> skip++;
                }
                System.out.println(JsonOut.write(line));
            }
        }
        System.err.println(pass + " passed, " + fail + " failed, " + skip + " skipped");
        return fail == 0 ? Main.EXIT_OK : 1;
    }

    /** The bench and test whose logic judges the conformance set: the reference decoder and the hash. */
    static final String JUDGE = "hash-object", JUDGE_TEST = "tree";

    /**
     * The conformance set (DIR/manifest.json, DESIGN section 12): every case through the reference
     * decoder and the hash, as `verify --bench hash-object --test tree` runs it. An accepted case
     * passes with its expected hash, a rejected one with the reference decoder's (or the hash's)
     * clean rejection, exit 6. One line per case, in the manifest's order, in selftest's shape; a
     * case of a format the reference decoders do not read is skipped with that reason.
     */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> conformance(List<Bench> benches, Path dir) throws Exception {
        Map<String, Object> manifest = loadJson(Files.readAllBytes(dir.resolve("manifest.json")));
        Bench judge = benches.stream().filter(b -> b.id.equals(JUDGE)).findFirst().orElseThrow();
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (Object co : (List<Object>) manifest.getOrDefault("cases", List.of())) {
            Map<String, Object> c = (Map<String, Object>) co;
            String name = (String) c.get("name"), fmt = (String) c.get("format");
            Outcome o;
            if (!judge.formats.contains(fmt)) {
                o = new Outcome("skip", "the Java harness has no reference decoder for " + fmt + " (no Java row reads it)");
            } else {
                o = conformanceCase(judge, fmt, dir.resolve((String) c.get("file")), "accept".equals(c.get("expect")), (String) c.get("hash"),
                        (String) c.get("why"));
            }
            out.add(JsonOut.obj("bench", JUDGE, "test", "conformance", "format", fmt, "vector", name, "status", o.status(), "reason", o.reason()));
        }
        return out;
    }

    /** One conformance case: never throws, whatever the bytes (a crash is the case's failure). */
    static Outcome conformanceCase(Bench judge, String fmt, Path file, boolean accept, String hash, String why) {
        try {
            byte[] data = Files.readAllBytes(file);
            Cell c = new Cell(judge, JUDGE_TEST, fmt);
            String got;
            try {
                c.prepare(data);
                got = Hash.hex(c.check(data).hash());
            } catch (Cell.Fail f) {
                if (f.code != Main.EXIT_INPUT) return new Outcome("fail", "exit " + f.code + " (not the reference decoder's rejection, exit 6): " + f.getMessage());
                return accept ? new Outcome("fail", "rejected, expected hash " + hash + ": " + f.getMessage()) : new Outcome("pass", null);
            }
            if (!accept) return new Outcome("fail", "accepted (hash " + got + "), expected a rejection: " + why);
            return got.equals(hash) ? new Outcome("pass", null) : new Outcome("fail", "hash " + got + " != " + hash);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return new Outcome("fail", "the harness crashed: " + Cell.describe(e));
        }
    }
}
