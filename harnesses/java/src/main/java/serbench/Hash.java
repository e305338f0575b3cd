package serbench;

import java.math.BigInteger;

/**
 * The object hash of spec/hash.md, version 2: wyhash's mum, type-tagged scalars, strings hashed
 * over their UTF-8 bytes 16 or 32 at a time, commutative map sums and index-keyed array sums.
 * Every method here is iterative: nothing in the harness's own hashing recurses on its input.
 */
public final class Hash {
    private Hash() {}

    public static final int VERSION = 2;

    static final long K = 0x9E3779B97F4A7C15L;
    static final long P0 = 0xA0761D6478BD642FL;
    static final long P1 = 0xE7037ED1A0B428DBL;
    static final long P2 = 0x8EBC6AF09C88C6E3L;
    static final long P3 = 0x589965CC75374CC3L;

    static final long S_NULL = 1 * K;
    static final long S_BOOL = 2 * K;
    static final long S_UINT = 3 * K;
    static final long S_NEGINT = 4 * K;
    static final long S_FLOAT = 5 * K;
    static final long S_STRING = 6 * K;
    static final long S_BINARY = 7 * K;
    static final long S_ARRAY = 8 * K;
    static final long S_MAP = 9 * K;

    /** low64 XOR high64 of the unsigned 128-bit product (Java 17 has only the signed high word). */
    public static long mum(long a, long b) {
        long lo = a * b;
        long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        return lo ^ hi;
    }

    static long scalar(long seed, long v) {
        return mum(v ^ seed, P0);
    }

    public static final long NULL = scalar(S_NULL, 0);
    public static final long FALSE = scalar(S_BOOL, 0);
    public static final long TRUE = scalar(S_BOOL, 1);

    public static long ofBool(boolean b) {
        return b ? TRUE : FALSE;
    }

    /** An int64: non-negative values hash as UINT, negative ones as NEGINT. */
    public static long ofLong(long v) {
        return v >= 0 ? scalar(S_UINT, v) : scalar(S_NEGINT, v);
    }

    /** A uint64 given as its 64 bits (values above INT64_MAX are negative as a Java long). */
    public static long ofUnsigned(long bits) {
        return scalar(S_UINT, bits);
    }

    /** An integer of any size; one outside int64 and uint64 is outside the data model. */
    public static long ofBigInteger(BigInteger v) throws OutOfModel {
        if (v.bitLength() <= 63) return ofLong(v.longValue());
        if (v.signum() > 0 && v.bitLength() == 64) return ofUnsigned(v.longValue());
        throw new OutOfModel("integer outside int64 and uint64: " + v);
    }

    public static long ofDouble(double d) {
        return scalar(S_FLOAT, Double.doubleToRawLongBits(d));
    }

    public static long ofString(String s) {
        return Utf8.hash(S_STRING, s);
    }

    public static long ofChars(char[] c, int off, int len) {
        return Utf8.hash(S_STRING, c, off, len);
    }

    public static long ofUtf8(byte[] b, int off, int len) {
        return bytes(S_STRING, b, off, len);
    }

    public static long ofBinary(byte[] b) {
        return bytes(S_BINARY, b, 0, b.length);
    }

    /** The write rows' output hash: their bytes, as a binary value. */
    public static long ofOutput(byte[] b) {
        return bytes(S_BINARY, b, 0, b.length);
    }

    public static long arrayTerm(long h, long index) {
        return mum(h ^ P1, index ^ P2);
    }

    public static long arrayFinish(long sum, long n) {
        return mum(sum ^ S_ARRAY, n ^ P3);
    }

    public static long entryTerm(long keyHash, long valueHash) {
        return mum(keyHash ^ P3, valueHash ^ P0);
    }

    public static long mapFinish(long sum, long n) {
        return mum(sum ^ S_MAP, n ^ P3);
    }

    /** Little-endian word at i of b[off, off+len), bytes past the end read as 0. */
    private static long word(byte[] b, int off, int len, int i) {
        if (i + 8 <= len) return (long) LE.get(b, off + i);
        long w = 0;
        for (int k = 0; i + k < len && k < 8; k++) w |= (b[off + i + k] & 0xFFL) << (8 * k);
        return w;
    }

    static final java.lang.invoke.VarHandle LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * MASK_LO[n] and MASK_HI[n] keep the first n bytes (n at most 16; 32 entries, indexed with n & 31
     * so the JIT drops the bounds check) of the two little-endian words read at a string's last 1–16
     * bytes: spec/hash.md pads a block with zero bytes, and the masks make the bytes past the end
     * read as those zeros, so the words can be read whole instead of byte by byte.
     */
    static final long[] MASK_LO = new long[32], MASK_HI = new long[32];

    static {
        for (int n = 0; n <= 16; n++) {
            MASK_LO[n] = n >= 8 ? -1L : (1L << (8 * n)) - 1;
            MASK_HI[n] = n >= 16 ? -1L : n <= 8 ? 0 : (1L << (8 * (n - 8))) - 1;
        }
    }

    /**
     * bytes(seed, b): spec/hash.md "Bytes". A block of 1–16 bytes with 16 readable bytes from its
     * start (b[off + i, off + i + 16) inside the array, as in any string of a larger buffer and in
     * every string of FlatDoc's padded pool) is read as two whole words and masked, with no branch
     * per byte; one nearer the array's end is read byte by byte (word).
     */
    public static long bytes(long seed, byte[] b, int off, int n) {
        long a = seed ^ n;
        long c = 0;
        int i = 0;
        while (n - i >= 32) {
            long w0 = (long) LE.get(b, off + i), w1 = (long) LE.get(b, off + i + 8);
            long w2 = (long) LE.get(b, off + i + 16), w3 = (long) LE.get(b, off + i + 24);
            a = mum(w0 ^ P1, w1 ^ a ^ P2);
            c = mum(w2 ^ P3, w3 ^ c ^ P0);
            i += 32;
        }
        if (n - i > 16) { // a whole 16-byte block, then the last 1–15 bytes
            a = mum((long) LE.get(b, off + i) ^ P1, (long) LE.get(b, off + i + 8) ^ a ^ P2);
            i += 16;
        }
        if (i < n) {
            int r = n - i, at = off + i;
            if (b.length - at >= 16) return block(b, at, r, a) ^ c;
            a = mum(word(b, off, n, i) ^ P1, word(b, off, n, i + 8) ^ a ^ P2);
        }
        return a ^ c;
    }

    /**
     * bytes' last block of r (1–16) bytes at b[at, at + r), with 16 readable bytes from at, read as
     * two whole words and masked, chained onto a. A 1–16-byte string's whole hash is
     * block(b, at, n, seed ^ n); FlatDoc's walks call it so for their keys.
     */
    static long block(byte[] b, int at, int r, long a) {
        long w0 = (long) LE.get(b, at) & MASK_LO[r & 31];
        long w1 = (long) LE.get(b, at + 8) & MASK_HI[r & 31];
        return mum(w0 ^ P1, w1 ^ a ^ P2);
    }

    public static String hex(long h) {
        String s = Long.toHexString(h);
        return "0000000000000000".substring(s.length()) + s;
    }

    /** A value the data model has no place for (an integer beyond uint64, a non-string key...). */
    public static final class OutOfModel extends Exception {
        public OutOfModel(String msg) {
            super(msg);
        }
    }
}
