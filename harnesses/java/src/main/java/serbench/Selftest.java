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
        System.err.println(pass + " passed, " + fail + " failed, " + skip + " skipped");
        return fail == 0 ? Main.EXIT_OK : 1;
    }
}
