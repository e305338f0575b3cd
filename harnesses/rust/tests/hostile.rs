//! Hostile input through the protocol (spec/protocol.md, exit codes): documents nested 100,000
//! deep, every truncation of a small document, length and count fields far beyond the input. The
//! harness must end every case with exit 0, 3 or 6 within a time limit; its own code (reference
//! decoders, hash walks, conversions) never crashes, hangs or recurses without bound. A crash is
//! allowed only where it was shown to be inside the library (`LIBRARY_CRASHES`).

use serbench_rust::hash::{self, ArrayAcc, MapAcc};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_serbench-rust");
const DEPTH: usize = 100_000;
const LIMIT: Duration = Duration::from_secs(60);

/// Rows whose *library* crashes (blows its stack) on a document nested 100,000 deep. Each was
/// confirmed with gdb (`gdb -batch -ex run -ex bt --args serbench-rust verify ...`): every frame of
/// the recursion is in the crate, below one call from the adapter:
/// - write rows: the crate's serializer recurses once per level with no depth limit
///   (serde_json `value::ser` / `to_vec`, simd-json `FastGenerator::write_json`, sonic-rs
///   `Value::serialize`, rmpv `encode::write_value`, ciborium `value::ser`, serde_cbor
///   `value::ser`, bson `Bson::append_to` under `Document::to_writer`); and where it does not,
///   the crate's value, built and dropped in every call of the loop (spec/fairness.md rule 10),
///   drops recursively (its drop glue)
/// - serde Serialize write rows (`*-serialize`, `rmp-serde`; src/ser.rs): serde's model recurses
///   once per level, the crate's `SerializeSeq::serialize_element` / `SerializeMap::serialize_value`
///   calling back into `Val::serialize` (the harness's impl, which has no tree of its own to walk
///   iteratively: the serializer is driven by the data), with no depth limit in any of these crates
/// - sonic-rs tree: `sonic_rs::parser::Parser::parse_array` / `dispatch_value` (no depth limit)
/// - bson tree: `Document::from_reader` converts a RawDocument recursively
///   (`RawArrayIter::next` -> `RawElement::value` -> `RawDocument::from_bytes`, once per level)
///
/// The list allows a crash, it does not require one: how deep a recursion gets before the 8 MiB main
/// stack runs out depends on the build (rmpv's `write_value` overflows in a debug build and encodes
/// the document in the release build). The harness's part of those rows (reference decoding, the
/// conversion into the crate's type) is tested in-process in `adapters::tests` and `model::tests`.
const LIBRARY_CRASHES: &[&str] = &[
    "serde_json/write",
    "serde_json-dump-prebuilt/write",
    "simd-json-owned/write",
    "sonic-rs/write",
    "sonic-rs/tree",
    "rmpv/write",
    "ciborium/write",
    "serde_cbor/write",
    "bson/write",
    "serde_json-serialize/write",
    "simd-json-serialize/write",
    "sonic-rs-serialize/write",
    "rmp-serde/write",
    "ciborium-serialize/write",
    "serde_cbor-serialize/write",
    "bson-serialize/write",
    "bson/tree",
];

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

/// (bench, test, format) of every schemaless row: write, tree, incremental and the baselines.
fn rows() -> Vec<(String, String, String)> {
    let out = Command::new(BIN).arg("list").output().unwrap();
    let l: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut v = Vec::new();
    for b in l["benchmarks"].as_array().unwrap() {
        for t in b["tests"].as_array().unwrap() {
            let t = t.as_str().unwrap();
            if !["write", "tree", "incremental"].contains(&t) {
                continue;
            }
            for f in b["formats"].as_array().unwrap() {
                v.push((b["id"].as_str().unwrap().to_string(), t.to_string(), f.as_str().unwrap().to_string()));
            }
        }
    }
    assert!(v.len() > 40, "only {} rows", v.len());
    v
}

struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Outcome {
    fn hash(&self) -> Option<String> {
        let j: serde_json::Value = serde_json::from_str(self.stdout.trim()).ok()?;
        j["hash"].as_str().map(str::to_string)
    }
    fn describe(&self) -> String {
        let tail: String = self.stderr.lines().rev().take(2).collect::<Vec<_>>().join(" | ");
        format!("exit {:?} signal {:?}: {} {}", self.code, self.signal, self.stdout.trim(), tail)
    }
}

