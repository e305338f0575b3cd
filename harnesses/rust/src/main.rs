//! serbench Rust harness: list, run, verify, selftest (spec/protocol.md, protocol 1).

use serbench_rust::adapters::{self, Bench, Encoder, OneCodec, TypedEncoder};
use serbench_rust::measure::{self, AlignedBuf};
use serbench_rust::model::{
    hash_flat, hash_flat_counted, hash_flat_events, hash_flat_events_counted, hash_val, ref_decode, FlatDoc, Val,
};
use serbench_rust::typed::{self, Records, Schema};
use serbench_rust::{alloc, codesize, hash};
use serde_json::{json, Value as J};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::io::{Read, Write};
use std::path::Path;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

mod versions {
    include!(concat!(env!("OUT_DIR"), "/versions.rs"));
}

const EXIT_OK: i32 = 0;
const EXIT_USAGE: i32 = 2;
const EXIT_REJECTED: i32 = 3;
const EXIT_MISMATCH: i32 = 4;
const EXIT_UNSUPPORTED: i32 = 5;
const EXIT_INPUT: i32 = 6;

const PROTOCOL_TESTS: &[&str] = &["write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access"];
const KNOWN_DEVIATIONS: &str = include_str!("../known-deviations.json");
const ALLOC_ITERATIONS: u64 = 5;

/// What a row's loop times, by its test; the `hash-events` baseline says its own (the other
/// baselines still carry their test's row text).
fn measures(b: &Bench, test: &str) -> &'static str {
    if b.id == "hash-events" {
        return "copy input (into the cell's reused buffer) + walk the harness's flat document in document order through the streaming hash (StreamHasher; model::hash_flat_events), no parse";
    }
    if b.steps(test).contains(&"prebuilt") {
        return "encode the library's own value, built once outside the loop (the dump alone) + hash of the output bytes; the output is decoded with the reference decoder and hashed once, outside the loop";
    }
    match test {
        "write" => "build the library's input (its DOM) from the harness's object + encode + drop what was built + hash of the output bytes; the output is decoded with the reference decoder and hashed once, outside the loop",
        "tree" => "copy input (into the cell's reused buffer) + parse to the library's DOM + walk it with the hash",
        "typed-encode" => "encode the native records (prepared outside the loop) + hash of the output bytes; the output is decoded by the same crate and hashed once, outside the loop",
        "typed-decode" => "copy the crate's own encoding (into the cell's reused 16-byte aligned buffer) + decode into native records (or the crate's generated types) + typed hash walk",
        "typed-access" => "copy the crate's own encoding (into the cell's reused 16-byte aligned buffer) + open the zero-copy view (validating or not, per row) + read every field through it with the typed hash",
        _ => "copy input (into the cell's reused buffer) + streaming/pull parse feeding the hash (no tree)",
    }
}

fn version(library: &str) -> &'static str {
    if library == env!("CARGO_PKG_NAME") {
        return env!("CARGO_PKG_VERSION");
    }
    versions::VERSIONS.iter().find(|(n, _)| *n == library).map(|(_, v)| *v).unwrap_or("unknown")
}

fn runtime() -> String {
    format!(
        "{} (profile {}, opt-level {}, lto=fat, codegen-units=1)",
        env!("SERBENCH_RUSTC"),
        env!("SERBENCH_PROFILE"),
        env!("SERBENCH_OPT_LEVEL")
    )
}

// --- one cell: check and timed op ------------------------------------------------------------

enum Prepared {
    Decode(adapters::DecodeFn),
    Write(Encoder),
    HashData,
    /// the document flattened for the cheapest walk (spec/fairness.md rule 5); true: the walk of
    /// fewest instructions, under --iterations (model::hash_flat_counted)
    HashObject(FlatDoc, bool),
    /// the document as the harness's tree, walked as tree rows walk theirs (reference `hash-walk`)
    HashWalk(Val),
    /// the document flattened, walked in document order through the streaming hash (rule 5); true:
    /// under --iterations, as HashObject
    HashEvents(FlatDoc, bool),
    /// the crate's encoder of the records, and its decoder for the check
    TypedEncode(TypedEncoder, adapters::TypedDecodeFn, Schema),
    /// typed-decode / typed-access: the crate's decoder or accessor, the schema, and the crate's own
    /// encoding of the records
    TypedRead(adapters::TypedDecodeFn, Schema, Vec<u8>),
    /// baselines hash-data-typed / hash-typed: the records and their encoding in the format (by
    /// the crate that owns the format), so the baseline hashes or copies as many bytes as the rows
    HashTypedData(Records, Vec<u8>),
    HashTyped(Records, Vec<u8>),
}

fn supported(b: &Bench, test: &str, fmt: &str) -> bool {
    b.tests().contains(&test) && b.formats.contains(&fmt)
}

/// Runs a typed row's function (the crate's encoder or decoder, which call the library throughout),
/// turning a panic inside it into the error "library panicked: ...". Schemaless rows catch panics
/// at each library call instead (`adapters::lib`), so a panic in the harness's own code there is
/// never reported as a library's rejection.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    adapters::lib(f)?
}

