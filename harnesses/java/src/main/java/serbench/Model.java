package serbench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's own tree of a document (what the reference decoders produce and the write rows
 * start from): null, Boolean, Long (int64), {@link U64} (a uint64 above INT64_MAX), Double,
 * String, byte[] (binary), ArrayList, LinkedHashMap with String keys. Everything here is
 * iterative.
 */
public final class Model {
    private Model() {}

    /** A uint64 above INT64_MAX, as its 64 bits. Smaller unsigned values are Longs (one number line). */
    public record U64(long bits) {
        @Override
        public String toString() {
            return Long.toUnsignedString(bits);
        }
    }

    /** The tree walk of the harness's own tree (the `hash-walk` reference baseline and the checks). */
    public static final class Walk extends TreeWalk<Object> {
        @Override
        protected int kind(Object n) {
            if (n instanceof List) return ARRAY;
            if (n instanceof Map) return MAP;
            return SCALAR;
        }

        @Override
        protected long scalar(Object n) throws Hash.OutOfModel {
            if (n == null) return Hash.NULL;
            if (n instanceof String s) return Hash.ofString(s);
            if (n instanceof Long l) return Hash.ofLong(l);
            if (n instanceof Double d) return Hash.ofDouble(d);
            if (n instanceof Boolean b) return Hash.ofBool(b);
            if (n instanceof U64 u) return Hash.ofUnsigned(u.bits());
            if (n instanceof byte[] b) return Hash.ofBinary(b);
            throw new Hash.OutOfModel("not a data-model value: " + n.getClass().getName());
        }

        @Override
        protected Iterator<?> items(Object a) {
            return ((List<?>) a).iterator();
        }

        @Override
        protected Iterator<?> entries(Object m) {
            return ((Map<?, ?>) m).entrySet().iterator();
        }

        @Override
        protected long entryKey(Object e) {
            return Hash.ofString((String) ((Map.Entry<?, ?>) e).getKey());
        }

        @Override
        protected Object entryValue(Object e) {
            return ((Map.Entry<?, ?>) e).getValue();
        }
    }

    public static long hash(Object root) throws Hash.OutOfModel {
        return new Walk().hash(root);
    }

    /** What writers and the event list are driven by: one call per parse event. */
    public interface Sink {
        void nul() throws Exception;

        void bool(boolean b) throws Exception;

        void int64(long v) throws Exception;

        void uint64(long bits) throws Exception;

        void float64(double d) throws Exception;

        void string(String s) throws Exception;

        void binary(byte[] b) throws Exception;

        void key(String k) throws Exception;

        void startArray(int size) throws Exception;

        void endArray() throws Exception;

        void startMap(int size) throws Exception;

        void endMap() throws Exception;
    }

    /** Replays the tree as events into a sink, in document order, with an explicit stack. */
    public static void emit(Object root, Sink s) throws Exception {
        ArrayList<Iterator<?>> stack = new ArrayList<>();
        ArrayList<Boolean> maps = new ArrayList<>();
        Object node = root;
        while (true) {
            if (node instanceof List<?> l) {
                s.startArray(l.size());
                stack.add(l.iterator());
                maps.add(false);
            } else if (node instanceof Map<?, ?> m) {
                s.startMap(m.size());
                stack.add(m.entrySet().iterator());
                maps.add(true);
            } else {
                scalar(node, s);
            }
            node = null;
            boolean next = false;
            while (!stack.isEmpty()) {
                int d = stack.size() - 1;
                Iterator<?> it = stack.get(d);
                if (it.hasNext()) {
                    Object x = it.next();
                    if (maps.get(d)) {
                        Map.Entry<?, ?> e = (Map.Entry<?, ?>) x;
                        s.key((String) e.getKey());
                        node = e.getValue();
                    } else {
                        node = x;
                    }
                    next = true;
                    break;
                }
                stack.remove(d);
                if (maps.remove(d)) s.endMap();
                else s.endArray();
            }
            if (!next) return;
        }
    }

    private static void scalar(Object n, Sink s) throws Exception {
        if (n == null) s.nul();
        else if (n instanceof String v) s.string(v);
        else if (n instanceof Long v) s.int64(v);
        else if (n instanceof Double v) s.float64(v);
        else if (n instanceof Boolean v) s.bool(v);
        else if (n instanceof U64 v) s.uint64(v.bits());
        else if (n instanceof byte[] v) s.binary(v);
        else throw new Hash.OutOfModel("not a data-model value: " + n.getClass().getName());
    }

    static LinkedHashMap<String, Object> newMap() {
        return new LinkedHashMap<>();
    }
}