/// `verify` on a file, killed after `limit` (a hang is a failure: code and signal both None).
fn verify(bench: &str, test: &str, fmt: &str, file: &Path, limit: Duration) -> Outcome {
    let mut child = Command::new(BIN)
        .args(["verify", "--bench", bench, "--test", test, "--format", fmt, "--file"])
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return Outcome {
                code: st.code(),
                signal: st.signal(),
                stdout: String::from_utf8_lossy(&out.stdout).into(),
                stderr: String::from_utf8_lossy(&out.stderr).into(),
            };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Outcome { code: None, signal: None, stdout: String::new(), stderr: "timeout".into() };
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("serbench-rust-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `cases` on two threads (the machine is shared; the harness is single-threaded).
fn run_all<T: Sync, R: Send>(cases: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let half = cases.len().div_ceil(2);
    std::thread::scope(|s| {
        let parts: Vec<_> =
            cases.chunks(half.max(1)).map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>())).collect();
        parts.into_iter().flat_map(|h| h.join().unwrap()).collect()
    })
}

// --- deep documents ----------------------------------------------------------------------------

/// `{"a": [[...[]...]]}` with `n` nested arrays, in each format.
fn deep_arrays(fmt: &str, n: usize) -> Vec<u8> {
    match fmt {
        "json" | "json-pretty" => [&b"{\"a\":"[..], &b"[".repeat(n), &b"]".repeat(n), b"}"].concat(),
        "msgpack" => [&b"\x81\xa1a"[..], &b"\x91".repeat(n - 1), b"\x90"].concat(),
        "cbor" => [&b"\xa1\x61a"[..], &b"\x81".repeat(n - 1), b"\x80"].concat(),
        // the innermost array is empty; each level is an array holding the next at key "0"
        "bson" => bson_doc(&[&b"\x04a\0"[..], &bson_nested(n - 1, b"\x040\0")].concat()),
        _ => unreachable!(),
    }
}

/// `{"a": {"a": ... {}}}`: the root and `n` maps below it.
fn deep_maps(fmt: &str, n: usize) -> Vec<u8> {
    match fmt {
        "json" | "json-pretty" => [b"{\"a\":".repeat(n), b"{}".to_vec(), b"}".repeat(n)].concat(),
        "msgpack" => [b"\x81\xa1a".repeat(n), b"\x80".to_vec()].concat(),
        "cbor" => [b"\xa1\x61a".repeat(n), b"\xa0".to_vec()].concat(),
        "bson" => bson_nested(n, b"\x03a\0"),
        _ => unreachable!(),
    }
}

/// `levels` documents, each the one element (`elem`: type and key) of the one around it, around an
/// empty one; written front to back (wrapping it level by level would copy it once per level).
fn bson_nested(levels: usize, elem: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(levels * 8 + 5);
    for k in (1..=levels).rev() {
        // each level adds its length (4), type and key (3) and terminator (1) to the one inside it
        out.extend_from_slice(&((5 + 8 * k) as i32).to_le_bytes());
        out.extend_from_slice(elem);
    }
    out.extend_from_slice(&[5, 0, 0, 0, 0]);
    out.resize(out.len() + levels, 0);
    out
}

/// A BSON document around its elements: the length, the elements, the terminator.
fn bson_doc(elements: &[u8]) -> Vec<u8> {
    let len = (elements.len() + 5) as i32;
    [&len.to_le_bytes()[..], elements, b"\0"].concat()
}

fn expected_deep_arrays(n: usize) -> String {
    let mut h = ArrayAcc::new().finish();
    for _ in 1..n {
        let mut a = ArrayAcc::new();
        a.push(h);
        h = a.finish();
    }
    let mut m = MapAcc::new();
    m.push(hash::hash_str("a"), h);
    hash::hex64(m.finish())
}

fn expected_deep_maps(n: usize) -> String {
    let mut h = MapAcc::new().finish();
    for _ in 0..n {
        let mut m = MapAcc::new();
        m.push(hash::hash_str("a"), h);
        h = m.finish();
    }
    hash::hex64(h)
}

#[test]
fn the_deep_bson_generator_matches_wrapping_level_by_level() {
    let mut body = vec![5, 0, 0, 0, 0];
    for n in 1..20 {
        body = bson_doc(&[&b"\x03a\0"[..], &body].concat());
        assert_eq!(deep_maps("bson", n), body);
    }
}

