package serbench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The golden vectors (vectors/vectors.json), read with the harness's own JSON reader. */
final class Vectors {
    private Vectors() {}

    static final Path DIR = Path.of(System.getProperty("serbench.vectors", "../../vectors"));

    record Vector(String name, String hash, Map<String, Object> files) {}

    @SuppressWarnings("unchecked")
    static List<Vector> all() throws Exception {
        Map<String, Object> index = Selftest.loadJson(Files.readAllBytes(DIR.resolve("vectors.json")));
        return ((List<Object>) index.get("vectors")).stream().map(o -> {
            Map<String, Object> v = (Map<String, Object>) o;
            return new Vector((String) v.get("name"), (String) v.get("hash"), (Map<String, Object>) v.get("files"));
        }).toList();
    }

    static byte[] read(Vector v, String fmt) throws Exception {
        return Files.readAllBytes(DIR.resolve((String) v.files().get(fmt)));
    }
}
