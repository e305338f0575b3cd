package serbench.adapters;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import serbench.Hash;
import serbench.Model;
import serbench.TreeWalk;

/**
 * Trees of plain Java objects (Map, List, String, Number, Boolean, null), as fastjson2 and
 * dsl-json give them: the walk, and the iterative builder of such a tree for write rows. Numbers
 * keep the library's own type: Integer/Long/BigInteger are integers, Double/Float/BigDecimal are
 * floats (a decimal literal, whatever its value, is a float in the data model).
 */
final class JavaObjects {
    private JavaObjects() {}

    static final class Walk extends TreeWalk<Object> {
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
            if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) return Hash.ofLong(((Number) n).longValue());
            if (n instanceof Double || n instanceof Float) return Hash.ofDouble(((Number) n).doubleValue());
            if (n instanceof BigDecimal d) return Hash.ofDouble(d.doubleValue());
            if (n instanceof BigInteger i) return Hash.ofBigInteger(i);
            if (n instanceof Boolean b) return Hash.ofBool(b);
            throw new Hash.OutOfModel("value of type " + n.getClass().getName() + " is outside the data model");
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
        protected long entryKey(Object e) throws Hash.OutOfModel {
            Object k = ((Map.Entry<?, ?>) e).getKey();
            if (!(k instanceof String s)) throw new Hash.OutOfModel("a map key is not a string");
            return Hash.ofString(s);
        }

        @Override
        protected Object entryValue(Object e) {
            return ((Map.Entry<?, ?>) e).getValue();
        }
    }

    /** Factories of the library's own map and list types. */
    interface Containers {
        Map<String, Object> map(int size);

        List<Object> list(int size);
    }

    /** Builds the library's tree from the harness's tree, iteratively (a write row's "build"). */
    static Object build(Object doc, Containers c) throws Exception {
        ArrayList<Object> stack = new ArrayList<>();
        ArrayList<String> keys = new ArrayList<>();
        Object[] root = new Object[1];
        Model.emit(doc, new Model.Sink() {
            @SuppressWarnings("unchecked")
            void add(Object v) {
                if (stack.isEmpty()) {
                    root[0] = v;
                    return;
                }
                int d = stack.size() - 1;
                Object top = stack.get(d);
                if (top instanceof Map) ((Map<String, Object>) top).put(keys.get(d), v);
                else ((List<Object>) top).add(v);
            }

            public void nul() {
                add(null);
            }

            public void bool(boolean b) {
                add(b);
            }

            public void int64(long v) {
                add(v);
            }

            public void uint64(long bits) {
                add(new BigInteger(Long.toUnsignedString(bits)));
            }

            public void float64(double d) {
                add(d);
            }

            public void string(String s) {
                add(s);
            }

            public void binary(byte[] b) throws Exception {
                throw new serbench.Bench.LibraryError("JSON has no binary type");
            }

            public void key(String k) {
                keys.set(keys.size() - 1, k);
            }

            public void startArray(int size) {
                List<Object> l = c.list(size);
                add(l);
                stack.add(l);
                keys.add(null);
            }

            public void endArray() {
                stack.remove(stack.size() - 1);
                keys.remove(keys.size() - 1);
            }

            public void startMap(int size) {
                Map<String, Object> m = c.map(size);
                add(m);
                stack.add(m);
                keys.add(null);
            }

            public void endMap() {
                endArray();
            }
        });
        return root[0];
    }
}