#[test]
fn documents_nested_100000_deep_end_in_a_protocol_exit_or_a_library_crash() {
    let dir = tmpdir("deep");
    let mut files = Vec::new();
    for fmt in ["json", "json-pretty", "msgpack", "cbor", "bson"] {
        let a = dir.join(format!("arrays.{fmt}"));
        std::fs::write(&a, deep_arrays(fmt, DEPTH)).unwrap();
        let m = dir.join(format!("maps.{fmt}"));
        std::fs::write(&m, deep_maps(fmt, DEPTH)).unwrap();
        files.push((fmt.to_string(), a, expected_deep_arrays(DEPTH)));
        files.push((fmt.to_string(), m, expected_deep_maps(DEPTH)));
    }
    let cases: Vec<_> = rows()
        .into_iter()
        // Pretty-printing 100,000 levels writes ~4 * 10^10 bytes of indentation (quadratic in the
        // depth): a test of patience, not robustness (the native hostile_deep.py skips it too). Only
        // a writer that does not crash first (yyjson) gets that far.
        .filter(|(_, t, f)| !(t == "write" && f == "json-pretty"))
        .flat_map(|(b, t, f)| {
            files.iter().filter(move |(ff, _, _)| *ff == f).map(move |x| (b.clone(), t.clone(), x.clone()))
        })
        .collect();
    let results = run_all(&cases, |(b, t, (f, file, _))| verify(b, t, f, file, LIMIT));
    let mut bad = Vec::new();
    for ((b, t, (f, file, want)), o) in cases.iter().zip(&results) {
        let name = format!("{b} {t} {f} {}", file.file_name().unwrap().to_string_lossy());
        let row = format!("{b}/{t}");
        let baseline = b.starts_with("hash-");
        match o.code {
            // the harness's own code on the input: it must decode and hash it
            Some(0) if baseline && o.hash().as_deref() != Some(want.as_str()) => {
                bad.push(format!("{name}: wrong hash {}", o.describe()))
            }
            _ if baseline && o.code != Some(0) => bad.push(format!("{name}: baseline failed: {}", o.describe())),
            Some(0 | 3 | 6) => {}
            None if o.signal.is_some() && LIBRARY_CRASHES.contains(&row.as_str()) => {}
            _ => bad.push(format!("{name}: {}", o.describe())),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "{} of {} cases:\n{}", bad.len(), cases.len(), bad.join("\n"));
}

// --- truncation ----------------------------------------------------------------------------------

#[test]
fn every_truncation_of_a_small_document_ends_in_exit_0_3_or_6_for_every_row() {
    let dir = tmpdir("trunc");
    let vectors = vectors_dir();
    let mut cases = Vec::new();
    for (b, t, f) in rows() {
        let ext = match f.as_str() {
            "json-pretty" => "pretty.json",
            other => other,
        };
        // all-types has every scalar type and both containers; binary-empty has the binary type
        for vector in ["all-types", "binary-empty"] {
            let Ok(full) = std::fs::read(vectors.join(format!("{vector}.{ext}"))) else { continue };
            for cut in 0..full.len() {
                let file = dir.join(format!("{vector}.{f}.{cut}"));
                if !file.exists() {
                    std::fs::write(&file, &full[..cut]).unwrap();
                }
                cases.push((b.clone(), t.clone(), f.clone(), file));
            }
        }
    }
    let results = run_all(&cases, |(b, t, f, file)| verify(b, t, f, file, Duration::from_secs(20)));
    let mut bad = Vec::new();
    for ((b, t, f, file), o) in cases.iter().zip(&results) {
        let ok = match o.code {
            // a harness's own decoder may only reject a truncated document (the pretty JSON without its
            // final newline is still complete)
            Some(0) => !b.starts_with("hash-") || f == "json-pretty",
            Some(3) => !b.starts_with("hash-"),
            Some(6) => b.starts_with("hash-") || t == "write",
            _ => false,
        };
        if !ok {
            bad.push(format!("{b} {t} {f} {}: {}", file.file_name().unwrap().to_string_lossy(), o.describe()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "{} of {} cases:\n{}", bad.len(), cases.len(), bad.join("\n"));
}

// --- length and count fields ---------------------------------------------------------------------

#[test]
fn lengths_and_counts_beyond_the_input_are_rejected_without_allocating_them() {
    let dir = tmpdir("huge");
    let max_u32 = u32::MAX.to_be_bytes();
    let max_u64 = u64::MAX.to_be_bytes();
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("msgpack", [&b"\x81\xa1a\xdd"[..], &max_u32, b"\x00\x00"].concat()),
        ("msgpack", [&b"\x81\xa1a\xdf"[..], &max_u32, b"\xa1b\x00"].concat()),
        ("msgpack", [&b"\x81\xa1a\xdb"[..], &max_u32, b"ab"].concat()),
        ("msgpack", [&b"\x81\xa1a\xc6"[..], &max_u32, b"ab"].concat()),
        ("cbor", [&b"\xa1\x61a\x9b"[..], &max_u64, b"\x00"].concat()),
        ("cbor", [&b"\xa1\x61a\xbb"[..], &max_u64, b"\x61b\x00"].concat()),
        ("cbor", [&b"\xa1\x61a\x7b"[..], &max_u64, b"ab"].concat()),
        ("cbor", [&b"\xa1\x61a\x5b"[..], &max_u64, b"ab"].concat()),
        ("bson", [&u32::MAX.to_le_bytes()[..], b"\x0aa\x00\x00"].concat()),
        ("bson", bson_doc(&[&b"\x02a\x00"[..], &0x7fff_ffffi32.to_le_bytes(), b"ab\x00"].concat())),
        ("bson", bson_doc(&[&b"\x05a\x00"[..], &0x7fff_ffffi32.to_le_bytes(), b"\x00ab"].concat())),
        ("bson", bson_doc(&[&b"\x03a\x00"[..], &0x7fff_ffffi32.to_le_bytes(), b"\x00"].concat())),
    ];
    let mut cases = Vec::new();
    for (i, (fmt, bytes)) in inputs.iter().enumerate() {
        let file = dir.join(format!("huge{i}.{fmt}"));
        std::fs::write(&file, bytes).unwrap();
        for (b, t, f) in rows().into_iter().filter(|(_, _, f)| f == fmt) {
            cases.push((b, t, f, file.clone()));
        }
    }
    let results = run_all(&cases, |(b, t, f, file)| verify(b, t, f, file, Duration::from_secs(20)));
    let mut bad = Vec::new();
    for ((b, t, f, file), o) in cases.iter().zip(&results) {
        let want: &[i32] = if b.starts_with("hash-") || t == "write" { &[6] } else { &[3] };
        if !o.code.is_some_and(|c| want.contains(&c)) {
            bad.push(format!("{b} {t} {f} {}: {}", file.file_name().unwrap().to_string_lossy(), o.describe()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "{} of {} cases:\n{}", bad.len(), cases.len(), bad.join("\n"));
}

// --- whose rejection -----------------------------------------------------------------------------

#[test]
fn the_reference_decoder_rejecting_is_exit_6_and_a_library_rejecting_is_exit_3() {
    let dir = tmpdir("who");
    let dup = dir.join("dup.json");
    std::fs::write(&dup, br#"{"a":1,"a":2}"#).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, br#"{"a":tru}"#).unwrap();
    let deep = dir.join("deep200.json");
    std::fs::write(&deep, deep_arrays("json", 200)).unwrap();
    let limit = Duration::from_secs(20);
    // the harness's own decoder: exit 6, with a reason that names the problem
    for (bench, test) in [("hash-object", "tree"), ("hash-data", "write"), ("serde_json", "write")] {
        let o = verify(bench, test, "json", &dup, limit);
        assert_eq!(o.code, Some(6), "{bench} {test} duplicate key: {}", o.describe());
        assert!(o.stdout.contains("duplicate map key"), "{}", o.stdout);
        let o = verify(bench, test, "json", &bad, limit);
        assert_eq!(o.code, Some(6), "{bench} {test} malformed: {}", o.describe());
    }
    // a library rejecting: exit 3 with its message
    let o = verify("serde_json", "tree", "json", &bad, limit);
    assert_eq!(o.code, Some(3), "{}", o.describe());
    // 200 levels: past serde_json's recursion limit (128), not past the reference decoder's (none)
    let o = verify("hash-object", "tree", "json", &deep, limit);
    assert_eq!(o.code, Some(0), "{}", o.describe());
    assert_eq!(o.hash(), Some(expected_deep_arrays(200)));
    let o = verify("serde_json", "tree", "json", &deep, limit);
    assert_eq!(o.code, Some(3), "{}", o.describe());
    assert!(o.stdout.contains("recursion limit"), "{}", o.stdout);
    // a typed row given a file that is not a typed dataset: the harness's loader refuses it
    for (bench, test) in [("serde_json-typed", "typed-decode"), ("hash-typed", "typed-decode")] {
        let o = verify(bench, test, "json", &dup, limit);
        assert_eq!(o.code, Some(6), "{bench} {test}: {}", o.describe());
        assert!(o.stdout.contains("typed file"), "{}", o.stdout);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