/// Why a cell cannot be checked or measured (spec/protocol.md, exit codes).
enum Fail {
    /// the library rejected the input or failed to encode: exit 3
    Library(String),
    /// the input is not valid in the format by the reference decoder, or is beyond a limit of the
    /// harness's own code: exit 6, nothing was measured
    Input(String),
}

impl Fail {
    fn code(&self) -> i32 {
        match self {
            Fail::Library(_) => EXIT_REJECTED,
            Fail::Input(_) => EXIT_INPUT,
        }
    }
    fn reason(&self) -> &str {
        match self {
            Fail::Library(r) | Fail::Input(r) => r,
        }
    }
}

/// The input, decoded by the reference decoder; a rejection is the input's.
fn reference(fmt: &str, data: &[u8]) -> Result<Val, Fail> {
    ref_decode(fmt, data).map_err(|e| Fail::Input(format!("the reference decoder rejects the input ({fmt}): {e}")))
}

fn typed_input(data: &[u8]) -> Result<Records, Fail> {
    typed::load(data).map_err(Fail::Input)
}

/// `counting`: the run is `--iterations` (protocol step 9), so the flat baselines take the walks of
/// fewest instructions instead of fewest branches.
fn prepare(b: &Bench, test: &str, fmt: &str, data: &[u8], counting: bool) -> Result<Prepared, Fail> {
    if b.is_baseline() {
        return Ok(match test {
            "write" => Prepared::HashData,
            "typed-encode" => {
                let r = typed_input(data)?;
                let wire = typed_wire(fmt, &r).map_err(Fail::Library)?;
                Prepared::HashTypedData(r, wire)
            }
            "typed-decode" | "typed-access" => {
                let r = typed_input(data)?;
                let wire = typed_wire(fmt, &r).map_err(Fail::Library)?;
                Prepared::HashTyped(r, wire)
            }
            _ if b.id == "hash-events" => Prepared::HashEvents(FlatDoc::new(&reference(fmt, data)?), counting),
            _ if b.id == "hash-walk" => Prepared::HashWalk(reference(fmt, data)?),
            _ => Prepared::HashObject(FlatDoc::new(&reference(fmt, data)?), counting),
        });
    }
    match test {
        "typed-encode" | "typed-decode" | "typed-access" => {
            let t = b.typed.as_ref().unwrap();
            let records = typed_input(data)?;
            let enc = guarded(|| (t.encoder)(fmt, &records)).map_err(Fail::Library)?;
            if test == "typed-encode" {
                let dec = t.decode.or(t.access).ok_or(Fail::Library("no decoder to check the output".into()))?;
                Ok(Prepared::TypedEncode(enc, dec, records.schema()))
            } else {
                let wire = guarded(&enc).map_err(Fail::Library)?.to_vec();
                let read = if test == "typed-access" { t.access } else { t.decode };
                Ok(Prepared::TypedRead(read.ok_or(Fail::Library("unsupported test".into()))?, records.schema(), wire))
            }
        }
        "write" => {
            let v = reference(fmt, data)?;
            // the encoder keeps a copy of the object and converts it into the library's input
            // (iterative, model::fold) in every call; it tries that conversion once here
            (b.write.unwrap())(fmt, &v)
                .map(Prepared::Write)
                .map_err(|e| Fail::Input(format!("the harness cannot give this input to {}: {e}", b.library)))
        }
        "tree" => Ok(Prepared::Decode(b.tree.unwrap())),
        _ => Ok(Prepared::Decode(b.incremental.unwrap())),
    }
}

/// The records encoded in a typed wire format, for the baselines: the shortest encoding any crate
/// of this harness makes in that format. Crates sharing a format id may write different layouts
/// (CBOR structs as maps in ciborium and serde_cbor, as arrays in minicbor), and a baseline must
/// never copy or hash more bytes than a row it is subtracted from does (spec/fairness.md).
fn typed_wire(fmt: &str, r: &Records) -> Result<Vec<u8>, String> {
    let mut best: Option<Vec<u8>> = None;
    let mut last_err = format!("no typed encoder for {fmt}");
    for b in adapters::all() {
        let Some(t) = b.typed.as_ref().filter(|_| b.formats.contains(&fmt)) else { continue };
        match guarded(|| (t.encoder)(fmt, r)).and_then(|enc| guarded(&enc).map(|o| o.to_vec())) {
            Ok(w) if best.as_ref().is_none_or(|x| w.len() < x.len()) => best = Some(w),
            Ok(_) => {}
            // a crate that cannot carry these records (bson and uint64) has no row to match here
            Err(e) => last_err = e,
        }
    }
    best.ok_or(last_err)
}

/// The crate that owns a typed wire format (the baselines' reference for its bytes).
fn typed_owner(fmt: &str) -> Option<Bench> {
    adapters::all().into_iter().find(|b| b.typed.as_ref().is_some_and(|t| t.one.is_some()) && b.formats.contains(&fmt))
}

