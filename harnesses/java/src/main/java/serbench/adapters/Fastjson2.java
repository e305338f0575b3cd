package serbench.adapters;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.fastjson2.JSONWriter;
import java.util.List;
import serbench.Bench;

/**
 * fastjson2 (com.alibaba.fastjson2): JSON.parseObject(byte[]) to a JSONObject tree (a
 * LinkedHashMap-backed map; decimals as BigDecimal, fastjson2's default, hashed by their double
 * value), and JSON.toJSONBytes of a JSONObject built from the harness's tree. No incremental row:
 * fastjson2's JSONReader is a tokenizer for its generated readers, not a documented streaming API.
 */
public final class Fastjson2 {
    private Fastjson2() {}

    static final JavaObjects.Walk WALK = new JavaObjects.Walk();
    static final JavaObjects.Containers CONTAINERS = new JavaObjects.Containers() {
        public java.util.Map<String, Object> map(int size) {
            return new JSONObject(size);
        }

        public List<Object> list(int size) {
            return new JSONArray(size);
        }
    };

    public static List<Bench> benches() {
        return List.of(new Bench("fastjson2", "fastjson2", List.of("json", "json-pretty"))
                .notes("tree: JSON.parseObject(byte[]) to JSONObject (default features: decimals as BigDecimal, 'input not end' checked); write: build a JSONObject tree + JSON.toJSONBytes with WriteNulls (by default fastjson2 drops map entries whose value is null), PrettyFormat for json-pretty")
                .tree((fmt, data) -> WALK.hash(JSON.parseObject(data)))
                .write((fmt, doc) -> {
                    boolean pretty = fmt.equals("json-pretty");
                    return () -> {
                        Object tree = JavaObjects.build(doc, CONTAINERS);
                        return pretty ? JSON.toJSONBytes(tree, JSONWriter.Feature.WriteNulls, JSONWriter.Feature.PrettyFormat) : JSON.toJSONBytes(tree, JSONWriter.Feature.WriteNulls);
                    };
                }));
    }
}
