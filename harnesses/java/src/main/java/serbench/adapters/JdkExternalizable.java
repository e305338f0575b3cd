package serbench.adapters;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import serbench.Bench;
import serbench.Typed;

/**
 * JDK Externalizable on the typed records: hand-written writeExternal/readExternal per record type
 * (fields in schema order with DataOutput's fixed-width primitives, strings with writeUTF, arrays and
 * maps as a length then their items, the optional note as a presence flag), through
 * ObjectOutputStream/ObjectInputStream. Externalizable needs its own classes: each wraps one native
 * record (wrapped outside the loop for typed-encode; typed-decode returns the wrapped records). The
 * stream writes the class descriptor once, then a handle per record. writeUTF refuses strings whose
 * UTF-8 form exceeds 65,535 bytes (none in the datasets).
 */
public final class JdkExternalizable {
    private JdkExternalizable() {}

    public static List<Bench> benches() {
        return List.of(plain(), chronicleBytes());
    }

    /**
     * "Externalizable with Chronicle Bytes" of Chronicle's reference table: the same Externalizable
     * records through ObjectOutputStream/ObjectInputStream over one recycled Chronicle Bytes buffer
     * (elastic, direct; its outputStream()/inputStream()) instead of a fresh ByteArrayOutputStream.
     * Encode copies the bytes out (the byte[] the protocol hashes); decode copies the input in.
     */
    /** The recycled buffer, made on first use (so Chronicle loads only in the cells that use it). */
    static final class CBytes {
        static {
            ChronicleWire.init();
        }

        static final net.openhft.chronicle.bytes.Bytes<Void> BUF = net.openhft.chronicle.bytes.Bytes.allocateElasticDirect(1 << 16);
    }