/// The correctness check (protocol `run` step 2): the hash, and the output bytes (write tests).
/// Library calls catch their own panics (adapters::lib); the harness's code here does not, so a
/// bug in it is a crash (exit 101), never a library's rejection.
fn check(p: &Prepared, fmt: &str, data: &[u8]) -> Result<(u64, Option<Vec<u8>>), Fail> {
    match p {
        Prepared::Decode(f) => Ok((f(fmt, AlignedBuf::default().fresh(data)).map_err(Fail::Library)?, None)),
        Prepared::Write(enc) => {
            let out = enc().map_err(Fail::Library)?;
            let v = ref_decode(fmt, &out)
                .map_err(|e| Fail::Library(format!("the reference decoder cannot read the library's output: {e}")))?;
            Ok((hash_val(&v), Some(out)))
        }
        Prepared::HashData => Ok((hash_val(&reference(fmt, data)?), None)),
        Prepared::HashObject(d, _) => Ok((hash_flat(d, &mut Vec::new()), None)),
        Prepared::HashWalk(v) => Ok((hash_val(v), None)),
        Prepared::HashEvents(d, _) => Ok((hash_flat_events(d, &mut Vec::new()).map_err(Fail::Input)?, None)),
        Prepared::TypedEncode(enc, dec, schema) => guarded(|| {
            let out = enc()?;
            let h = dec(fmt, *schema, AlignedBuf::default().fresh(&out))
                .map_err(|e| format!("cannot decode its own output: {e}"))?;
            Ok((h, Some(out.to_vec())))
        })
        .map_err(Fail::Library),
        Prepared::TypedRead(dec, schema, wire) => {
            guarded(|| Ok((dec(fmt, *schema, AlignedBuf::default().fresh(wire))?, None))).map_err(Fail::Library)
        }
        Prepared::HashTypedData(r, _) | Prepared::HashTyped(r, _) => Ok((typed::hash_all(r), None)),
    }
}

fn timed_op<'a>(p: &'a Prepared, fmt: &'a str, data: &'a [u8]) -> Box<measure::Op<'a>> {
    match p {
        Prepared::Decode(f) => {
            let f = *f;
            let mut buf = AlignedBuf::with_capacity(data.len());
            Box::new(move || f(fmt, buf.fresh(data)))
        }
        Prepared::Write(enc) => Box::new(move || {
            let out = enc()?;
            Ok(hash::hash_bin(&out))
        }),
        Prepared::HashData => Box::new(move || Ok(hash::hash_bin(black_box(data)))),
        Prepared::HashObject(d, counting) => {
            // the walk's stack of parents, grown by the first call (calibration), then reused
            let mut st = Vec::new();
            let walk = if *counting { hash_flat_counted } else { hash_flat };
            copy_then(data, move || Ok(walk(black_box(d), &mut st)))
        }
        Prepared::HashWalk(v) => copy_then(data, move || Ok(hash_val(black_box(v)))),
        Prepared::HashEvents(d, counting) => {
            // the walk's stack of open containers, grown by the first call (calibration), then
            // reused; the StreamHasher is made per call, as the rows make theirs
            let mut st = Vec::new();
            let walk = if *counting { hash_flat_events_counted } else { hash_flat_events };
            copy_then(data, move || walk(black_box(d), &mut st))
        }
        Prepared::TypedEncode(enc, _, _) => Box::new(move || {
            let out = enc()?;
            Ok(hash::hash_bin(&out))
        }),
        Prepared::TypedRead(dec, schema, wire) => {
            let (dec, schema) = (*dec, *schema);
            let mut buf = AlignedBuf::with_capacity(wire.len());
            Box::new(move || dec(fmt, schema, buf.fresh(wire)))
        }
        Prepared::HashTypedData(_, wire) => Box::new(move || Ok(hash::hash_bin(black_box(wire)))),
        Prepared::HashTyped(r, wire) => copy_then(wire, move || Ok(typed::hash_all(black_box(r)))),
    }
}

/// A baseline's operation: the fresh copy of the input every read row makes (spec/fairness.md
/// rule 1, into the cell's one buffer), then `hash`, the hashing work of the rows it stands for.
fn copy_then<'a>(input: &'a [u8], mut hash: impl FnMut() -> Result<u64, String> + 'a) -> Box<measure::Op<'a>> {
    let mut buf = AlignedBuf::with_capacity(input.len());
    Box::new(move || {
        black_box(buf.fresh(input));
        hash()
    })
}

// --- command line ----------------------------------------------------------------------------

// A BTreeMap, not a HashMap: std's HashMap seeds its hasher from the OS, which made the count of
// instructions of `run --iterations` differ by a few between two runs (protocol.md step 9).
struct Args {
    opts: BTreeMap<String, String>,
    flags: Vec<String>,
}

