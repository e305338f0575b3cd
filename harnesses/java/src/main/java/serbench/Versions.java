package serbench;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Library versions, from serbench-versions.properties, which Maven fills in from pom.xml. */
final class Versions {
    private Versions() {}

    private static final Properties P = new Properties();

    static {
        try (InputStream in = Versions.class.getResourceAsStream("/serbench-versions.properties")) {
            if (in != null) P.load(in);
        } catch (IOException e) {
            System.err.println("cannot read serbench-versions.properties: " + e.getMessage());
        }
    }

    static String of(String library) {
        if (library.equals("serbench-java")) return "0.1.0";
        return P.getProperty(library, "unknown");
    }
}
