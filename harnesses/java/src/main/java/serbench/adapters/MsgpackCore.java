package serbench.adapters;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.IntegerValue;
import org.msgpack.value.Value;
import serbench.Bench;
import serbench.Hash;
import serbench.Model;
import serbench.StreamHasher;
import serbench.TreeWalk;

/**
 * MessagePack for Java's core (org.msgpack:msgpack-core): the Value tree
 * (MessageUnpacker.unpackValue), MessageUnpacker pull parsing (incremental) and MessageBufferPacker
 * writing. Strings are decoded to Java Strings (asString/unpackString, which check UTF-8), as an
 * application reads them.
 */
public final class MsgpackCore {
    private MsgpackCore() {}

    public static List<Bench> benches() {
        return List.of(new Bench("msgpack-core", "msgpack-core", List.of("msgpack"))
                .notes("tree: MessageUnpacker.unpackValue to an ImmutableValue (trailing bytes refused); incremental: MessageUnpacker getNextFormat/unpack*; write: MessageBufferPacker pack* calls driven by the harness's tree (fresh packer)")
                .tree((fmt, data) -> {
                    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(data)) {
                        Value v = u.unpackValue();
                        if (u.hasNext()) throw new Bench.LibraryError("trailing bytes after the document");
                        return WALK.hash(v);
                    }
                })
                .incremental((fmt, data) -> {
                    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(data)) {
                        return stream(u);
                    }
                })
                .write((fmt, doc) -> () -> write(doc)));
    }

    static final class ValueWalk extends TreeWalk<Value> {
        @Override
        protected int kind(Value v) {
            return switch (v.getValueType()) {
                case ARRAY -> ARRAY;
                case MAP -> MAP;
                default -> SCALAR;
            };
        }

        @Override
        protected long scalar(Value v) throws Hash.OutOfModel {
            switch (v.getValueType()) {
                case NIL:
                    return Hash.NULL;
                case BOOLEAN:
                    return Hash.ofBool(v.asBooleanValue().getBoolean());
                case INTEGER: {
                    IntegerValue i = v.asIntegerValue();
                    return i.isInLongRange() ? Hash.ofLong(i.toLong()) : Hash.ofBigInteger(i.toBigInteger());
                }
                case FLOAT:
                    return Hash.ofDouble(v.asFloatValue().toDouble());
                case STRING:
                    return Hash.ofString(v.asStringValue().asString());
                case BINARY:
                    return Hash.ofBinary(v.asBinaryValue().asByteArray());
                default:
                    throw new Hash.OutOfModel("MessagePack " + v.getValueType() + " is outside the data model");
            }
        }

        @Override
        protected Iterator<?> items(Value a) {
            return a.asArrayValue().iterator();
        }

        @Override
        protected Iterator<?> entries(Value m) {
            return m.asMapValue().entrySet().iterator();
        }

        @Override
        protected long entryKey(Object e) throws Hash.OutOfModel {
            Value k = (Value) ((Map.Entry<?, ?>) e).getKey();
            if (!k.isStringValue()) throw new Hash.OutOfModel("a map key is not a string: " + k.getValueType());
            return Hash.ofString(k.asStringValue().asString());
        }

        @Override
        protected Value entryValue(Object e) {
            return (Value) ((Map.Entry<?, ?>) e).getValue();
        }
    }

    private static final ValueWalk WALK = new ValueWalk();
    private static final StreamHasher HASHER = new StreamHasher();

    /** Items left per open container (a map counts keys and values), so closes are known. */
    private static long[] left = new long[64];

    static long stream(MessageUnpacker u) throws Exception {
        StreamHasher h = HASHER;
        h.reset();
        int depth = 0;
        do {
            MessageFormat f = u.getNextFormat();
            org.msgpack.value.ValueType t = f.getValueType();
            if (depth > 0 && h.inMap() && (left[depth - 1] & 1) == 0) {
                // a map counts 2n items, keys at even counts left
                if (t != org.msgpack.value.ValueType.STRING) throw new Bench.LibraryError("a map key is not a string");
                h.key(u.unpackString());
            } else {
                switch (t) {
                    case NIL -> {
                        u.unpackNil();
                        h.nul();
                    }
                    case BOOLEAN -> h.bool(u.unpackBoolean());
                    case INTEGER -> {
                        if (f == MessageFormat.UINT64) h.hashed(Hash.ofBigInteger(u.unpackBigInteger()));
                        else h.int64(u.unpackLong());
                    }
                    case FLOAT -> h.float64(u.unpackDouble());
                    case STRING -> h.string(u.unpackString());
                    case BINARY -> h.binary(u.readPayload(u.unpackBinaryHeader()));
                    case ARRAY, MAP -> {
                        boolean map = t == org.msgpack.value.ValueType.MAP;
                        long n = map ? 2L * u.unpackMapHeader() : u.unpackArrayHeader();
                        if (map) h.startMap();
                        else h.startArray();
                        if (n > 0) {
                            depth = open(depth, n);
                            continue; // its items come next; it counts as an item of its parent when it closes
                        }
                        h.end();
                    }
                    default -> throw new Bench.LibraryError("MessagePack " + t + " is outside the data model");
                }
            }
            // one item of the innermost open container is complete; close every container that completes
            while (depth > 0 && --left[depth - 1] == 0) {
                depth--;
                h.end();
            }
        } while (depth > 0);
        if (u.hasNext()) throw new Bench.LibraryError("trailing bytes after the document");
        return h.finish();
    }

    private static int open(int depth, long items) {
        if (depth == left.length) left = java.util.Arrays.copyOf(left, 2 * depth);
        left[depth] = items;
        return depth + 1;
    }

    static byte[] write(Object doc) throws Exception {
        MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
        Model.emit(doc, new Model.Sink() {
            public void nul() throws Exception {
                p.packNil();
            }

            public void bool(boolean b) throws Exception {
                p.packBoolean(b);
            }

            public void int64(long v) throws Exception {
                p.packLong(v);
            }

            public void uint64(long bits) throws Exception {
                p.packBigInteger(new java.math.BigInteger(Long.toUnsignedString(bits)));
            }

            public void float64(double d) throws Exception {
                p.packDouble(d);
            }

            public void string(String s) throws Exception {
                p.packString(s);
            }

            public void binary(byte[] b) throws Exception {
                p.packBinaryHeader(b.length);
                p.writePayload(b);
            }

            public void key(String k) throws Exception {
                p.packString(k);
            }

            public void startArray(int size) throws Exception {
                p.packArrayHeader(size);
            }

            public void endArray() {}

            public void startMap(int size) throws Exception {
                p.packMapHeader(size);
            }

            public void endMap() {}
        });
        return p.toByteArray();
    }
}
