package serbench;

import java.util.Arrays;
import java.util.Iterator;

/**
 * Hashes a decoded tree (a library's DOM, or the harness's own tree) with an explicit stack of
 * open containers: one iterator, running sum, count and pending key per level, a switch on each
 * value's kind. Every tree row walks its library's tree with a subclass of this; the `hash-object`
 * baseline does only the hash's work over a {@link FlatDoc} (spec/fairness.md rule 5), and the
 * `hash-walk` reference walks the harness's tree with one of these, to show what the walk costs.
 * Iterative: a deep document costs heap, never Java stack.
 *
 * @param <N> the tree's node type
 */
public abstract class TreeWalk<N> {
    public static final int SCALAR = 0, ARRAY = 1, MAP = 2;

    /** SCALAR, ARRAY or MAP. */
    protected abstract int kind(N node) throws Hash.OutOfModel;

    /** The hash of a scalar node. */
    protected abstract long scalar(N node) throws Hash.OutOfModel;

    /** The elements of an array node, in order. */
    protected abstract Iterator<?> items(N array);

    /** The entries of a map node; {@link #entryKey} and {@link #entryValue} read each one. */
    protected abstract Iterator<?> entries(N map);

    /** The hash of an entry's key (a string). */
    protected abstract long entryKey(Object entry) throws Hash.OutOfModel;

    protected abstract N entryValue(Object entry);

    private Iterator<?>[] its = new Iterator<?>[16];
    private boolean[] isMap = new boolean[16];
    private long[] sum = new long[16], count = new long[16], key = new long[16];

    @SuppressWarnings("unchecked")
    public final long hash(N root) throws Hash.OutOfModel {
        int k = kind(root);
        if (k == SCALAR) return scalar(root);
        int depth = 0;
        depth = push(depth, root, k);
        while (true) {
            int d = depth - 1;
            Iterator<?> it = its[d];
            if (it.hasNext()) {
                Object x = it.next();
                N child;
                long kh = 0;
                if (isMap[d]) {
                    kh = entryKey(x);
                    child = entryValue(x);
                } else {
                    child = (N) x;
                }
                int ck = kind(child);
                if (ck == SCALAR) {
                    long h = scalar(child);
                    sum[d] += isMap[d] ? Hash.entryTerm(kh, h) : Hash.arrayTerm(h, count[d]);
                    count[d]++;
                } else {
                    key[d] = kh;
                    depth = push(depth, child, ck);
                }
            } else {
                its[d] = null;
                long h = isMap[d] ? Hash.mapFinish(sum[d], count[d]) : Hash.arrayFinish(sum[d], count[d]);
                depth = d;
                if (depth == 0) return h;
                int p = depth - 1;
                sum[p] += isMap[p] ? Hash.entryTerm(key[p], h) : Hash.arrayTerm(h, count[p]);
                count[p]++;
            }
        }
    }

    private int push(int depth, N node, int k) {
        if (depth == its.length) {
            int n = 2 * depth;
            its = Arrays.copyOf(its, n);
            isMap = Arrays.copyOf(isMap, n);
            sum = Arrays.copyOf(sum, n);
            count = Arrays.copyOf(count, n);
            key = Arrays.copyOf(key, n);
        }
        isMap[depth] = k == MAP;
        its[depth] = k == MAP ? entries(node) : items(node);
        sum[depth] = 0;
        count[depth] = 0;
        return depth + 1;
    }
}
