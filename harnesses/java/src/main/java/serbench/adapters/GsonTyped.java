package serbench.adapters;

import java.nio.charset.StandardCharsets;
import java.util.List;
import serbench.Bench;

/**
 * Gson reflection binding of the typed records: Gson.toJson(records) and Gson.fromJson(String,
 * Product[].class), through a String (Gson reads and writes chars; the UTF-8 conversion is part of
 * the row, as a Gson user does it). Default Gson: nulls are left out (an absent `note` is no key).
 */
public final class GsonTyped {
    private GsonTyped() {}

    static final com.google.gson.Gson GSON = new com.google.gson.Gson();

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("gson-typed", "gson", "json",
                "reflection binding: new Gson().toJson(records) / fromJson(String, Record[].class), UTF-8 via String; absent note omitted (serializeNulls off)",
                v -> GSON.toJson(v).getBytes(StandardCharsets.UTF_8),
                (cls, data) -> {
                    Object o = GSON.fromJson(new String(data, StandardCharsets.UTF_8), cls);
                    if (o == null) throw new Bench.LibraryError("no document (null)");
                    return o;
                }));
    }
}
