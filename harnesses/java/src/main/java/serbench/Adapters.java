package serbench;

import java.util.ArrayList;
import java.util.List;

/** The registration list: every benchmark of this harness, one adapter file per library. */
public final class Adapters {
    private Adapters() {}

    /** Formats the harness's reference decoders read (the baselines' formats). */
    public static final List<String> REF_FORMATS = List.of("json", "json-pretty", "msgpack", "cbor", "bson");

    public static List<Bench> all() {
        List<Bench> all = new ArrayList<>(baselines());
        all.addAll(serbench.adapters.Jackson.benches());
        all.addAll(serbench.adapters.JacksonCbor.benches());
        all.addAll(serbench.adapters.Gson.benches());
        all.addAll(serbench.adapters.Fastjson2.benches());
        all.addAll(serbench.adapters.DslJson.benches());
        all.addAll(serbench.adapters.MsgpackCore.benches());
        all.addAll(serbench.adapters.Bson.benches());
        // typed rows (spec/typed.md)
        all.addAll(serbench.adapters.JacksonTyped.benches());
        all.addAll(serbench.adapters.GsonTyped.benches());
        all.addAll(serbench.adapters.Fastjson2Typed.benches());
        all.addAll(serbench.adapters.DslJsonTyped.benches());
        all.addAll(serbench.adapters.ProtobufJava.benches());
        all.addAll(serbench.adapters.KryoTyped.benches());
        all.addAll(serbench.adapters.ForyTyped.benches());
        all.addAll(serbench.adapters.JdkSerialization.benches());
        all.addAll(serbench.adapters.JdkExternalizable.benches());
        all.addAll(serbench.adapters.BsonTyped.benches());
        all.addAll(serbench.adapters.FlatbuffersJava.benches());
        all.addAll(serbench.adapters.SnakeYamlTyped.benches());
        all.addAll(serbench.adapters.AvroSpecific.benches());
        all.addAll(serbench.adapters.BoonTyped.benches());
        all.addAll(serbench.adapters.ChronicleWire.benches());
        all.addAll(serbench.adapters.SbeJava.benches());
        all.addAll(typedBaselines(all));
        return all;
    }

    /**
     * The typed baselines, over every wire format a typed row writes. Each copies or hashes the
     * shortest encoding of the records any row of that format makes (Cell.typedWire), so a baseline
     * never does more work than a row it is subtracted from (spec/fairness.md rule 5).
     */
    static List<Bench> typedBaselines(List<Bench> rows) {
        java.util.LinkedHashSet<String> formats = new java.util.LinkedHashSet<>();
        for (Bench b : rows) if (b.typedEncode != null) formats.addAll(b.formats);
        List<String> fmts = List.copyOf(formats);
        Bench data = new Bench("hash-data-typed", "serbench-java", fmts)
                .notes("typed-encode baseline: hashes the records' encoding in the format (the shortest any row makes, made once outside the loop), as a typed-encode row hashes its output");
        data.baselineFor = List.of("typed-encode");
        Bench typed = new Bench("hash-typed", "serbench-java", fmts)
                .notes("typed-decode and typed-access baseline: copies the records' encoding in the format (the shortest any row makes, into the cell's buffer) and hashes the prebuilt native records with the typed hash the rows use");
        typed.baselineFor = List.of("typed-decode", "typed-access");
        return List.of(data, typed);
    }

    static List<Bench> baselines() {
        Bench data = new Bench("hash-data", "serbench-java", REF_FORMATS)
                .notes("write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)");
        data.baselineFor = List.of("write");
        Bench object = new Bench("hash-object", "serbench-java", REF_FORMATS)
                .notes("baseline for tree: copy input + hash the harness's object with its cheapest walk (flat pre-order, a seed table, no type switch)");
        object.baselineFor = List.of("tree");
        Bench events = new Bench("hash-events", "serbench-java", REF_FORMATS)
                .notes("incremental baseline: copies the input (into the cell's buffer) and feeds the harness's flat object in document order into the streaming hash (StreamHasher), as streaming rows feed theirs, with no per-event type switch");
        events.baselineFor = List.of("incremental");
        // a baseline no row names (Bench.baselineOf): run only by name, never subtracted; its steps
        // are the tree baseline's (copy-input, visit-all), honestly: its walk is the visit
        Bench walk = new Bench("hash-walk", "serbench-java", REF_FORMATS)
                .notes("reference, never subtracted: copy input + walk the harness's object with a type dispatch per value, as tree rows walk theirs");
        walk.baselineFor = List.of("tree");
        return List.of(data, object, events, walk);
    }
}
