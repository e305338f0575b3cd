package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The `hash-object` baseline's flat walk gives the tree walk's hash on every shape of document. */
class FlatDocTest {
    static long flat(Object doc) throws Exception {
        return new FlatDoc.Hasher().hash(FlatDoc.of(doc));
    }

    /** [[[...[7]...]]] or {"k": {"k": ... 7}}, depth containers, built without recursion. */
    static Object nested(int depth, boolean maps) {
        Object v = 7L;
        for (int i = 0; i < depth; i++) {
            if (maps) {
                Map<String, Object> m = Model.newMap();
                m.put("k", v);
                v = m;
            } else {
                List<Object> a = new ArrayList<>();
                a.add(v);
                v = a;
            }
        }
        return v;
    }

    /** The hash of nested(depth, maps), from spec/hash.md's table, level by level. */
    static long nestedHash(int depth, boolean maps) {
        long h = Hash.ofLong(7);
        long k = Hash.ofString("k");
        for (int i = 0; i < depth; i++) h = maps ? Hash.mapFinish(Hash.entryTerm(k, h), 1) : Hash.arrayFinish(Hash.arrayTerm(h, 0), 1);
        return h;
    }

    @Test
    void the_flat_walk_hashes_every_vector_the_reference_decoders_read_to_its_golden_hash() throws Exception {
        int checks = 0;
        FlatDoc.Hasher h = new FlatDoc.Hasher(); // one hasher for all: its stacks are reused
        for (Vectors.Vector v : Vectors.all()) {
            for (String fmt : v.files().keySet()) {
                if (!Adapters.REF_FORMATS.contains(fmt)) continue;
                Object doc = RefDecoder.decode(fmt, Vectors.read(v, fmt));
                assertEquals(Hash.hex(Model.hash(doc)), Hash.hex(h.hash(FlatDoc.of(doc))), v.name() + " " + fmt);
                assertEquals(v.hash(), Hash.hex(h.hash(FlatDoc.of(doc))), v.name() + " " + fmt);
                checks++;
            }
        }
        assertTrue(checks > 50, "checks: " + checks);
    }

    @Test
    void the_flat_walk_hashes_every_type_empty_containers_and_nesting_as_the_tree_walk_does() throws Exception {
        Map<String, Object> inner = Model.newMap();
        inner.put("k", new ArrayList<Object>(List.of("", 1L)));
        inner.put("em", Model.newMap());
        Map<String, Object> m = Model.newMap();
        m.put("n", null);
        m.put("t", true);
        m.put("f", false);
        m.put("u", Long.MAX_VALUE);
        m.put("big", new Model.U64(-1L));
        m.put("i", Long.MIN_VALUE);
        m.put("d", -0.0);
        m.put("nan", Double.longBitsToDouble(0x7FF8000000000123L));
        m.put("s", "a string longer than thirty-two bytes, with \u00fc, \u4e2d and \ud83d\ude00");
        m.put("lone", "\ud800 half a pair");
        m.put("b", new byte[] {0, 1, 2});
        m.put("eb", new byte[0]);
        m.put("ea", new ArrayList<Object>());
        m.put("em", Model.newMap());
        m.put("a", new ArrayList<Object>(List.of(inner, new ArrayList<Object>(), Model.newMap(), new ArrayList<Object>(List.of(true, 2.5)))));
        m.put("\u00e9t\u00e9 key longer than thirty-two bytes .........", 7L);
        m.put("last", "x");
        List<Object> arr = new ArrayList<>(List.of(new ArrayList<Object>(), m, -1L, false));
        arr.add(null);
        List<Object> docs = new ArrayList<>(List.of(m, arr, true, false, 0L, -5L, 1.5, "root", new byte[] {9}, new ArrayList<Object>(), Model.newMap(), nested(1000, true), nested(1000, false)));
        docs.add(null);
        FlatDoc.Hasher h = new FlatDoc.Hasher(); // reused: its stacks serve both walks
        StreamHasher s = new StreamHasher();
        for (Object doc : docs) {
            assertEquals(Hash.hex(Model.hash(doc)), Hash.hex(flat(doc)), String.valueOf(doc));
            assertEquals(Hash.hex(Model.hash(doc)), Hash.hex(h.hashEvents(FlatDoc.of(doc), s)), "events: " + doc);
            assertEquals(Hash.hex(Model.hash(doc)), Hash.hex(h.hash(FlatDoc.of(doc))), "reused: " + doc);
        }
        // true is payload 0 with seed S(BOOL) ^ 1: spec/hash.md's scalar(BOOL, 1)
        assertEquals(Hash.TRUE, flat(true));
        assertEquals(Hash.ofUtf8("\ud83d\ude00".getBytes(StandardCharsets.UTF_8), 0, 4), flat("\ud83d\ude00"));
    }

