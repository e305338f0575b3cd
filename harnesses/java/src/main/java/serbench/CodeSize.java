package serbench;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Code size of a Java row (spec/fairness.md rule 9, issue 19: "the size of the library's jars and
 * their dependencies, stated as such"): the bytes of the jar files of the library's Maven artifact and
 * of every artifact it depends on at run time, each dependency counted for every library that needs
 * it (so two rows sharing jackson-core each count it). The dependency graph is Maven's own:
 * `target/dependency-tree.txt`, written by maven-dependency-plugin's `tree` goal (verbose, runtime
 * scope) in the build; the jar of each artifact is the one on this process's classpath (the
 * build's `target/classpath.txt`, which the harness is started with), so the versions are the ones
 * the build resolved. These are jar bytes (compressed class files and resources), not the machine
 * code the JIT makes; the JDK's own classes (java.io serialization) have no jar and no size here.
 */
public final class CodeSize {
    private CodeSize() {}

    /** groupId:artifactId[:classifier] of one node of the tree. */
    static final Pattern NODE = Pattern.compile("([\\w.\\-]+):([\\w.\\-]+):([\\w\\-]+):(?:([\\w.\\-]+):)?([\\w.\\-]+):(compile|runtime|provided|system|test)");

    /** What `list` reports for a library: its bytes and the method. */
    public record Size(long bytes, String method) {}

    /** The dependency graph: artifact key (groupId:artifactId[:classifier]) to its children's keys. */
    static final class Graph {
        final Map<String, List<String>> children = new LinkedHashMap<>();
        /** artifactId to keys (a library is named by its artifactId) */
        final Map<String, List<String>> byArtifact = new HashMap<>();
    }

    /** Parses the text output of `mvn dependency:tree -Dverbose`: indentation gives the depth. */
    static Graph parse(List<String> lines) {
        Graph g = new Graph();
        List<String> stack = new ArrayList<>();
        for (String line : lines) {
            Matcher m = NODE.matcher(line);
            if (!m.find()) continue;
            if (m.group(6).equals("test")) continue;
            // each level is 3 characters ("|  ", "+- ", "\- "; an omitted node adds a "("); the
            // root (this project, no scope) does not match, so its dependencies are depth 0
            int depth = m.start() / 3 - 1;
            if (depth < 0) continue;
            String key = m.group(1) + ":" + m.group(2) + (m.group(4) != null ? ":" + m.group(4) : "");
            boolean omitted = line.contains(" - omitted for ");
            while (stack.size() > depth) stack.remove(stack.size() - 1);
            if (!stack.isEmpty()) {
                List<String> kids = g.children.computeIfAbsent(stack.get(stack.size() - 1), k -> new ArrayList<>());
                if (!kids.contains(key)) kids.add(key);
            }
            // an omitted node's own children are listed under its first full occurrence
            if (!omitted) g.children.computeIfAbsent(key, k -> new ArrayList<>());
            g.byArtifact.computeIfAbsent(m.group(2), k -> new ArrayList<>());
            if (!g.byArtifact.get(m.group(2)).contains(key)) g.byArtifact.get(m.group(2)).add(key);
            stack.add(key);
        }
        return g;
    }

    /** The artifact and everything it needs (its run-time closure), in tree order. */
    static Set<String> closure(Graph g, String artifactId) {
        Set<String> seen = new LinkedHashSet<>();
        ArrayDeque<String> work = new ArrayDeque<>(g.byArtifact.getOrDefault(artifactId, List.of()));
        while (!work.isEmpty()) {
            String k = work.pop();
            if (seen.add(k)) work.addAll(g.children.getOrDefault(k, List.of()));
        }
        return seen;
    }

    /**
     * The jar of a key among the classpath's jars: Maven's repository layout is
     * group/path/artifactId/version/artifactId-version[-classifier].jar.
     */
    static Path jarOf(String key, List<Path> classpath) {
        String[] p = key.split(":");
        String group = p[0].replace('.', File.separatorChar), artifact = p[1];
        String classifier = p.length > 2 ? "-" + p[2] + ".jar" : null;
        for (Path jar : classpath) {
            Path versionDir = jar.getParent();
            if (versionDir == null || versionDir.getParent() == null) continue;
            Path artifactDir = versionDir.getParent();
            if (!artifactDir.getFileName().toString().equals(artifact)) continue;
            if (!artifactDir.toString().endsWith(File.separator + group + File.separator + artifact)) continue;
            String name = jar.getFileName().toString();
            String base = artifact + "-" + versionDir.getFileName();
            if (classifier == null ? name.equals(base + ".jar") : name.equals(base + classifier)) return jar;
        }
        return null;
    }

    /** Sizes per library name, or an empty map when the tree file is not there (said on stderr). */
    public static Map<String, Size> of(List<String> libraries) {
        Map<String, Size> out = new HashMap<>();
        Path tree = treeFile();
        if (tree == null || !Files.exists(tree)) {
            System.err.println("code size: no dependency tree (" + tree + "); rebuild with mvn package");
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(tree);
        } catch (IOException e) {
            System.err.println("code size: cannot read " + tree + ": " + e.getMessage());
            return out;
        }
        List<Path> classpath = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) if (e.endsWith(".jar")) classpath.add(Path.of(e));
        return compute(libraries, lines, classpath);
    }

    /** Sizes per library from the tree's lines and the jars of the classpath. */
    static Map<String, Size> compute(List<String> libraries, List<String> lines, List<Path> classpath) {
        Map<String, Size> out = new HashMap<>();
        Graph g = parse(lines);
        for (String lib : libraries) {
            // "a+b": a row that needs two libraries (Jackson over Chronicle Bytes), their closures' union
            Set<String> keys = new LinkedHashSet<>();
            for (String part : lib.split("\\+")) keys.addAll(closure(g, part));
            if (keys.isEmpty()) continue; // not a Maven artifact (the JDK, the harness)
            long total = 0;
            List<String> names = new ArrayList<>();
            String missing = null;
            for (String k : keys) {
                Path jar = jarOf(k, classpath);
                if (jar == null) {
                    missing = k;
                    break;
                }
                try {
                    total += Files.size(jar);
                } catch (IOException e) {
                    missing = k;
                    break;
                }
                names.add(jar.getFileName().toString());
            }
            if (missing != null) {
                System.err.println("code size of " + lib + ": no jar for " + missing + " on the classpath");
                continue;
            }
            out.put(lib, new Size(total, "jar bytes: the jar files of " + lib.replace("+", " and ") + " and their run-time dependencies (Maven's dependency tree of the build; "
                    + "each shared dependency counted for every library that needs it), not JIT-compiled code: " + String.join(" + ", names)));
        }
        return out;
    }

    /** target/dependency-tree.txt beside the harness's jar (or its classes directory). */
    static Path treeFile() {
        try {
            Path here = Path.of(CodeSize.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.getParent().resolve("dependency-tree.txt");
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
