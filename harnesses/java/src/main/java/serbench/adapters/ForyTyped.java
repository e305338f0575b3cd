package serbench.adapters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import serbench.Bench;
import serbench.Typed;

/**
 * Apache Fory (org.apache.fory:fory-core) on the typed records, in its Java-native mode
 * (Language.JAVA): class registration required (the classes are registered up front, ids on the
 * wire), reference tracking off (the records hold no shared or cyclic references; Fory's default is
 * off too), JIT code generation on (Fory's default: it generates and compiles a serializer per
 * class at first use), numbers compressed as by default. serializeJavaObject /
 * deserializeJavaObject(bytes, Record[].class) (no class header for the root object).
 */
public final class ForyTyped {
    private ForyTyped() {}

    /** Made at first use (Fory loads Guava and its JIT): other rows' processes never pay for it. */
    static final class Holder {
        static final Fory FORY = fory();
    }

    static Fory fory() {
        // Fory logs to stdout, where the harness's `list` and `verify` answers go
        org.apache.fory.logging.LoggerFactory.disableLogging();
        Fory f = Fory.builder().withLanguage(Language.JAVA).withRefTracking(false).requireClassRegistration(true).withCodegen(true).build();
        for (Class<?> c : List.of(Typed.Product.class, Typed.Product[].class, Typed.Trade.class, Typed.Trade[].class, Typed.Side.class,
                Typed.Nested.class, Typed.Nested[].class, Typed.Inner.class, Typed.Point.class, ArrayList.class, LinkedHashMap.class)) {
            f.register(c);
        }
        return f;
    }

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("fory-typed", "fory-core", "fory",
                "Fory Java mode: class registration required, reference tracking off, codegen on (JIT serializers), default number compression; serializeJavaObject / deserializeJavaObject(bytes, Record[].class)",
                v -> Holder.FORY.serializeJavaObject(v),
                (cls, data) -> {
                    Object o = Holder.FORY.deserializeJavaObject(data, cls);
                    if (o == null) throw new Bench.LibraryError("no records (null)");
                    return o;
                }));
    }
}
