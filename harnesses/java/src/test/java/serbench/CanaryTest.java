package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The canary (spec/protocol.md `run` step 4, protocol 1.9): its reference values and its `canary_ns`. */
class CanaryTest {
    @TempDir
    Path dir;

    @Test
    void a_fresh_table_gives_the_reference_values_of_every_harness() {
        Canary one = new Canary();
        assertEquals(0x10bbdc9709c21044L, one.run(1));
        assertEquals(0x90a439f3bbe304e7L, one.run(1));
        Canary rounds = new Canary();
        assertEquals(0x722b95da6743ec00L, rounds.run(300));
        assertEquals(0x2e4d829ed1573db4L, rounds.run(300));
        assertEquals(300, Canary.ROUNDS);
        // timing it runs the same computation, on the same table
        Canary timed = new Canary();
        assertTrue(timed.timeNs() > 0);
        assertEquals(0x2e4d829ed1573db4L, timed.run(Canary.ROUNDS));
    }

    static List<JsonNode> rows(Path results) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : Files.readAllLines(results)) rows.add(json.readTree(line));
        return rows;
    }

    @Test
    void every_sample_row_carries_a_positive_canary_ns_but_the_iterations_row_none() throws Exception {
        Path doc = dir.resolve("doc.json");
        Files.writeString(doc, "{\"canary\": [1, -2, 3.5, true, null, \"x\"], \"inner\": {\"k\": \"v\"}}");
        String hash = HoldTest.hashOf(doc);

        Path timed = dir.resolve("timed.jsonl");
        assertEquals(Main.EXIT_OK, Main.dispatch(HoldTest.argv("jackson", "tree", "json", doc, hash, timed).toArray(new String[0])));
        int samples = 0;
        for (JsonNode row : rows(timed)) {
            if (!row.get("kind").asText().equals("sample")) continue;
            samples++;
            JsonNode c = row.get("canary_ns");
            assertTrue(c != null && c.isIntegralNumber() && c.asLong() > 0, row.toString());
        }
        assertTrue(samples >= 3, "samples: " + samples);

        // instruction-count mode (step 9) reads no clock, so it has no canary
        Path fixed = dir.resolve("fixed.jsonl");
        assertEquals(Main.EXIT_OK,
                Main.dispatch(HoldTest.argv("jackson", "tree", "json", doc, hash, fixed, "--iterations", "3").toArray(new String[0])));
        JsonNode last = rows(fixed).get(rows(fixed).size() - 1);
        assertEquals("sample", last.get("kind").asText());
        assertFalse(last.has("canary_ns"), last.toString());
    }
}
