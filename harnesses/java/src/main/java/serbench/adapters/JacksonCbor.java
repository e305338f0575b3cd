package serbench.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import java.util.List;
import serbench.Bench;

/**
 * jackson-dataformat-cbor: the same three uses as Jackson on JSON (JsonNode tree, JsonParser
 * pull parsing, JsonGenerator writing) through a CBORFactory. Byte strings arrive as binary
 * nodes / embedded objects; the generator writes definite lengths (sizes given) and float64.
 */
public final class JacksonCbor {
    private JacksonCbor() {}

    static final ObjectMapper MAPPER = new ObjectMapper(new CBORFactory()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    public static List<Bench> benches() {
        return List.of(new Bench("jackson-cbor", "jackson-dataformat-cbor", List.of("cbor"))
                .notes("tree: ObjectMapper(CBORFactory).readTree to JsonNode (FAIL_ON_TRAILING_TOKENS); incremental: CBORParser.nextToken; write: CBORGenerator calls driven by the harness's tree (definite lengths) into a fresh ByteArrayOutputStream")
                .tree((fmt, data) -> Jackson.walk(MAPPER.readTree(data)))
                .incremental((fmt, data) -> {
                    try (JsonParser p = MAPPER.getFactory().createParser(data)) {
                        return Jackson.stream(p, false);
                    }
                })
                .write((fmt, doc) -> () -> Jackson.generate(MAPPER.getFactory(), doc, false, g -> {})));
    }
}
