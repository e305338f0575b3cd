package serbench.adapters;

import com.google.protobuf.ProtocolStringList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import serbench.Bench;
import serbench.Hash;
import serbench.Typed;
import serbench.gen.proto.TypedProto;

/**
 * protobuf-java on the typed records, with the classes protoc 3.21.12 generates from
 * spec/schemas/typed.proto (regen-schemas.sh; committed under serbench.gen.proto). Two rows, as the
 * Rust harness's prost and prost-convert:
 *
 * - `protobuf-java`: the generated messages are built from the native records outside the loop;
 *   typed-encode is `XxxList.toByteArray()`, typed-decode `XxxList.parseFrom(bytes)` and the typed
 *   hash read through the generated getters (u8/u16/i8/i16 travel as 32-bit varints and are
 *   range-checked there, an enum value outside Side is an error).
 * - `protobuf-java-convert`: also converts from the native records to the messages (encode) and
 *   from the messages to native records (decode) inside the loop, the copy an application that
 *   keeps its own classes pays.
 */
public final class ProtobufJava {
    private ProtobufJava() {}

    public static List<Bench> benches() {
        Bench plain = new Bench("protobuf-java", "protobuf-java", List.of("protobuf"))
                .notes("generated classes (protoc 3.21.12, committed): messages built outside the loop; toByteArray / parseFrom + typed hash through the generated getters")
                .typed((f, r) -> {
                    com.google.protobuf.MessageLite m = toList(r);
                    return m::toByteArray;
                }, (f, s, data) -> hashList(s, data))
                .one((f, r) -> {
                    List<com.google.protobuf.MessageLite> msgs = new ArrayList<>();
                    for (Object o : r.array()) msgs.add(toMessage(o));
                    Typed.Schema s = r.schema();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            return msgs.get(i).toByteArray();
                        }

                        public long decode(byte[] data) throws Exception {
                            return hashOne(s, data);
                        }
                    };
                });
        Bench convert = new Bench("protobuf-java-convert", "protobuf-java", List.of("protobuf"))
                .notes("as protobuf-java, plus the conversion native records -> generated messages (encode) and messages -> native records (decode) inside the loop")
                .typed((f, r) -> () -> toList(r).toByteArray(), (f, s, data) -> Typed.hash(s, fromList(s, data)))
                // the conversions are inside the loop: records -> messages before encode, messages -> records after decode
                .steps("typed-encode", "convert", "encode", "hash-output")
                .steps("typed-decode", "copy-input", "decode", "convert", "visit-all")
                .one((f, r) -> {
                    Object[] arr = r.array();
                    Typed.Schema s = r.schema();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            return toMessage(arr[i]).toByteArray();
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(fromOne(s, data));
                        }
                    };
                });
        return List.of(plain, convert);
    }

    // --- native records -> messages ----------------------------------------------------------------

    static com.google.protobuf.MessageLite toList(Typed.Records r) {
        return switch (r.schema()) {
            case product -> {
                TypedProto.ProductList.Builder b = TypedProto.ProductList.newBuilder();
                for (Object o : r.array()) b.addRecords(product((Typed.Product) o));
                yield b.build();
            }
            case trade -> {
                TypedProto.TradeList.Builder b = TypedProto.TradeList.newBuilder();
                for (Object o : r.array()) b.addRecords(trade((Typed.Trade) o));
                yield b.build();
            }
            case nested -> {
                TypedProto.NestedList.Builder b = TypedProto.NestedList.newBuilder();
                for (Object o : r.array()) b.addRecords(nested((Typed.Nested) o));
                yield b.build();
            }
        };
    }

    static com.google.protobuf.MessageLite toMessage(Object o) {
        if (o instanceof Typed.Product p) return product(p);
        if (o instanceof Typed.Trade t) return trade(t);
        return nested((Typed.Nested) o);
    }

    static TypedProto.Product product(Typed.Product p) {
        return TypedProto.Product.newBuilder().setId(p.id).setName(p.name).setPrice(p.price).setInStock(p.in_stock).addAllTags(p.tags).build();
    }

    static TypedProto.Trade trade(Typed.Trade t) {
        return TypedProto.Trade.newBuilder().setPrice(t.price).setFlag(t.flag).setText(t.text)
                .setSide(t.side == Typed.Side.Buy ? TypedProto.Side.BUY : TypedProto.Side.SELL).setSmallInt(t.small_int).setLongInt(t.long_int).build();
    }

    static TypedProto.Nested nested(Typed.Nested n) {
        TypedProto.Nested.Builder b = TypedProto.Nested.newBuilder().setU8(n.u8).setU16(n.u16).setU32((int) n.u32).setU64(n.u64).setI8(n.i8)
                .setI16(n.i16).setI32(n.i32).setI64(n.i64).setF32(n.f32).setF64(n.f64).setFlag(n.flag).setName(n.name);
        for (short v : n.u8s) b.addU8S(v);
        for (int v : n.u16s) b.addU16S(v);
        for (long v : n.u32s) b.addU32S((int) v);
        for (long v : n.u64s) b.addU64S(v);
        for (byte v : n.i8s) b.addI8S(v);
        for (short v : n.i16s) b.addI16S(v);
        for (int v : n.i32s) b.addI32S(v);
        for (long v : n.i64s) b.addI64S(v);
        for (float v : n.f32s) b.addF32S(v);
        for (double v : n.f64s) b.addF64S(v);
        for (boolean v : n.flags) b.addFlags(v);
        b.addAllNames(n.names).putAllCounts(n.counts);
        if (n.note != null) b.setNote(n.note);
        b.setInner(TypedProto.Inner.newBuilder().setLabel(n.inner.label)
                .setPoint(TypedProto.Point.newBuilder().setX(n.inner.point.x).setY(n.inner.point.y).setZ(n.inner.point.z)));
        for (Typed.Nested c : n.children) b.addChildren(nested(c));
        return b.build();
    }

    // --- range checks (protobuf has no 8/16-bit integers) ------------------------------------------

    static long checked(long v, long lo, long hi, String what) throws Bench.LibraryError {
        if (v < lo || v > hi) throw new Bench.LibraryError(what + ": value out of range: " + v);
        return v;
    }

    static Typed.Side side(TypedProto.Side s) throws Bench.LibraryError {
        return switch (s) {
            case BUY -> Typed.Side.Buy;
            case SELL -> Typed.Side.Sell;
            default -> throw new Bench.LibraryError("side: unknown enum value");
        };
    }

    // --- typed hash through the generated getters ---------------------------------------------------

    static long hashList(Typed.Schema s, byte[] data) throws Exception {
        Typed.ArrAcc a = new Typed.ArrAcc();
        switch (s) {
            case product -> {
                for (TypedProto.Product p : TypedProto.ProductList.parseFrom(data).getRecordsList()) a.add(hash(p));
            }
            case trade -> {
                for (TypedProto.Trade t : TypedProto.TradeList.parseFrom(data).getRecordsList()) a.add(hash(t));
            }
            case nested -> {
                for (TypedProto.Nested n : TypedProto.NestedList.parseFrom(data).getRecordsList()) a.add(hash(n));
            }
        }
        return Typed.document(s, a.finish());
    }

    static long hashOne(Typed.Schema s, byte[] data) throws Exception {
        return switch (s) {
            case product -> hash(TypedProto.Product.parseFrom(data));
            case trade -> hash(TypedProto.Trade.parseFrom(data));
            case nested -> hash(TypedProto.Nested.parseFrom(data));
        };
    }

    static long strings(ProtocolStringList l) {
        Typed.ArrAcc a = new Typed.ArrAcc();
        for (int i = 0, n = l.size(); i < n; i++) a.add(Hash.ofString(l.get(i)));
        return a.finish();
    }

    static final long K_ID = Hash.ofString("id"), K_NAME = Hash.ofString("name"), K_PRICE = Hash.ofString("price"),
            K_IN_STOCK = Hash.ofString("in_stock"), K_TAGS = Hash.ofString("tags"), K_FLAG = Hash.ofString("flag"),
            K_TEXT = Hash.ofString("text"), K_SIDE = Hash.ofString("side"), K_SMALL_INT = Hash.ofString("small_int"),
            K_LONG_INT = Hash.ofString("long_int");

    static long hash(TypedProto.Product p) {
        return new Typed.MapAcc().put(K_ID, Hash.ofUnsigned(p.getId())).put(K_NAME, Hash.ofString(p.getName()))
                .put(K_PRICE, Hash.ofDouble(p.getPrice())).put(K_IN_STOCK, Hash.ofBool(p.getInStock())).put(K_TAGS, strings(p.getTagsList())).finish();
    }

    static long hash(TypedProto.Trade t) throws Bench.LibraryError {
        return new Typed.MapAcc().put(K_PRICE, Hash.ofDouble(t.getPrice())).put(K_FLAG, Hash.ofBool(t.getFlag()))
                .put(K_TEXT, Hash.ofString(t.getText())).put(K_SIDE, Typed.side(side(t.getSide()))).put(K_SMALL_INT, Hash.ofLong(t.getSmallInt()))
                .put(K_LONG_INT, Hash.ofLong(t.getLongInt())).finish();
    }

    static final long K_U8 = Hash.ofString("u8"), K_U16 = Hash.ofString("u16"), K_U32 = Hash.ofString("u32"), K_U64 = Hash.ofString("u64"),
            K_I8 = Hash.ofString("i8"), K_I16 = Hash.ofString("i16"), K_I32 = Hash.ofString("i32"), K_I64 = Hash.ofString("i64"),
            K_F32 = Hash.ofString("f32"), K_F64 = Hash.ofString("f64"), K_U8S = Hash.ofString("u8s"), K_U16S = Hash.ofString("u16s"),
            K_U32S = Hash.ofString("u32s"), K_U64S = Hash.ofString("u64s"), K_I8S = Hash.ofString("i8s"), K_I16S = Hash.ofString("i16s"),
            K_I32S = Hash.ofString("i32s"), K_I64S = Hash.ofString("i64s"), K_F32S = Hash.ofString("f32s"), K_F64S = Hash.ofString("f64s"),
            K_FLAGS = Hash.ofString("flags"), K_NAMES = Hash.ofString("names"), K_COUNTS = Hash.ofString("counts"),
            K_NOTE = Hash.ofString("note"), K_INNER = Hash.ofString("inner"), K_CHILDREN = Hash.ofString("children");

    /** A nested message, through its getters, range-checked. */
    static long hash(TypedProto.Nested m) throws Bench.LibraryError {
        Typed.MapAcc h = new Typed.MapAcc().put(K_U8, Hash.ofLong(checked(m.getU8(), 0, 0xFF, "u8")))
                .put(K_U16, Hash.ofLong(checked(m.getU16(), 0, 0xFFFF, "u16"))).put(K_U32, Hash.ofLong(Integer.toUnsignedLong(m.getU32())))
                .put(K_U64, Hash.ofUnsigned(m.getU64())).put(K_I8, Hash.ofLong(checked(m.getI8(), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8")))
                .put(K_I16, Hash.ofLong(checked(m.getI16(), Short.MIN_VALUE, Short.MAX_VALUE, "i16"))).put(K_I32, Hash.ofLong(m.getI32()))
                .put(K_I64, Hash.ofLong(m.getI64())).put(K_F32, Typed.f32(m.getF32())).put(K_F64, Hash.ofDouble(m.getF64()))
                .put(K_FLAG, Hash.ofBool(m.getFlag())).put(K_NAME, Hash.ofString(m.getName()));
        Typed.ArrAcc a = new Typed.ArrAcc();
        for (int i = 0, k = m.getU8SCount(); i < k; i++) a.add(Hash.ofLong(checked(m.getU8S(i), 0, 0xFF, "u8s")));
        h.put(K_U8S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getU16SCount(); i < k; i++) a.add(Hash.ofLong(checked(m.getU16S(i), 0, 0xFFFF, "u16s")));
        h.put(K_U16S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getU32SCount(); i < k; i++) a.add(Hash.ofLong(Integer.toUnsignedLong(m.getU32S(i))));
        h.put(K_U32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getU64SCount(); i < k; i++) a.add(Hash.ofUnsigned(m.getU64S(i)));
        h.put(K_U64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getI8SCount(); i < k; i++) a.add(Hash.ofLong(checked(m.getI8S(i), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8s")));
        h.put(K_I8S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getI16SCount(); i < k; i++) a.add(Hash.ofLong(checked(m.getI16S(i), Short.MIN_VALUE, Short.MAX_VALUE, "i16s")));
        h.put(K_I16S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getI32SCount(); i < k; i++) a.add(Hash.ofLong(m.getI32S(i)));
        h.put(K_I32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getI64SCount(); i < k; i++) a.add(Hash.ofLong(m.getI64S(i)));
        h.put(K_I64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getF32SCount(); i < k; i++) a.add(Typed.f32(m.getF32S(i)));
        h.put(K_F32S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getF64SCount(); i < k; i++) a.add(Hash.ofDouble(m.getF64S(i)));
        h.put(K_F64S, a.finish());
        a = new Typed.ArrAcc();
        for (int i = 0, k = m.getFlagsCount(); i < k; i++) a.add(Hash.ofBool(m.getFlags(i)));
        h.put(K_FLAGS, a.finish());
        h.put(K_NAMES, strings(m.getNamesList()));
        Typed.MapAcc c = new Typed.MapAcc();
        for (Map.Entry<String, Long> e : m.getCountsMap().entrySet()) c.put(Hash.ofString(e.getKey()), Hash.ofLong(e.getValue()));
        h.put(K_COUNTS, c.finish());
        h.put(K_NOTE, m.hasNote() ? Hash.ofString(m.getNote()) : Hash.NULL);
        TypedProto.Point p = m.getInner().getPoint();
        h.put(K_INNER, Typed.inner(m.getInner().getLabel(), Typed.point(p.getX(), p.getY(), p.getZ())));
        a = new Typed.ArrAcc();
        for (TypedProto.Nested child : m.getChildrenList()) a.add(hash(child));
        return h.put(K_CHILDREN, a.finish()).finish();
    }

    // --- messages -> native records (the -convert row; the plain row's nested hash) ------------------

    static Object[] fromList(Typed.Schema s, byte[] data) throws Exception {
        switch (s) {
            case product -> {
                List<TypedProto.Product> l = TypedProto.ProductList.parseFrom(data).getRecordsList();
                Typed.Product[] out = new Typed.Product[l.size()];
                for (int i = 0; i < out.length; i++) out[i] = fromProduct(l.get(i));
                return out;
            }
            case trade -> {
                List<TypedProto.Trade> l = TypedProto.TradeList.parseFrom(data).getRecordsList();
                Typed.Trade[] out = new Typed.Trade[l.size()];
                for (int i = 0; i < out.length; i++) out[i] = fromTrade(l.get(i));
                return out;
            }
            default -> {
                List<TypedProto.Nested> l = TypedProto.NestedList.parseFrom(data).getRecordsList();
                Typed.Nested[] out = new Typed.Nested[l.size()];
                for (int i = 0; i < out.length; i++) out[i] = fromNested(l.get(i), true);
                return out;
            }
        }
    }

    static Object fromOne(Typed.Schema s, byte[] data) throws Exception {
        return switch (s) {
            case product -> fromProduct(TypedProto.Product.parseFrom(data));
            case trade -> fromTrade(TypedProto.Trade.parseFrom(data));
            case nested -> fromNested(TypedProto.Nested.parseFrom(data), true);
        };
    }

    static Typed.Product fromProduct(TypedProto.Product m) {
        Typed.Product p = new Typed.Product();
        p.id = m.getId();
        p.name = m.getName();
        p.price = m.getPrice();
        p.in_stock = m.getInStock();
        p.tags = new ArrayList<>(m.getTagsList());
        return p;
    }

    static Typed.Trade fromTrade(TypedProto.Trade m) throws Bench.LibraryError {
        Typed.Trade t = new Typed.Trade();
        t.price = m.getPrice();
        t.flag = m.getFlag();
        t.text = m.getText();
        t.side = side(m.getSide());
        t.small_int = m.getSmallInt();
        t.long_int = m.getLongInt();
        return t;
    }

    /**
     * A nested message as a native record, range-checked. `copy`: copy the strings' lists and the
     * map (the -convert row owns its records, so they are copied out of the message).
     */
    static Typed.Nested fromNested(TypedProto.Nested m, boolean copy) throws Bench.LibraryError {
        Typed.Nested n = new Typed.Nested();
        n.u8 = (short) checked(m.getU8(), 0, 0xFF, "u8");
        n.u16 = (int) checked(m.getU16(), 0, 0xFFFF, "u16");
        n.u32 = Integer.toUnsignedLong(m.getU32());
        n.u64 = m.getU64();
        n.i8 = (byte) checked(m.getI8(), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8");
        n.i16 = (short) checked(m.getI16(), Short.MIN_VALUE, Short.MAX_VALUE, "i16");
        n.i32 = m.getI32();
        n.i64 = m.getI64();
        n.f32 = m.getF32();
        n.f64 = m.getF64();
        n.flag = m.getFlag();
        n.name = m.getName();
        int k = m.getU8SCount();
        n.u8s = new short[k];
        for (int i = 0; i < k; i++) n.u8s[i] = (short) checked(m.getU8S(i), 0, 0xFF, "u8s");
        k = m.getU16SCount();
        n.u16s = new int[k];
        for (int i = 0; i < k; i++) n.u16s[i] = (int) checked(m.getU16S(i), 0, 0xFFFF, "u16s");
        k = m.getU32SCount();
        n.u32s = new long[k];
        for (int i = 0; i < k; i++) n.u32s[i] = Integer.toUnsignedLong(m.getU32S(i));
        k = m.getU64SCount();
        n.u64s = new long[k];
        for (int i = 0; i < k; i++) n.u64s[i] = m.getU64S(i);
        k = m.getI8SCount();
        n.i8s = new byte[k];
        for (int i = 0; i < k; i++) n.i8s[i] = (byte) checked(m.getI8S(i), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8s");
        k = m.getI16SCount();
        n.i16s = new short[k];
        for (int i = 0; i < k; i++) n.i16s[i] = (short) checked(m.getI16S(i), Short.MIN_VALUE, Short.MAX_VALUE, "i16s");
        k = m.getI32SCount();
        n.i32s = new int[k];
        for (int i = 0; i < k; i++) n.i32s[i] = m.getI32S(i);
        k = m.getI64SCount();
        n.i64s = new long[k];
        for (int i = 0; i < k; i++) n.i64s[i] = m.getI64S(i);
        k = m.getF32SCount();
        n.f32s = new float[k];
        for (int i = 0; i < k; i++) n.f32s[i] = m.getF32S(i);
        k = m.getF64SCount();
        n.f64s = new double[k];
        for (int i = 0; i < k; i++) n.f64s[i] = m.getF64S(i);
        k = m.getFlagsCount();
        n.flags = new boolean[k];
        for (int i = 0; i < k; i++) n.flags[i] = m.getFlags(i);
        Map<String, Long> counts = m.getCountsMap();
        n.names = copy ? new ArrayList<>(m.getNamesList()) : m.getNamesList();
        n.counts = copy ? new LinkedHashMap<>(counts) : counts;
        n.note = m.hasNote() ? m.getNote() : null;
        n.inner = new Typed.Inner();
        n.inner.label = m.getInner().getLabel();
        n.inner.point = new Typed.Point();
        TypedProto.Point p = m.getInner().getPoint();
        n.inner.point.x = p.getX();
        n.inner.point.y = p.getY();
        n.inner.point.z = p.getZ();
        n.children = new ArrayList<>(m.getChildrenCount());
        for (TypedProto.Nested c : m.getChildrenList()) n.children.add(fromNested(c, copy));
        return n;
    }
}
