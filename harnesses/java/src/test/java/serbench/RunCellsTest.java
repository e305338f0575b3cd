package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `run-cells` (spec/protocol.md): several cells in one JVM, each exactly as `run` runs it alone. */
class RunCellsTest {
    @TempDir
    Path dir;

    Path doc(String name, String json) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, json);
        return p;
    }

    /** One line of a --cells file: a `run`'s arguments without the command, tab-separated. */
    static String line(List<String> runArgv) {
        return String.join("\t", runArgv.subList(1, runArgv.size())) + "\n";
    }

    @Test
    void eachCellWritesItsOwnCheckAndSamplesToItsOwnResultsFileInTheFilesOrder() throws Exception {
        Path a = doc("a.json", "{\"a\": [1, 2.5, \"x\"]}"), b = doc("b.json", "{\"b\": {\"c\": null, \"d\": true}}");
        Path ra = dir.resolve("ra.jsonl"), rb = dir.resolve("rb.jsonl");
        List<String> la = HoldTest.argv("jackson", "tree", "json", a, HoldTest.hashOf(a), ra);
        List<String> lb = HoldTest.argv("jackson", "write", "json", b, HoldTest.hashOf(b), rb);
        Path cells = dir.resolve("cells.tsv");
        Files.writeString(cells, line(la) + "\n" + line(lb)); // a blank line between them is skipped
        assertEquals(Main.EXIT_OK, Main.dispatch(new String[] {"run-cells", "--cells", cells.toString()}));
        for (Path r : List.of(ra, rb)) {
            List<String> kinds = HoldTest.kinds(r);
            assertEquals("check", kinds.get(0), r + ": " + kinds);
            assertTrue(kinds.stream().filter("sample"::equals).count() >= 3, r + ": " + kinds);
            assertTrue(Files.readString(r).contains("\"ok\": true"), r.toString());
        }
    }

    @Test
    void aCellThatFailsItsCheckGivesItsExitCodeAndTheOthersStillRun() throws Exception {
        Path a = doc("a.json", "{\"a\": 1}");
        Path ra = dir.resolve("ra.jsonl"), rb = dir.resolve("rb.jsonl");
        List<String> bad = HoldTest.argv("jackson", "tree", "json", a, "0000000000000000", ra);
        List<String> good = HoldTest.argv("jackson", "tree", "json", a, HoldTest.hashOf(a), rb);
        Path cells = dir.resolve("cells.tsv");
        Files.writeString(cells, line(bad) + line(good));
        assertEquals(Main.EXIT_MISMATCH, Main.dispatch(new String[] {"run-cells", "--cells", cells.toString()}));
        assertTrue(HoldTest.kinds(rb).contains("sample"), "the cell after a failed one still ran");
    }
}
