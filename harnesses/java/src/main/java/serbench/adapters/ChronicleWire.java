package serbench.adapters;

import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BinaryWire;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.Marshallable;
import net.openhft.chronicle.wire.RawWire;
import net.openhft.chronicle.wire.TextWire;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireIn;
import net.openhft.chronicle.wire.WireKey;
import net.openhft.chronicle.wire.WireOut;
import net.openhft.chronicle.wire.WireType;
import serbench.Bench;
import serbench.Typed;

/**
 * Chronicle Wire (net.openhft:chronicle-wire) on the typed records, in every wire format of
 * Chronicle's own comparison table (issue 19): TextWire (YAML), JSONWire, BinaryWire in its five
 * variants, RawWire, and BytesMarshallable with and without stop-bit encoding.
 *
 * How the library is used, as its documentation shows it: each record is a document of a Wire
 * (`writingDocument()` / `readingDocument()`, a 4-byte length header each, as in the reference
 * table), written and read by the record's hand-written `writeMarshallable(WireOut)` /
 * `readMarshallable(WireIn)` (the Marshallable API; the BytesMarshallable rows write
 * `writeMarshallable(BytesOut)` / `readMarshallable(BytesIn)` straight into the document's bytes).
 * Each row owns one elastic direct Chronicle Bytes buffer with its Wire, made once and recycled
 * for every operation (cleared, written, copied out to the byte[] the protocol hashes; decode copies
 * the input in and reads it), which is how Chronicle intends its buffers to be used. The records are
 * wrapped outside the loop (as the Externalizable row does); decode makes new records.
 * Field keys are an enum of WireKey whose codes are small numbers (ordinal + 1), so the numbered
 * BinaryWire variants write one-byte field numbers, as the reference's field enum did; field names
 * are the data model's (snake_case), so `small_int`/`long_int` are 1 byte longer than the
 * reference's `smallInt`/`longInt` in the named formats.
 *
 * Java has no uint64: u64 values travel as int64 bits (negative in the text formats above
 * INT64_MAX, read back to the same bits). The nested records' layout (WNested, BNested) is one for
 * every wire: arrays, the map and the children as a count and their items.
 *
 * Usage analytics: chronicle-analytics is a dependency of chronicle-core; it is switched off with
 * the documented system property `chronicle.analytics.disable=true`, set before any Chronicle class
 * is loaded (and the machine reaches no network anyway).
 */
public final class ChronicleWire {
    private ChronicleWire() {}

    /** Sets the properties Chronicle reads in its static initialisers; called before any of its classes load. */
    static void init() {
        System.setProperty("chronicle.analytics.disable", "true");
    }

    /** One row per wire of the reference table. */
    enum Kind {
        TEXT("chronicle-text-wire", "TextWire (YAML subset; WireType.TEXT), UTF-8 text"),
        TEXT_8BIT("chronicle-text-wire-8bit", "TextWire (YAML subset) as WireType.TEXT builds it but with 8-bit text (new TextWire(bytes, true))"),
        JSON("chronicle-json-wire", "JSONWire (WireType.JSON)"),
        BINARY("chronicle-binary-wire", "BinaryWire, variable width, named fields (default BinaryWire)"),
        BINARY_NUMBERED("chronicle-binary-wire-numbered", "BinaryWire, variable width, numbered fields"),
        BINARY_FIXED("chronicle-binary-wire-fixed", "BinaryWire, fixed width, named fields"),
        BINARY_FIXED_NUMBERED("chronicle-binary-wire-fixed-numbered", "BinaryWire, fixed width, numbered fields"),
        BINARY_FIELDLESS("chronicle-binary-wire-fieldless", "BinaryWire, variable width, field-less (typed values, no field names or numbers)"),
        RAW("chronicle-raw-wire", "RawWire (untyped, field-less, fixed width), UTF-8 text (new RawWire(bytes, false))"),
        RAW_8BIT("chronicle-raw-wire-8bit", "RawWire (untyped, field-less, fixed width), 8-bit text: RawWire's default (new RawWire(bytes))"),
        BYTES("chronicle-bytes-marshallable", "BytesMarshallable: fixed-width primitives, UTF-8 strings, enum by name, in the document's Bytes"),
        BYTES_STOPBIT("chronicle-bytes-marshallable-stopbit", "BytesMarshallable with stop-bit encoding of the numbers (writeStopBit for double, int and long)");