    static Bench chronicleBytes() {
        return new Bench("jdk-externalizable-cbytes-typed", "jdk-serialization", List.of("java-externalizable")).codeArtifact("chronicle-bytes")
                .notes("Externalizable with Chronicle Bytes: as jdk-externalizable-typed, ObjectOutputStream(bytes.outputStream()) / ObjectInputStream(bytes.inputStream()) over one recycled elastic direct Chronicle Bytes; bytes copied out per encode and in per decode")
                .typed((f, r) -> {
                    Object[] wrapped = wrap(r);
                    return () -> writeInto(CBytes.BUF, wrapped);
                }, (f, s, data) -> {
                    Object[] back = (Object[]) readFrom(CBytes.BUF, data, ARRAYS[s.ordinal()]);
                    Typed.ArrAcc a = new Typed.ArrAcc();
                    for (Object o : back) a.add(Typed.hashRecord(((Ext) o).record()));
                    return Typed.document(s, a.finish());
                })
                .one((f, r) -> {
                    Object[] wrapped = wrap(r);
                    Class<?> cls = wrapped.getClass().getComponentType();
                    return new Bench.One() {
                        public byte[] encode(int i) throws Exception {
                            return writeInto(CBytes.BUF, wrapped[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(((Ext) readFrom(CBytes.BUF, data, cls)).record());
                        }
                    };
                });
    }

    static byte[] writeInto(net.openhft.chronicle.bytes.Bytes<Void> buf, Object v) throws IOException {
        buf.clear();
        try (ObjectOutputStream out = new ObjectOutputStream(buf.outputStream())) {
            out.writeObject(v);
        }
        return buf.toByteArray();
    }

    static Object readFrom(net.openhft.chronicle.bytes.Bytes<Void> buf, byte[] data, Class<?> cls) throws Exception {
        buf.clear();
        buf.write(data);
        try (ObjectInputStream in = new ObjectInputStream(buf.inputStream())) {
            Object o = cls.cast(in.readObject());
            if (buf.readRemaining() != 0) throw new Bench.LibraryError("trailing bytes after the records");
            return o;
        }
    }

    static Bench plain() {
        return new Bench("jdk-externalizable-typed", "jdk-serialization", List.of("java-externalizable"))
                .notes("java.io.Externalizable, hand-written writeExternal/readExternal (DataOutput primitives, writeUTF strings), record array through a fresh ObjectOutputStream / ObjectInputStream per operation")
                .typed((f, r) -> {
                    Object[] wrapped = wrap(r);
                    return () -> write(wrapped);
                }, (f, s, data) -> {
                    Object[] back = (Object[]) read(data, ARRAYS[s.ordinal()]);
                    Typed.ArrAcc a = new Typed.ArrAcc();
                    for (Object o : back) a.add(Typed.hashRecord(((Ext) o).record()));
                    return Typed.document(s, a.finish());
                })
                .one((f, r) -> {
                    Object[] wrapped = wrap(r);
                    Class<?> cls = wrapped.getClass().getComponentType();
                    return new Bench.One() {
                        public byte[] encode(int i) throws Exception {
                            return write(wrapped[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(((Ext) read(data, cls)).record());
                        }
                    };
                });
    }

    static final Class<?>[] ARRAYS = {ExtProduct[].class, ExtTrade[].class, ExtNested[].class};

    static Object[] wrap(Typed.Records r) {
        Object[] in = r.array();
        Object[] out = switch (r.schema()) {
            case product -> new ExtProduct[in.length];
            case trade -> new ExtTrade[in.length];
            case nested -> new ExtNested[in.length];
        };
        for (int i = 0; i < in.length; i++) {
            out[i] = switch (r.schema()) {
                case product -> new ExtProduct((Typed.Product) in[i]);
                case trade -> new ExtTrade((Typed.Trade) in[i]);
                case nested -> new ExtNested((Typed.Nested) in[i]);
            };
        }
        return out;
    }

    static byte[] write(Object v) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(v);
        }
        return bytes.toByteArray();
    }

    static Object read(byte[] data, Class<?> cls) throws Exception {
        ByteArrayInputStream bytes = new ByteArrayInputStream(data);
        try (ObjectInputStream in = new ObjectInputStream(bytes)) {
            Object o = cls.cast(in.readObject());
            if (bytes.available() != 0) throw new Bench.LibraryError("trailing bytes after the records");
            return o;
        }
    }

    interface Ext {
        Object record();
    }

    static List<String> readStrings(ObjectInput in) throws IOException {
        int n = in.readInt();
        List<String> l = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) l.add(in.readUTF());
        return l;
    }

    static void writeStrings(ObjectOutput out, List<String> l) throws IOException {
        out.writeInt(l.size());
        for (String s : l) out.writeUTF(s);
    }

    public static final class ExtProduct implements Externalizable, Ext {
        Typed.Product p;

        public ExtProduct() {}

        ExtProduct(Typed.Product p) {
            this.p = p;
        }

        public Object record() {
            return p;
        }

        public void writeExternal(ObjectOutput out) throws IOException {
            out.writeLong(p.id);
            out.writeUTF(p.name);
            out.writeDouble(p.price);
            out.writeBoolean(p.in_stock);
            writeStrings(out, p.tags);
        }

        public void readExternal(ObjectInput in) throws IOException {
            p = new Typed.Product();
            p.id = in.readLong();
            p.name = in.readUTF();
            p.price = in.readDouble();
            p.in_stock = in.readBoolean();
            p.tags = readStrings(in);
        }
    }

    public static final class ExtTrade implements Externalizable, Ext {
        Typed.Trade t;

        public ExtTrade() {}

        ExtTrade(Typed.Trade t) {
            this.t = t;
        }

        public Object record() {
            return t;
        }

        public void writeExternal(ObjectOutput out) throws IOException {
            out.writeDouble(t.price);
            out.writeBoolean(t.flag);
            out.writeUTF(t.text);
            out.writeByte(t.side.ordinal());
            out.writeInt(t.small_int);
            out.writeLong(t.long_int);
        }

        public void readExternal(ObjectInput in) throws IOException {
            t = new Typed.Trade();
            t.price = in.readDouble();
            t.flag = in.readBoolean();
            t.text = in.readUTF();
            int side = in.readByte();
            if (side != 0 && side != 1) throw new IOException("side: unknown variant " + side);
            t.side = side == 0 ? Typed.Side.Buy : Typed.Side.Sell;
            t.small_int = in.readInt();
            t.long_int = in.readLong();
        }
    }

    public static final class ExtNested implements Externalizable, Ext {
        Typed.Nested n;

        public ExtNested() {}

        ExtNested(Typed.Nested n) {
            this.n = n;
        }

        public Object record() {
            return n;
        }

        public void writeExternal(ObjectOutput out) throws IOException {
            write(out, n);
        }

        public void readExternal(ObjectInput in) throws IOException {
            n = read(in, 0);
        }

        /** Recursive over children, which the harness's records nest 2 levels deep. */
        static void write(ObjectOutput out, Typed.Nested n) throws IOException {
            out.writeByte(n.u8);
            out.writeShort(n.u16);
            out.writeInt((int) n.u32);
            out.writeLong(n.u64);
            out.writeByte(n.i8);
            out.writeShort(n.i16);
            out.writeInt(n.i32);
            out.writeLong(n.i64);
            out.writeFloat(n.f32);
            out.writeDouble(n.f64);
            out.writeBoolean(n.flag);
            out.writeUTF(n.name);
            out.writeInt(n.u8s.length);
            for (short v : n.u8s) out.writeByte(v);
            out.writeInt(n.u16s.length);
            for (int v : n.u16s) out.writeShort(v);
            out.writeInt(n.u32s.length);
            for (long v : n.u32s) out.writeInt((int) v);
            out.writeInt(n.u64s.length);
            for (long v : n.u64s) out.writeLong(v);
            out.writeInt(n.i8s.length);
            out.write(n.i8s);
            out.writeInt(n.i16s.length);
            for (short v : n.i16s) out.writeShort(v);
            out.writeInt(n.i32s.length);
            for (int v : n.i32s) out.writeInt(v);
            out.writeInt(n.i64s.length);
            for (long v : n.i64s) out.writeLong(v);
            out.writeInt(n.f32s.length);
            for (float v : n.f32s) out.writeFloat(v);
            out.writeInt(n.f64s.length);
            for (double v : n.f64s) out.writeDouble(v);
            out.writeInt(n.flags.length);
            for (boolean v : n.flags) out.writeBoolean(v);
            writeStrings(out, n.names);
            out.writeInt(n.counts.size());
            for (var e : n.counts.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeBoolean(n.note != null);
            if (n.note != null) out.writeUTF(n.note);
            out.writeUTF(n.inner.label);
            out.writeDouble(n.inner.point.x);
            out.writeDouble(n.inner.point.y);
            out.writeFloat(n.inner.point.z);
            out.writeInt(n.children.size());
            for (Typed.Nested c : n.children) write(out, c);
        }

        /** A length read from the input, checked before anything is allocated for it. */
        static int length(ObjectInput in, int bytesPerItem) throws IOException {
            int k = in.readInt();
            if (k < 0 || (long) k * bytesPerItem > in.available() + (1L << 20)) throw new IOException("invalid length " + k);
            return k;
        }

        static Typed.Nested read(ObjectInput in, int depth) throws IOException {
            if (depth > 64) throw new IOException("children nest deeper than 64 levels");
            Typed.Nested n = new Typed.Nested();
            n.u8 = (short) in.readUnsignedByte();
            n.u16 = in.readUnsignedShort();
            n.u32 = Integer.toUnsignedLong(in.readInt());
            n.u64 = in.readLong();
            n.i8 = in.readByte();
            n.i16 = in.readShort();
            n.i32 = in.readInt();
            n.i64 = in.readLong();
            n.f32 = in.readFloat();
            n.f64 = in.readDouble();
            n.flag = in.readBoolean();
            n.name = in.readUTF();
            n.u8s = new short[length(in, 1)];
            for (int i = 0; i < n.u8s.length; i++) n.u8s[i] = (short) in.readUnsignedByte();
            n.u16s = new int[length(in, 2)];
            for (int i = 0; i < n.u16s.length; i++) n.u16s[i] = in.readUnsignedShort();
            n.u32s = new long[length(in, 4)];
            for (int i = 0; i < n.u32s.length; i++) n.u32s[i] = Integer.toUnsignedLong(in.readInt());
            n.u64s = new long[length(in, 8)];
            for (int i = 0; i < n.u64s.length; i++) n.u64s[i] = in.readLong();
            n.i8s = new byte[length(in, 1)];
            in.readFully(n.i8s);
            n.i16s = new short[length(in, 2)];
            for (int i = 0; i < n.i16s.length; i++) n.i16s[i] = in.readShort();
            n.i32s = new int[length(in, 4)];
            for (int i = 0; i < n.i32s.length; i++) n.i32s[i] = in.readInt();
            n.i64s = new long[length(in, 8)];
            for (int i = 0; i < n.i64s.length; i++) n.i64s[i] = in.readLong();
            n.f32s = new float[length(in, 4)];
            for (int i = 0; i < n.f32s.length; i++) n.f32s[i] = in.readFloat();
            n.f64s = new double[length(in, 8)];
            for (int i = 0; i < n.f64s.length; i++) n.f64s[i] = in.readDouble();
            n.flags = new boolean[length(in, 1)];
            for (int i = 0; i < n.flags.length; i++) n.flags[i] = in.readBoolean();
            n.names = readStrings(in);
            int k = length(in, 10);
            n.counts = new LinkedHashMap<>();
            for (int i = 0; i < k; i++) n.counts.put(in.readUTF(), in.readLong());
            n.note = in.readBoolean() ? in.readUTF() : null;
            n.inner = new Typed.Inner();
            n.inner.label = in.readUTF();
            n.inner.point = new Typed.Point();
            n.inner.point.x = in.readDouble();
            n.inner.point.y = in.readDouble();
            n.inner.point.z = in.readFloat();
            k = length(in, 1);
            n.children = new ArrayList<>(k);
            for (int i = 0; i < k; i++) n.children.add(read(in, depth + 1));
            return n;
        }
    }
}
