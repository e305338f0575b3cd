package serbench.adapters;

import com.dslplatform.json.BoolConverter;
import com.dslplatform.json.JsonWriter;
import com.dslplatform.json.NumberConverter;
import com.dslplatform.json.StringConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import serbench.Bench;
import serbench.Model;

/**
 * DSL-JSON (com.dslplatform:dsl-json): DslJson.deserialize(Map.class, bytes, length) to a tree
 * of LinkedHashMap/ArrayList/Long/Double/BigDecimal/String (its ObjectConverter), and writing
 * with its JsonWriter and converters (NumberConverter, StringConverter, BoolConverter) driven by
 * the harness's tree, the low-level API its generated code uses. No incremental row (DSL-JSON's
 * JsonReader is a tokenizer for generated readers). json only, not json-pretty: it has no pretty
 * printer, and a row's formats hold for all its tests.
 */
public final class DslJson {
    private DslJson() {}

    static final com.dslplatform.json.DslJson<Object> DSL = new com.dslplatform.json.DslJson<>();
    static final JavaObjects.Walk WALK = new JavaObjects.Walk();

    public static List<Bench> benches() {
        return List.of(new Bench("dsl-json", "dsl-json", List.of("json"))
                .notes("tree: DslJson.deserialize(Map.class, bytes, length) (ObjectConverter: LinkedHashMap, ArrayList, Long, Double or BigDecimal); write: JsonWriter + NumberConverter/StringConverter/BoolConverter calls driven by the harness's tree, fresh writer")
                .tree((fmt, data) -> {
                    Map<?, ?> m = DSL.deserialize(Map.class, data, data.length);
                    if (m == null) throw new Bench.LibraryError("no document (null)");
                    return WALK.hash(m);
                })
                .write((fmt, doc) -> () -> write(doc)));
    }

    static byte[] write(Object doc) throws Exception {
        JsonWriter w = DSL.newWriter();
        // per open container: whether an element was written (for the commas)
        ArrayList<boolean[]> first = new ArrayList<>();
        Model.emit(doc, new Model.Sink() {
            /** Before a value: a comma unless it is the first in an array (maps: after the key). */
            void comma() {
                if (first.isEmpty()) return;
                boolean[] f = first.get(first.size() - 1);
                if (f[1]) return; // a map value follows its key directly
                if (!f[0]) w.writeByte(JsonWriter.COMMA);
                f[0] = false;
            }

            void value() {
                comma();
                if (!first.isEmpty()) first.get(first.size() - 1)[1] = false;
            }

            public void nul() {
                value();
                w.writeNull();
            }

            public void bool(boolean b) {
                value();
                BoolConverter.serialize(b, w);
            }

            public void int64(long v) {
                value();
                NumberConverter.serialize(v, w);
            }

            public void uint64(long bits) {
                value();
                NumberConverter.serialize(new java.math.BigInteger(Long.toUnsignedString(bits)), w);
            }

            public void float64(double d) {
                value();
                NumberConverter.serialize(d, w);
            }

            public void string(String s) {
                value();
                StringConverter.serialize(s, w);
            }

            public void binary(byte[] b) throws Exception {
                throw new Bench.LibraryError("JSON has no binary type");
            }

            public void key(String k) {
                comma();
                StringConverter.serialize(k, w);
                w.writeByte(JsonWriter.SEMI);
                first.get(first.size() - 1)[1] = true;
            }

            public void startArray(int size) {
                value();
                w.writeByte(JsonWriter.ARRAY_START);
                first.add(new boolean[] {true, false});
            }

            public void endArray() {
                first.remove(first.size() - 1);
                w.writeByte(JsonWriter.ARRAY_END);
            }

            public void startMap(int size) {
                value();
                w.writeByte(JsonWriter.OBJECT_START);
                first.add(new boolean[] {true, false});
            }

            public void endMap() {
                first.remove(first.size() - 1);
                w.writeByte(JsonWriter.OBJECT_END);
            }
        });
        return w.toByteArray();
    }
}
