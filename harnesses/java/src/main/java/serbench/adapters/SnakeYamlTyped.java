package serbench.adapters;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.Constructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import serbench.Bench;
import serbench.Typed;

/**
 * SnakeYAML (org.yaml:snakeyaml) JavaBean binding of the typed records: Yaml.dumpAs(records,
 * Tag.SEQ, default flow style) and Yaml.loadAs(text, Record[].class). The record classes are
 * represented as plain maps (Representer.addClassTag(..., Tag.MAP)): without that SnakeYAML writes
 * a global `!!serbench.Typed$Trade` tag on each record, which SnakeYAML 2's loader refuses by
 * default (untrusted global tags); loadAs gives the types instead. LoaderOptions.codePointLimit is
 * raised from its 3 MB default (a guard against untrusted input) to 64 MB, so product-large (about
 * 7.5 MB of names) loads. Through a String, as SnakeYAML reads and writes chars.
 */
public final class SnakeYamlTyped {
    private SnakeYamlTyped() {}

    static final class Holder {
        static final Yaml YAML = yaml();
    }

    static Yaml yaml() {
        DumperOptions dump = new DumperOptions();
        Representer rep = new Representer(dump);
        for (Class<?> c : List.of(Typed.Product.class, Typed.Trade.class, Typed.Nested.class, Typed.Inner.class, Typed.Point.class)) {
            rep.addClassTag(c, Tag.MAP);
        }
        LoaderOptions load = new LoaderOptions();
        load.setCodePointLimit(64 << 20);
        return new Yaml(new Constructor(load), rep, dump, load);
    }

    public static List<Bench> benches() {
        return List.of(TypedBinding.row("snakeyaml-typed", "snakeyaml", "yaml",
                "JavaBean binding (public fields): dumpAs(records, Tag.SEQ) with record classes tagged as plain maps / loadAs(text, Record[].class); default flow style (flow maps for leaf records); codePointLimit raised to 64 MB",
                v -> Holder.YAML.dumpAs(v, v.getClass().isArray() ? Tag.SEQ : Tag.MAP, null).getBytes(StandardCharsets.UTF_8),
                (cls, data) -> {
                    Object o = Holder.YAML.loadAs(new String(data, StandardCharsets.UTF_8), cls);
                    if (o == null) throw new Bench.LibraryError("no document (null)");
                    return o;
                }));
    }
}
