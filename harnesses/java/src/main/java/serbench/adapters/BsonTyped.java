package serbench.adapters;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.codecs.Codec;
import org.bson.codecs.DecoderContext;
import org.bson.codecs.EncoderContext;
import org.bson.codecs.configuration.CodecRegistries;
import org.bson.codecs.configuration.CodecRegistry;
import org.bson.codecs.pojo.PojoCodecProvider;
import org.bson.io.BasicOutputBuffer;
import serbench.Bench;
import serbench.Typed;

/**
 * org.mongodb bson's POJO codec (PojoCodecProvider, automatic) on the typed records: the records go
 * in a document `{records: [...]}` (a BSON document is the only top-level value), written with
 * BsonBinaryWriter into a BasicOutputBuffer and read back with BsonBinaryReader. BSON has no
 * unsigned 64-bit integer (its integers are int32 and int64), so the row refuses the datasets with
 * uint64 fields (product ids, nested u64 fields use the full range) and is measured on trade, as the
 * Rust harness's bson-typed row. The enum is written by name (bson's EnumCodec).
 */
public final class BsonTyped {
    private BsonTyped() {}

    /** The document that carries a dataset's records. */
    public static final class TradeDoc {
        public List<Typed.Trade> records;
    }

    static final class Holder {
        static final CodecRegistry REGISTRY = CodecRegistries.fromRegistries(org.bson.conversions.Bson.DEFAULT_CODEC_REGISTRY,
                CodecRegistries.fromProviders(PojoCodecProvider.builder().automatic(true).build()));
        static final Codec<TradeDoc> DOC = REGISTRY.get(TradeDoc.class);
        static final Codec<Typed.Trade> TRADE = REGISTRY.get(Typed.Trade.class);
    }

    static void refuseUnsigned(Typed.Schema s) throws Bench.LibraryError {
        if (s != Typed.Schema.trade) {
            throw new Bench.LibraryError("BSON has no uint64 type (int32 and int64 only): the " + s + " records' full-range uint64 fields cannot be written");
        }
    }

    static <T> byte[] encode(Codec<T> codec, T value) {
        BasicOutputBuffer buf = new BasicOutputBuffer();
        try (BsonBinaryWriter w = new BsonBinaryWriter(buf)) {
            codec.encode(w, value, EncoderContext.builder().build());
        }
        return buf.toByteArray();
    }

    static <T> T decode(Codec<T> codec, byte[] data) throws Bench.LibraryError {
        return decode(codec, ByteBuffer.wrap(data));
    }

    static <T> T decode(Codec<T> codec, ByteBuffer bb) throws Bench.LibraryError {
        try (BsonBinaryReader r = new BsonBinaryReader(bb)) {
            T v = codec.decode(r, DecoderContext.builder().build());
            if (bb.hasRemaining()) throw new Bench.LibraryError("trailing bytes after the document");
            return v;
        }
    }

    public static List<Bench> benches() {
        return List.of(plain(), chronicleBytes());
    }

    /**
     * "BSON + C-Bytes" of Chronicle's reference table: the same POJO codec writing into one recycled
     * Chronicle Bytes buffer (elastic, direct) through a BsonOutput over it (ChronicleOutput), and
     * reading through BsonBinaryReader from the ByteBuffer of a second recycled Chronicle Bytes
     * (elastic, ByteBuffer-backed) the input is copied into. Encode copies the bytes out (the byte[]
     * the protocol hashes).
     */
    /** The recycled buffers, made on first use (so Chronicle loads only in the cells that use them). */
    static final class CBytes {
        static {
            ChronicleWire.init();
        }

        static final ChronicleOutput OUT = new ChronicleOutput(net.openhft.chronicle.bytes.Bytes.allocateElasticDirect(1 << 16));
        static final net.openhft.chronicle.bytes.Bytes<ByteBuffer> IN = net.openhft.chronicle.bytes.Bytes.elasticByteBuffer(1 << 16);
    }

