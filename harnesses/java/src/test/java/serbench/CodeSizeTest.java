package serbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CodeSize: the jar bytes of a library and its run-time dependencies, from Maven's verbose tree. */
class CodeSizeTest {
    // the shape of `mvn dependency:tree -Dverbose` output: jackson-core is shared, and listed under
    // the second library only as "omitted for duplicate"; a test-scope jar is not counted
    static final List<String> TREE = List.of(
            "serbench:serbench-java:jar:0.1.0",
            "+- com.fasterxml.jackson.core:jackson-databind:jar:2.23.0:compile",
            "|  +- com.fasterxml.jackson.core:jackson-annotations:jar:2.23:compile",
            "|  \\- com.fasterxml.jackson.core:jackson-core:jar:2.23.0:compile",
            "+- com.fasterxml.jackson.dataformat:jackson-dataformat-cbor:jar:2.23.0:compile",
            "|  +- (com.fasterxml.jackson.core:jackson-databind:jar:2.23.0:compile - omitted for duplicate)",
            "|  \\- (com.fasterxml.jackson.core:jackson-core:jar:2.23.0:compile - omitted for duplicate)",
            "+- com.github.jnr:jnr-ffi:jar:2.2.15:compile",
            "|  \\- com.github.jnr:jffi:jar:native:1.3.12:runtime",
            "\\- org.junit.jupiter:junit-jupiter:jar:5.14.1:test");

    static Path jar(Path repo, String group, String artifact, String version, String classifier, int bytes) throws Exception {
        Path dir = repo.resolve(group.replace('.', '/')).resolve(artifact).resolve(version);
        Files.createDirectories(dir);
        Path p = dir.resolve(artifact + "-" + version + (classifier == null ? "" : "-" + classifier) + ".jar");
        Files.write(p, new byte[bytes]);
        return p;
    }

    @Test
    void a_library_counts_its_jar_and_every_dependency_shared_ones_included(@TempDir Path repo) throws Exception {
        List<Path> cp = List.of(
                jar(repo, "com.fasterxml.jackson.core", "jackson-databind", "2.23.0", null, 1000),
                jar(repo, "com.fasterxml.jackson.core", "jackson-annotations", "2.23", null, 100),
                jar(repo, "com.fasterxml.jackson.core", "jackson-core", "2.23.0", null, 500),
                jar(repo, "com.fasterxml.jackson.dataformat", "jackson-dataformat-cbor", "2.23.0", null, 70),
                jar(repo, "com.github.jnr", "jnr-ffi", "2.2.15", null, 30),
                jar(repo, "com.github.jnr", "jffi", "1.3.12", null, 3),
                jar(repo, "com.github.jnr", "jffi", "1.3.12", "native", 7),
                jar(repo, "org.junit.jupiter", "junit-jupiter", "5.14.1", null, 99999));
        Map<String, CodeSize.Size> s = CodeSize.compute(List.of("jackson-databind", "jackson-dataformat-cbor", "jnr-ffi", "jdk-serialization", "junit-jupiter"), TREE, cp);
        assertEquals(1600, s.get("jackson-databind").bytes());
        // cbor + databind + annotations + core: the omitted duplicates are expanded from their first occurrence
        assertEquals(1670, s.get("jackson-dataformat-cbor").bytes());
        // the classifier picks the native jar, not the plain one
        assertEquals(37, s.get("jnr-ffi").bytes());
        assertTrue(s.get("jackson-dataformat-cbor").method().contains("jackson-core-2.23.0.jar"));
        assertTrue(s.get("jackson-dataformat-cbor").method().startsWith("jar bytes"));
        // two libraries: the union of their closures, a shared jar counted once
        assertEquals(1670 + 37, CodeSize.compute(List.of("jackson-dataformat-cbor+jnr-ffi+jackson-databind"), TREE, cp).get("jackson-dataformat-cbor+jnr-ffi+jackson-databind").bytes());
        // not a Maven artifact, or test scope only: no size rather than a wrong one
        assertFalse(s.containsKey("jdk-serialization"));
        assertFalse(s.containsKey("junit-jupiter"));
    }

    @Test
    void a_dependency_missing_from_the_classpath_gives_no_size(@TempDir Path repo) throws Exception {
        List<Path> cp = List.of(jar(repo, "com.fasterxml.jackson.core", "jackson-databind", "2.23.0", null, 1000));
        assertFalse(CodeSize.compute(List.of("jackson-databind"), TREE, cp).containsKey("jackson-databind"));
    }
}