        final String id;
        final String note;

        Kind(String id, String note) {
            this.id = id;
            this.note = note;
        }

        boolean bytesMarshallable() {
            return this == BYTES || this == BYTES_STOPBIT;
        }

        Wire wire(Bytes<?> b) {
            return switch (this) {
                // WireType's factories: documents with the 4-byte length header, as the reference
                // measured (`new TextWire(b)` alone separates documents with "..." lines instead)
                case TEXT -> WireType.TEXT.apply(b);
                case TEXT_8BIT -> textDocuments(new TextWire(b, true));
                case JSON -> WireType.JSON.apply(b);
                case BINARY -> new BinaryWire(b, false, false, false, Integer.MAX_VALUE, "binary");
                case BINARY_NUMBERED -> new BinaryWire(b, false, true, false, Integer.MAX_VALUE, "binary");
                case BINARY_FIXED -> new BinaryWire(b, true, false, false, Integer.MAX_VALUE, "binary");
                case BINARY_FIXED_NUMBERED -> new BinaryWire(b, true, true, false, Integer.MAX_VALUE, "binary");
                case BINARY_FIELDLESS -> new BinaryWire(b, false, false, true, Integer.MAX_VALUE, "binary");
                // RawWire(bytes) is RawWire(bytes, true): 8-bit text is its default (chronicle-wire 2026.7)
                case RAW -> new RawWire(b, false);
                case RAW_8BIT -> new RawWire(b);
                // BytesMarshallable writes raw bytes; the document header comes from a BinaryWire
                case BYTES, BYTES_STOPBIT -> new BinaryWire(b);
            };
        }
    }

    /** What WireType.TEXT.apply does to its TextWire (chronicle-wire 2026.7, javap): length-headed documents, padding. */
    static TextWire textDocuments(TextWire w) {
        w.useBinaryDocuments();
        w.usePadding(true);
        return w;
    }

    public static List<Bench> benches() {
        init();
        List<Bench> out = new ArrayList<>();
        for (Kind k : Kind.values()) out.add(row(k));
        return out;
    }

    static Bench row(Kind k) {
        String notes = k.note + "; each record a document (4-byte header) of one recycled elastic direct Bytes, "
                + (k.bytesMarshallable() ? "BytesMarshallable readMarshallable(BytesIn)/writeMarshallable(BytesOut)"
                        : "Marshallable readMarshallable(WireIn)/writeMarshallable(WireOut)")
                + "; analytics off";
        return new Bench(k.id, "chronicle-wire", List.of(k.id)).notes(notes)
                .typed((f, r) -> {
                    Codec c = new Codec(k);
                    Object[] wrapped = wrap(k, r);
                    return () -> c.encode(wrapped);
                }, (f, s, data) -> {
                    Codec c = Codec.of(k);
                    Typed.ArrAcc a = new Typed.ArrAcc();
                    for (Object rec : c.decode(s, data)) a.add(Typed.hashRecord(rec));
                    return Typed.document(s, a.finish());
                })
                .one((f, r) -> {
                    Codec c = new Codec(k);
                    Object[] wrapped = wrap(k, r);
                    Typed.Schema s = r.schema();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            return c.encodeOne(wrapped[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            List<Object> recs = c.decode(s, data);
                            if (recs.size() != 1) throw new Bench.LibraryError("expected one document, read " + recs.size());
                            return Typed.hashRecord(recs.get(0));
                        }
                    };
                });
    }

    static Object[] wrap(Kind k, Typed.Records r) {
        Object[] in = r.array();
        Object[] out = new Object[in.length];
        boolean stop = k == Kind.BYTES_STOPBIT;
        for (int i = 0; i < in.length; i++) {
            out[i] = switch (r.schema()) {
                case trade -> k.bytesMarshallable() ? new BTrade((Typed.Trade) in[i], stop) : new WTrade((Typed.Trade) in[i]);
                case product -> k.bytesMarshallable() ? new BProduct((Typed.Product) in[i], stop) : new WProduct((Typed.Product) in[i]);
                case nested -> k.bytesMarshallable() ? new BNested((Typed.Nested) in[i], stop) : new WNested((Typed.Nested) in[i]);
            };
        }
        return out;
    }

