package serbench.adapters;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import serbench.Bench;
import serbench.Hash;
import serbench.Typed;
import serbench.gen.fbs.Count;
import serbench.gen.fbs.Inner;
import serbench.gen.fbs.Nested;
import serbench.gen.fbs.NestedList;
import serbench.gen.fbs.Point;
import serbench.gen.fbs.Product;
import serbench.gen.fbs.ProductList;
import serbench.gen.fbs.Side;
import serbench.gen.fbs.Trade;
import serbench.gen.fbs.TradeList;

/**
 * flatbuffers-java on the typed records, with the classes flatc 2.0.8 generates from
 * spec/schemas/typed.fbs (regen-schemas.sh; committed under serbench.gen.fbs). typed-encode builds
 * the buffer from the native records with a fresh FlatBufferBuilder (FlatBuffers has no owned types
 * to prepare) and copies it out (sizedByteArray); typed-access wraps the bytes in a ByteBuffer and
 * reads every field through the generated accessors into the typed hash. Unchecked: the Java
 * runtime has no verifier (bounds are checked by ByteBuffer, so a bad offset is an exception, not a
 * crash). No typed-decode: FlatBuffers Java has no object API in flatc 2.0.8.
 */
public final class FlatbuffersJava {
    private FlatbuffersJava() {}

