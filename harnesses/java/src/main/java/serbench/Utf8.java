package serbench;

/**
 * Hashes Java strings (UTF-16) as their UTF-8 bytes without allocating: the chars are encoded into
 * a per-thread scratch buffer, which grows to the longest string seen. A lone surrogate (outside
 * the data model) is encoded as U+FFFD, as String.getBytes does.
 */
final class Utf8 {
    private Utf8() {}

    private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[][] {new byte[256]});

    static long hash(long seed, String s) {
        int n = s.length();
        byte[][] holder = SCRATCH.get();
        byte[] buf = holder[0];
        if (buf.length < 3 * n) buf = holder[0] = new byte[Math.max(3 * n, 2 * buf.length)];
        return Hash.bytes(seed, buf, 0, encode(s, buf, 0));
    }

    static long hash(long seed, char[] c, int off, int n) {
        byte[][] holder = SCRATCH.get();
        byte[] buf = holder[0];
        if (buf.length < 3 * n) buf = holder[0] = new byte[Math.max(3 * n, 2 * buf.length)];
        int j = 0;
        int end = off + n;
        for (int i = off; i < end; i++) {
            char ch = c[i];
            if (ch < 0x80) {
                buf[j++] = (byte) ch;
            } else {
                j = encode(ch, i + 1 < end ? c[i + 1] : 0, buf, j);
                if (Character.isHighSurrogate(ch) && i + 1 < end && Character.isLowSurrogate(c[i + 1])) i++;
            }
        }
        return Hash.bytes(seed, buf, 0, j);
    }

    /** Encodes s at buf[j] (room for 3 bytes per char): the bytes hash(seed, s) hashes; returns the new j. */
    static int encode(String s, byte[] buf, int j) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch < 0x80) {
                buf[j++] = (byte) ch;
            } else {
                j = encode(ch, i + 1 < n ? s.charAt(i + 1) : 0, buf, j);
                if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) i++;
            }
        }
        return j;
    }

    /** Encodes ch (and its low surrogate next, when ch is a high one) at buf[j]; returns the new j. */
    private static int encode(char ch, char next, byte[] buf, int j) {
        if (ch < 0x800) {
            buf[j++] = (byte) (0xC0 | (ch >> 6));
            buf[j++] = (byte) (0x80 | (ch & 0x3F));
        } else if (Character.isHighSurrogate(ch) && Character.isLowSurrogate(next)) {
            int cp = Character.toCodePoint(ch, next);
            buf[j++] = (byte) (0xF0 | (cp >> 18));
            buf[j++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[j++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
            buf[j++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            if (Character.isSurrogate(ch)) ch = '\uFFFD';
            buf[j++] = (byte) (0xE0 | (ch >> 12));
            buf[j++] = (byte) (0x80 | ((ch >> 6) & 0x3F));
            buf[j++] = (byte) (0x80 | (ch & 0x3F));
        }
        return j;
    }
}