    static Bench chronicleBytes() {
        return new Bench("bson-cbytes-typed", "bson", List.of("bson")).codeArtifact("bson+chronicle-bytes")
                .notes("BSON + C-Bytes: POJO codec as bson-typed, BsonBinaryWriter into one recycled elastic direct Chronicle Bytes (a BsonOutput over it) and BsonBinaryReader over the ByteBuffer of a recycled ByteBuffer-backed Chronicle Bytes; bytes copied out per encode and in per decode; refuses the uint64 datasets")
                .typed((f, r) -> {
                    refuseUnsigned(r.schema());
                    TradeDoc doc = new TradeDoc();
                    doc.records = Arrays.asList((Typed.Trade[]) r.array());
                    return () -> encodeInto(CBytes.OUT, Holder.DOC, doc);
                }, (f, s, data) -> {
                    refuseUnsigned(s);
                    return Typed.hash(s, decodeFrom(CBytes.IN, Holder.DOC, data).records);
                })
                .one((f, r) -> {
                    refuseUnsigned(r.schema());
                    Object[] arr = r.array();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            return encodeInto(CBytes.OUT, Holder.TRADE, (Typed.Trade) arr[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hash(decodeFrom(CBytes.IN, Holder.TRADE, data));
                        }
                    };
                });
    }

    static <T> byte[] encodeInto(ChronicleOutput o, Codec<T> codec, T value) {
        o.bytes.clear();
        try (BsonBinaryWriter w = new BsonBinaryWriter(o)) {
            codec.encode(w, value, EncoderContext.builder().build());
        }
        return o.bytes.toByteArray();
    }

    static <T> T decodeFrom(net.openhft.chronicle.bytes.Bytes<ByteBuffer> in, Codec<T> codec, byte[] data) throws Bench.LibraryError {
        in.clear();
        in.write(data);
        ByteBuffer bb = in.underlyingObject().duplicate();
        bb.order(java.nio.ByteOrder.LITTLE_ENDIAN).position(0).limit(data.length);
        return decode(codec, bb);
    }

    /** bson's output interface over a Chronicle Bytes buffer (written from position 0). */
    static final class ChronicleOutput extends org.bson.io.OutputBuffer {
        final net.openhft.chronicle.bytes.Bytes<Void> bytes;

        ChronicleOutput(net.openhft.chronicle.bytes.Bytes<Void> bytes) {
            this.bytes = bytes;
        }

        @Override
        public void writeBytes(byte[] b, int offset, int length) {
            bytes.write(b, offset, length);
        }

        @Override
        public void writeByte(int value) {
            bytes.writeByte((byte) value);
        }

        @Override
        protected void write(int position, int value) {
            bytes.writeByte(position, (byte) value);
        }

        @Override
        public int getPosition() {
            return (int) bytes.writePosition();
        }

        @Override
        public int getSize() {
            return (int) bytes.writePosition();
        }

        @Override
        public void truncateToPosition(int newPosition) {
            bytes.writePosition(newPosition);
        }

        @Override
        public int pipe(java.io.OutputStream out) throws java.io.IOException {
            byte[] b = bytes.toByteArray();
            out.write(b);
            return b.length;
        }

        @Override
        public List<org.bson.ByteBuf> getByteBuffers() {
            return List.of(new org.bson.ByteBufNIO(ByteBuffer.wrap(bytes.toByteArray())));
        }
    }

    static Bench plain() {
        return new Bench("bson-typed", "bson", List.of("bson"))
                .notes("POJO codec (PojoCodecProvider automatic, public fields, enum by name), records in {records: [...]}, BsonBinaryWriter/BsonBinaryReader; refuses product, product-large and nested: BSON has no uint64")
                .typed((f, r) -> {
                    refuseUnsigned(r.schema());
                    TradeDoc doc = new TradeDoc();
                    doc.records = Arrays.asList((Typed.Trade[]) r.array());
                    return () -> encode(Holder.DOC, doc);
                }, (f, s, data) -> {
                    refuseUnsigned(s);
                    TradeDoc doc = decode(Holder.DOC, data);
                    return Typed.hash(s, doc.records);
                })
                .one((f, r) -> {
                    refuseUnsigned(r.schema());
                    Object[] arr = r.array();
                    return new Bench.One() {
                        public byte[] encode(int i) {
                            return BsonTyped.encode(Holder.TRADE, (Typed.Trade) arr[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hash(BsonTyped.decode(Holder.TRADE, data));
                        }
                    };
                });
    }
}
