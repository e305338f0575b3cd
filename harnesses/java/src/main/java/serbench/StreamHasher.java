package serbench;

/**
 * The streaming form of the hash (spec/hash.md): a stack of open containers, each with its running
 * sum, its count and (maps) the pending key's hash. Parsers feed it events in document order; the
 * count is needed only at the close. The stack is arrays that grow, so depth is bounded by memory
 * alone, never by the Java stack.
 */
public final class StreamHasher {
    private long[] sum = new long[16];
    private long[] count = new long[16];
    private long[] key = new long[16];
    private boolean[] isMap = new boolean[16];
    private int depth; // open containers
    private long result;
    private boolean done;

    public void reset() {
        depth = 0;
        done = false;
    }

    private void value(long h) {
        if (depth == 0) {
            result = h;
            done = true;
            return;
        }
        int d = depth - 1;
        if (isMap[d]) sum[d] += Hash.entryTerm(key[d], h);
        else sum[d] += Hash.arrayTerm(h, count[d]);
        count[d]++;
    }

    public void nul() {
        value(Hash.NULL);
    }

    public void bool(boolean b) {
        value(Hash.ofBool(b));
    }

    public void int64(long v) {
        value(Hash.ofLong(v));
    }

    public void uint64(long bits) {
        value(Hash.ofUnsigned(bits));
    }

    public void float64(double d) {
        value(Hash.ofDouble(d));
    }

    public void string(String s) {
        value(Hash.ofString(s));
    }

    public void chars(char[] c, int off, int len) {
        value(Hash.ofChars(c, off, len));
    }

    public void utf8(byte[] b, int off, int len) {
        value(Hash.ofUtf8(b, off, len));
    }

    public void binary(byte[] b) {
        value(Hash.ofBinary(b));
    }

    /** A scalar already hashed (baselines replay prebuilt hashes of big integers). */
    public void hashed(long h) {
        value(h);
    }

    public void key(String k) {
        key[depth - 1] = Hash.ofString(k);
    }

    public void keyChars(char[] c, int off, int len) {
        key[depth - 1] = Hash.ofChars(c, off, len);
    }

    public void keyHash(long h) {
        key[depth - 1] = h;
    }

    public boolean inMap() {
        return depth > 0 && isMap[depth - 1];
    }

    public int depth() {
        return depth;
    }

    private void open(boolean map) {
        if (depth == sum.length) {
            int n = 2 * depth;
            sum = java.util.Arrays.copyOf(sum, n);
            count = java.util.Arrays.copyOf(count, n);
            key = java.util.Arrays.copyOf(key, n);
            isMap = java.util.Arrays.copyOf(isMap, n);
        }
        sum[depth] = 0;
        count[depth] = 0;
        key[depth] = 0;
        isMap[depth] = map;
        depth++;
    }

    public void startArray() {
        open(false);
    }

    public void startMap() {
        open(true);
    }

    /** Closes the innermost container (array or map). */
    public void end() {
        depth--;
        long h = isMap[depth] ? Hash.mapFinish(sum[depth], count[depth]) : Hash.arrayFinish(sum[depth], count[depth]);
        value(h);
    }

    /** The document's hash; fails when the events did not make exactly one complete value. */
    public long finish() throws Hash.OutOfModel {
        if (!done || depth != 0) throw new Hash.OutOfModel("incomplete document: " + depth + " containers left open");
        return result;
    }
}