impl Args {
    fn parse(argv: &[String], valued: &[&str], flags: &[&str]) -> Result<Args, String> {
        let mut a = Args { opts: BTreeMap::new(), flags: Vec::new() };
        let mut i = 0;
        while i < argv.len() {
            let arg = &argv[i];
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let key = name.strip_prefix("--").ok_or_else(|| format!("unexpected argument {arg:?}"))?;
            if valued.contains(&key) {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        argv.get(i).cloned().ok_or_else(|| format!("--{key} needs a value"))?
                    }
                };
                a.opts.insert(key.to_string(), v);
            } else if flags.contains(&key) && inline.is_none() {
                a.flags.push(key.to_string());
            } else {
                return Err(format!("unknown option {arg:?}"));
            }
            i += 1;
        }
        Ok(a)
    }
    fn get(&self, k: &str) -> Result<&str, String> {
        self.opts.get(k).map(|s| s.as_str()).ok_or_else(|| format!("--{k} is required"))
    }
    fn num(&self, k: &str, default: u64) -> Result<u64, String> {
        match self.opts.get(k) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("--{k}: not a number: {v:?}")),
        }
    }
    fn flag(&self, k: &str) -> bool {
        self.flags.iter().any(|f| f == k)
    }
}

fn usage(msg: &str) -> i32 {
    eprintln!("serbench-rust: {msg}");
    eprintln!("usage: serbench-rust list | run --bench ID --test T --format F --file P --expect-hash H --results P [--budget-ms N] [--min-samples N] [--alloc] [--latency] [--no-check] [--output-file P] [--seed N] [--iterations N] [--hold] | verify --bench ID --test T --format F --file P | selftest --vectors DIR | size-probes");
    EXIT_USAGE
}

fn cmd_list(benches: &[Bench]) -> i32 {
    let probes = std::env::current_exe().ok().and_then(|e| codesize::probe_dir(&e));
    let rows: Vec<J> = benches
        .iter()
        .map(|b| {
            let tests = b.tests();
            let baseline_for: serde_json::Map<String, J> = if b.is_baseline() {
                serde_json::Map::new()
            } else {
                tests.iter().map(|t| (t.to_string(), json!(b.baseline(t)))).collect()
            };
            let m: serde_json::Map<String, J> = tests.iter().map(|t| (t.to_string(), json!(measures(b, t)))).collect();
            // the work contract (spec/fairness.md): each test's steps, in loop order
            let steps: serde_json::Map<String, J> = tests.iter().map(|t| (t.to_string(), json!(b.steps(t)))).collect();
            let mut row = json!({"id": b.id, "library": b.library, "version": version(b.library), "formats": b.formats,
                   "tests": tests, "baseline_for": baseline_for, "notes": b.notes, "baseline": b.is_baseline(),
                   "measures": m, "steps": steps});
            if let (false, Some(dir)) = (b.is_baseline(), &probes) {
                add_code_size(&mut row, dir, b.library, benches);
            }
            row
        })
        .collect();
    println!("{}", json!({"protocol": 1, "harness": "rust", "runtime": runtime(), "benchmarks": rows}));
    EXIT_OK
}

/// `code_size_bytes` / `code_size_method` from the library's size probes, when they were built
/// (`serbench run --code-size`); a probe that cannot be read is said on stderr, never guessed.
fn add_code_size(row: &mut J, dir: &Path, library: &str, benches: &[Bench]) {
    match codesize::library_bytes(dir, library) {
        Some(Ok(bytes)) => {
            let rows = benches.iter().filter(|x| x.library == library).count();
            row["code_size_bytes"] = json!(bytes);
            row["code_size_method"] = json!(codesize::method(library, rows));
        }
        Some(Err(e)) => eprintln!("code size of {library}: {e}"),
        None => {}
    }
}

/// `size-probes` (not a protocol command): where the code-size probes of these sources go and
/// which libraries need one, for the orchestrator that builds them (src/codesize.rs).
fn cmd_size_probes() -> i32 {
    let dir = std::env::current_exe().ok().and_then(|e| codesize::probe_dir(&e));
    let Some(dir) = dir else {
        eprintln!("cannot tell where this executable lives");
        return 1;
    };
    println!(
        "{}",
        json!({"dir": dir, "libraries": adapters::LIBRARIES, "baseline": codesize::BASELINE_PROBE,
               "env": "SERBENCH_RUST_SIZE_PROBE", "fingerprint": codesize::FINGERPRINT})
    );
    EXIT_OK
}

/// Finds the benchmark and checks that it supports (test, format); Err is an exit code.
fn lookup<'a>(benches: &'a [Bench], a: &Args) -> Result<(&'a Bench, String, String), i32> {
    let (id, test, fmt) = match (a.get("bench"), a.get("test"), a.get("format")) {
        (Ok(i), Ok(t), Ok(f)) => (i, t, f),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Err(usage(&e)),
    };
    if !PROTOCOL_TESTS.contains(&test) {
        return Err(usage(&format!("unknown test {test:?}")));
    }
    let Some(b) = benches.iter().find(|b| b.id == id) else {
        return Err(usage(&format!("unknown benchmark {id:?}")));
    };
    if !supported(b, test, fmt) {
        eprintln!("{id} does not support {test} on {fmt}");
        return Err(EXIT_UNSUPPORTED);
    }
    Ok((b, test.to_string(), fmt.to_string()))
}

fn write_output(path: Option<&str>, bytes: Option<&[u8]>) -> Result<(), String> {
    match (path, bytes) {
        (Some(p), Some(b)) => std::fs::write(p, b).map_err(|e| format!("cannot write {p}: {e}")),
        _ => Ok(()),
    }
}

