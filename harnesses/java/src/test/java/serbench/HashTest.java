package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashTest {
    @Test
    void the_worked_examples_of_hash_md_hash_as_written() throws Exception {
        assertEquals("670527f286862c69", Hash.hex(Model.hash(null)));
        assertEquals("365af1f36751b10a", Hash.hex(Model.hash(new LinkedHashMap<String, Object>())));
        assertEquals("b9ebd45ee5d00974", Hash.hex(Model.hash(new ArrayList<Object>())));
        assertEquals("b54cda58fbbee87e", Hash.hex(Model.hash("")));
        assertEquals("fffe66391ebe87c4", Hash.hex(Model.hash("abc")));
        assertEquals("f40ed65b31c6a160", Hash.hex(Model.hash(new ArrayList<Object>(List.of(1L, -1L, 1.5)))));
    }

    @Test
    void every_vector_hashes_to_its_golden_hash_in_tree_and_streaming_form() throws Exception {
        for (Vectors.Vector v : Vectors.all()) {
            for (String fmt : v.files().keySet()) {
                if (!Adapters.REF_FORMATS.contains(fmt)) continue;
                Object doc = RefDecoder.decode(fmt, Vectors.read(v, fmt));
                assertEquals(v.hash(), Hash.hex(Model.hash(doc)), v.name() + " " + fmt + " (tree)");
                assertEquals(v.hash(), Hash.hex(Model.hashEvents(Model.events(doc), new StreamHasher())), v.name() + " " + fmt + " (events)");
            }
        }
    }

    @Test
    void a_uint64_above_int64_max_hashes_as_a_uint_and_strings_hash_their_utf8_bytes() throws Exception {
        // the same value given as a uint64 and as its BigInteger
        assertEquals(Hash.ofUnsigned(-1L), Hash.ofBigInteger(new java.math.BigInteger("18446744073709551615")));
        String s = "a\u00e9\u4e2d\ud83d\ude00" + "x".repeat(40);
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(Hash.ofUtf8(b, 0, b.length), Hash.ofString(s));
        assertEquals(Hash.ofUtf8(b, 0, b.length), Hash.ofChars(s.toCharArray(), 0, s.length()));
    }
}