    /** A row's recycled buffer and its Wire (one per row per process; the harness is single-threaded). */
    static final class Codec {
        private static final java.util.Map<Kind, Codec> DECODERS = new java.util.EnumMap<>(Kind.class);
        final Kind kind;
        final Bytes<Void> bytes = Bytes.allocateElasticDirect(1 << 16);
        final Wire wire;

        Codec(Kind k) {
            kind = k;
            wire = k.wire(bytes);
        }

        static Codec of(Kind k) {
            return DECODERS.computeIfAbsent(k, Codec::new);
        }

        byte[] encode(Object[] wrapped) {
            bytes.clear();
            for (Object o : wrapped) write(o);
            return bytes.toByteArray();
        }

        byte[] encodeOne(Object wrapped) {
            bytes.clear();
            write(wrapped);
            return bytes.toByteArray();
        }

        private void write(Object o) {
            try (DocumentContext dc = wire.writingDocument()) {
                if (kind.bytesMarshallable()) ((BytesMarshallable) o).writeMarshallable(dc.wire().bytes());
                else ((Marshallable) o).writeMarshallable(dc.wire());
            }
        }

        List<Object> decode(Typed.Schema s, byte[] data) throws Bench.LibraryError {
            bytes.clear();
            bytes.write(data);
            List<Object> out = new ArrayList<>();
            boolean stop = kind == Kind.BYTES_STOPBIT;
            while (bytes.readRemaining() > 0) {
                try (DocumentContext dc = wire.readingDocument()) {
                    if (!dc.isPresent() || !dc.isData()) throw new Bench.LibraryError("no complete data document at offset " + bytes.readPosition());
                    if (kind.bytesMarshallable()) {
                        BytesMarshallable b = switch (s) {
                            case trade -> new BTrade(new Typed.Trade(), stop);
                            case product -> new BProduct(new Typed.Product(), stop);
                            case nested -> new BNested(new Typed.Nested(), stop);
                        };
                        b.readMarshallable(dc.wire().bytes());
                        out.add(((Rec) b).record());
                    } else {
                        Marshallable w = switch (s) {
                            case trade -> new WTrade(new Typed.Trade());
                            case product -> new WProduct(new Typed.Product());
                            case nested -> new WNested(new Typed.Nested());
                        };
                        w.readMarshallable(dc.wire());
                        out.add(((Rec) w).record());
                    }
                }
            }
            return out;
        }
    }

    /** Field keys: the data model's names, numbered 1.. for the numbered-field wires. */
    enum F implements WireKey {
        price, flag, text, side, small_int, long_int, id, name, in_stock, tags,
        u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, u8s, u16s, u32s, u64s, i8s, i16s, i32s, i64s, f32s, f64s, flags, names,
        counts, note, label, x, y, z, children;

        @Override
        public int code() {
            return ordinal() + 1;
        }
    }

    /** A trade record through Chronicle's Marshallable API. */
    /** A wrapper's native record. */
    interface Rec {
        Object record();
    }

    static final class WTrade implements Marshallable, Rec {
        final Typed.Trade t;

        public Object record() {
            return t;
        }

        WTrade(Typed.Trade t) {
            this.t = t;
        }

        @Override
        public void writeMarshallable(WireOut w) {
            w.write(F.price).float64(t.price)
                    .write(F.flag).bool(t.flag)
                    .write(F.text).text(t.text)
                    .write(F.side).asEnum(t.side)
                    .write(F.small_int).int32(t.small_int)
                    .write(F.long_int).int64(t.long_int);
        }

        @Override
        public void readMarshallable(WireIn w) {
            t.price = w.read(F.price).float64();
            t.flag = w.read(F.flag).bool();
            t.text = w.read(F.text).text();
            t.side = w.read(F.side).asEnum(Typed.Side.class);
            t.small_int = w.read(F.small_int).int32();
            t.long_int = w.read(F.long_int).int64();
        }
    }