/// `run --latency` (protocol step 7): one record at a time, each operation timed into the
/// log-bucketed histogram; writes one `latency` row.
#[allow(clippy::too_many_arguments)]
fn run_latency(
    b: &Bench,
    test: &str,
    fmt: &str,
    data: &[u8],
    budget_ms: u64,
    verify: bool,
    held: bool,
    out: &mut Results,
) -> i32 {
    if test != "typed-encode" && test != "typed-decode" {
        eprintln!("--latency applies to typed-encode and typed-decode only");
        return EXIT_UNSUPPORTED;
    }
    let owner;
    let typed_of = if b.is_baseline() {
        owner = typed_owner(fmt);
        owner.as_ref().and_then(|o| o.typed.as_ref())
    } else {
        b.typed.as_ref()
    };
    let Some(one_fn) = typed_of.and_then(|t| t.one) else {
        eprintln!("{} has no one-record codec for {fmt}", b.id);
        return EXIT_UNSUPPORTED;
    };
    let records = match typed_input(data) {
        Ok(r) => r,
        Err(e) => {
            out.row("error", json!({"reason": e.reason()}));
            return e.code();
        }
    };
    let prepared = guarded(|| {
        let codec = one_fn(fmt, &records)?;
        let wires =
            (0..codec.hashes.len()).map(|i| (codec.encode)(i).map(|o| o.to_vec())).collect::<Result<Vec<_>, _>>()?;
        Ok((codec, wires))
    });
    let (codec, wires): (OneCodec, Vec<Vec<u8>>) = match prepared {
        Ok(x) => x,
        Err(e) => {
            out.row("error", json!({"reason": e}));
            return EXIT_REJECTED;
        }
    };
    let n = wires.len();
    if n == 0 {
        out.row("error", json!({"reason": "the dataset has no records (a typed dataset for --latency needs one)"}));
        return EXIT_INPUT;
    }
    if verify {
        // every record round-trips on its own (outside the timed pass)
        for (i, w) in wires.iter().enumerate() {
            match guarded(|| (codec.decode)(AlignedBuf::default().fresh(w))) {
                Ok(h) if h == codec.hashes[i] => {}
                Ok(h) => {
                    let reason = format!("record {i}: hash {} != {}", hash::hex64(h), hash::hex64(codec.hashes[i]));
                    out.row("check", json!({"ok": false, "hash": hash::hex64(h), "expected": hash::hex64(codec.hashes[i]), "reason": reason}));
                    return EXIT_MISMATCH;
                }
                Err(e) => {
                    out.row("error", json!({"reason": format!("record {i}: {e}")}));
                    return EXIT_REJECTED;
                }
            }
        }
    }
    let what = match (b.is_baseline(), test) {
        (false, "typed-encode") => "encode one record (prepared outside the loop) + hash of its bytes",
        (false, _) => {
            "copy one record's encoding (into the cell's reused aligned buffer) + decode it + typed hash of the record"
        }
        (true, "typed-encode") => "hash of one record's encoding",
        (true, _) => {
            "copy one record's encoding (into the cell's reused aligned buffer) + typed hash of the prebuilt record"
        }
    };
    out.row(
        "info",
        json!({"measures": what, "runtime": runtime(), "records": n,
               "histogram": "log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)"}),
    );
    // each record is copied into one buffer, as long as the longest, before it is decoded
    let mut buf = AlignedBuf::with_capacity(wires.iter().map(Vec::len).max().unwrap_or(0));
    let mut op: Box<dyn FnMut(usize) -> Result<u64, String>> = match (b.is_baseline(), test) {
        (false, "typed-encode") => Box::new(|i| (codec.encode)(i).map(|o| hash::hash_bin(&o))),
        (false, _) => Box::new(|i| (codec.decode)(buf.fresh(&wires[i]))),
        (true, "typed-encode") => Box::new(|i| Ok(hash::hash_bin(black_box(&wires[i])))),
        (true, _) => Box::new(|i| {
            black_box(buf.fresh(&wires[i]));
            Ok(black_box(codec.hashes[i]))
        }),
    };
    if held {
        hold();
    }
    match guarded(|| measure::latency(&mut *op, n, budget_ms * 1_000_000, 100_000)) {
        Err(e) => {
            out.row("error", json!({"reason": e}));
            EXIT_REJECTED
        }
        Ok(h) => {
            out.row(
                "latency",
                json!({"count": h.count(), "p50_ns": h.percentile(0.5), "p99_ns": h.percentile(0.99),
                       "p999_ns": h.percentile(0.999), "p9999_ns": h.percentile(0.9999), "max_ns": h.max(),
                       "buckets": h.buckets()}),
            );
            EXIT_OK
        }
    }
}

/// A prepared cell is never dropped: the process exits right after using it. A `-prebuilt` write
/// row's input is the library's own tree type, built by the harness as deep as the document, and
/// its drop glue (the library's) may recurse once per level, which must not crash the harness
/// after the check.
fn keep(p: Prepared) -> std::mem::ManuallyDrop<Prepared> {
    std::mem::ManuallyDrop::new(p)
}

