//! Write rows start from the harness's object (spec/fairness.md rule 10): every call of a write
//! row's encoder builds the library's value from the harness's `Val`, writes it and drops it. The
//! harness's counting allocator (src/alloc.rs) shows it from outside: a DOM has one allocation at
//! least per non-empty string and key and per non-empty container, so an encoder that allocates
//! fewer times than that cannot have built one. The `-prebuilt` variant, which dumps a value
//! built once outside the loop, allocates only its output buffer, and so do the serde rows
//! (`SERIALIZE`), whose serializer is driven by the harness's object directly (src/ser.rs): they
//! build no tree, and allocating per node would mean they did.
//!
//! One test in this file: the allocator's counters are global, so no other test may allocate
//! while it counts.

use serbench_rust::adapters::{self, Bench};
use serbench_rust::alloc;
use serbench_rust::model::{hash_val, ref_decode, Val};
use std::path::PathBuf;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// Rows that build their DOM with a C allocator the counter does not see (yyjson's value pool is
/// malloc'd in chunks): checked in-process instead (yyjson.rs, every_write_call_builds_and_frees).
const C_ALLOCATED: &[&str] = &["yyjson"];

/// Rows that serialize the harness's `Val` through serde (src/ser.rs, `adapters::serialize_encoder`):
/// no intermediate tree, so they allocate only their output buffer's growth, as a `-prebuilt` dump.
const SERIALIZE: &[&str] = &[
    "serde_json-serialize",
    "simd-json-serialize",
    "sonic-rs-serialize",
    "rmp-serde",
    "ciborium-serialize",
    "serde_cbor-serialize",
    "bson-serialize",
];

/// The allocations a DOM of `v` needs at the least: one per non-empty string (keys included) and
/// per non-empty container (an empty String or Vec allocates nothing).
fn least_allocations(v: &Val) -> u64 {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        match x {
            Val::Str(s) if !s.is_empty() => n += 1,
            Val::Bin(b) if !b.is_empty() => n += 1,
            Val::Array(a) if !a.is_empty() => {
                n += 1;
                stack.extend(a);
            }
            Val::Map(m) if !m.is_empty() => {
                n += 1;
                n += m.iter().filter(|(k, _)| !k.is_empty()).count() as u64;
                stack.extend(m.iter().map(|(_, x)| x));
            }
            _ => {}
        }
    }
    n
}

fn vectors() -> Vec<(String, String, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let index: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("vectors.json")).unwrap()).unwrap();
    let mut v = Vec::new();
    for x in index["vectors"].as_array().unwrap() {
        for (fmt, file) in x["files"].as_object().unwrap() {
            v.push((x["name"].as_str().unwrap().to_string(), fmt.clone(), dir.join(file.as_str().unwrap())));
        }
    }
    v
}

#[test]
fn every_write_row_builds_its_input_in_the_loop_and_only_prebuilt_rows_do_not() {
    let benches: Vec<Bench> = adapters::all();
    let vectors = vectors();
    let (mut checked, mut prebuilt, mut prebuilt_below_dom, mut serialized) = (0, 0, 0, 0);
    for b in benches.iter().filter(|b| b.write.is_some() && !b.is_baseline()) {
        let is_prebuilt = b.steps("write").contains(&"prebuilt");
        let is_serialize = SERIALIZE.contains(&b.id);
        if is_serialize {
            assert!(b.notes.contains("no intermediate tree"), "{}: {}", b.id, b.notes);
        }
        for (name, fmt, file) in vectors.iter().filter(|(_, f, _)| b.formats.contains(&f.as_str())) {
            let v = ref_decode(fmt, &std::fs::read(file).unwrap()).unwrap();
            let least = least_allocations(&v);
            let enc = (b.write.unwrap())(fmt, &v).unwrap_or_else(|e| panic!("{} {fmt} {name}: {e}", b.id));
            let out = enc().unwrap(); // warm: first-use allocations are not counted
            let mut res = Ok(Vec::new());
            let (allocs, _) = alloc::count(|| res = enc());
            // the same document every call (a map's key order may differ: simd-json's objects are
            // hash maps with a random seed, so each DOM built writes its own order)
            let again = ref_decode(fmt, &res.unwrap()).unwrap();
            assert_eq!(hash_val(&again), hash_val(&v), "{} {fmt} {name}: another document", b.id);
            // the output buffer: one allocation, and one more each time it doubles
            let output_only = 2 + (out.len().max(1)).ilog2() as u64;
            let what = format!("{} {fmt} {name}: {allocs} allocations, {least} strings and containers", b.id);
            if is_prebuilt {
                assert!(allocs <= output_only, "{what}: more than its output buffer");
                prebuilt += 1;
                prebuilt_below_dom += u32::from(allocs < least);
            } else if is_serialize {
                assert!(allocs <= output_only, "{what}: more than its output buffer (a tree built?)");
                serialized += 1;
            } else if !C_ALLOCATED.contains(&b.id) {
                assert!(allocs >= least, "{what}: fewer than its DOM needs (built outside the loop?)");
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} (row, vector) pairs checked");
    assert!(prebuilt > 50, "only {prebuilt} prebuilt pairs checked");
    assert!(serialized > 150, "only {serialized} serde Serialize pairs checked");
    // on documents with many strings, the dump alone allocates fewer times than any DOM build
    assert!(prebuilt_below_dom > 10, "only {prebuilt_below_dom} prebuilt pairs below their DOM's allocations");
}