    /** A product record through Chronicle's Marshallable API (tags a sequence of text). */
    static final class WProduct implements Marshallable, Rec {
        final Typed.Product p;

        public Object record() {
            return p;
        }

        WProduct(Typed.Product p) {
            this.p = p;
        }

        @Override
        public void writeMarshallable(WireOut w) {
            w.write(F.id).int64(p.id)
                    .write(F.name).text(p.name)
                    .write(F.price).float64(p.price)
                    .write(F.in_stock).bool(p.in_stock);
            if (w instanceof RawWire) {
                // RawWire cannot read a sequence back (ValueIn.sequence throws "todo" in 2026.7):
                // a count, then the strings
                w.write(F.tags).int32(p.tags.size());
                for (String s : p.tags) w.getValueOut().text(s);
            } else {
                w.write(F.tags).sequence(p.tags, (l, out) -> {
                    for (String s : l) out.text(s);
                });
            }
        }

        @Override
        public void readMarshallable(WireIn w) {
            p.id = w.read(F.id).int64();
            p.name = w.read(F.name).text();
            p.price = w.read(F.price).float64();
            p.in_stock = w.read(F.in_stock).bool();
            p.tags = new ArrayList<>();
            if (w instanceof RawWire) {
                int n = w.read(F.tags).int32();
                if (n < 0 || n > w.bytes().readRemaining()) throw new IllegalStateException("tag count " + n + " exceeds the document");
                for (int i = 0; i < n; i++) p.tags.add(w.getValueIn().text());
            } else {
                w.read(F.tags).sequence(p.tags, (l, in) -> {
                    while (in.hasNextSequenceItem()) l.add(in.text());
                });
            }
        }
    }

    /** A trade record through BytesMarshallable: fixed-width primitives, or stop-bit numbers. */
    static final class BTrade implements BytesMarshallable, Rec {
        final Typed.Trade t;

        public Object record() {
            return t;
        }
        final boolean stop;

        BTrade(Typed.Trade t, boolean stop) {
            this.t = t;
            this.stop = stop;
        }

        @Override
        public void writeMarshallable(BytesOut<?> b) {
            if (stop) b.writeStopBit(t.price);
            else b.writeDouble(t.price);
            b.writeBoolean(t.flag);
            b.writeUtf8(t.text);
            b.writeEnum(t.side);
            if (stop) {
                b.writeStopBit(t.small_int);
                b.writeStopBit(t.long_int);
            } else {
                b.writeInt(t.small_int);
                b.writeLong(t.long_int);
            }
        }

        @Override
        public void readMarshallable(BytesIn<?> b) {
            t.price = stop ? b.readStopBitDouble() : b.readDouble();
            t.flag = b.readBoolean();
            t.text = b.readUtf8();
            t.side = b.readEnum(Typed.Side.class);
            if (stop) {
                t.small_int = Math.toIntExact(b.readStopBit());
                t.long_int = b.readStopBit();
            } else {
                t.small_int = b.readInt();
                t.long_int = b.readLong();
            }
        }
    }

    /** A product record through BytesMarshallable (tags: a count, then UTF-8 strings). */
    static final class BProduct implements BytesMarshallable, Rec {
        final Typed.Product p;

        public Object record() {
            return p;
        }
        final boolean stop;

        BProduct(Typed.Product p, boolean stop) {
            this.p = p;
            this.stop = stop;
        }

        @Override
        public void writeMarshallable(BytesOut<?> b) {
            if (stop) b.writeStopBit(p.id);
            else b.writeLong(p.id);
            b.writeUtf8(p.name);
            if (stop) b.writeStopBit(p.price);
            else b.writeDouble(p.price);
            b.writeBoolean(p.in_stock);
            b.writeStopBit(p.tags.size());
            for (String s : p.tags) b.writeUtf8(s);
        }