/// `run --hold` (spec/protocol.md `run` step 10): called once the check has passed (or was skipped)
/// and the timed loop's operation is built, right before the first timed call (calibration, or the
/// latency pass): waits until one byte arrives on standard input or it reaches end of file. The
/// orchestrator writes the byte when the process before this one has exited and this one is on the
/// harness core. An error (stdin closed or not readable) goes on as end of file does.
fn hold() {
    let mut byte = [0u8; 1];
    loop {
        match std::io::stdin().lock().read(&mut byte) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            _ => return,
        }
    }
}

struct Results(std::fs::File);

impl Results {
    fn row(&mut self, kind: &str, fields: J) {
        let mut obj = serde_json::Map::new();
        obj.insert("kind".into(), json!(kind));
        if let J::Object(m) = fields {
            obj.extend(m);
        }
        let mut line = J::Object(obj).to_string();
        line.push('\n');
        if let Err(e) = self.0.write_all(line.as_bytes()) {
            eprintln!("cannot write the results file: {e}");
            std::process::exit(1);
        }
    }
}

fn cmd_run(benches: &[Bench], argv: &[String]) -> i32 {
    let a = match Args::parse(
        argv,
        &[
            "bench",
            "test",
            "format",
            "file",
            "expect-hash",
            "results",
            "budget-ms",
            "min-samples",
            "seed",
            "output-file",
            "iterations",
        ],
        &["alloc", "no-check", "latency", "hold"],
    ) {
        Ok(a) => a,
        Err(e) => return usage(&e),
    };
    let (b, test, fmt) = match lookup(benches, &a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (file, expect, results) = match (a.get("file"), a.get("expect-hash"), a.get("results")) {
        (Ok(f), Ok(e), Ok(r)) => (f, e.to_ascii_lowercase(), r),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return usage(&e),
    };
    let (budget_ms, min_samples) = match (a.num("budget-ms", 300), a.num("min-samples", 5), a.num("seed", 0)) {
        (Ok(b), Ok(m), Ok(_)) => (b, m as usize),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return usage(&e),
    };
    // 0: timed sampling; N > 0: the fixed-count loop of the instruction-count mode (protocol step 9)
    let iterations = match a.num("iterations", 0) {
        Ok(0) if a.get("iterations").is_ok() => return usage("--iterations must be at least 1"),
        Ok(n) => n,
        Err(e) => return usage(&e),
    };
    let data = match std::fs::read(file) {
        Ok(d) => d,
        Err(e) => return usage(&format!("cannot read {file}: {e}")),
    };
    let mut out = match std::fs::OpenOptions::new().create(true).append(true).open(results) {
        Ok(f) => Results(f),
        Err(e) => return usage(&format!("cannot open {results}: {e}")),
    };
    let prepared = match prepare(b, &test, &fmt, &data, iterations > 0) {
        Ok(p) => keep(p),
        Err(e) => {
            out.row("error", json!({"reason": e.reason()}));
            return e.code();
        }
    };
    let output_file = a.get("output-file").ok().filter(|_| test == "write" || test == "typed-encode");
    if !a.flag("no-check") || output_file.is_some() {
        match check(&prepared, &fmt, &data) {
            Err(e) => {
                out.row("error", json!({"reason": e.reason()}));
                return e.code();
            }
            Ok((_, output)) if a.flag("no-check") => {
                // --output-file without the check: the bytes only, no check row
                if let Err(e) = write_output(output_file, output.as_deref()) {
                    return usage(&e);
                }
            }
            Ok((h, output)) => {
                if let Err(e) = write_output(output_file, output.as_deref()) {
                    return usage(&e);
                }
                let got = hash::hex64(h);
                let ok = got == expect;
                let mut row = json!({"ok": ok, "hash": got, "expected": expect});
                if test == "write" || test == "typed-encode" {
                    row["output_bytes"] = json!(output.as_ref().map(|o| o.len()));
                }
                if !ok {
                    row["reason"] = json!(format!("hash {got} != expected {expect}"));
                }
                out.row("check", row);
                if !ok {
                    return EXIT_MISMATCH;
                }
            }
        }
    }
    // step 10: under --iterations the flag has no effect (nothing is timed)
    let held = a.flag("hold") && iterations == 0;
    if a.flag("latency") {
        return run_latency(b, &test, &fmt, &data, budget_ms, !a.flag("no-check"), held, &mut out);
    }
    out.row("info", json!({"measures": measures(b, &test), "runtime": runtime()}));
    let mut op = timed_op(&prepared, &fmt, &data);
    if iterations > 0 {
        // step 9: one untimed warm-up, then exactly N iterations in one batch, nothing clock-driven
        let fixed = if test.starts_with("typed-") {
            guarded(|| measure::fixed(&mut *op, iterations))
        } else {
            measure::fixed(&mut *op, iterations)
        };
        return match fixed {
            Err(e) => {
                out.row("error", json!({"reason": e}));
                EXIT_REJECTED
            }
            Ok(n) => {
                out.row("sample", json!({"iterations": n, "wall_ns": 0, "cpu_ns": null}));
                EXIT_OK
            }
        };
    }
    if held {
        hold();
    }
    // typed rows' functions call their crate throughout, so they are guarded as a whole; schemaless
    // rows catch a panic at each library call (adapters::lib), so nothing more is caught here
    let sampled = if test.starts_with("typed-") {
        guarded(|| measure::sample(&mut *op, budget_ms * 1_000_000, min_samples))
    } else {
        measure::sample(&mut *op, budget_ms * 1_000_000, min_samples)
    };
    match sampled {
        Err(e) => {
            out.row("error", json!({"reason": e}));
            EXIT_REJECTED
        }
        Ok((samples, batch, cal_ns)) => {
            out.row("info", json!({"batch": batch, "calibration_ns": cal_ns}));
            for s in samples {
                out.row(
                    "sample",
                    json!({"iterations": s.iterations, "wall_ns": s.wall_ns, "cpu_ns": s.cpu_ns, "canary_ns": s.canary_ns}),
                );
            }
            if a.flag("alloc") {
                // protocol step 6: the allocation pass after the timed samples, counting only now
                return alloc_pass(&mut *op, &mut out);
            }
            EXIT_OK
        }
    }
}

/// The allocation pass (spec/protocol.md `run` step 6): one warm-up op, then the allocator's
/// counts over `ALLOC_ITERATIONS` ops.
fn alloc_pass(op: &mut measure::Op<'_>, out: &mut Results) -> i32 {
    let mut res = Ok(0);
    let _ = op(); // warm: first-use allocations are not counted
    let (count, bytes) = alloc::count(|| {
        for _ in 0..ALLOC_ITERATIONS {
            res = op().map(black_box);
            if res.is_err() {
                break;
            }
        }
    });
    if let Err(e) = res {
        out.row("error", json!({"reason": e}));
        return EXIT_REJECTED;
    }
    out.row(
        "alloc",
        json!({"allocs_per_op": count as f64 / ALLOC_ITERATIONS as f64,
               "alloc_bytes_per_op": bytes as f64 / ALLOC_ITERATIONS as f64,
               "method": "global-allocator-counter: alloc/realloc calls and requested bytes, mean of 5 ops; the harness's input copy allocates nothing"}),
    );
    EXIT_OK
}

fn cmd_verify(benches: &[Bench], argv: &[String]) -> i32 {
    let a = match Args::parse(argv, &["bench", "test", "format", "file"], &[]) {
        Ok(a) => a,
        Err(e) => return usage(&e),
    };
    let (b, test, fmt) = match lookup(benches, &a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let file = match a.get("file") {
        Ok(f) => f,
        Err(e) => return usage(&e),
    };
    let data = match std::fs::read(file) {
        Ok(d) => d,
        Err(e) => return usage(&format!("cannot read {file}: {e}")),
    };
    let prepared = match prepare(b, &test, &fmt, &data, false) {
        Ok(p) => keep(p),
        Err(e) => {
            println!("{}", json!({"error": e.reason()}));
            return e.code();
        }
    };
    match check(&prepared, &fmt, &data) {
        Ok((h, _)) => {
            println!("{}", json!({"hash": hash::hex64(h)}));
            EXIT_OK
        }
        Err(e) => {
            println!("{}", json!({"error": e.reason()}));
            e.code()
        }
    }
}

fn cmd_selftest(benches: &[Bench], argv: &[String]) -> i32 {
    let a = match Args::parse(argv, &["vectors"], &[]) {
        Ok(a) => a,
        Err(e) => return usage(&e),
    };
    let dir = match a.get("vectors") {
        Ok(d) => Path::new(d).to_path_buf(),
        Err(e) => return usage(&e),
    };
    let index: J = match std::fs::read(dir.join("vectors.json"))
        .map_err(|e| e.to_string())
        .and_then(|d| serde_json::from_slice(&d).map_err(|e| e.to_string()))
    {
        Ok(j) => j,
        Err(e) => return usage(&format!("cannot read {}/vectors.json: {e}", dir.display())),
    };
    let known: J = serde_json::from_str(KNOWN_DEVIATIONS).expect("known-deviations.json is valid JSON");
    let (mut pass, mut fail, mut skip) = (0, 0, 0);
    let empty = vec![];
    for v in index["vectors"].as_array().unwrap_or(&empty) {
        let name = v["name"].as_str().unwrap_or("?");
        let expected = v["hash"].as_str().unwrap_or("");
        let skips: Vec<&str> =
            v["skip"].as_array().map(|s| s.iter().filter_map(|x| x.as_str()).collect()).unwrap_or_default();
        for b in benches {
            // the vectors are schemaless documents: typed tests are covered by the cargo tests
            for test in b.tests().into_iter().filter(|t| !t.starts_with("typed-")) {
                for fmt in b.formats {
                    let Some(file) = v["files"][*fmt].as_str() else { continue };
                    let (status, reason) = if skips.contains(fmt) || skips.contains(&b.library) {
                        ("skip", Some("vector lists it in skip".to_string()))
                    } else {
                        let res = std::fs::read(dir.join(file)).map_err(|e| e.to_string()).and_then(|data| {
                            prepare(b, test, fmt, &data, false)
                                .and_then(|p| check(&p, fmt, &data))
                                .map_err(|e| e.reason().to_string())
                        });
                        let err = match res {
                            Ok((h, _)) if hash::hex64(h) == expected => None,
                            Ok((h, _)) => Some(format!("hash {} != {expected}", hash::hex64(h))),
                            Err(e) => Some(e),
                        };
                        let why = known[format!("{}/{}", b.id, test)][name].as_str();
                        match (why, err) {
                            (Some(why), Some(_)) => ("skip", Some(format!("known: {why}"))),
                            (Some(_), None) => ("fail", Some("known deviation now passes".into())),
                            (None, None) => ("pass", None),
                            (None, Some(e)) => ("fail", Some(e)),
                        }
                    };
                    match status {
                        "pass" => pass += 1,
                        "fail" => fail += 1,
                        _ => skip += 1,
                    }
                    println!(
                        "{}",
                        json!({"bench": b.id, "test": test, "format": fmt, "vector": name, "status": status, "reason": reason})
                    );
                }
            }
        }
    }
    // the reference decoders' conformance set (issue 69): every case through the reference decoder
    let (p, f, s) = match conformance(benches, &dir.join("conformance")) {
        Ok(counts) => counts,
        Err(e) => return usage(&e),
    };
    (pass, fail, skip) = (pass + p, fail + f, skip + s);
    eprintln!("{pass} passed, {fail} failed, {skip} skipped");
    if fail == 0 {
        EXIT_OK
    } else {
        1
    }
}

/// The conformance set (`DIR/manifest.json`, when it exists): each case decoded with the logic of
/// `verify --bench hash-object --test tree` (the reference decoder, then the hash), one JSON line
/// per case. A case fails when the answer differs: a rejection of an `accept` case, an acceptance
/// of a `reject` case, or another hash. Returns (passed, failed, skipped).
fn conformance(benches: &[Bench], dir: &Path) -> Result<(u32, u32, u32), String> {
    let path = dir.join("manifest.json");
    if !path.exists() {
        return Ok((0, 0, 0));
    }
    let manifest: J = std::fs::read(&path)
        .map_err(|e| e.to_string())
        .and_then(|d| serde_json::from_slice(&d).map_err(|e| e.to_string()))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if manifest["version"] != 1 {
        return Err(format!("{}: version {} (this harness reads version 1)", path.display(), manifest["version"]));
    }
    let bench = benches.iter().find(|b| b.id == "hash-object").expect("the hash-object baseline is registered");
    let (mut pass, mut fail, mut skip) = (0, 0, 0);
    let empty = vec![];
    for case in manifest["cases"].as_array().unwrap_or(&empty) {
        let name = case["name"].as_str().unwrap_or("?");
        let fmt = case["format"].as_str().unwrap_or("?");
        let expect = case["expect"].as_str().unwrap_or("?");
        let (status, reason) = if !bench.formats.contains(&fmt) {
            ("skip", format!("no reference decoder for {fmt} in this harness"))
        } else {
            let got =
                std::fs::read(dir.join(case["file"].as_str().unwrap_or(""))).map_err(|e| e.to_string()).map(|data| {
                    prepare(bench, "tree", fmt, &data, false)
                        .and_then(|p| check(&p, fmt, &data))
                        .map(|(h, _)| hash::hex64(h))
                        .map_err(|e| e.reason().to_string())
                });
            let want = case["hash"].as_str().unwrap_or("").to_ascii_lowercase();
            match (expect, got) {
                (_, Err(e)) => ("fail", format!("cannot read the case's file: {e}")),
                ("accept", Ok(Ok(h))) if h == want => ("pass", String::new()),
                ("accept", Ok(Ok(h))) => ("fail", format!("hash {h} != {want}")),
                ("accept", Ok(Err(e))) => ("fail", format!("rejected, expected accept: {e}")),
                ("reject", Ok(Err(e))) => ("pass", format!("rejected: {e}")),
                ("reject", Ok(Ok(h))) => ("fail", format!("accepted (hash {h}), expected reject")),
                (other, _) => ("fail", format!("unknown expect {other:?}")),
            }
        };
        match status {
            "pass" => pass += 1,
            "fail" => fail += 1,
            _ => skip += 1,
        }
        let reason = (!reason.is_empty()).then_some(reason);
        println!(
            "{}",
            json!({"bench": bench.id, "test": "conformance", "format": fmt, "vector": name, "status": status, "reason": reason})
        );
    }
    Ok((pass, fail, skip))
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let benches = adapters::all();
    let code = match argv.first().map(|s| s.as_str()) {
        Some("list") if argv.len() == 1 => cmd_list(&benches),
        Some("run") => cmd_run(&benches, &argv[1..]),
        Some("verify") => cmd_verify(&benches, &argv[1..]),
        Some("selftest") => cmd_selftest(&benches, &argv[1..]),
        Some("size-probes") if argv.len() == 1 => cmd_size_probes(),
        Some("--help") | Some("-h") => {
            usage("help");
            EXIT_OK
        }
        _ => usage("expected a command: list, run, verify or selftest"),
    };
    let _ = std::io::stdout().flush();
    std::process::exit(code);
}
