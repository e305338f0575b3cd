package serbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance set (vectors/conformance/manifest.json, DESIGN section 12): `selftest --vectors`
 * over the repository's vectors runs every golden vector through every row and every conformance
 * case through the reference decoder and the hash (as `verify --bench hash-object --test tree`),
 * and nothing fails; a case is skipped only for a format the reference decoders do not read.
 */
class ConformanceTest {
    @SuppressWarnings("unchecked")
    static int manifestCases() throws Exception {
        Map<String, Object> m = Selftest.loadJson(Files.readAllBytes(Vectors.DIR.resolve("conformance").resolve("manifest.json")));
        return ((List<Object>) m.get("cases")).size();
    }

    @Test
    void selftest_passes_every_vector_and_every_conformance_case() throws Exception {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream lines = new ByteArrayOutputStream(), summary = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(lines, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(summary, true, StandardCharsets.UTF_8));
            code = Main.dispatch(new String[] {"selftest", "--vectors", Vectors.DIR.toString()});
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        List<String> failed = new ArrayList<>(), oddSkips = new ArrayList<>();
        int conformance = 0;
        for (String line : lines.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) continue;
            Map<String, Object> r = Selftest.loadJson(line.getBytes(StandardCharsets.UTF_8));
            if (r.get("status").equals("fail")) failed.add(line);
            if (!r.get("test").equals("conformance")) continue;
            conformance++;
            if (r.get("status").equals("skip") && !r.get("format").equals("ubjson")) oddSkips.add(line);
        }
        assertEquals(List.of(), failed);
        assertEquals(List.of(), oddSkips, "a conformance case of a format the reference decoders read was skipped");
        assertEquals(manifestCases(), conformance, "one line per conformance case");
        assertTrue(conformance > 700, "conformance cases: " + conformance);
        assertTrue(summary.toString(StandardCharsets.UTF_8).matches("(?s).*\\d+ passed, 0 failed, \\d+ skipped\\s*"), summary.toString(StandardCharsets.UTF_8));
        assertEquals(Main.EXIT_OK, code);
    }

    /** The rules the Java reference decoder once broke (root type, NUL, BSON's old binary), each a case of the set. */
    @Test
    void the_reference_decoder_refuses_what_the_data_model_leaves_out() {
        byte[][] rejects = {
            "[1]".getBytes(StandardCharsets.UTF_8),
            "{\"a\":\"x\\u0000y\"}".getBytes(StandardCharsets.UTF_8),
            {(byte) 0x81, (byte) 0xA1, 'a', (byte) 0xA1, 0}, // msgpack {"a": "\0"}
            {(byte) 0xA1, 0x61, 'a', 0x61, 0}, // cbor {"a": "\0"}
            {(byte) 0x91, (byte) 0x80}, // msgpack [{}]
        };
        String[] fmts = {"json", "json", "msgpack", "cbor", "msgpack"};
        for (int i = 0; i < rejects.length; i++) {
            byte[] data = rejects[i];
            String fmt = fmts[i];
            assertThrows(RefDecoder.Rejected.class, () -> RefDecoder.decode(fmt, data), fmt + " case " + i);
        }
    }

    static byte[] bsonBinary(int subtype, byte... payload) {
        java.nio.ByteBuffer b = ByteBuffer.allocate(4 + 1 + 2 + 4 + 1 + payload.length + 1).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(b.capacity()).put((byte) 5).put((byte) 'b').put((byte) 0).putInt(payload.length).put((byte) subtype).put(payload).put((byte) 0);
        return b.array();
    }

    @Test
    void bson_old_binary_is_its_bytes_after_a_right_inner_length() throws Exception {
        Object ok = ((Map<?, ?>) RefDecoder.decode("bson", bsonBinary(2, (byte) 2, (byte) 0, (byte) 0, (byte) 0, (byte) 7, (byte) 8))).get("b");
        assertArrayEquals(new byte[] {7, 8}, (byte[]) ok);
        Object other = ((Map<?, ?>) RefDecoder.decode("bson", bsonBinary(0x80, (byte) 2, (byte) 0, (byte) 0, (byte) 0))).get("b");
        assertArrayEquals(new byte[] {2, 0, 0, 0}, (byte[]) other);
        for (byte[] bad : List.of(bsonBinary(2, (byte) 3, (byte) 0, (byte) 0, (byte) 0, (byte) 7, (byte) 8), bsonBinary(2, (byte) 0, (byte) 0, (byte) 0))) {
            assertThrows(RefDecoder.Rejected.class, () -> RefDecoder.decode("bson", bad));
        }
    }
}
