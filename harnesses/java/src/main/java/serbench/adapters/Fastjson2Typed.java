package serbench.adapters;

import com.alibaba.fastjson2.JSON;
import java.util.List;
import serbench.Bench;

/**
 * fastjson2 binding of the typed records: JSON.toJSONBytes(records) and JSON.parseObject(bytes,
 * Record[].class), default features (its ASM-generated readers and writers for the record classes).
 */
public final class Fastjson2Typed {
    private Fastjson2Typed() {}

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("fastjson2-typed", "fastjson2", "json",
                "binding: JSON.toJSONBytes(records) / JSON.parseObject(bytes, Record[].class), default features (nulls omitted)",
                JSON::toJSONBytes,
                (cls, data) -> {
                    Object o = JSON.parseObject(data, cls);
                    if (o == null) throw new Bench.LibraryError("no document (null)");
                    return o;
                }));
    }
}
