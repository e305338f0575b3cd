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
        return all;
    }

    static List<Bench> baselines() {
        Bench data = new Bench("hash-data", "serbench-java", REF_FORMATS)
                .notes("write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)");
        data.baselineFor = List.of("write");
        Bench object = new Bench("hash-object", "serbench-java", REF_FORMATS)
                .notes("tree baseline: copies the input (byte[] clone) and hashes the harness's own prebuilt tree with TreeWalk, as tree rows walk theirs");
        object.baselineFor = List.of("tree");
        Bench events = new Bench("hash-events", "serbench-java", REF_FORMATS)
                .notes("incremental baseline: copies the input (byte[] clone) and replays the document's prebuilt parse events into the streaming hash (StreamHasher), as streaming rows feed theirs");
        events.baselineFor = List.of("incremental");
        return List.of(data, object, events);
    }
}
