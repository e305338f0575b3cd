package serbench.adapters;

import com.dslplatform.json.JsonReader;
import com.dslplatform.json.runtime.Settings;
import java.util.List;
import serbench.Bench;

/**
 * DSL-JSON binding of the typed records by runtime reflection (Settings.withRuntime(): readers and
 * writers built from the classes when first used), not its annotation processor: the record
 * classes carry no @CompiledJson, so one set of classes serves every library.
 *
 * Two rows: DSL-JSON's default double parsing (DoublePrecision.DEFAULT) is fast but not exact, it
 * reads about one in four of trade's prices one unit in the last place off, so that row is
 * reported incorrect; the second row asks for DoublePrecision.EXACT, the documented setting that
 * reads every double exactly.
 */
public final class DslJsonTyped {
    private DslJsonTyped() {}

    public static List<Bench> benches() {
        return List.of(
                row("dsl-json-typed", new com.dslplatform.json.DslJson<>(Settings.withRuntime().includeServiceLoader()),
                        "runtime reflection (Settings.withRuntime().includeServiceLoader(); no annotation processor), default settings: doubles parsed with DoublePrecision.DEFAULT (not exact: incorrect on the datasets' doubles); serialize(records, stream) / deserialize(Record[].class, bytes, length)"),
                row("dsl-json-exact-typed",
                        new com.dslplatform.json.DslJson<>(Settings.withRuntime().includeServiceLoader().doublePrecision(JsonReader.DoublePrecision.EXACT)),
                        "as dsl-json-typed, with doublePrecision(DoublePrecision.EXACT): every double read exactly"));
    }

    static Bench row(String id, com.dslplatform.json.DslJson<Object> dsl, String notes) {
        return TypedBinding.row(id, "dsl-json", "json", notes,
                v -> {
                    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                    dsl.serialize(v, out);
                    return out.toByteArray();
                },
                (cls, data) -> {
                    Object o = dsl.deserialize(cls, data, data.length);
                    if (o == null) throw new Bench.LibraryError("no document (null)");
                    return o;
                });
    }
}