    public static List<Bench> benches() {
        return List.of(new Bench("flatbuffers-java", "flatbuffers-java", List.of("flatbuffers"))
                .notes("generated classes (flatc 2.0.8, committed): fresh FlatBufferBuilder per encode, sizedByteArray; access through the generated accessors over a ByteBuffer, unchecked (the Java runtime has no verifier)")
                .typed((f, r) -> () -> encodeAll(r), null)
                .access((f, s, data) -> access(s, ByteBuffer.wrap(data)))
                // no verifier in the Java runtime: the view is opened without validation
                .steps("typed-access", "copy-input", "view-unchecked", "visit-all")
                .one((f, r) -> {
                    Object[] arr = r.array();
                    Typed.Schema s = r.schema();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            FlatBufferBuilder b = new FlatBufferBuilder(256);
                            b.finish(record(b, arr[i]));
                            return b.sizedByteArray();
                        }

                        public long decode(byte[] data) throws Exception {
                            ByteBuffer bb = ByteBuffer.wrap(data);
                            return switch (s) {
                                case product -> hash(Product.getRootAsProduct(bb));
                                case trade -> hash(Trade.getRootAsTrade(bb));
                                case nested -> hash(Nested.getRootAsNested(bb));
                            };
                        }
                    };
                }));
    }

    // --- build -------------------------------------------------------------------------------------

    static byte[] encodeAll(Typed.Records r) {
        FlatBufferBuilder b = new FlatBufferBuilder(1024);
        Object[] arr = r.array();
        int[] offs = new int[arr.length];
        for (int i = 0; i < arr.length; i++) offs[i] = record(b, arr[i]);
        int root = switch (r.schema()) {
            case product -> ProductList.createProductList(b, ProductList.createRecordsVector(b, offs));
            case trade -> TradeList.createTradeList(b, TradeList.createRecordsVector(b, offs));
            case nested -> NestedList.createNestedList(b, NestedList.createRecordsVector(b, offs));
        };
        b.finish(root);
        return b.sizedByteArray();
    }

    static int record(FlatBufferBuilder b, Object o) {
        if (o instanceof Typed.Product p) {
            int[] tags = new int[p.tags.size()];
            for (int i = 0; i < tags.length; i++) tags[i] = b.createString(p.tags.get(i));
            return Product.createProduct(b, p.id, b.createString(p.name), p.price, p.in_stock, Product.createTagsVector(b, tags));
        }
        if (o instanceof Typed.Trade t) {
            return Trade.createTrade(b, t.price, t.flag, b.createString(t.text), t.side == Typed.Side.Buy ? Side.Buy : Side.Sell, t.small_int, t.long_int);
        }
        return nested(b, (Typed.Nested) o);
    }

    /** Children first (FlatBuffers builds bottom-up); recursive over the records' 2 levels. */
    static int nested(FlatBufferBuilder b, Typed.Nested n) {
        int[] kids = new int[n.children.size()];
        for (int i = 0; i < kids.length; i++) kids[i] = nested(b, n.children.get(i));
        int children = Nested.createChildrenVector(b, kids);
        int name = b.createString(n.name);
        byte[] u8 = new byte[n.u8s.length];
        for (int i = 0; i < u8.length; i++) u8[i] = (byte) n.u8s[i];
        int u8s = Nested.createU8sVector(b, u8);
        int u16s = Nested.createU16sVector(b, n.u16s);
        int u32s = Nested.createU32sVector(b, n.u32s);
        int u64s = Nested.createU64sVector(b, n.u64s);
        int i8s = Nested.createI8sVector(b, n.i8s);
        int i16s = Nested.createI16sVector(b, n.i16s);
        int i32s = Nested.createI32sVector(b, n.i32s);
        int i64s = Nested.createI64sVector(b, n.i64s);
        int f32s = Nested.createF32sVector(b, n.f32s);
        int f64s = Nested.createF64sVector(b, n.f64s);
        int flags = Nested.createFlagsVector(b, n.flags);
        int[] nameOffs = new int[n.names.size()];
        for (int i = 0; i < nameOffs.length; i++) nameOffs[i] = b.createString(n.names.get(i));
        int names = Nested.createNamesVector(b, nameOffs);
        int[] countOffs = new int[n.counts.size()];
        int k = 0;
        for (Map.Entry<String, Long> e : n.counts.entrySet()) countOffs[k++] = Count.createCount(b, b.createString(e.getKey()), e.getValue());
        int counts = Nested.createCountsVector(b, countOffs);
        int note = n.note == null ? 0 : b.createString(n.note);
        int label = b.createString(n.inner.label);
        Inner.startInner(b);
        Inner.addLabel(b, label);
        Inner.addPoint(b, Point.createPoint(b, n.inner.point.x, n.inner.point.y, n.inner.point.z));
        int inner = Inner.endInner(b);
        Nested.startNested(b);
        Nested.addU8(b, n.u8);
        Nested.addU16(b, n.u16);
        Nested.addU32(b, n.u32);
        Nested.addU64(b, n.u64);
        Nested.addI8(b, n.i8);
        Nested.addI16(b, n.i16);
        Nested.addI32(b, n.i32);
        Nested.addI64(b, n.i64);
        Nested.addF32(b, n.f32);
        Nested.addF64(b, n.f64);
        Nested.addFlag(b, n.flag);
        Nested.addName(b, name);
        Nested.addU8s(b, u8s);
        Nested.addU16s(b, u16s);
        Nested.addU32s(b, u32s);
        Nested.addU64s(b, u64s);
        Nested.addI8s(b, i8s);
        Nested.addI16s(b, i16s);
        Nested.addI32s(b, i32s);
        Nested.addI64s(b, i64s);
        Nested.addF32s(b, f32s);
        Nested.addF64s(b, f64s);
        Nested.addFlags(b, flags);
        Nested.addNames(b, names);
        Nested.addCounts(b, counts);
        if (n.note != null) Nested.addNote(b, note);
        Nested.addInner(b, inner);
        Nested.addChildren(b, children);
        return Nested.endNested(b);
    }

    // --- access: every field through the view ------------------------------------------------------

    static long access(Typed.Schema s, ByteBuffer bb) throws Bench.LibraryError {
        Typed.ArrAcc a = new Typed.ArrAcc();
        switch (s) {
            case product -> {
                ProductList l = ProductList.getRootAsProductList(bb);
                Product p = new Product();
                for (int i = 0, n = l.recordsLength(); i < n; i++) a.add(hash(l.records(p, i)));
            }
            case trade -> {
                TradeList l = TradeList.getRootAsTradeList(bb);
                Trade t = new Trade();
                for (int i = 0, n = l.recordsLength(); i < n; i++) a.add(hash(l.records(t, i)));
            }
            case nested -> {
                NestedList l = NestedList.getRootAsNestedList(bb);
                for (int i = 0, n = l.recordsLength(); i < n; i++) a.add(hash(l.records(i)));
            }
        }
        return Typed.document(s, a.finish());
    }

    static final long K_ID = Hash.ofString("id"), K_NAME = Hash.ofString("name"), K_PRICE = Hash.ofString("price"),
            K_IN_STOCK = Hash.ofString("in_stock"), K_TAGS = Hash.ofString("tags"), K_FLAG = Hash.ofString("flag"),
            K_TEXT = Hash.ofString("text"), K_SIDE = Hash.ofString("side"), K_SMALL_INT = Hash.ofString("small_int"),
            K_LONG_INT = Hash.ofString("long_int");

    static String str(String s, String what) throws Bench.LibraryError {
        if (s == null) throw new Bench.LibraryError(what + ": missing string");
        return s;
    }

    static long hash(Product p) throws Bench.LibraryError {
        Typed.ArrAcc tags = new Typed.ArrAcc();
        for (int i = 0, n = p.tagsLength(); i < n; i++) tags.add(Hash.ofString(p.tags(i)));
        return new Typed.MapAcc().put(K_ID, Hash.ofUnsigned(p.id())).put(K_NAME, Hash.ofString(str(p.name(), "name")))
                .put(K_PRICE, Hash.ofDouble(p.price())).put(K_IN_STOCK, Hash.ofBool(p.inStock())).put(K_TAGS, tags.finish()).finish();
    }

    static long hash(Trade t) throws Bench.LibraryError {
        byte side = t.side();
        if (side != Side.Buy && side != Side.Sell) throw new Bench.LibraryError("side: unknown enum value " + side);
        return new Typed.MapAcc().put(K_PRICE, Hash.ofDouble(t.price())).put(K_FLAG, Hash.ofBool(t.flag()))
                .put(K_TEXT, Hash.ofString(str(t.text(), "text"))).put(K_SIDE, Typed.side(side == Side.Buy ? Typed.Side.Buy : Typed.Side.Sell))
                .put(K_SMALL_INT, Hash.ofLong(t.smallInt())).put(K_LONG_INT, Hash.ofLong(t.longInt())).finish();
    }

    static final long K_U8 = Hash.ofString("u8"), K_U16 = Hash.ofString("u16"), K_U32 = Hash.ofString("u32"), K_U64 = Hash.ofString("u64"),
            K_I8 = Hash.ofString("i8"), K_I16 = Hash.ofString("i16"), K_I32 = Hash.ofString("i32"), K_I64 = Hash.ofString("i64"),
            K_F32 = Hash.ofString("f32"), K_F64 = Hash.ofString("f64"), K_U8S = Hash.ofString("u8s"), K_U16S = Hash.ofString("u16s"),
            K_U32S = Hash.ofString("u32s"), K_U64S = Hash.ofString("u64s"), K_I8S = Hash.ofString("i8s"), K_I16S = Hash.ofString("i16s"),
            K_I32S = Hash.ofString("i32s"), K_I64S = Hash.ofString("i64s"), K_F32S = Hash.ofString("f32s"), K_F64S = Hash.ofString("f64s"),
            K_FLAGS = Hash.ofString("flags"), K_NAMES = Hash.ofString("names"), K_COUNTS = Hash.ofString("counts"),
            K_NOTE = Hash.ofString("note"), K_INNER = Hash.ofString("inner"), K_CHILDREN = Hash.ofString("children");

    /** A nested table, every field through its accessors; recursive over children (2 levels in the datasets). */
    static long hash(Nested m) throws Bench.LibraryError {
        Typed.MapAcc h = new Typed.MapAcc().put(K_U8, Hash.ofLong(m.u8())).put(K_U16, Hash.ofLong(m.u16())).put(K_U32, Hash.ofLong(m.u32()))
                .put(K_U64, Hash.ofUnsigned(m.u64())).put(K_I8, Hash.ofLong(m.i8())).put(K_I16, Hash.ofLong(m.i16()))
                .put(K_I32, Hash.ofLong(m.i32())).put(K_I64, Hash.ofLong(m.i64())).put(K_F32, Typed.f32(m.f32()))
                .put(K_F64, Hash.ofDouble(m.f64())).put(K_FLAG, Hash.ofBool(m.flag())).put(K_NAME, Hash.ofString(str(m.name(), "name")));
        Typed.ArrAcc a = new Typed.ArrAcc();
        for (int i = 0, k = m.u8sLength(); i < k; i++) a.add(Hash.ofLong(m.u8s(i)));
        h.put(K_U8S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.u16sLength(); i < k; i++) a.add(Hash.ofLong(m.u16s(i)));
        h.put(K_U16S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.u32sLength(); i < k; i++) a.add(Hash.ofLong(m.u32s(i)));
        h.put(K_U32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.u64sLength(); i < k; i++) a.add(Hash.ofUnsigned(m.u64s(i)));
        h.put(K_U64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.i8sLength(); i < k; i++) a.add(Hash.ofLong(m.i8s(i)));
        h.put(K_I8S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.i16sLength(); i < k; i++) a.add(Hash.ofLong(m.i16s(i)));
        h.put(K_I16S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.i32sLength(); i < k; i++) a.add(Hash.ofLong(m.i32s(i)));
        h.put(K_I32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.i64sLength(); i < k; i++) a.add(Hash.ofLong(m.i64s(i)));
        h.put(K_I64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.f32sLength(); i < k; i++) a.add(Typed.f32(m.f32s(i)));
        h.put(K_F32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.f64sLength(); i < k; i++) a.add(Hash.ofDouble(m.f64s(i)));
        h.put(K_F64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.flagsLength(); i < k; i++) a.add(Hash.ofBool(m.flags(i)));
        h.put(K_FLAGS, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.namesLength(); i < k; i++) a.add(Hash.ofString(str(m.names(i), "names")));
        h.put(K_NAMES, a.finish());
        Typed.MapAcc c = new Typed.MapAcc();
        Count e = new Count();
        for (int i = 0, k = m.countsLength(); i < k; i++) {
            m.counts(e, i);
            c.put(Hash.ofString(str(e.key(), "counts key")), Hash.ofLong(e.value()));
        }
        h.put(K_COUNTS, c.finish());
        String note = m.note();
        h.put(K_NOTE, note == null ? Hash.NULL : Hash.ofString(note));
        Inner in = m.inner();
        if (in == null) throw new Bench.LibraryError("inner: missing");
        Point p = in.point();
        if (p == null) throw new Bench.LibraryError("inner.point: missing");
        h.put(K_INNER, Typed.inner(str(in.label(), "inner.label"), Typed.point(p.x(), p.y(), p.z())));
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.childrenLength(); i < k; i++) a.add(hash(m.children(i)));
        return h.put(K_CHILDREN, a.finish()).finish();
    }
}
