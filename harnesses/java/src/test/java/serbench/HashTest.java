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
                assertEquals(v.hash(), Hash.hex(new FlatDoc.Hasher().hashEvents(FlatDoc.of(doc), new StreamHasher())), v.name() + " " + fmt + " (events)");
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
    /** spec/hash.md "Bytes" as written: 32-byte blocks, then 16-byte blocks padded with zero bytes. */
    static long specBytes(long seed, byte[] s) {
        long a = seed ^ s.length, c = 0;
        int i = 0;
        for (; s.length - i >= 32; i += 32) {
            a = Hash.mum(le(s, i) ^ Hash.P1, le(s, i + 8) ^ a ^ Hash.P2);
            c = Hash.mum(le(s, i + 16) ^ Hash.P3, le(s, i + 24) ^ c ^ Hash.P0);
        }
        for (; i < s.length; i += 16) a = Hash.mum(le(s, i) ^ Hash.P1, le(s, i + 8) ^ a ^ Hash.P2);
        return a ^ c;
    }

    /** The little-endian word of s at i, bytes past the end as zero, one byte at a time. */
    static long le(byte[] s, int i) {
        long w = 0;
        for (int k = 0; k < 8; k++) if (i + k < s.length) w |= (s[i + k] & 0xFFL) << (8 * k);
        return w;
    }

    @Test
    void bytes_reads_whole_masked_words_and_equals_the_spec_at_every_length_and_distance_from_the_arrays_end() {
        java.util.Random rnd = new java.util.Random(7);
        int checks = 0;
        for (int n = 0; n <= 300; n++) {
            byte[] s = new byte[n];
            rnd.nextBytes(s);
            long want = specBytes(Hash.S_STRING, s);
            // the string at offset 3 of a buffer that ends `after` bytes past it: from no room to read
            // past the end (the byte-by-byte words) to 40 bytes (whole masked words), with junk
            // around it that the masks must drop
            for (int after = 0; after <= 40; after++) {
                byte[] buf = new byte[3 + n + after];
                java.util.Arrays.fill(buf, (byte) 0xA5);
                System.arraycopy(s, 0, buf, 3, n);
                assertEquals(want, Hash.bytes(Hash.S_STRING, buf, 3, n), "length " + n + ", " + after + " bytes after");
                checks++;
            }
        }
        assertEquals(301 * 41, checks);
    }
}
