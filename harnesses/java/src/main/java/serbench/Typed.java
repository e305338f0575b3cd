package serbench;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed records (spec/typed.md): the native record classes every typed row binds to, the loader of a
 * typed dataset file and the typed hash.
 *
 * The classes are plain mutable classes with public fields and a no-argument constructor, the one
 * shape every Java binding library here accepts without annotations (Jackson, Gson, fastjson2,
 * dsl-json's reflection, Kryo, Fory, JDK serialization). Field names are the data-model names
 * (snake_case), so no library needs a naming strategy. Java has no unsigned integers: each unsigned
 * width travels in the next wider signed type (u8 short, u16 int, u32 long) and u64 as the 64 bits
 * of a long (as protobuf-java does), so a JSON library writes a u64 above INT64_MAX as a negative
 * number; the hash reads those bits as unsigned.
 */
public final class Typed {
    private Typed() {}

    public enum Side {
        Buy,
        Sell
    }

    public static final class Product implements Serializable {
        private static final long serialVersionUID = 1L;
        public long id; // uint64 bits
        public String name;
        public double price;
        public boolean in_stock;
        public List<String> tags;
    }

    public static final class Trade implements Serializable {
        private static final long serialVersionUID = 1L;
        public double price;
        public boolean flag;
        public String text;
        public Side side;
        public int small_int;
        public long long_int;
    }

    public static final class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        public double x;
        public double y;
        public float z;
    }

    public static final class Inner implements Serializable {
        private static final long serialVersionUID = 1L;
        public String label;
        public Point point;
    }

    public static final class Nested implements Serializable {
        private static final long serialVersionUID = 1L;
        public short u8;
        public int u16;
        public long u32;
        public long u64; // uint64 bits
        public byte i8;
        public short i16;
        public int i32;
        public long i64;
        public float f32;
        public double f64;
        public boolean flag;
        public String name;
        public short[] u8s;
        public int[] u16s;
        public long[] u32s;
        public long[] u64s; // uint64 bits
        public byte[] i8s;
        public short[] i16s;
        public int[] i32s;
        public long[] i64s;
        public float[] f32s;
        public double[] f64s;
        public boolean[] flags;
        public List<String> names;
        public Map<String, Long> counts;
        public String note; // null: absent
        public Inner inner;
        public List<Nested> children;
    }

    /** A dataset's schema, with the record class and its array class (what the rows encode). */
    public enum Schema {
        product(Product.class, Product[].class),
        trade(Trade.class, Trade[].class),
        nested(Nested.class, Nested[].class);

        public final Class<?> record;
        public final Class<?> array;

        Schema(Class<?> record, Class<?> array) {
            this.record = record;
            this.array = array;
        }
    }

    /**
     * A dataset's records: an array of the schema's record class (Product[], Trade[] or Nested[]).
     * Rows encode the array as a whole (a top-level sequence of records), as the Rust harness
     * encodes its Vec.
     */
    public record Records(Schema schema, Object[] array) {
        public int size() {
            return array.length;
        }
    }

    // --- the loader ------------------------------------------------------------------------------

    /** The file is not a typed dataset the schema accepts (the input's fault, exit 6). */
    public static final class BadInput extends Exception {
        BadInput(String msg) {
            super(msg);
        }
    }

    /** Loads a typed dataset file (JSON, read by the harness's reference decoder), outside any loop. */
    public static Records load(byte[] json) throws BadInput {
        Object doc;
        try {
            doc = RefDecoder.decode("json", json);
        } catch (RefDecoder.Rejected e) {
            throw new BadInput("typed file: " + e.getMessage());
        }
        if (!(doc instanceof Map<?, ?> m) || !(m.get("schema") instanceof String name) || !(m.get("records") instanceof List<?> rs)) {
            throw new BadInput("typed file: expected {\"schema\": name, \"records\": [...]}");
        }
        Schema s;
        try {
            s = Schema.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new BadInput("typed file: unknown typed schema \"" + name + "\"");
        }
        Object[] out = (Object[]) java.lang.reflect.Array.newInstance(s.record, rs.size());
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = switch (s) {
                    case product -> product(map(rs.get(i)));
                    case trade -> trade(map(rs.get(i)));
                    case nested -> nested(rs.get(i));
                };
            } catch (BadInput e) {
                throw new BadInput("typed file (" + name + "), record " + i + ": " + e.getMessage());
            }
        }
        return new Records(s, out);
    }

    private static Map<?, ?> map(Object o) throws BadInput {
        if (o instanceof Map<?, ?> m) return m;
        throw new BadInput("expected a map");
    }

    private static Object field(Map<?, ?> m, String k) throws BadInput {
        if (!m.containsKey(k)) throw new BadInput("missing field " + k);
        return m.get(k);
    }

    private static String str(Map<?, ?> m, String k) throws BadInput {
        if (field(m, k) instanceof String s) return s;
        throw new BadInput(k + ": expected a string");
    }

    private static boolean bool(Map<?, ?> m, String k) throws BadInput {
        if (field(m, k) instanceof Boolean b) return b;
        throw new BadInput(k + ": expected a bool");
    }

    private static double f64(Object v, String k) throws BadInput {
        if (v instanceof Double d) return d;
        if (v instanceof Long l) return l;
        throw new BadInput(k + ": expected a number");
    }

    private static float f32(Object v, String k) throws BadInput {
        double d = f64(v, k);
        if ((double) (float) d != d) throw new BadInput(k + ": " + d + " is not a float32 value");
        return (float) d;
    }

    /** An integer in [lo, hi] (signed widths and u8-u32). */
    private static long integer(Object v, String k, long lo, long hi) throws BadInput {
        if (v instanceof Long l && l >= lo && l <= hi) return l;
        throw new BadInput(k + ": expected an integer in [" + lo + ", " + hi + "], got " + v);
    }

    /** A uint64, as its 64 bits. */
    private static long u64(Object v, String k) throws BadInput {
        if (v instanceof Long l && l >= 0) return l;
        if (v instanceof Model.U64 u) return u.bits();
        throw new BadInput(k + ": expected a uint64, got " + v);
    }

    private static List<?> list(Map<?, ?> m, String k) throws BadInput {
        if (field(m, k) instanceof List<?> l) return l;
        throw new BadInput(k + ": expected an array");
    }

    private static List<String> strings(Map<?, ?> m, String k) throws BadInput {
        List<?> l = list(m, k);
        List<String> out = new ArrayList<>(l.size());
        for (Object o : l) {
            if (!(o instanceof String s)) throw new BadInput(k + ": expected strings");
            out.add(s);
        }
        return out;
    }

    static Product product(Map<?, ?> m) throws BadInput {
        Product p = new Product();
        p.id = u64(field(m, "id"), "id");
        p.name = str(m, "name");
        p.price = f64(field(m, "price"), "price");
        p.in_stock = bool(m, "in_stock");
        p.tags = strings(m, "tags");
        return p;
    }

    static Trade trade(Map<?, ?> m) throws BadInput {
        Trade t = new Trade();
        t.price = f64(field(m, "price"), "price");
        t.flag = bool(m, "flag");
        t.text = str(m, "text");
        String side = str(m, "side");
        t.side = switch (side) {
            case "Buy" -> Side.Buy;
            case "Sell" -> Side.Sell;
            default -> throw new BadInput("side: unknown variant \"" + side + "\"");
        };
        t.small_int = (int) integer(field(m, "small_int"), "small_int", Integer.MIN_VALUE, Integer.MAX_VALUE);
        t.long_int = integer(field(m, "long_int"), "long_int", Long.MIN_VALUE, Long.MAX_VALUE);
        return t;
    }

    static final int MAX_NESTED_DEPTH = 64;

    /** A nested record and its children, iteratively (depth comes from the file). */
    static Nested nested(Object root) throws BadInput {
        ArrayList<Object[]> work = new ArrayList<>(); // {map, the parent's children list, depth}
        List<Nested> top = new ArrayList<>(1);
        work.add(new Object[] {root, top, 0});
        while (!work.isEmpty()) {
            Object[] w = work.remove(work.size() - 1);
            int depth = (Integer) w[2];
            // the typed hash and the libraries' binders recurse over children: the datasets nest 2
            // levels, and a file nesting deeper than this is refused as input the harness cannot take
            if (depth > MAX_NESTED_DEPTH) throw new BadInput("children nest deeper than " + MAX_NESTED_DEPTH + " levels");
            Map<?, ?> m = map(w[0]);
            Nested n = nestedFields(m);
            @SuppressWarnings("unchecked")
            List<Nested> parent = (List<Nested>) w[1];
            parent.add(n);
            List<?> kids = list(m, "children");
            n.children = new ArrayList<>(kids.size());
            // pushed in reverse, so children are added in file order
            for (int i = kids.size() - 1; i >= 0; i--) work.add(new Object[] {kids.get(i), null, depth + 1});
            for (int i = work.size() - kids.size(); i < work.size(); i++) work.get(i)[1] = n.children;
        }
        return top.get(0);
    }

    private static Nested nestedFields(Map<?, ?> m) throws BadInput {
        Nested n = new Nested();
        n.u8 = (short) integer(field(m, "u8"), "u8", 0, 0xFF);
        n.u16 = (int) integer(field(m, "u16"), "u16", 0, 0xFFFF);
        n.u32 = integer(field(m, "u32"), "u32", 0, 0xFFFF_FFFFL);
        n.u64 = u64(field(m, "u64"), "u64");
        n.i8 = (byte) integer(field(m, "i8"), "i8", Byte.MIN_VALUE, Byte.MAX_VALUE);
        n.i16 = (short) integer(field(m, "i16"), "i16", Short.MIN_VALUE, Short.MAX_VALUE);
        n.i32 = (int) integer(field(m, "i32"), "i32", Integer.MIN_VALUE, Integer.MAX_VALUE);
        n.i64 = integer(field(m, "i64"), "i64", Long.MIN_VALUE, Long.MAX_VALUE);
        n.f32 = f32(field(m, "f32"), "f32");
        n.f64 = f64(field(m, "f64"), "f64");
        n.flag = bool(m, "flag");
        n.name = str(m, "name");
        List<?> l = list(m, "u8s");
        n.u8s = new short[l.size()];
        for (int i = 0; i < l.size(); i++) n.u8s[i] = (short) integer(l.get(i), "u8s", 0, 0xFF);
        l = list(m, "u16s");
        n.u16s = new int[l.size()];
        for (int i = 0; i < l.size(); i++) n.u16s[i] = (int) integer(l.get(i), "u16s", 0, 0xFFFF);
        l = list(m, "u32s");
        n.u32s = new long[l.size()];
        for (int i = 0; i < l.size(); i++) n.u32s[i] = integer(l.get(i), "u32s", 0, 0xFFFF_FFFFL);
        l = list(m, "u64s");
        n.u64s = new long[l.size()];
        for (int i = 0; i < l.size(); i++) n.u64s[i] = u64(l.get(i), "u64s");
        l = list(m, "i8s");
        n.i8s = new byte[l.size()];
        for (int i = 0; i < l.size(); i++) n.i8s[i] = (byte) integer(l.get(i), "i8s", Byte.MIN_VALUE, Byte.MAX_VALUE);
        l = list(m, "i16s");
        n.i16s = new short[l.size()];
        for (int i = 0; i < l.size(); i++) n.i16s[i] = (short) integer(l.get(i), "i16s", Short.MIN_VALUE, Short.MAX_VALUE);
        l = list(m, "i32s");
        n.i32s = new int[l.size()];
        for (int i = 0; i < l.size(); i++) n.i32s[i] = (int) integer(l.get(i), "i32s", Integer.MIN_VALUE, Integer.MAX_VALUE);
        l = list(m, "i64s");
        n.i64s = new long[l.size()];
        for (int i = 0; i < l.size(); i++) n.i64s[i] = integer(l.get(i), "i64s", Long.MIN_VALUE, Long.MAX_VALUE);
        l = list(m, "f32s");
        n.f32s = new float[l.size()];
        for (int i = 0; i < l.size(); i++) n.f32s[i] = f32(l.get(i), "f32s");
        l = list(m, "f64s");
        n.f64s = new double[l.size()];
        for (int i = 0; i < l.size(); i++) n.f64s[i] = f64(l.get(i), "f64s");
        l = list(m, "flags");
        n.flags = new boolean[l.size()];
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof Boolean b)) throw new BadInput("flags: expected bools");
            n.flags[i] = b;
        }
        n.names = strings(m, "names");
        Map<?, ?> c = map(field(m, "counts"));
        n.counts = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : c.entrySet()) n.counts.put((String) e.getKey(), integer(e.getValue(), "counts", Long.MIN_VALUE, Long.MAX_VALUE));
        Object note = field(m, "note");
        if (note != null && !(note instanceof String)) throw new BadInput("note: expected a string or null");
        n.note = (String) note;
        Map<?, ?> inner = map(field(m, "inner"));
        n.inner = new Inner();
        n.inner.label = str(inner, "label");
        Map<?, ?> pt = map(field(inner, "point"));
        n.inner.point = new Point();
        n.inner.point.x = f64(field(pt, "x"), "x");
        n.inner.point.y = f64(field(pt, "y"), "y");
        n.inner.point.z = f32(field(pt, "z"), "z");
        return n;
    }

    // --- the typed hash (spec/typed.md "Data model and hash") --------------------------------------

    private static long k(String name) {
        return Hash.ofString(name);
    }

    // field names, hashed once (a struct's keys are constants, as a derive would make them)
    static final long K_SCHEMA = k("schema"), K_RECORDS = k("records");
    static final long K_ID = k("id"), K_NAME = k("name"), K_PRICE = k("price"), K_IN_STOCK = k("in_stock"), K_TAGS = k("tags");
    static final long K_FLAG = k("flag"), K_TEXT = k("text"), K_SIDE = k("side"), K_SMALL_INT = k("small_int"), K_LONG_INT = k("long_int");
    static final long H_BUY = k("Buy"), H_SELL = k("Sell");
    static final long K_X = k("x"), K_Y = k("y"), K_Z = k("z"), K_LABEL = k("label"), K_POINT = k("point");
    static final long K_U8 = k("u8"), K_U16 = k("u16"), K_U32 = k("u32"), K_U64 = k("u64"), K_I8 = k("i8"), K_I16 = k("i16"),
            K_I32 = k("i32"), K_I64 = k("i64"), K_F32 = k("f32"), K_F64 = k("f64"), K_U8S = k("u8s"), K_U16S = k("u16s"),
            K_U32S = k("u32s"), K_U64S = k("u64s"), K_I8S = k("i8s"), K_I16S = k("i16s"), K_I32S = k("i32s"), K_I64S = k("i64s"),
            K_F32S = k("f32s"), K_F64S = k("f64s"), K_FLAGS = k("flags"), K_NAMES = k("names"), K_COUNTS = k("counts"),
            K_NOTE = k("note"), K_INNER = k("inner"), K_CHILDREN = k("children");
    static final long[] SCHEMA_NAMES = {k("product"), k("trade"), k("nested")};

    /** A struct's hash, built field by field (a map of its fields). */
    public static final class MapAcc {
        long sum;
        int n;

        public MapAcc put(long keyHash, long valueHash) {
            sum += Hash.entryTerm(keyHash, valueHash);
            n++;
            return this;
        }

        public long finish() {
            return Hash.mapFinish(sum, n);
        }
    }

    /** An array's hash, item by item. */
    public static final class ArrAcc {
        long sum;
        int n;

        public ArrAcc add(long h) {
            sum += Hash.arrayTerm(h, n++);
            return this;
        }

        public long finish() {
            return Hash.arrayFinish(sum, n);
        }
    }

    public static long side(Side s) {
        return s == Side.Buy ? H_BUY : H_SELL;
    }

    /** An f32 hashes as the double of its value (spec/typed.md). */
    public static long f32(float f) {
        return Hash.ofDouble(f);
    }

    public static long strings(List<String> l) {
        ArrAcc a = new ArrAcc();
        for (String s : l) a.add(Hash.ofString(s));
        return a.finish();
    }

    public static long hash(Product p) {
        return new MapAcc().put(K_ID, Hash.ofUnsigned(p.id)).put(K_NAME, Hash.ofString(p.name)).put(K_PRICE, Hash.ofDouble(p.price))
                .put(K_IN_STOCK, Hash.ofBool(p.in_stock)).put(K_TAGS, strings(p.tags)).finish();
    }

    public static long hash(Trade t) {
        return new MapAcc().put(K_PRICE, Hash.ofDouble(t.price)).put(K_FLAG, Hash.ofBool(t.flag)).put(K_TEXT, Hash.ofString(t.text))
                .put(K_SIDE, side(t.side)).put(K_SMALL_INT, Hash.ofLong(t.small_int)).put(K_LONG_INT, Hash.ofLong(t.long_int)).finish();
    }

    public static long point(double x, double y, float z) {
        return new MapAcc().put(K_X, Hash.ofDouble(x)).put(K_Y, Hash.ofDouble(y)).put(K_Z, f32(z)).finish();
    }

    public static long inner(String label, long pointHash) {
        return new MapAcc().put(K_LABEL, Hash.ofString(label)).put(K_POINT, pointHash).finish();
    }

    /**
     * A nested record: its scalar and array fields, then its children. Recursive over `children`,
     * whose depth the harness's loader built (2 in the datasets); a decoded record is as deep as the
     * file the harness wrote.
     */
    public static long hash(Nested n) {
        ArrAcc kids = new ArrAcc();
        for (Nested c : n.children) kids.add(hash(c));
        return nestedFields(n).put(K_CHILDREN, kids.finish()).finish();
    }

    /** The fields of a nested record except `children` (shared with the zero-copy views). */
    static MapAcc nestedFields(Nested n) {
        ArrAcc a;
        MapAcc m = new MapAcc().put(K_U8, Hash.ofLong(n.u8)).put(K_U16, Hash.ofLong(n.u16)).put(K_U32, Hash.ofLong(n.u32))
                .put(K_U64, Hash.ofUnsigned(n.u64)).put(K_I8, Hash.ofLong(n.i8)).put(K_I16, Hash.ofLong(n.i16))
                .put(K_I32, Hash.ofLong(n.i32)).put(K_I64, Hash.ofLong(n.i64)).put(K_F32, f32(n.f32)).put(K_F64, Hash.ofDouble(n.f64))
                .put(K_FLAG, Hash.ofBool(n.flag)).put(K_NAME, Hash.ofString(n.name));
        a = new ArrAcc();
        for (short v : n.u8s) a.add(Hash.ofLong(v));
        m.put(K_U8S, a.finish());
        a = new ArrAcc();
        for (int v : n.u16s) a.add(Hash.ofLong(v));
        m.put(K_U16S, a.finish());
        a = new ArrAcc();
        for (long v : n.u32s) a.add(Hash.ofLong(v));
        m.put(K_U32S, a.finish());
        a = new ArrAcc();
        for (long v : n.u64s) a.add(Hash.ofUnsigned(v));
        m.put(K_U64S, a.finish());
        a = new ArrAcc();
        for (byte v : n.i8s) a.add(Hash.ofLong(v));
        m.put(K_I8S, a.finish());
        a = new ArrAcc();
        for (short v : n.i16s) a.add(Hash.ofLong(v));
        m.put(K_I16S, a.finish());
        a = new ArrAcc();
        for (int v : n.i32s) a.add(Hash.ofLong(v));
        m.put(K_I32S, a.finish());
        a = new ArrAcc();
        for (long v : n.i64s) a.add(Hash.ofLong(v));
        m.put(K_I64S, a.finish());
        a = new ArrAcc();
        for (float v : n.f32s) a.add(f32(v));
        m.put(K_F32S, a.finish());
        a = new ArrAcc();
        for (double v : n.f64s) a.add(Hash.ofDouble(v));
        m.put(K_F64S, a.finish());
        a = new ArrAcc();
        for (boolean v : n.flags) a.add(Hash.ofBool(v));
        m.put(K_FLAGS, a.finish());
        m.put(K_NAMES, strings(n.names));
        MapAcc c = new MapAcc();
        for (Map.Entry<String, Long> e : n.counts.entrySet()) c.put(Hash.ofString(e.getKey()), Hash.ofLong(e.getValue()));
        m.put(K_COUNTS, c.finish());
        m.put(K_NOTE, n.note == null ? Hash.NULL : Hash.ofString(n.note));
        m.put(K_INNER, inner(n.inner.label, point(n.inner.point.x, n.inner.point.y, n.inner.point.z)));
        return m;
    }

    /** One record's hash, whatever its class. */
    public static long hashRecord(Object r) {
        if (r instanceof Product p) return hash(p);
        if (r instanceof Trade t) return hash(t);
        return hash((Nested) r);
    }

    /** The document `{"schema": name, "records": [...]}` from its records' hashes. */
    public static long document(Schema s, long recordsHash) {
        return new MapAcc().put(K_SCHEMA, SCHEMA_NAMES[s.ordinal()]).put(K_RECORDS, recordsHash).finish();
    }

    /** The typed hash of a dataset's records (an array or a list of the schema's record class). */
    public static long hash(Schema s, Object[] records) {
        ArrAcc a = new ArrAcc();
        for (Object r : records) a.add(hashRecord(r));
        return document(s, a.finish());
    }

    public static long hash(Schema s, List<?> records) {
        ArrAcc a = new ArrAcc();
        for (Object r : records) a.add(hashRecord(r));
        return document(s, a.finish());
    }

    public static long hash(Records r) {
        return hash(r.schema(), r.array());
    }
}
