package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The steps each row declares in `list` (DESIGN section 12, the work contract): what can be checked
 * mechanically. Every row declares every test; a row's steps are its test's contract unless they
 * carry a deviation word; and the timed operations of the decoding tests return the hash computed
 * inside the operation from the bytes it was given (so the visit is in the loop), those of the
 * encoding tests the hash of the bytes they wrote.
 */
class StepsTest {
    static final List<String> TESTS = Main.PROTOCOL_TESTS;

    static Set<String> contractWords() {
        Set<String> words = new HashSet<>();
        for (String t : TESTS) {
            words.addAll(Bench.contract(t, false));
            words.addAll(Bench.contract(t, true));
        }
        return words;
    }

    @Test
    void every_row_keeps_its_tests_contract_unless_it_names_a_deviation() {
        Set<String> words = contractWords();
        List<String> bad = new ArrayList<>();
        for (Bench b : Adapters.all()) {
            assertEquals(b.tests(), new ArrayList<>(b.steps().keySet()), b.id + ": steps for exactly its tests");
            for (String t : b.tests()) {
                List<String> steps = b.stepsOf(t), contract = Bench.contract(t, b.isBaseline());
                for (String w : steps) {
                    if (!words.contains(w) && !Bench.DEVIATIONS.contains(w)) bad.add(b.id + "/" + t + ": unknown step " + w);
                }
                if (steps.equals(contract)) continue;
                // a baseline's loop is the contract's less the library's steps, always
                if (b.isBaseline()) bad.add(b.id + "/" + t + ": a baseline with steps " + steps + ", not " + contract);
                else if (steps.stream().noneMatch(Bench.DEVIATIONS::contains)) bad.add(b.id + "/" + t + ": " + steps + " differs from " + contract + " without a deviation word");
            }
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void the_rows_that_do_other_work_say_so() {
        Map<String, Bench> by = new java.util.HashMap<>();
        for (Bench b : Adapters.all()) by.put(b.id, b);
        assertEquals(List.of("copy-input", "view-unchecked", "visit-all"), by.get("flatbuffers-java").stepsOf("typed-access"));
        assertEquals(List.of("convert", "encode", "hash-output"), by.get("protobuf-java-convert").stepsOf("typed-encode"));
        assertEquals(List.of("copy-input", "decode", "convert", "visit-all"), by.get("protobuf-java-convert").stepsOf("typed-decode"));
        assertEquals(List.of("encode", "hash-output"), by.get("protobuf-java").stepsOf("typed-encode"));
        assertEquals(List.of("copy-input", "visit-all"), by.get("hash-walk").stepsOf("tree"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void list_prints_each_rows_steps() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            assertEquals(Main.EXIT_OK, Main.dispatch(new String[] {"list"}));
        } finally {
            System.setOut(out);
        }
        Map<String, Object> listed = Selftest.loadJson(buf.toByteArray());
        Map<String, Bench> by = new java.util.HashMap<>();
        for (Bench b : Adapters.all()) by.put(b.id, b);
        for (Object o : (List<Object>) listed.get("benchmarks")) {
            Map<String, Object> row = (Map<String, Object>) o;
            assertEquals(by.get((String) row.get("id")).steps(), row.get("steps"), (String) row.get("id"));
        }
    }

    /** Two documents of one length and different hashes, per format: {"k": "x"} and {"k": "y"}. */
    static byte[][] pair(String fmt) {
        byte[] a = switch (fmt) {
            case "json", "json-pretty" -> "{\"k\": \"x\"}".getBytes(StandardCharsets.UTF_8);
            case "msgpack" -> new byte[] {(byte) 0x81, (byte) 0xA1, 'k', (byte) 0xA1, 'x'};
            case "cbor" -> new byte[] {(byte) 0xA1, 0x61, 'k', 0x61, 'x'};
            default -> new byte[] {14, 0, 0, 0, 2, 'k', 0, 2, 0, 0, 0, 'x', 0, 0};
        };
        byte[] b = a.clone();
        int x = new String(a, StandardCharsets.ISO_8859_1).lastIndexOf('x');
        b[x] = 'y';
        return new byte[][] {a, b};
    }

    @Test
    void tree_and_incremental_operations_return_the_hash_of_the_bytes_they_decode() throws Exception {
        int checked = 0;
        for (Bench b : Adapters.all()) {
            if (b.isBaseline()) continue;
            for (String test : List.of("tree", "incremental", "write")) {
                if (!b.tests().contains(test)) continue;
                for (String fmt : b.formats) {
                    byte[][] p = pair(fmt);
                    byte[] input = p[0].clone();
                    long ha = Model.hash(RefDecoder.decode(fmt, p[0])), hb = Model.hash(RefDecoder.decode(fmt, p[1]));
                    assertNotEquals(ha, hb);
                    Cell c = new Cell(b, test, fmt);
                    c.prepare(input);
                    Cell.Checked checked0 = c.check(input);
                    Measure.Op op = c.timedOp(input);
                    String where = b.id + "/" + test + "/" + fmt;
                    if (test.equals("write")) {
                        // the operation writes from the harness's object and hashes its output
                        assertEquals(Hash.ofOutput(checked0.output()), op.run(), where);
                    } else {
                        assertEquals(ha, op.run(), where);
                        // the same operation on other bytes (the loop copies its input afresh each time)
                        System.arraycopy(p[1], 0, input, 0, input.length);
                        assertEquals(hb, op.run(), where + ": the operation's hash is not computed from its input");
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked > 15, "checked: " + checked);
    }

    /** A trade dataset (ASCII text, doubles every row reads exactly), as a typed dataset file. */
    static byte[] tradeFile(String... texts) {
        StringBuilder sb = new StringBuilder("{\"schema\": \"trade\", \"records\": [");
        for (int i = 0; i < texts.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append("{\"price\": ").append(0.5 + i).append(", \"flag\": ").append(i % 2 == 0).append(", \"text\": \"").append(texts[i])
                    .append("\", \"side\": \"").append(i % 2 == 0 ? "Buy" : "Sell").append("\", \"small_int\": ").append(i - 3)
                    .append(", \"long_int\": ").append(1L << (20 + i)).append("}");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void typed_operations_return_the_typed_hash_computed_inside_them() throws Exception {
        byte[] fileA = tradeFile("alpha", "beta", "gamma");
        Typed.Records a = Typed.load(fileA), b = Typed.load(tradeFile("delta", "epsilon"));
        long ha = Typed.hash(a), hb = Typed.hash(b);
        assertNotEquals(ha, hb);
        int checked = 0;
        for (Bench row : Adapters.all()) {
            if (row.isBaseline() || TypedTest.FAILS.contains(row.id)) continue;
            for (String test : List.of("typed-encode", "typed-decode", "typed-access")) {
                if (!row.tests().contains(test)) continue;
                for (String fmt : row.formats) {
                    String where = row.id + "/" + test + "/" + fmt;
                    Cell c = new Cell(row, test, fmt);
                    c.prepare(fileA);
                    Cell.Checked ck = c.check(fileA);
                    Measure.Op op = c.timedOp(fileA);
                    if (test.equals("typed-encode")) {
                        assertEquals(Hash.ofOutput(ck.output()), op.run(), where);
                    } else {
                        assertEquals(ha, op.run(), where);
                        // the row's decoder, which the operation calls on its fresh copy, hashes what it is given
                        Bench.TypedDecode dec = test.equals("typed-access") ? row.typedAccess : row.typedDecode;
                        byte[] wireB = row.typedEncode.prepare(fmt, b).encode();
                        assertEquals(hb, dec.decode(fmt, b.schema(), wireB), where + ": the decoder's hash is not computed from its input");
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked > 40, "checked: " + checked);
    }
}
