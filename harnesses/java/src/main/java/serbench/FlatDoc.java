package serbench;

import java.util.Arrays;

/**
 * The harness's tree as a flat pre-order array of nodes, for the `hash-object` baseline
 * (spec/fairness.md rule 5): the baseline does the hash's work and the least walk any tree needs,
 * so the type dispatch a tree row spends reading its library's tree stays in the row's net time.
 * A container's children follow it; a map's entries are (key string node, value node) pairs. The
 * nodes are parallel primitive arrays and every string's UTF-8 bytes sit in one pool, so the walk
 * touches no objects. The same walk as the native harness's `hash_doc` (common/ref.cpp) and the
 * Rust harness's `hash_flat` (src/model.rs).
 */
public final class FlatDoc {
    /** Node tags: a scalar's tag indexes {@link #SEED}; tags below ARRAY are leaves. */
    static final byte NULL = 0, FALSE = 1, TRUE = 2, UINT = 3, NEGINT = 4, FLOAT = 5, STRING = 6, BINARY = 7, ARRAY = 8, MAP = 9;

    /**
     * The seed each leaf tag is mixed with: every scalar is mum(payload ^ seed, P0) (spec/hash.md
     * `scalar`; true is scalar(BOOL, 1) = payload 0 with seed S(BOOL) ^ 1), and a string or binary
     * hashes its bytes with its seed. A table instead of a switch: mixed types do not mispredict.
     */
    private static final long[] SEED = {Hash.S_NULL, Hash.S_BOOL, Hash.S_BOOL ^ 1, Hash.S_UINT, Hash.S_NEGINT, Hash.S_FLOAT, Hash.S_STRING, Hash.S_BINARY};
    private static final long EMPTY_ARRAY = Hash.arrayFinish(0, 0), EMPTY_MAP = Hash.mapFinish(0, 0);

    /**
     * By tag & 15, what makes a scalar and a string of 1–16 bytes the same instructions (the native
     * harness's kLeafConst, sb.h): both are mum(w0 ^ X1, w1 ^ n ^ X2) over two masked words. A
     * string's words are its first 16 bytes in the pool, n its length, X1 = P1 and X2 = seed ^ P2
     * (Hash.bytes' one block); a scalar's are its payload and nothing (N = 8 masks w1 to 0), with
     * X1 = seed and X2 = P0 ^ 8, which gives mum(payload ^ seed, P0). Which words and constants is a
     * table look-up and masks, never a branch: on the corpus's mixed types a branch on scalar or
     * string mispredicts (docs/studies/fewer-branches-per-value.md, "Fewer branches per value"). STR is all ones for a
     * string or binary (its count is its length, its payload an offset). A container's entries are
     * zero, so its n is 0.
     */
    private static final long[] X1 = new long[16], X2 = new long[16], STR = new long[16], N = new long[16];

    static {
        for (int t = 0; t < ARRAY; t++) {
            if (t <= FLOAT) {
                X1[t] = SEED[t];
                X2[t] = Hash.P0 ^ 8;
                N[t] = 8;
            } else {
                X1[t] = Hash.P1;
                X2[t] = SEED[t] ^ Hash.P2;
                STR[t] = -1L;
            }
        }
    }

    /** per node: its tag */
    final byte[] tag;
    /** per node: children (array), entries (map) or byte length (string, binary) */
    final int[] count;
    /** per node: a scalar's 64 bits, or the offset of a string's bytes in {@link #pool} */
    final long[] payload;
    /**
     * every string's and binary's bytes (UTF-8 for strings), in document order, then 16 zero bytes,
     * so the leaf reads 16 bytes at any string's start (and a scalar's 16 at 0) without a check
     */
    final byte[] pool;
    /** nodes */
    final int size;
    /** containers on the deepest path (the walk's stack never holds more) */
    final int maxDepth;

    private FlatDoc(Builder b) {
        tag = Arrays.copyOf(b.tag, b.n);
        count = Arrays.copyOf(b.count, b.n);
        payload = Arrays.copyOf(b.payload, b.n);
        pool = Arrays.copyOf(b.pool, b.used + 16);
        size = b.n;
        maxDepth = b.maxDepth;
    }

    /** Flattens the harness's tree (Model), iteratively: Model.emit gives its nodes in pre-order. */
    public static FlatDoc of(Object root) throws Exception {
        Builder b = new Builder();
        Model.emit(root, b);
        return new FlatDoc(b);
    }

