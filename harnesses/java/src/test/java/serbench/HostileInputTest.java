package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hostile input never crashes the harness: every row either decodes it, or rejects it cleanly
 * (exit 3, the library's reason; exit 6, the reference decoder's or a harness limit), as
 * spec/protocol.md requires. Library stack overflows are caught and reported as the library's.
 */
class HostileInputTest {
    static final int DEPTH = 100_000;

    static byte[] deep(String fmt) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (fmt) {
            case "json", "json-pretty" -> {
                String s = "{\"a\":" + "[".repeat(DEPTH) + "]".repeat(DEPTH) + "}";
                return s.getBytes(StandardCharsets.UTF_8);
            }
            case "msgpack" -> {
                out.writeBytes(new byte[] {(byte) 0x81, (byte) 0xA1, 'a'});
                for (int i = 0; i < DEPTH; i++) out.write(0x91);
                out.write(0x90);
                return out.toByteArray();
            }
            case "cbor" -> {
                out.writeBytes(new byte[] {(byte) 0xA1, 0x61, 'a'});
                for (int i = 0; i < DEPTH; i++) out.write(0x81);
                out.write(0x80);
                return out.toByteArray();
            }
            default -> {
                // BSON: {"0": [[[...]]]} as DEPTH nested arrays; level i (outermost 0) is 4 length
                // bytes, type 4, name "0\0", its child, then its terminating 0: 8 (DEPTH - i) + 5 bytes
                ByteBuffer b = ByteBuffer.allocate(8 * DEPTH + 5).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < DEPTH; i++) {
                    b.putInt(8 * (DEPTH - i) + 5);
                    b.put((byte) 4).put((byte) '0').put((byte) 0);
                }
                b.putInt(5).put((byte) 0);
                for (int i = 0; i < DEPTH; i++) b.put((byte) 0);
                return b.array();
            }
        }
    }

    static List<String> unclean(byte[] data, String what) {
        List<String> bad = new ArrayList<>();
        for (Bench b : Adapters.all()) {
            for (String test : b.tests()) {
                for (String fmt : b.formats) {
                    if (what.equals("deep") && fmt.equals("json-pretty")) continue;
                    byte[] input = data != null ? data : deep(fmt);
                    Cell c = new Cell(b, test, fmt);
                    try {
                        c.prepare(input);
                        c.check(input);
                    } catch (Cell.Fail f) {
                        if (f.code != Main.EXIT_REJECTED && f.code != Main.EXIT_INPUT) bad.add(b.id + "/" + test + "/" + fmt + ": exit " + f.code);
                    } catch (Throwable t) {
                        bad.add(b.id + "/" + test + "/" + fmt + ": " + what + ": " + t);
                    }
                }
            }
        }
        return bad;
    }

    @Test
    void nesting_100000_deep_is_decoded_or_rejected_cleanly_by_every_row() {
        assertEquals(List.of(), unclean(null, "deep"));
    }

    /**
     * Every case of the conformance set (vectors/conformance, up to 1,000,000 levels deep) through
     * every row of its format: decoded, or rejected cleanly (exit 3 or 6); whether a library's answer
     * is the reference's is `serbench robustness`'s question, not this one.
     */
    @Test
    @SuppressWarnings("unchecked")
    void every_conformance_case_is_decoded_or_rejected_cleanly_by_every_row() throws Exception {
        Path dir = Vectors.DIR.resolve("conformance");
        Map<String, Object> manifest = Selftest.loadJson(Files.readAllBytes(dir.resolve("manifest.json")));
        List<String> bad = new ArrayList<>();
        int checks = 0;
        for (Object co : (List<Object>) manifest.get("cases")) {
            Map<String, Object> c = (Map<String, Object>) co;
            String fmt = (String) c.get("format");
            byte[] data = Files.readAllBytes(dir.resolve((String) c.get("file")));
            for (Bench b : Adapters.all()) {
                if (!b.formats.contains(fmt)) continue;
                for (String test : b.tests()) {
                    checks++;
                    Cell cell = new Cell(b, test, fmt);
                    try {
                        cell.prepare(data);
                        cell.check(data);
                    } catch (Cell.Fail f) {
                        if (f.code != Main.EXIT_REJECTED && f.code != Main.EXIT_INPUT) bad.add(b.id + "/" + test + "/" + c.get("name") + ": exit " + f.code);
                    } catch (Throwable t) {
                        bad.add(b.id + "/" + test + "/" + fmt + "/" + c.get("name") + ": " + t);
                    }
                }
            }
        }
        assertEquals(List.of(), bad);
        assertTrue(checks > 2000, "checks: " + checks);
    }

    @Test
    void every_truncation_of_a_vector_is_rejected_cleanly_by_every_row() throws Exception {
        List<String> bad = new ArrayList<>();
        for (Vectors.Vector v : Vectors.all()) {
            if (!v.name().equals("all-types") && !v.name().equals("string-lanes")) continue;
            for (Map.Entry<String, Object> f : v.files().entrySet()) {
                if (!Adapters.REF_FORMATS.contains(f.getKey())) continue;
                byte[] full = Vectors.read(v, f.getKey());
                for (int n = 0; n < full.length; n++) {
                    byte[] cut = java.util.Arrays.copyOf(full, n);
                    for (Bench b : Adapters.all()) {
                        if (!b.formats.contains(f.getKey())) continue;
                        for (String test : b.tests()) {
                            Cell c = new Cell(b, test, f.getKey());
                            try {
                                c.prepare(cut);
                                long h = c.check(cut).hash();
                                // a cut JSON document can only be whole again at its last byte's whitespace
                                if (Hash.hex(h).equals(v.hash()) && !new String(full, n, full.length - n, StandardCharsets.UTF_8).isBlank())
                                    bad.add(b.id + "/" + test + "/" + f.getKey() + " accepted " + n + " of " + full.length + " bytes");
                            } catch (Cell.Fail e) {
                                if (e.code != Main.EXIT_REJECTED && e.code != Main.EXIT_INPUT) bad.add(b.id + "/" + test + ": exit " + e.code);
                            } catch (Throwable t) {
                                bad.add(b.id + "/" + test + "/" + f.getKey() + " at " + n + ": " + t);
                            }
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), bad);
    }
}
