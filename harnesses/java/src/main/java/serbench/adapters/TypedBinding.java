package serbench.adapters;

import java.util.List;
import serbench.Bench;
import serbench.Typed;

/**
 * The typed row of a binding library, one that encodes any object of the record classes and decodes
 * bytes given the class: the dataset is the record array (Product[], ...), one record (--latency)
 * an instance of the record class. Shared by the adapters whose API has that shape (Gson,
 * fastjson2, dsl-json, Kryo, Fory, JDK serialization).
 */
final class TypedBinding {
    private TypedBinding() {}

    @FunctionalInterface
    interface Enc {
        byte[] encode(Object value) throws Exception;
    }

    @FunctionalInterface
    interface Dec {
        Object decode(Class<?> cls, byte[] data) throws Exception;
    }

    static Bench row(String id, String library, String fmt, String notes, Enc enc, Dec dec) {
        return new Bench(id, library, List.of(fmt)).notes(notes)
                .typed((f, r) -> {
                    Object[] arr = r.array();
                    return () -> enc.encode(arr);
                }, (f, s, data) -> Typed.hash(s, (Object[]) dec.decode(s.array, data)))
                .one((f, r) -> {
                    Object[] arr = r.array();
                    Class<?> cls = r.schema().record;
                    return new Bench.One() {
                        public byte[] encode(int i) throws Exception {
                            return enc.encode(arr[i]);
                        }

                        public long decode(byte[] data) throws Exception {
                            return Typed.hashRecord(dec.decode(cls, data));
                        }
                    };
                });
    }
}
