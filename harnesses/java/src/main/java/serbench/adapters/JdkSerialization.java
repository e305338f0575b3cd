package serbench.adapters;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import serbench.Bench;

/**
 * JDK serialization (java.io.Serializable), the baseline every Java developer knows: the record
 * classes implement Serializable with no custom methods, so ObjectOutputStream writes its class
 * descriptors (names and field lists) once per stream, then every field by reflection. A fresh
 * stream per operation, as each encoding must be readable on its own. The whole input must be read.
 */
public final class JdkSerialization {
    private JdkSerialization() {}

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("jdk-serializable-typed", "jdk-serialization", "java-serialization",
                "java.io.Serializable, default writeObject/readObject (class descriptors once per stream); fresh ObjectOutputStream / ObjectInputStream per operation",
                v -> {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                        out.writeObject(v);
                    }
                    return bytes.toByteArray();
                },
                (cls, data) -> {
                    ByteArrayInputStream bytes = new ByteArrayInputStream(data);
                    try (ObjectInputStream in = new ObjectInputStream(bytes)) {
                        Object o = cls.cast(in.readObject());
                        if (bytes.available() != 0) throw new Bench.LibraryError("trailing bytes after the records");
                        return o;
                    }
                }));
    }
}
