//! The protocol command line, end to end: selftest on ../../vectors, list, and a `run` smoke test
//! that checks the results file.

use std::path::PathBuf;
use std::process::Command;

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
    assert!(rows.iter().all(|r| r.get("batch").is_none()), "no calibration: {rows:?}");
    assert!(rows.iter().any(|r| r["kind"] == "check" && r["ok"] == true));
    assert_eq!(run(&["--iterations", "3", "--no-check"]), Some(0));
    assert_eq!(run(&["--iterations", "0"]), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