        @Override
        public void readMarshallable(BytesIn<?> b) {
            p.id = stop ? b.readStopBit() : b.readLong();
            p.name = b.readUtf8();
            p.price = stop ? b.readStopBitDouble() : b.readDouble();
            p.in_stock = b.readBoolean();
            long n = b.readStopBit();
            if (n < 0 || n > b.readRemaining()) throw new IllegalStateException("tag count " + n + " exceeds the document");
            p.tags = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) p.tags.add(b.readUtf8());
        }
    }
    /** A count read back from the input: at least 0 and no more than the bytes left could hold. */
    static int count(long n, long remaining) {
        if (n < 0 || n > remaining) throw new IllegalStateException("count " + n + " exceeds the document's " + remaining + " bytes left");
        return (int) n;
    }

    static long range(long v, long lo, long hi, String field) {
        if (v < lo || v > hi) throw new IllegalStateException(field + " " + v + " out of range");
        return v;
    }

    /**
     * A nested record through Chronicle's Marshallable API. Scalars are keyed fields; each array is a
     * keyed count followed by its values (`getValueOut()` values without keys), the `counts` map a
     * keyed count followed by key, value pairs, `inner` flattened into `label`, `x`, `y`, `z`, and the
     * children a keyed count followed by each child's fields, recursively. One layout for every wire:
     * RawWire cannot read sequences back and the field-less and numbered wires drop or hash map keys
     * given as field names, so no wire uses `sequence` or nested `marshallable` here.
     * Unsigned widths travel in the next wider signed type (u64 as int64 bits).
     */
    static final class WNested implements Marshallable, Rec {
        final Typed.Nested n;

        WNested(Typed.Nested n) {
            this.n = n;
        }

        public Object record() {
            return n;
        }

        @Override
        public void writeMarshallable(WireOut w) {
            write(w, n);
        }

        @Override
        public void readMarshallable(WireIn w) {
            read(w, n);
        }

        static void write(WireOut w, Typed.Nested n) {
            w.write(F.u8).int16(n.u8).write(F.u16).int32(n.u16).write(F.u32).int64(n.u32).write(F.u64).int64(n.u64)
                    .write(F.i8).int8(n.i8).write(F.i16).int16(n.i16).write(F.i32).int32(n.i32).write(F.i64).int64(n.i64)
                    .write(F.f32).float32(n.f32).write(F.f64).float64(n.f64).write(F.flag).bool(n.flag).write(F.name).text(n.name);
            w.write(F.u8s).int32(n.u8s.length);
            for (short v : n.u8s) w.getValueOut().int16(v);
            w.write(F.u16s).int32(n.u16s.length);
            for (int v : n.u16s) w.getValueOut().int32(v);
            w.write(F.u32s).int32(n.u32s.length);
            for (long v : n.u32s) w.getValueOut().int64(v);
            w.write(F.u64s).int32(n.u64s.length);
            for (long v : n.u64s) w.getValueOut().int64(v);
            w.write(F.i8s).int32(n.i8s.length);
            for (byte v : n.i8s) w.getValueOut().int8(v);
            w.write(F.i16s).int32(n.i16s.length);
            for (short v : n.i16s) w.getValueOut().int16(v);
            w.write(F.i32s).int32(n.i32s.length);
            for (int v : n.i32s) w.getValueOut().int32(v);
            w.write(F.i64s).int32(n.i64s.length);
            for (long v : n.i64s) w.getValueOut().int64(v);
            w.write(F.f32s).int32(n.f32s.length);
            for (float v : n.f32s) w.getValueOut().float32(v);
            w.write(F.f64s).int32(n.f64s.length);
            for (double v : n.f64s) w.getValueOut().float64(v);
            w.write(F.flags).int32(n.flags.length);
            for (boolean v : n.flags) w.getValueOut().bool(v);
            w.write(F.names).int32(n.names.size());
            for (String v : n.names) w.getValueOut().text(v);
            w.write(F.counts).int32(n.counts.size());
            for (java.util.Map.Entry<String, Long> e : n.counts.entrySet()) {
                w.getValueOut().text(e.getKey());
                w.getValueOut().int64(e.getValue());
            }
            w.write(F.note).text(n.note);
            w.write(F.label).text(n.inner.label).write(F.x).float64(n.inner.point.x).write(F.y).float64(n.inner.point.y)
                    .write(F.z).float32(n.inner.point.z);
            w.write(F.children).int32(n.children.size());
            for (Typed.Nested c : n.children) write(w, c);
        }

        static void read(WireIn w, Typed.Nested n) {
            long left = w.bytes().readRemaining();
            n.u8 = (short) range(w.read(F.u8).int16(), 0, 0xFF, "u8");
            n.u16 = (int) range(w.read(F.u16).int32(), 0, 0xFFFF, "u16");
            n.u32 = range(w.read(F.u32).int64(), 0, 0xFFFF_FFFFL, "u32");
            n.u64 = w.read(F.u64).int64();
            n.i8 = w.read(F.i8).int8();
            n.i16 = w.read(F.i16).int16();
            n.i32 = w.read(F.i32).int32();
            n.i64 = w.read(F.i64).int64();
            n.f32 = w.read(F.f32).float32();
            n.f64 = w.read(F.f64).float64();
            n.flag = w.read(F.flag).bool();
            n.name = w.read(F.name).text();
            n.u8s = new short[count(w.read(F.u8s).int32(), left)];
            for (int i = 0; i < n.u8s.length; i++) n.u8s[i] = (short) range(w.getValueIn().int16(), 0, 0xFF, "u8s");
            n.u16s = new int[count(w.read(F.u16s).int32(), left)];
            for (int i = 0; i < n.u16s.length; i++) n.u16s[i] = (int) range(w.getValueIn().int32(), 0, 0xFFFF, "u16s");
            n.u32s = new long[count(w.read(F.u32s).int32(), left)];
            for (int i = 0; i < n.u32s.length; i++) n.u32s[i] = range(w.getValueIn().int64(), 0, 0xFFFF_FFFFL, "u32s");
            n.u64s = new long[count(w.read(F.u64s).int32(), left)];
            for (int i = 0; i < n.u64s.length; i++) n.u64s[i] = w.getValueIn().int64();
            n.i8s = new byte[count(w.read(F.i8s).int32(), left)];
            for (int i = 0; i < n.i8s.length; i++) n.i8s[i] = w.getValueIn().int8();
            n.i16s = new short[count(w.read(F.i16s).int32(), left)];
            for (int i = 0; i < n.i16s.length; i++) n.i16s[i] = w.getValueIn().int16();
            n.i32s = new int[count(w.read(F.i32s).int32(), left)];
            for (int i = 0; i < n.i32s.length; i++) n.i32s[i] = w.getValueIn().int32();
            n.i64s = new long[count(w.read(F.i64s).int32(), left)];
            for (int i = 0; i < n.i64s.length; i++) n.i64s[i] = w.getValueIn().int64();
            n.f32s = new float[count(w.read(F.f32s).int32(), left)];
            for (int i = 0; i < n.f32s.length; i++) n.f32s[i] = w.getValueIn().float32();
            n.f64s = new double[count(w.read(F.f64s).int32(), left)];
            for (int i = 0; i < n.f64s.length; i++) n.f64s[i] = w.getValueIn().float64();
            n.flags = new boolean[count(w.read(F.flags).int32(), left)];
            for (int i = 0; i < n.flags.length; i++) n.flags[i] = w.getValueIn().bool();
            int k = count(w.read(F.names).int32(), left);
            n.names = new ArrayList<>(k);
            for (int i = 0; i < k; i++) n.names.add(w.getValueIn().text());
            k = count(w.read(F.counts).int32(), left);
            n.counts = new java.util.LinkedHashMap<>();
            for (int i = 0; i < k; i++) n.counts.put(w.getValueIn().text(), w.getValueIn().int64());
            n.note = w.read(F.note).text();
            n.inner = new Typed.Inner();
            n.inner.label = w.read(F.label).text();
            n.inner.point = new Typed.Point();
            n.inner.point.x = w.read(F.x).float64();
            n.inner.point.y = w.read(F.y).float64();
            n.inner.point.z = w.read(F.z).float32();
            k = count(w.read(F.children).int32(), left);
            n.children = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                Typed.Nested c = new Typed.Nested();
                read(w, c);
                n.children.add(c);
            }
        }
    }

    /**
     * A nested record through BytesMarshallable: fields in schema order at their widths (unsigned
     * through writeUnsigned*), UTF-8 strings (`writeUtf8`, null for an absent note), arrays and the
     * map as a stop-bit count then their items, inner inline, children a stop-bit count then each
     * child. The stop-bit variant writes every integer and f64 with writeStopBit (f32 stays 4 bytes:
     * Chronicle Bytes has no stop-bit float).
     */
    static final class BNested implements BytesMarshallable, Rec {
        final Typed.Nested n;
        final boolean stop;

        BNested(Typed.Nested n, boolean stop) {
            this.n = n;
            this.stop = stop;
        }

        public Object record() {
            return n;
        }

        @Override
        public void writeMarshallable(BytesOut<?> b) {
            write(b, n, stop);
        }

        @Override
        public void readMarshallable(BytesIn<?> b) {
            read(b, n, stop);
        }

        static void integer(BytesOut<?> b, long v, int width, boolean stop) {
            if (stop) b.writeStopBit(v);
            else if (width == 1) b.writeByte((byte) v);
            else if (width == 2) b.writeShort((short) v);
            else if (width == 4) b.writeInt((int) v);
            else b.writeLong(v);
        }

        static long integer(BytesIn<?> b, int width, boolean signed, boolean stop) {
            if (stop) return b.readStopBit();
            if (width == 1) return signed ? b.readByte() : b.readUnsignedByte();
            if (width == 2) return signed ? b.readShort() : b.readUnsignedShort();
            if (width == 4) return signed ? b.readInt() : b.readUnsignedInt();
            return b.readLong();
        }

        static void f64(BytesOut<?> b, double v, boolean stop) {
            if (stop) b.writeStopBit(v);
            else b.writeDouble(v);
        }

        static double f64(BytesIn<?> b, boolean stop) {
            return stop ? b.readStopBitDouble() : b.readDouble();
        }

        static void write(BytesOut<?> b, Typed.Nested n, boolean stop) {
            integer(b, n.u8, 1, stop);
            integer(b, n.u16, 2, stop);
            integer(b, n.u32, 4, stop);
            integer(b, n.u64, 8, stop);
            integer(b, n.i8, 1, stop);
            integer(b, n.i16, 2, stop);
            integer(b, n.i32, 4, stop);
            integer(b, n.i64, 8, stop);
            b.writeFloat(n.f32);
            f64(b, n.f64, stop);
            b.writeBoolean(n.flag);
            b.writeUtf8(n.name);
            b.writeStopBit(n.u8s.length);
            for (short v : n.u8s) integer(b, v, 1, stop);
            b.writeStopBit(n.u16s.length);
            for (int v : n.u16s) integer(b, v, 2, stop);
            b.writeStopBit(n.u32s.length);
            for (long v : n.u32s) integer(b, v, 4, stop);
            b.writeStopBit(n.u64s.length);
            for (long v : n.u64s) integer(b, v, 8, stop);
            b.writeStopBit(n.i8s.length);
            for (byte v : n.i8s) integer(b, v, 1, stop);
            b.writeStopBit(n.i16s.length);
            for (short v : n.i16s) integer(b, v, 2, stop);
            b.writeStopBit(n.i32s.length);
            for (int v : n.i32s) integer(b, v, 4, stop);
            b.writeStopBit(n.i64s.length);
            for (long v : n.i64s) integer(b, v, 8, stop);
            b.writeStopBit(n.f32s.length);
            for (float v : n.f32s) b.writeFloat(v);
            b.writeStopBit(n.f64s.length);
            for (double v : n.f64s) f64(b, v, stop);
            b.writeStopBit(n.flags.length);
            for (boolean v : n.flags) b.writeBoolean(v);
            b.writeStopBit(n.names.size());
            for (String v : n.names) b.writeUtf8(v);
            b.writeStopBit(n.counts.size());
            for (java.util.Map.Entry<String, Long> e : n.counts.entrySet()) {
                b.writeUtf8(e.getKey());
                integer(b, e.getValue(), 8, stop);
            }
            b.writeUtf8(n.note);
            b.writeUtf8(n.inner.label);
            f64(b, n.inner.point.x, stop);
            f64(b, n.inner.point.y, stop);
            b.writeFloat(n.inner.point.z);
            b.writeStopBit(n.children.size());
            for (Typed.Nested c : n.children) write(b, c, stop);
        }

        static void read(BytesIn<?> b, Typed.Nested n, boolean stop) {
            n.u8 = (short) range(integer(b, 1, false, stop), 0, 0xFF, "u8");
            n.u16 = (int) range(integer(b, 2, false, stop), 0, 0xFFFF, "u16");
            n.u32 = range(integer(b, 4, false, stop), 0, 0xFFFF_FFFFL, "u32");
            n.u64 = integer(b, 8, false, stop);
            n.i8 = (byte) range(integer(b, 1, true, stop), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8");
            n.i16 = (short) range(integer(b, 2, true, stop), Short.MIN_VALUE, Short.MAX_VALUE, "i16");
            n.i32 = (int) range(integer(b, 4, true, stop), Integer.MIN_VALUE, Integer.MAX_VALUE, "i32");
            n.i64 = integer(b, 8, true, stop);
            n.f32 = b.readFloat();
            n.f64 = f64(b, stop);
            n.flag = b.readBoolean();
            n.name = b.readUtf8();
            n.u8s = new short[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.u8s.length; i++) n.u8s[i] = (short) range(integer(b, 1, false, stop), 0, 0xFF, "u8s");
            n.u16s = new int[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.u16s.length; i++) n.u16s[i] = (int) range(integer(b, 2, false, stop), 0, 0xFFFF, "u16s");
            n.u32s = new long[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.u32s.length; i++) n.u32s[i] = range(integer(b, 4, false, stop), 0, 0xFFFF_FFFFL, "u32s");
            n.u64s = new long[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.u64s.length; i++) n.u64s[i] = integer(b, 8, false, stop);
            n.i8s = new byte[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.i8s.length; i++) n.i8s[i] = (byte) range(integer(b, 1, true, stop), Byte.MIN_VALUE, Byte.MAX_VALUE, "i8s");
            n.i16s = new short[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.i16s.length; i++) n.i16s[i] = (short) range(integer(b, 2, true, stop), Short.MIN_VALUE, Short.MAX_VALUE, "i16s");
            n.i32s = new int[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.i32s.length; i++) n.i32s[i] = (int) range(integer(b, 4, true, stop), Integer.MIN_VALUE, Integer.MAX_VALUE, "i32s");
            n.i64s = new long[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.i64s.length; i++) n.i64s[i] = integer(b, 8, true, stop);
            n.f32s = new float[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.f32s.length; i++) n.f32s[i] = b.readFloat();
            n.f64s = new double[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.f64s.length; i++) n.f64s[i] = f64(b, stop);
            n.flags = new boolean[count(b.readStopBit(), b.readRemaining())];
            for (int i = 0; i < n.flags.length; i++) n.flags[i] = b.readBoolean();
            int k = count(b.readStopBit(), b.readRemaining());
            n.names = new ArrayList<>(k);
            for (int i = 0; i < k; i++) n.names.add(b.readUtf8());
            k = count(b.readStopBit(), b.readRemaining());
            n.counts = new java.util.LinkedHashMap<>();
            for (int i = 0; i < k; i++) n.counts.put(b.readUtf8(), integer(b, 8, true, stop));
            n.note = b.readUtf8();
            n.inner = new Typed.Inner();
            n.inner.label = b.readUtf8();
            n.inner.point = new Typed.Point();
            n.inner.point.x = f64(b, stop);
            n.inner.point.y = f64(b, stop);
            n.inner.point.z = b.readFloat();
            k = count(b.readStopBit(), b.readRemaining());
            n.children = new ArrayList<>(k);
            for (int i = 0; i < k; i++) {
                Typed.Nested c = new Typed.Nested();
                read(b, c, stop);
                n.children.add(c);
            }
        }
    }
}