    private static final class Builder implements Model.Sink {
        byte[] tag = new byte[64];
        int[] count = new int[64];
        long[] payload = new long[64];
        byte[] pool = new byte[256];
        int n, used, depth, maxDepth;

        void node(byte t, int c, long p) {
            if (n == tag.length) {
                tag = Arrays.copyOf(tag, 2 * n);
                count = Arrays.copyOf(count, 2 * n);
                payload = Arrays.copyOf(payload, 2 * n);
            }
            tag[n] = t;
            count[n] = c;
            payload[n] = p;
            n++;
        }

        /** Room for len more bytes in the pool, which is one Java array (2 GiB, as the input). */
        void reserve(long len) throws Hash.OutOfModel {
            if (pool.length - used >= len) return;
            long need = used + len, max = Integer.MAX_VALUE - 8;
            if (need > max) throw new Hash.OutOfModel("the document's strings exceed 2 GiB");
            pool = Arrays.copyOf(pool, (int) Math.min(max, Math.max(need, 2L * pool.length)));
        }

        public void string(String s) throws Hash.OutOfModel {
            reserve(3L * s.length());
            int end = Utf8.encode(s, pool, used); // the bytes Hash.ofString hashes (a lone surrogate as U+FFFD)
            node(STRING, end - used, used);
            used = end;
        }

        void open(byte t, int size) {
            node(t, size, 0);
            maxDepth = Math.max(maxDepth, ++depth);
        }

        public void nul() {
            node(NULL, 0, 0);
        }

        public void bool(boolean v) {
            node(v ? TRUE : FALSE, 0, 0);
        }

        public void int64(long v) {
            node(v >= 0 ? UINT : NEGINT, 0, v);
        }

        public void uint64(long bits) {
            node(UINT, 0, bits);
        }

        public void float64(double d) {
            node(FLOAT, 0, Double.doubleToRawLongBits(d));
        }

        public void binary(byte[] b) throws Hash.OutOfModel {
            reserve(b.length);
            System.arraycopy(b, 0, pool, used, b.length);
            node(BINARY, b.length, used);
            used += b.length;
        }

        public void key(String k) throws Hash.OutOfModel {
            string(k);
        }

        public void startArray(int size) {
            open(ARRAY, size);
        }

        public void endArray() {
            depth--;
        }

        public void startMap(int size) {
            open(MAP, size);
        }

        public void endMap() {
            depth--;
        }
    }

    /**
     * The object hash of a FlatDoc (tree form), iteratively: the open container's frame lives in
     * locals, arrays and maps have their own loops, and the only per-node decisions are leaf or
     * container, scalar word or bytes, and whether the container has ended. The parents wait in
     * primitive-array stacks reused across calls: they grow to the document's depth on the first
     * call (the untimed check), so the timed loop never allocates.
     */
    public static final class Hasher {
        private long[] accs = new long[16], keys = new long[16];
        private int[] ns = new int[16], idx = new int[16];
        private boolean[] maps = new boolean[16];

        public long hash(FlatDoc d) {
            if (d.size == 0) return 0; // not a document; the reference decoders never return one
            if (ns.length < d.maxDepth) grow(d.maxDepth);
            byte[] tag = d.tag;
            int[] count = d.count;
            long[] payload = d.payload;
            byte[] pool = d.pool;
            byte t = tag[0];
            if (t < ARRAY) return leaf(t, payload[0], count[0], pool);
            if (count[0] == 0) return t == MAP ? EMPTY_MAP : EMPTY_ARRAY;
            // the open container's frame
            boolean isMap = t == MAP;
            int n = count[0], i = 0;
            long acc = 0, key = 0;
            int x = 1, depth = 0;
            while (true) {
                // the children until one is a non-empty container (i < n: x is at it) or the end
                if (isMap) {
                    while (i < n) {
                        key = key(pool, (int) payload[x], count[x]);
                        x++;
                        t = tag[x];
                        long h;
                        if (t < ARRAY) h = leaf(t, payload[x], count[x], pool);
                        else if (count[x] != 0) break;
                        else h = t == MAP ? EMPTY_MAP : EMPTY_ARRAY;
                        x++;
                        acc += Hash.entryTerm(key, h);
                        i++;
                    }
                } else {
                    while (i < n) {
                        t = tag[x];
                        long h;
                        if (t < ARRAY) h = leaf(t, payload[x], count[x], pool);
                        else if (count[x] != 0) break;
                        else h = t == MAP ? EMPTY_MAP : EMPTY_ARRAY;
                        x++;
                        acc += Hash.arrayTerm(h, i);
                        i++;
                    }
                }
                if (i < n) {
                    // push the frame, open the container at x
                    accs[depth] = acc;
                    keys[depth] = key;
                    ns[depth] = n;
                    idx[depth] = i;
                    maps[depth] = isMap;
                    depth++;
                    isMap = tag[x] == MAP;
                    n = count[x];
                    i = 0;
                    acc = 0;
                    x++;
                    continue;
                }
                long h = isMap ? Hash.mapFinish(acc, n) : Hash.arrayFinish(acc, n);
                if (depth == 0) return h;
                depth--;
                acc = accs[depth];
                key = keys[depth];
                n = ns[depth];
                i = idx[depth];
                isMap = maps[depth];
                acc += isMap ? Hash.entryTerm(key, h) : Hash.arrayTerm(h, i);
                i++;
            }
        }

