package serbench.adapters;

import com.google.gson.JsonElement;
import com.google.gson.Strictness;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import serbench.Bench;
import serbench.Hash;
import serbench.Model;
import serbench.StreamHasher;
import serbench.TreeWalk;

/**
 * Gson: JsonElement tree (its JsonElement TypeAdapter over a strict JsonReader), JsonReader pull
 * parsing (incremental) and JsonWriter writing. Gson reads from a Reader, so the bytes go through
 * an InputStreamReader (UTF-8), as a Gson user reads a file or a request body. Gson keeps numbers
 * as their text (LazilyParsedNumber); the walk tells an int from a float by that text, as the
 * data model does (a '.', 'e' or 'E' makes a float).
 */
public final class Gson {
    private Gson() {}

    static final TypeAdapter<JsonElement> ELEMENT = new com.google.gson.Gson().getAdapter(JsonElement.class);

    public static List<Bench> benches() {
        return List.of(new Bench("gson", "gson", List.of("json", "json-pretty"))
                .notes("tree: the JsonElement TypeAdapter over a JsonReader in Strictness.STRICT (then END_DOCUMENT is required); incremental: JsonReader.peek/next* (numbers via nextString, classified by their text); write: JsonWriter calls driven by the harness's tree into a StringWriter, then UTF-8 bytes (indent 2 for json-pretty); input through InputStreamReader(UTF-8)")
                .tree((fmt, data) -> {
                    JsonReader r = reader(data);
                    JsonElement e = ELEMENT.read(r);
                    if (r.peek() != JsonToken.END_DOCUMENT) throw new Bench.LibraryError("trailing data after the document");
                    return WALK.hash(e);
                })
                .incremental((fmt, data) -> stream(reader(data)))
                .write((fmt, doc) -> () -> write(doc, fmt.equals("json-pretty"))));
    }

    static JsonReader reader(byte[] data) {
        JsonReader r = new JsonReader(new InputStreamReader(new ByteArrayInputStream(data), StandardCharsets.UTF_8));
        r.setStrictness(Strictness.STRICT);
        return r;
    }

    /** A JSON number's hash from its text: int64 or uint64 unless it has a fraction or exponent. */
    static long number(String text) throws Hash.OutOfModel {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') return Hash.ofDouble(Double.parseDouble(text));
        }
        try {
            return Hash.ofLong(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Hash.ofBigInteger(new BigInteger(text));
        }
    }

    static final class ElementWalk extends TreeWalk<JsonElement> {
        @Override
        protected int kind(JsonElement n) {
            return n.isJsonObject() ? MAP : n.isJsonArray() ? ARRAY : SCALAR;
        }

        @Override
        protected long scalar(JsonElement n) throws Hash.OutOfModel {
            if (n.isJsonNull()) return Hash.NULL;
            var p = n.getAsJsonPrimitive();
            if (p.isString()) return Hash.ofString(p.getAsString());
            if (p.isBoolean()) return Hash.ofBool(p.getAsBoolean());
            return number(p.getAsNumber().toString());
        }

        @Override
        protected Iterator<?> items(JsonElement a) {
            return a.getAsJsonArray().iterator();
        }

        @Override
        protected Iterator<?> entries(JsonElement m) {
            return m.getAsJsonObject().entrySet().iterator();
        }

        @Override
        protected long entryKey(Object e) {
            return Hash.ofString((String) ((Map.Entry<?, ?>) e).getKey());
        }

        @SuppressWarnings("unchecked")
        @Override
        protected JsonElement entryValue(Object e) {
            return ((Map.Entry<String, JsonElement>) e).getValue();
        }
    }

    private static final ElementWalk WALK = new ElementWalk();
    private static final StreamHasher HASHER = new StreamHasher();

    static long stream(JsonReader r) throws Exception {
        StreamHasher h = HASHER;
        h.reset();
        do {
            switch (r.peek()) {
                case BEGIN_OBJECT -> {
                    r.beginObject();
                    h.startMap();
                }
                case END_OBJECT -> {
                    r.endObject();
                    h.end();
                }
                case BEGIN_ARRAY -> {
                    r.beginArray();
                    h.startArray();
                }
                case END_ARRAY -> {
                    r.endArray();
                    h.end();
                }
                case NAME -> h.key(r.nextName());
                case STRING -> h.string(r.nextString());
                case NUMBER -> h.hashed(number(r.nextString()));
                case BOOLEAN -> h.bool(r.nextBoolean());
                case NULL -> {
                    r.nextNull();
                    h.nul();
                }
                case END_DOCUMENT -> throw new Bench.LibraryError("unexpected end of the document");
            }
        } while (h.depth() > 0);
        if (r.peek() != JsonToken.END_DOCUMENT) throw new Bench.LibraryError("trailing data after the document");
        return h.finish();
    }

    static byte[] write(Object doc, boolean pretty) throws Exception {
        StringWriter out = new StringWriter();
        JsonWriter w = new JsonWriter(out);
        w.setStrictness(Strictness.STRICT);
        if (pretty) w.setIndent("  ");
        Model.emit(doc, new Model.Sink() {
            public void nul() throws Exception {
                w.nullValue();
            }

            public void bool(boolean b) throws Exception {
                w.value(b);
            }

            public void int64(long v) throws Exception {
                w.value(v);
            }

            public void uint64(long bits) throws Exception {
                w.value(new BigInteger(Long.toUnsignedString(bits)));
            }

            public void float64(double d) throws Exception {
                w.value(d);
            }

            public void string(String s) throws Exception {
                w.value(s);
            }

            public void binary(byte[] b) throws Exception {
                throw new Bench.LibraryError("JSON has no binary type");
            }

            public void key(String k) throws Exception {
                w.name(k);
            }

            public void startArray(int size) throws Exception {
                w.beginArray();
            }

            public void endArray() throws Exception {
                w.endArray();
            }

            public void startMap(int size) throws Exception {
                w.beginObject();
            }

            public void endMap() throws Exception {
                w.endObject();
            }
        });
        w.close();
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
