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
        ByteBuffer bb = ByteBuffer.wrap(data);
        try (BsonBinaryReader r = new BsonBinaryReader(bb)) {
            T v = codec.decode(r, DecoderContext.builder().build());
            if (bb.hasRemaining()) throw new Bench.LibraryError("trailing bytes after the document");
            return v;
        }
    }

    public static List<Bench> benches() {
        return List.of(new Bench("bson-typed", "bson", List.of("bson"))
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
                }));
    }
}