    @Test
    void the_one_mum_leaf_hashes_strings_of_every_short_length_as_keys_and_values_as_the_tree_walk_does() throws Exception {
        FlatDoc.Hasher h = new FlatDoc.Hasher();
        StreamHasher s = new StreamHasher();
        for (int n = 0; n <= 40; n++) {
            String str = "\u00e9abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".substring(0, n);
            byte[] bin = new byte[n];
            java.util.Arrays.fill(bin, (byte) (n + 1));
            Map<String, Object> m = Model.newMap();
            m.put(str, str);
            m.put("b" + str, bin);
            m.put("u" + str, (long) n);
            List<Object> doc = new ArrayList<>(List.of(str, bin, m, 1.5, str));
            for (Object d : List.of(doc, str, bin)) {
                long want = Model.hash(d);
                assertEquals(want, h.hash(FlatDoc.of(d)), "length " + n);
                assertEquals(want, h.hashEvents(FlatDoc.of(d), s), "events, length " + n);
            }
        }
    }

    @Test
    void the_flat_walk_hashes_documents_nested_100000_deep_as_the_tree_walk_does() throws Exception {
        FlatDoc.Hasher h = new FlatDoc.Hasher();
        for (boolean maps : new boolean[] {false, true}) {
            Object doc = nested(100_000, maps);
            FlatDoc d = FlatDoc.of(doc);
            assertEquals(100_000, d.maxDepth);
            assertEquals(nestedHash(100_000, maps), h.hash(d), maps ? "maps" : "arrays");
            assertEquals(Model.hash(doc), h.hash(d), maps ? "maps" : "arrays");
            assertEquals(nestedHash(100_000, maps), h.hashEvents(d, new StreamHasher()), maps ? "maps (events)" : "arrays (events)");
        }
        // a shallower document after a deep one: the stacks are reused, not reset
        assertEquals(nestedHash(3, true), h.hash(FlatDoc.of(nested(3, true))));
    }

    @Test
    void hash_object_and_hash_walk_check_a_json_document_nested_1000000_deep() throws Exception {
        // {"k": [[...[7]...]]}: the root map (the data model's) and 999,999 arrays
        int depth = 1_000_000;
        byte[] data = ("{\"k\":" + "[".repeat(depth - 1) + "7" + "]".repeat(depth - 1) + "}").getBytes(StandardCharsets.UTF_8);
        long want = Hash.mapFinish(Hash.entryTerm(Hash.ofString("k"), nestedHash(depth - 1, false)), 1);
        for (Bench b : Adapters.baselines()) {
            if (!b.id.equals("hash-object") && !b.id.equals("hash-walk")) continue;
            Cell c = new Cell(b, "tree", "json");
            c.prepare(data);
            assertEquals(want, c.check(data).hash(), b.id);
            assertEquals(want, c.timedOp(data).run() ^ data.length, b.id);
        }
    }

    @Test
    void hash_walk_is_a_baseline_no_row_subtracts_and_hash_object_is_the_tree_rows() {
        List<String> ids = Adapters.all().stream().filter(Bench::isBaseline).map(b -> b.id).toList();
        assertEquals(List.of("hash-data", "hash-object", "hash-events", "hash-walk", "hash-data-typed", "hash-typed"), ids);
        assertEquals("hash-object", Bench.baselineOf("tree"));
        for (Bench b : Adapters.all()) {
            for (String t : b.tests()) assertTrue(b.isBaseline() || !Bench.baselineOf(t).equals("hash-walk"), b.id + "/" + t);
        }
        Bench walk = Adapters.all().stream().filter(b -> b.id.equals("hash-walk")).findFirst().orElseThrow();
        assertEquals(List.of("tree"), walk.tests());
        assertTrue(Cell.measures(walk, "tree").contains("type dispatch per value"));
    }
}
