package serbench.adapters;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import serbench.Bench;
import serbench.Typed;

/**
 * Kryo 5 on the typed records, with class registration (Kryo's default and recommended setting:
 * every class written is registered up front, so the stream carries small ids instead of class
 * names) and its default FieldSerializer (fields in alphabetical order, no field names on the wire;
 * ints and longs as varints), reference tracking off (Kryo 5's default). One Kryo instance and one
 * growable Output buffer are reused across operations, as Kryo is meant to be used (neither is
 * thread-safe; the harness is single-threaded); each encode returns a fresh byte[] (Output.toBytes).
 * A decode must consume the whole input.
 */
public final class KryoTyped {
    private KryoTyped() {}

    /** Made at first use, so other rows' processes never pay for it. */
    static final class Holder {
        static final Kryo KRYO = kryo();
        static final Output OUT = new Output(1 << 16, -1);
    }

    static Kryo kryo() {
        Kryo k = new Kryo();
        k.setRegistrationRequired(true);
        k.setReferences(false);
        for (Class<?> c : List.of(Typed.Product.class, Typed.Product[].class, Typed.Trade.class, Typed.Trade[].class, Typed.Side.class,
                Typed.Nested.class, Typed.Nested[].class, Typed.Inner.class, Typed.Point.class, ArrayList.class, LinkedHashMap.class,
                short[].class, int[].class, long[].class, byte[].class, float[].class, double[].class, boolean[].class)) {
            k.register(c);
        }
        return k;
    }

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("kryo-typed", "kryo", "kryo",
                "Kryo 5: class registration required (ids, no class names), default FieldSerializer, references off (default); one Kryo and one reused Output (toBytes copies out); writeObject / readObject(Input, Record[].class)",
                v -> {
                    Output out = Holder.OUT;
                    out.reset();
                    Holder.KRYO.writeObject(out, v);
                    return out.toBytes();
                },
                (cls, data) -> {
                    Input in = new Input(data);
                    Object o = Holder.KRYO.readObject(in, cls);
                    if (in.position() != data.length) throw new Bench.LibraryError("trailing bytes after the records");
                    return o;
                }));
    }
}