        /**
         * A key's hash: one mum for 1–16 bytes (Hash.block, read whole: the pool is padded by 16
         * bytes), Hash.bytes for an empty or longer one; the walks' keys skip Hash.bytes' loop and
         * tail tests, as the native and Go walks' keys do (docs/studies/go-flat-walk.md, "Go's flat walk").
         */
        private static long key(byte[] pool, int off, int n) {
            if (((n - 1) >>> 4) != 0) return Hash.bytes(Hash.S_STRING, pool, off, n);
            return Hash.block(pool, off, n, Hash.S_STRING ^ n);
        }

        /**
         * A leaf's hash: one mum for a scalar or a string or binary of 1–16 bytes (the tables above),
         * Hash.bytes for an empty or longer one. Small enough for the JIT to inline in both loops.
         */
        private static long leaf(byte t, long payload, int count, byte[] pool) {
            int k = t & 15;
            long str = STR[k];
            long n = (count & str) | N[k];
            if (((n - 1) >>> 4) != 0) return Hash.bytes(SEED[k & 7], pool, (int) payload, count);
            int at = (int) (payload & str);
            long lo = (((long) Hash.LE.get(pool, at) & str) | (payload & ~str)) & Hash.MASK_LO[(int) n & 31];
            long hi = (long) Hash.LE.get(pool, at + 8) & Hash.MASK_HI[(int) n & 31];
            return Hash.mum(lo ^ X1[k], hi ^ n ^ X2[k]);
        }

        /**
         * The streaming form of the hash over the document: the `hash-events` baseline (spec/fairness.md
         * rule 5). The document's values go into the streaming hasher in document order, keys as
         * their hashes, each leaf hashed as {@link #hash} hashes it, with no per-event type switch:
         * that dispatch is what a token reader does for itself, so it stays in the row's net time (the
         * native `hash_doc_events`, Go's `Flat.HashEvents`). The parents' counts wait in the same
         * reused stacks as {@link #hash}'s.
         */
        public long hashEvents(FlatDoc d, StreamHasher s) throws Hash.OutOfModel {
            s.reset();
            if (ns.length < d.maxDepth) grow(d.maxDepth);
            byte[] tag = d.tag;
            int[] count = d.count;
            long[] payload = d.payload;
            byte[] pool = d.pool;
            // the root is the value of a pseudo-container of one value, which has no close
            int left = Math.min(d.size, 1), depth = 0;
            boolean isMap = false;
            for (int x = 0; ; x++) {
                while (left == 0) {
                    if (depth == 0) return s.finish();
                    s.end();
                    depth--;
                    left = ns[depth];
                    isMap = maps[depth];
                }
                left--;
                if (isMap) {
                    s.keyHash(key(pool, (int) payload[x], count[x]));
                    x++;
                }
                byte t = tag[x];
                if (t < ARRAY) {
                    s.hashed(leaf(t, payload[x], count[x], pool));
                    continue;
                }
                if (t == MAP) s.startMap();
                else s.startArray();
                ns[depth] = left;
                maps[depth] = isMap;
                depth++;
                left = count[x];
                isMap = t == MAP;
            }
        }

        private void grow(int depth) {
            accs = Arrays.copyOf(accs, depth);
            keys = Arrays.copyOf(keys, depth);
            ns = Arrays.copyOf(ns, depth);
            idx = Arrays.copyOf(idx, depth);
            maps = Arrays.copyOf(maps, depth);
        }
    }
}
