package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdapterTest {
    @Test
    void every_row_decodes_every_vector_to_its_golden_hash() throws Exception {
        List<String> failures = new ArrayList<>();
        int checks = 0;
        java.util.Map<String, Object> known = Selftest.knownDeviations();
        for (Vectors.Vector v : Vectors.all()) {
            for (Bench b : Adapters.all()) {
                for (String test : b.tests()) {
                    // the vectors are schemaless documents: typed tests are covered by TypedTest
                    if (test.startsWith("typed-")) continue;
                    for (String fmt : b.formats) {
                        if (!v.files().containsKey(fmt)) continue;
                        checks++;
                        @SuppressWarnings("unchecked")
                        java.util.Map<String, Object> k = (java.util.Map<String, Object>) known.get(b.id + "/" + test);
                        String why = k == null ? null : (String) k.get(v.name());
                        Selftest.Outcome o = Selftest.check(b, test, fmt, Vectors.DIR.resolve((String) v.files().get(fmt)), v.hash(), why);
                        // a known deviation (known-deviations.json) must still fail: it is skipped, never passed
                        if (o.status().equals("fail")) failures.add(b.id + "/" + test + "/" + fmt + "/" + v.name() + ": " + o.reason());
                    }
                }
            }
        }
        assertTrue(checks > 1000, "checks: " + checks);
        assertEquals(List.of(), failures);
    }

    @Test
    void the_runtime_names_the_jdk_by_distribution_version_and_vendor() {
        // as the orchestrator's record of the run names it (harnesses/java.py, Jdk.label)
        String jdk = Main.jdk();
        assertTrue(jdk.endsWith(" " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"), jdk);
        assertTrue(Main.runtime().startsWith(jdk + ", "), Main.runtime());
        String build = System.getProperty("java.vendor.version", "");
        String runtimeName = System.getProperty("java.runtime.name");
        assertTrue(jdk.startsWith((build.isEmpty() ? runtimeName.split(" ")[0] : build.split("-")[0]) + " "), jdk);
    }

    @Test
    void every_row_names_its_library_version_from_the_pom() {
        for (Bench b : Adapters.all()) {
            String v = Versions.of(b.library);
            assertTrue(v.matches("\\d+\\.\\d+.*"), b.id + ": version " + v);
        }
    }
}
