package serbench.adapters;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import serbench.Bench;
import serbench.Typed;

/**
 * Boon (io.fastjson:boon), the JSON library of Chronicle's reference table, on the typed records:
 * its ObjectMapper (JsonFactory.create()), writeValueAsString(records as a List) and readValue(bytes,
 * List.class, Record.class). Boon is unmaintained (last release 0.34, 2015) and fails on Java 9 and
 * later: its Sys class reads a String's internal char[] with Unsafe, and since compact strings
 * (Java 9) that field is a byte[], so the first use throws ClassCastException in a static
 * initialiser. The row stays, and reports that failure (exit 3) on every dataset: on JDK 17 and on
 * JDK 25 alike, where -XX:-CompactStrings does not revive it either (the field is a byte[] whatever
 * the flag; tried on Temurin 25.0.3, 2026-12-05).
 */
public final class BoonTyped {
    private BoonTyped() {}

    /** Made at first use, so Boon's failing initialiser runs only in its own cells. */
    static final class Holder {
        static final org.boon.json.ObjectMapper MAPPER = org.boon.json.JsonFactory.create();
    }

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("boon-typed", "boon", "json",
                "unmaintained (0.34, 2015); JsonFactory.create() ObjectMapper: writeValueAsString(List of records) / readValue(bytes, List.class, Record.class); fails on Java 9 and later, 17 and 25 here (Unsafe read of String's internal char[], a byte[] since Java 9)",
                v -> Holder.MAPPER.writeValueAsString(v.getClass().isArray() ? Arrays.asList((Object[]) v) : v).getBytes(StandardCharsets.UTF_8),
                (cls, data) -> {
                    if (!cls.isArray()) return Holder.MAPPER.readValue(data, cls);
                    List<?> l = Holder.MAPPER.readValue(data, List.class, cls.getComponentType());
                    return l.toArray((Object[]) java.lang.reflect.Array.newInstance(cls.getComponentType(), l.size()));
                }));
    }
}
