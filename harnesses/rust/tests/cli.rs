//! The protocol command line, end to end: selftest on ../../vectors, list, and a `run` smoke test
//! that checks the results file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_serbench-rust");

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

fn vector_hash(name: &str) -> String {
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(vectors_dir().join("vectors.json")).unwrap()).unwrap();
    index["vectors"].as_array().unwrap().iter().find(|v| v["name"] == name).unwrap()["hash"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn selftest_passes_on_the_vectors() {
    let out = Command::new(BIN).arg("selftest").arg("--vectors").arg(vectors_dir()).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let failed: Vec<&str> = stdout.lines().filter(|l| l.contains("\"status\":\"fail\"")).collect();
    assert!(out.status.success(), "selftest failed: {stderr}\n{}", failed.join("\n"));
    let passed = stdout.lines().filter(|l| l.contains("\"status\":\"pass\"")).count();
    assert!(passed > 1000, "only {passed} checks passed");
    for line in stdout.lines() {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(["pass", "skip"].contains(&row["status"].as_str().unwrap()), "{line}");
    }
}

#[test]
fn list_is_valid() {
    let out = Command::new(BIN).arg("list").output().unwrap();
    assert!(out.status.success());
    let l: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(l["protocol"], 1);
    assert_eq!(l["harness"], "rust");
    let benches = l["benchmarks"].as_array().unwrap();
    let ids: Vec<&str> = benches.iter().map(|b| b["id"].as_str().unwrap()).collect();
    for id in ["hash-data", "hash-object", "serde_json", "simd-json-tape", "rmpv", "ciborium", "bson-raw"] {
        assert!(ids.contains(&id), "{id} missing");
    }
    for b in benches {
        assert_ne!(b["version"], "unknown", "{}", b["id"]);
        // the work contract: the steps of every test it lists, in loop order (adapters::contract_steps)
        let tests = b["tests"].as_array().unwrap();
        assert_eq!(b["steps"].as_object().unwrap().len(), tests.len(), "{}", b["id"]);
        for t in tests {
            let steps = b["steps"][t.as_str().unwrap()].as_array().unwrap();
            assert!(!steps.is_empty() && steps.iter().all(|s| s.is_string()), "{} {t}", b["id"]);
        }
        if b["baseline"] == false {
            for t in b["tests"].as_array().unwrap() {
                let base = b["baseline_for"][t.as_str().unwrap()].as_str().unwrap();
                assert!(ids.contains(&base));
            }
        }
    }
}

#[test]
fn run_writes_check_info_and_samples() {
    let dir = std::env::temp_dir().join(format!("serbench-rust-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    let _ = std::fs::remove_file(&results);
    let hash = vector_hash("all-types");
    for (bench, test, fmt, file) in [
        ("serde_json", "tree", "json", "all-types.json"),
        ("rmpv", "write", "msgpack", "all-types.msgpack"),
        ("hash-object", "incremental", "cbor", "all-types.cbor"),
    ] {
        let st = Command::new(BIN)
            .args(["run", "--bench", bench, "--test", test, "--format", fmt, "--file"])
            .arg(vectors_dir().join(file))
            .args(["--expect-hash", &hash, "--results"])
            .arg(&results)
            .args(["--budget-ms", "5", "--min-samples", "3"])
            .status()
            .unwrap();
        assert_eq!(st.code(), Some(0), "{bench} {test} {fmt}");
    }
    let rows: Vec<serde_json::Value> =
        std::fs::read_to_string(&results).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let kind = |k: &str| rows.iter().filter(|r| r["kind"] == k).count();
    assert_eq!(kind("check"), 3);
    assert!(rows.iter().filter(|r| r["kind"] == "check").all(|r| r["ok"] == true && r["hash"] == hash.as_str()));
    assert!(rows.iter().any(|r| r["kind"] == "check" && r["output_bytes"].as_u64().unwrap_or(0) > 0));
    assert!(kind("sample") >= 9);
    for s in rows.iter().filter(|r| r["kind"] == "sample") {
        assert!(s["iterations"].as_u64().unwrap() >= 1);
        assert!(s["wall_ns"].as_u64().unwrap() > 0);
        // protocol 1.9: the canary, timed alone just before the batch
        assert!(s["canary_ns"].as_u64().unwrap() > 0, "{s}");
    }
    assert!(rows.iter().any(|r| r["kind"] == "info" && r["batch"].as_u64().is_some()));

    // a wrong hash: a failed check row, exit 4, no samples
    let bad = dir.join("bad.jsonl");
    let _ = std::fs::remove_file(&bad);
    let st = Command::new(BIN)
        .args(["run", "--bench", "ciborium", "--test", "tree", "--format", "cbor", "--file"])
        .arg(vectors_dir().join("all-types.cbor"))
        .args(["--expect-hash", "0000000000000000", "--results"])
        .arg(&bad)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(4));
    let text = std::fs::read_to_string(&bad).unwrap();
    assert!(text.contains("\"ok\":false") && !text.contains("sample"));

    // the allocation pass, after the samples (protocol 1.5: counting never lands in a sample)
    let alloc = dir.join("alloc.jsonl");
    let st = Command::new(BIN)
        .args([
            "run",
            "--bench",
            "serde_json",
            "--test",
            "tree",
            "--format",
            "json",
            "--alloc",
            "--budget-ms",
            "1",
            "--file",
        ])
        .arg(vectors_dir().join("all-types.json"))
        .args(["--expect-hash", &hash, "--results"])
        .arg(&alloc)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
    let text = std::fs::read_to_string(&alloc).unwrap();
    let (a, s) = (text.find("\"kind\":\"alloc\"").unwrap(), text.rfind("\"kind\":\"sample\"").unwrap());
    assert!(s < a, "the alloc row follows the samples: {text}");

    // the harness allocates nothing of its own in a timed operation: the baselines, which copy the
    // input as every decode row does (fairness rule 1) and then only hash, count no allocation
    for (bench, test) in [("hash-object", "tree"), ("hash-events", "incremental"), ("hash-walk", "tree")] {
        let out = dir.join(format!("alloc-{bench}.jsonl"));
        let st = Command::new(BIN)
            .args(["run", "--bench", bench, "--test", test, "--format", "json", "--alloc", "--budget-ms", "1"])
            .arg("--file")
            .arg(vectors_dir().join("all-types.json"))
            .args(["--expect-hash", &hash, "--results"])
            .arg(&out)
            .status()
            .unwrap();
        assert_eq!(st.code(), Some(0), "{bench}");
        let text = std::fs::read_to_string(&out).unwrap();
        let row: serde_json::Value = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .find(|r: &serde_json::Value| r["kind"] == "alloc")
            .unwrap();
        assert_eq!(row["allocs_per_op"], 0.0, "{bench}: {text}");
        assert_eq!(row["alloc_bytes_per_op"], 0.0, "{bench}: {text}");
    }

    // exit codes: unsupported format 5, unknown benchmark 2
    let code = |args: &[&str]| Command::new(BIN).args(args).output().unwrap().status.code();
    let f = vectors_dir().join("null.json");
    let f = f.to_str().unwrap();
    assert_eq!(code(&["verify", "--bench", "rmpv", "--test", "tree", "--format", "json", "--file", f]), Some(5));
    assert_eq!(code(&["verify", "--bench", "nope", "--test", "tree", "--format", "json", "--file", f]), Some(2));
    assert_eq!(code(&["verify", "--bench", "serde_json", "--test", "tree", "--format", "json", "--bogus"]), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_iterations_writes_one_sample_of_exactly_n_iterations() {
    let dir = std::env::temp_dir().join(format!("serbench-rust-iter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    let hash = vector_hash("all-types");
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_file(&results);
        Command::new(BIN)
            .args(["run", "--bench", "serde_json", "--test", "tree", "--format", "json", "--file"])
            .arg(vectors_dir().join("all-types.json"))
            .args(["--expect-hash", &hash, "--results"])
            .arg(&results)
            .args(extra)
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(run(&["--iterations", "7"]), Some(0));
    let rows: Vec<serde_json::Value> =
        std::fs::read_to_string(&results).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let samples: Vec<_> = rows.iter().filter(|r| r["kind"] == "sample").collect();
    assert_eq!(samples.len(), 1, "{rows:?}");
    assert_eq!(samples[0]["iterations"], 7);
    assert!(samples[0].get("canary_ns").is_none(), "no clock, no canary: {rows:?}");
    assert!(rows.iter().all(|r| r.get("batch").is_none()), "no calibration: {rows:?}");
    assert!(rows.iter().any(|r| r["kind"] == "check" && r["ok"] == true));
    assert_eq!(run(&["--iterations", "3", "--no-check"]), Some(0));
    assert_eq!(run(&["--iterations", "0"]), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cells of the `--hold` tests, one per run path: schemaless (sampling), typed (sampling,
/// guarded) and `--latency`; each with the row kind its timing writes. The typed file is
/// trade-seed's one record, written into `dir` (the corpus is generated, not checked in).
fn hold_cells(dir: &Path) -> Vec<(Vec<String>, &'static str)> {
    let trade = dir.join("trade.json");
    let json = concat!(
        r#"{"schema":"trade","records":[{"price":1234.0,"flag":true,"text":"Hello World!","side":"Sell","#,
        r#""small_int":123,"long_int":1234567890}]}"#
    );
    std::fs::write(&trade, json).unwrap();
    let typed_hash =
        format!("{:016x}", serbench_rust::typed::hash_all(&serbench_rust::typed::load(json.as_bytes()).unwrap()));
    let cell = |bench: &str, test: &str, fmt: &str, file: &Path, hash: &str, extra: &[&str]| {
        let mut v: Vec<String> = ["run", "--bench", bench, "--test", test, "--format", fmt, "--expect-hash", hash]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.extend(["--file".to_string(), file.to_str().unwrap().to_string()]);
        v.extend(["--budget-ms", "5", "--min-samples", "3"].iter().chain(extra).map(|s| s.to_string()));
        v
    };
    let all_types = vectors_dir().join("all-types.json");
    vec![
        (cell("serde_json", "tree", "json", &all_types, &vector_hash("all-types"), &[]), "sample"),
        (cell("prost", "typed-decode", "protobuf", &trade, &typed_hash, &[]), "sample"),
        (cell("prost", "typed-encode", "protobuf", &trade, &typed_hash, &["--latency"]), "latency"),
    ]
}

fn spawn(args: &[String], results: &Path, stdin: Stdio) -> Child {
    let _ = std::fs::remove_file(results);
    Command::new(BIN).args(args).arg("--results").arg(results).stdin(stdin).spawn().unwrap()
}

fn kinds(results: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(results).unwrap_or_default();
    // a line still being written is not counted
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|r| r["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Waits for the process to exit, killing it after 60 s (a hold that never ends fails the test).
fn exit_code(mut child: Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the harness did not exit within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn run_hold_waits_for_one_byte_on_stdin_after_the_check_and_before_timing() {
    let dir = std::env::temp_dir().join(format!("serbench-rust-hold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    for (args, timed) in hold_cells(&dir) {
        let mut child = spawn(&[args.clone(), vec!["--hold".into()]].concat(), &results, Stdio::piped());
        let deadline = Instant::now() + Duration::from_secs(60);
        while !kinds(&results).iter().any(|k| k == "check") {
            assert!(child.try_wait().unwrap().is_none(), "{args:?} exited before the byte");
            assert!(Instant::now() < deadline, "{args:?}: no check row within 60 s");
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(child.try_wait().unwrap().is_none(), "{args:?} exited before the byte");
        assert!(!kinds(&results).iter().any(|k| k == timed), "{args:?} timed before the byte: {:?}", kinds(&results));
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"g").unwrap();
        assert_eq!(exit_code(child), Some(0), "{args:?}");
        drop(stdin);
        assert!(kinds(&results).iter().any(|k| k == timed), "{args:?}: {:?}", kinds(&results));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_hold_goes_on_at_end_of_stdin_and_never_reads_on_a_failed_check_or_under_iterations() {
    let dir = std::env::temp_dir().join(format!("serbench-rust-hold-eof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("r.jsonl");
    for (args, timed) in hold_cells(&dir) {
        let hold = [args.clone(), vec!["--hold".into()]].concat();
        // stdin closed at once (end of file): the run completes as without --hold
        let mut child = spawn(&hold, &results, Stdio::piped());
        drop(child.stdin.take());
        assert_eq!(exit_code(child), Some(0), "{args:?}");
        let k = kinds(&results);
        assert!(k.iter().any(|x| x == "check") && k.iter().any(|x| x == timed), "{args:?}: {k:?}");
        // the same with --no-check, stdin from /dev/null: the hold follows loading
        let no_check = [hold.clone(), vec!["--no-check".into()]].concat();
        assert_eq!(exit_code(spawn(&no_check, &results, Stdio::null())), Some(0), "{args:?}");
        assert!(kinds(&results).iter().any(|k| k == timed), "{args:?}");
        // a stdin left open that never gets a byte: a failing check exits 4 without reading it
        let mut bad = hold.clone();
        let at = bad.iter().position(|a| a == "--expect-hash").unwrap() + 1;
        bad[at] = "0000000000000000".into();
        let child = spawn(&bad, &results, Stdio::piped());
        assert_eq!(exit_code(child), Some(4), "{args:?}");
        assert!(!kinds(&results).iter().any(|k| k == timed), "{args:?}");
    }
    // under --iterations the flag has no effect: it never reads the open stdin
    let (args, _) = hold_cells(&dir).remove(0);
    let fixed = [args, vec!["--hold".into(), "--iterations".into(), "3".into()]].concat();
    assert_eq!(exit_code(spawn(&fixed, &results, Stdio::piped())), Some(0));
    assert_eq!(kinds(&results).iter().filter(|k| *k == "sample").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `selftest` also runs the conformance set (`DIR/conformance/manifest.json`, issue 69) through the
/// reference decoder, as `verify --bench hash-object --test tree` does: one line per case, counted
/// in the final line, a fail wherever the answer differs from the manifest's.
#[test]
fn selftest_runs_the_conformance_manifest_through_the_reference_decoder() {
    use serbench_rust::hash::hex64;
    use serbench_rust::model::{hash_val, Val};
    let dir = std::env::temp_dir().join(format!("serbench-rust-conformance-{}", std::process::id()));
    let cases = dir.join("conformance");
    std::fs::create_dir_all(&cases).unwrap();
    std::fs::write(dir.join("vectors.json"), br#"{"vectors": []}"#).unwrap();
    let ab = hex64(hash_val(&Val::Map(vec![("a".into(), Val::Bin(b"xy".to_vec()))])));
    let one = hex64(hash_val(&Val::Map(vec![("a".into(), Val::UInt(1))])));
    let files: &[(&str, &[u8])] = &[
        ("map.json", br#"{"a":1}"#),
        ("root-array.json", b"[1]"),
        ("form-feed.json", b"{\"a\":1}\x0c"),
        ("nul.json", br#"{"a\u0000":1}"#),
        ("map.msgpack", b"\x81\xa1a\x01"),
        ("tag.cbor", b"\xa1\x61a\xc1\x00"),
        ("old-binary.bson", b"\x13\0\0\0\x05a\0\x06\0\0\0\x02\x02\0\0\0xy\0"),
        ("old-binary-bad.bson", b"\x13\0\0\0\x05a\0\x06\0\0\0\x02\x03\0\0\0xy\0"),
        ("map.ubjson", b"{U\x01ai\x01}"),
    ];
    for (name, bytes) in files {
        std::fs::write(cases.join(name), bytes).unwrap();
    }
    let case = |name: &str, fmt: &str, file: &str, expect: &str, hash: Option<&str>| {
        let mut c = serde_json::json!({"name": name, "format": fmt, "file": file, "expect": expect, "rule": "R", "why": "test"});
        if let Some(h) = hash {
            c["hash"] = serde_json::json!(h);
        }
        c
    };
    let right = vec![
        case("map", "json", "map.json", "accept", Some(&one)),
        case("root-array", "json", "root-array.json", "reject", None),
        case("form-feed", "json", "form-feed.json", "reject", None),
        case("nul-key", "json", "nul.json", "reject", None),
        case("map", "msgpack", "map.msgpack", "accept", Some(&one)),
        case("tag", "cbor", "tag.cbor", "reject", None),
        case("old-binary", "bson", "old-binary.bson", "accept", Some(&ab)),
        case("old-binary-bad", "bson", "old-binary-bad.bson", "reject", None),
        case("map", "ubjson", "map.ubjson", "accept", Some(&one)),
    ];
    let run = |cases_json: &[serde_json::Value]| {
        let manifest = serde_json::json!({"version": 1, "cases": cases_json});
        std::fs::write(cases.join("manifest.json"), manifest.to_string()).unwrap();
        let out = Command::new(BIN).arg("selftest").arg("--vectors").arg(&dir).output().unwrap();
        let rows: Vec<serde_json::Value> =
            String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        (out.status.code(), rows, String::from_utf8_lossy(&out.stderr).trim().to_string())
    };
    let (code, rows, stderr) = run(&right);
    assert_eq!(code, Some(0), "{stderr} {rows:?}");
    assert_eq!(stderr, "8 passed, 0 failed, 1 skipped");
    assert_eq!(rows.len(), 9);
    for r in &rows {
        assert_eq!((r["bench"].as_str(), r["test"].as_str()), (Some("hash-object"), Some("conformance")), "{r}");
        let want = if r["format"] == "ubjson" { "skip" } else { "pass" };
        assert_eq!(r["status"], want, "{r}");
    }
    // every way an answer can differ: another hash, a rejection of an accept, an acceptance of a reject
    let wrong = vec![
        case("map", "json", "map.json", "accept", Some(&ab)),
        case("root-array", "json", "root-array.json", "accept", Some(&one)),
        case("map", "msgpack", "map.msgpack", "reject", None),
        case("missing", "cbor", "missing.cbor", "reject", None),
    ];
    let (code, rows, stderr) = run(&wrong);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr, "0 passed, 4 failed, 0 skipped");
    let reasons: Vec<&str> = rows.iter().map(|r| r["reason"].as_str().unwrap()).collect();
    assert!(reasons[0].starts_with("hash "), "{reasons:?}");
    assert!(reasons[1].contains("the root is not a map"), "{reasons:?}");
    assert!(reasons[2].starts_with("accepted"), "{reasons:?}");
    assert!(reasons[3].starts_with("cannot read"), "{reasons:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
