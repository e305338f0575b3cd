package serbench.adapters;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import serbench.Bench;
import serbench.Hash;
import serbench.Model;
import serbench.StreamHasher;
import serbench.TreeWalk;

/**
 * Jackson databind 2.x on JSON: JsonNode tree (ObjectMapper.readTree), JsonParser pull parsing
 * (incremental) and JsonGenerator writing. The tree, parser loop and generator sink are shared
 * with jackson-dataformat-cbor (JacksonCbor), which plugs its own factory into the same API.
 */
public final class Jackson {
    private Jackson() {}

    // FAIL_ON_TRAILING_TOKENS: full error checking, a second document after the first is an error.
    // Integers: Jackson keeps int, long and BigInteger nodes apart, so int64 and uint64 stay exact;
    // floats are DoubleNodes (Double.parseDouble, exact).
    static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public static List<Bench> benches() {
        return List.of(new Bench("jackson", "jackson-databind", List.of("json", "json-pretty"))
                .notes("tree: ObjectMapper.readTree to JsonNode (FAIL_ON_TRAILING_TOKENS); incremental: JsonParser.nextToken, strings hashed from getTextCharacters; write: JsonGenerator calls driven by the harness's tree into a fresh ByteArrayOutputStream (default pretty printer for json-pretty)")
                .tree((fmt, data) -> walk(MAPPER.readTree(data)))
                .incremental((fmt, data) -> {
                    try (JsonParser p = MAPPER.getFactory().createParser(data)) {
                        return stream(p, true);
                    }
                })
                .write((fmt, doc) -> () -> generate(MAPPER.getFactory(), doc, fmt.equals("json-pretty"), g -> {})));
    }

    // --- the JsonNode walk (tree rows) ----------------------------------------------------------

    static final class NodeWalk extends TreeWalk<JsonNode> {
        @Override
        protected int kind(JsonNode n) throws Hash.OutOfModel {
            return switch (n.getNodeType()) {
                case ARRAY -> ARRAY;
                case OBJECT -> MAP;
                case MISSING -> throw new Hash.OutOfModel("no document (Jackson returned a MissingNode)");
                default -> SCALAR;
            };
        }

        @Override
        protected long scalar(JsonNode n) throws Hash.OutOfModel {
            switch (n.getNodeType()) {
                case STRING:
                    return Hash.ofString(n.textValue());
                case NUMBER:
                    if (n.isIntegralNumber()) return n.isBigInteger() ? Hash.ofBigInteger(n.bigIntegerValue()) : Hash.ofLong(n.longValue());
                    return Hash.ofDouble(n.doubleValue());
                case BOOLEAN:
                    return Hash.ofBool(n.booleanValue());
                case NULL:
                    return Hash.NULL;
                case BINARY:
                    try {
                        return Hash.ofBinary(n.binaryValue());
                    } catch (java.io.IOException e) {
                        throw new Hash.OutOfModel(e.getMessage());
                    }
                default:
                    throw new Hash.OutOfModel("Jackson node type " + n.getNodeType() + " is outside the data model");
            }
        }

        @Override
        protected Iterator<?> items(JsonNode a) {
            return a.iterator();
        }

        @Override
        protected Iterator<?> entries(JsonNode m) {
            return m.properties().iterator();
        }

        @Override
        protected long entryKey(Object e) {
            return Hash.ofString(((Map.Entry<?, ?>) e).getKey().toString());
        }

        @SuppressWarnings("unchecked")
        @Override
        protected JsonNode entryValue(Object e) {
            return ((Map.Entry<String, JsonNode>) e).getValue();
        }
    }

    private static final NodeWalk WALK = new NodeWalk();

    static long walk(JsonNode root) throws Hash.OutOfModel {
        return WALK.hash(root);
    }

    // --- the JsonParser loop (incremental rows) -------------------------------------------------

    private static final StreamHasher HASHER = new StreamHasher();

    /** Pulls every token into the streaming hash; `chars`: hash strings from the parser's buffer. */
    static long stream(JsonParser p, boolean chars) throws Exception {
        StreamHasher h = HASHER;
        h.reset();
        JsonToken t = p.nextToken();
        if (t == null) throw new Bench.LibraryError("no document");
        while (true) {
            switch (t) {
                case START_OBJECT -> h.startMap();
                case START_ARRAY -> h.startArray();
                case END_OBJECT, END_ARRAY -> h.end();
                case FIELD_NAME -> h.key(p.currentName());
                case VALUE_STRING -> {
                    if (chars) h.chars(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                    else h.string(p.getText());
                }
                case VALUE_NUMBER_INT -> {
                    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) h.hashed(Hash.ofBigInteger(p.getBigIntegerValue()));
                    else h.int64(p.getLongValue());
                }
                case VALUE_NUMBER_FLOAT -> h.float64(p.getDoubleValue());
                case VALUE_TRUE -> h.bool(true);
                case VALUE_FALSE -> h.bool(false);
                case VALUE_NULL -> h.nul();
                case VALUE_EMBEDDED_OBJECT -> {
                    Object o = p.getEmbeddedObject();
                    if (!(o instanceof byte[] b)) throw new Bench.LibraryError("embedded object outside the data model: " + o);
                    h.binary(b);
                }
                default -> throw new Bench.LibraryError("unexpected token " + t);
            }
            if (h.depth() == 0) break;
            t = p.nextToken();
            if (t == null) throw new Bench.LibraryError("unexpected end of input");
        }
        // full error checking: nothing may follow the document
        if (p.nextToken() != null) throw new Bench.LibraryError("trailing tokens after the document");
        return h.finish();
    }

    // --- JsonGenerator (write rows) -------------------------------------------------------------

    /** Extra generator set-up per format (none for JSON). */
    interface Setup {
        void apply(JsonGenerator g) throws Exception;
    }

    static byte[] generate(JsonFactory f, Object doc, boolean pretty, Setup setup) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator g = f.createGenerator(bytes)) {
            if (pretty) g.useDefaultPrettyPrinter();
            setup.apply(g);
            Model.emit(doc, new GeneratorSink(g));
        }
        return bytes.toByteArray();
    }

    static final class GeneratorSink implements Model.Sink {
        final JsonGenerator g;

        GeneratorSink(JsonGenerator g) {
            this.g = g;
        }

        public void nul() throws Exception {
            g.writeNull();
        }

        public void bool(boolean b) throws Exception {
            g.writeBoolean(b);
        }

        public void int64(long v) throws Exception {
            g.writeNumber(v);
        }

        public void uint64(long bits) throws Exception {
            g.writeNumber(new java.math.BigInteger(Long.toUnsignedString(bits)));
        }

        public void float64(double d) throws Exception {
            g.writeNumber(d);
        }

        public void string(String s) throws Exception {
            g.writeString(s);
        }

        public void binary(byte[] b) throws Exception {
            g.writeBinary(b);
        }

        public void key(String k) throws Exception {
            g.writeFieldName(k);
        }

        public void startArray(int size) throws Exception {
            g.writeStartArray(null, size);
        }

        public void endArray() throws Exception {
            g.writeEndArray();
        }

        public void startMap(int size) throws Exception {
            g.writeStartObject(null, size);
        }

        public void endMap() throws Exception {
            g.writeEndObject();
        }
    }
}
