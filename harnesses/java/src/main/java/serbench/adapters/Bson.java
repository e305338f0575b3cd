package serbench.adapters;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.io.BasicOutputBuffer;
import serbench.Bench;
import serbench.Hash;
import serbench.Model;
import serbench.StreamHasher;
import serbench.TreeWalk;

/**
 * The MongoDB Java driver's BSON library (org.mongodb:bson): BsonDocument tree (BsonDocumentCodec
 * over a BsonBinaryReader), BsonBinaryReader pull reading (incremental) and BsonBinaryWriter
 * writing. BSON has no uint64: a uint above INT64_MAX cannot be written (the library's own
 * limit, exit 3); int64 values that fit int32 are written as int32, as pymongo does.
 */
public final class Bson {
    private Bson() {}

    static final BsonDocumentCodec CODEC = new BsonDocumentCodec();
    static final DecoderContext CTX = DecoderContext.builder().build();

    public static List<Bench> benches() {
        return List.of(new Bench("bson", "bson", List.of("bson"))
                .notes("tree: BsonDocumentCodec.decode over a BsonBinaryReader to a BsonDocument (trailing bytes refused); incremental: BsonBinaryReader readBsonType/readName/read*; write: BsonBinaryWriter calls driven by the harness's tree into a fresh BasicOutputBuffer")
                .tree((fmt, data) -> {
                    try (BsonBinaryReader r = new BsonBinaryReader(ByteBuffer.wrap(data))) {
                        BsonDocument d = CODEC.decode(r, CTX);
                        if (r.getBsonInput().hasRemaining()) throw new Bench.LibraryError("trailing bytes after the document");
                        return WALK.hash(d);
                    }
                })
                .incremental((fmt, data) -> {
                    try (BsonBinaryReader r = new BsonBinaryReader(ByteBuffer.wrap(data))) {
                        return stream(r);
                    }
                })
                .write((fmt, doc) -> {
                    if (!(doc instanceof Map)) throw new Bench.LibraryError("a BSON document's root must be a map");
                    return () -> write(doc);
                }));
    }

    static final class ValueWalk extends TreeWalk<BsonValue> {
        @Override
        protected int kind(BsonValue v) {
            return switch (v.getBsonType()) {
                case DOCUMENT -> MAP;
                case ARRAY -> ARRAY;
                default -> SCALAR;
            };
        }

        @Override
        protected long scalar(BsonValue v) throws Hash.OutOfModel {
            return switch (v.getBsonType()) {
                case DOUBLE -> Hash.ofDouble(v.asDouble().getValue());
                case STRING -> Hash.ofString(v.asString().getValue());
                case INT32 -> Hash.ofLong(v.asInt32().getValue());
                case INT64 -> Hash.ofLong(v.asInt64().getValue());
                case BOOLEAN -> Hash.ofBool(v.asBoolean().getValue());
                case NULL -> Hash.NULL;
                case BINARY -> Hash.ofBinary(v.asBinary().getData());
                default -> throw new Hash.OutOfModel("BSON " + v.getBsonType() + " is outside the data model");
            };
        }

        @Override
        protected Iterator<?> items(BsonValue a) {
            return a.asArray().iterator();
        }

        @Override
        protected Iterator<?> entries(BsonValue m) {
            return m.asDocument().entrySet().iterator();
        }

        @Override
        protected long entryKey(Object e) {
            return Hash.ofString((String) ((Map.Entry<?, ?>) e).getKey());
        }

        @Override
        protected BsonValue entryValue(Object e) {
            return (BsonValue) ((Map.Entry<?, ?>) e).getValue();
        }
    }

    private static final ValueWalk WALK = new ValueWalk();
    private static final StreamHasher HASHER = new StreamHasher();

    static long stream(BsonBinaryReader r) throws Exception {
        StreamHasher h = HASHER;
        h.reset();
        r.readStartDocument();
        h.startMap();
        while (h.depth() > 0) {
            BsonType t = r.readBsonType();
            if (t == BsonType.END_OF_DOCUMENT) {
                if (h.inMap()) r.readEndDocument();
                else r.readEndArray();
                h.end();
                continue;
            }
            if (h.inMap()) h.key(r.readName());
            switch (t) {
                case DOUBLE -> h.float64(r.readDouble());
                case STRING -> h.string(r.readString());
                case INT32 -> h.int64(r.readInt32());
                case INT64 -> h.int64(r.readInt64());
                case BOOLEAN -> h.bool(r.readBoolean());
                case NULL -> {
                    r.readNull();
                    h.nul();
                }
                case BINARY -> h.binary(r.readBinaryData().getData());
                case DOCUMENT -> {
                    r.readStartDocument();
                    h.startMap();
                }
                case ARRAY -> {
                    r.readStartArray();
                    h.startArray();
                }
                default -> throw new Bench.LibraryError("BSON " + t + " is outside the data model");
            }
        }
        if (r.getBsonInput().hasRemaining()) throw new Bench.LibraryError("trailing bytes after the document");
        return h.finish();
    }

    static byte[] write(Object doc) throws Exception {
        BasicOutputBuffer buf = new BasicOutputBuffer();
        try (BsonBinaryWriter w = new BsonBinaryWriter(buf)) {
            Model.emit(doc, new Model.Sink() {
                public void nul() {
                    w.writeNull();
                }

                public void bool(boolean b) {
                    w.writeBoolean(b);
                }

                public void int64(long v) {
                    if (v == (int) v) w.writeInt32((int) v);
                    else w.writeInt64(v);
                }

                public void uint64(long bits) throws Exception {
                    throw new Bench.LibraryError("BSON has no uint64: " + Long.toUnsignedString(bits) + " does not fit int64");
                }

                public void float64(double d) {
                    w.writeDouble(d);
                }

                public void string(String s) {
                    w.writeString(s);
                }

                public void binary(byte[] b) {
                    w.writeBinaryData(new BsonBinary(b));
                }

                public void key(String k) {
                    w.writeName(k);
                }

                public void startArray(int size) {
                    w.writeStartArray();
                }

                public void endArray() {
                    w.writeEndArray();
                }

                public void startMap(int size) {
                    w.writeStartDocument();
                }

                public void endMap() {
                    w.writeEndDocument();
                }
            });
        }
        return buf.toByteArray();
    }
}
