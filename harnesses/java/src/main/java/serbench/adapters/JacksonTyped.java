package serbench.adapters;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.msgpack.jackson.dataformat.MessagePackFactory;
import serbench.Bench;
import serbench.Typed;

/**
 * Jackson databind POJO binding of the typed records (spec/typed.md), on JSON and on the binary
 * data formats that plug into the same ObjectMapper: CBOR, Smile and MessagePack
 * (org.msgpack:jackson-dataformat-msgpack). The records are bound through their public fields
 * (Jackson's default visibility), with readers and writers made once per schema. Each format writes
 * structs as maps with field names; byte[] fields (nested `i8s`) are base64 strings in JSON and
 * byte strings in the binary formats, as Jackson maps byte[] by default.
 */
public final class JacksonTyped {
    private JacksonTyped() {}

    public static List<Bench> benches() {
        return List.of(
                row("jackson-typed", "jackson-databind", "json", new ObjectMapper(),
                        "POJO binding: ObjectMapper writerFor/readerFor the record array (public fields; u64 above INT64_MAX written as a negative long)"),
                row("jackson-cbor-typed", "jackson-dataformat-cbor", "cbor", new CBORMapper(),
                        "POJO binding through CBORMapper (structs as maps with field names)"),
                row("jackson-smile-typed", "jackson-dataformat-smile", "smile", new SmileMapper(),
                        "POJO binding through SmileMapper (Smile, Jackson's binary JSON; default settings: shared property names on, shared string values off)"),
                row("jackson-msgpack-typed", "jackson-dataformat-msgpack", "msgpack", new ObjectMapper(new MessagePackFactory()),
                        "POJO binding through ObjectMapper(MessagePackFactory) (structs as maps with field names; FAIL_ON_TRAILING_TOKENS off: its parser throws EOF at the end of input when asked for a trailing token)"),
                chronicleBytes(false),
                chronicleBytes(true));
    }

    /**
     * "Jackson + C-Bytes" and "Jackson + C-Bytes Reader/Writer" of Chronicle's reference table: the
     * same POJO binding writing into and reading from one recycled Chronicle Bytes buffer (elastic,
     * direct) instead of a fresh byte[] per operation, through the buffer's byte streams
     * (`outputStream()`/`inputStream()`, Jackson encodes UTF-8) or its character streams
     * (`writer()`/`reader()`, Jackson writes chars that Chronicle encodes). Encode clears the buffer,
     * writes, and copies the bytes out (the byte[] the protocol hashes); decode copies the input into
     * the buffer and reads it. Buffer reuse is the variant users argue about (issue 19).
     */
    static Bench chronicleBytes(boolean readerWriter) {
        Codec c = new Codec(new ObjectMapper(), true);
        String id = readerWriter ? "jackson-cbytes-rw-typed" : "jackson-cbytes-typed";
        String notes = readerWriter
                ? "Jackson + C-Bytes Reader/Writer: POJO binding through one recycled elastic direct Chronicle Bytes, ObjectWriter.writeValue(bytes.writer()) / ObjectReader.readValue(bytes.reader()); bytes copied out per encode and in per decode"
                : "Jackson + C-Bytes: POJO binding through one recycled elastic direct Chronicle Bytes, ObjectWriter.writeValue(bytes.outputStream()) / ObjectReader.readValue(bytes.inputStream()); bytes copied out per encode and in per decode";
        return new Bench(id, "jackson-databind", List.of("json")).codeArtifact("jackson-databind+chronicle-bytes").notes(notes)
                .typed((f, r) -> {
                    ObjectWriter w = c.arrayWriters.get(r.schema());
                    Object[] arr = r.array();
                    return () -> write(CBytes.BUF, w, arr, readerWriter);
                }, (f, s, data) -> Typed.hash(s, (Object[]) read(CBytes.BUF, c.arrayReaders.get(s), data, readerWriter)))
                .one((f, r) -> {
                    ObjectWriter w = c.oneWriters.get(r.schema());
                    ObjectReader rd = c.oneReaders.get(r.schema());
                    Object[] arr = r.array();
                    return new Bench.One() {
                        public byte[] encode(int i) throws Exception {
                            return write(CBytes.BUF, w, arr[i], readerWriter);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(read(CBytes.BUF, rd, data, readerWriter));
                        }
                    };
                });
    }

    /** The recycled buffer, made on first use (so Chronicle loads only in the cells that use it). */
    static final class CBytes {
        static {
            ChronicleWire.init();
        }

        static final net.openhft.chronicle.bytes.Bytes<Void> BUF = net.openhft.chronicle.bytes.Bytes.allocateElasticDirect(1 << 16);
    }

    static byte[] write(net.openhft.chronicle.bytes.Bytes<Void> buf, ObjectWriter w, Object value, boolean readerWriter) throws java.io.IOException {
        buf.clear();
        if (readerWriter) w.writeValue(buf.writer(), value);
        else w.writeValue(buf.outputStream(), value);
        return buf.toByteArray();
    }

    static Object read(net.openhft.chronicle.bytes.Bytes<Void> buf, ObjectReader r, byte[] data, boolean readerWriter) throws java.io.IOException {
        buf.clear();
        buf.write(data);
        return readerWriter ? r.readValue(buf.reader()) : r.readValue(buf.inputStream());
    }

    /** Readers and writers of one mapper, made once per schema (array) and per record class. */
    static final class Codec {
        final Map<Typed.Schema, ObjectWriter> arrayWriters = new EnumMap<>(Typed.Schema.class);
        final Map<Typed.Schema, ObjectReader> arrayReaders = new EnumMap<>(Typed.Schema.class);
        final Map<Typed.Schema, ObjectWriter> oneWriters = new EnumMap<>(Typed.Schema.class);
        final Map<Typed.Schema, ObjectReader> oneReaders = new EnumMap<>(Typed.Schema.class);

        Codec(ObjectMapper m, boolean trailingCheck) {
            // full error checking: nothing may follow the document
            if (trailingCheck) m.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
            for (Typed.Schema s : Typed.Schema.values()) {
                arrayWriters.put(s, m.writerFor(s.array));
                arrayReaders.put(s, m.readerFor(s.array));
                oneWriters.put(s, m.writerFor(s.record));
                oneReaders.put(s, m.readerFor(s.record));
            }
        }
    }

    static Bench row(String id, String library, String fmt, ObjectMapper mapper, String notes) {
        // jackson-dataformat-msgpack's parser throws "Unexpected EOF" where Jackson asks for the
        // token after the document (FAIL_ON_TRAILING_TOKENS), so that check is off for it alone
        Codec c = new Codec(mapper, !fmt.equals("msgpack"));
        return new Bench(id, library, List.of(fmt)).notes(notes)
                .typed((f, r) -> {
                    ObjectWriter w = c.arrayWriters.get(r.schema());
                    Object[] arr = r.array();
                    return () -> w.writeValueAsBytes(arr);
                }, (f, s, data) -> Typed.hash(s, (Object[]) c.arrayReaders.get(s).readValue(data)))
                .one((f, r) -> {
                    ObjectWriter w = c.oneWriters.get(r.schema());
                    ObjectReader rd = c.oneReaders.get(r.schema());
                    Object[] arr = r.array();
                    return new Bench.One() {
                        public byte[] encode(int i) throws Exception {
                            return w.writeValueAsBytes(arr[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(rd.readValue(data));
                        }
                    };
                });
    }
}
