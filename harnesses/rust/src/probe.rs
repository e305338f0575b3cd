//! Code-size probe (src/codesize.rs): never run for timing. It calls every function of every
//! registered benchmark with inputs the optimiser cannot see through (`black_box`), so the linker
//! keeps exactly the code those benchmarks can reach, and nothing of the protocol command line
//! (JSON output, reference decoders, corpus loading) that the harness executable adds. Built once
//! per library with `SERBENCH_RUST_SIZE_PROBE=<crate>`, and once with no library.

use serbench_rust::model::{hash_val, Val};
use serbench_rust::typed::{self, Records, Schema};
use serbench_rust::{adapters, hash};
use std::hint::black_box;

fn main() {
    // The input is a file named on the command line, so nothing about it is known at compile time.
    let data = std::env::args().nth(1).and_then(|p| std::fs::read(p).ok()).unwrap_or_default();
    let fmt: &str = black_box("json");
    let val: Val = black_box(Val::Null);
    let records: Records = black_box(Records::Product(Vec::new()));
    let schema: Schema = black_box(Schema::Product);
    // What the baselines run (hash-object, hash-data, hash-typed), which every probe then has:
    // the harness's own hashing of its tree, of bytes and of native records, and copying records,
    // so a library is not charged for harness code all rows share.
    let mut sink = hash_val(&val) ^ hash::hash_bin(&data) ^ typed::hash_all(&records.clone());
    let mut take = |r: Result<u64, String>| sink ^= r.unwrap_or(0);
    for b in adapters::all() {
        for f in [b.tree, b.incremental].into_iter().flatten() {
            take(f(fmt, &mut data.clone()));
        }
        if let Some(Ok(enc)) = b.write.map(|w| w(fmt, &val)) {
            take(enc().map(|o| o.len() as u64));
        }
        let Some(t) = &b.typed else { continue };
        if let Ok(enc) = (t.encoder)(fmt, &records) {
            take(enc().map(|o| o.len() as u64));
        }
        for f in [t.decode, t.access].into_iter().flatten() {
            take(f(fmt, schema, &mut data.clone()));
        }
        if let Some(Ok(one)) = t.one.map(|o| o(fmt, &records)) {
            take((one.encode)(0).map(|o| o.len() as u64));
            take((one.decode)(&mut data.clone()));
        }
    }
    println!("{}", black_box(sink));
}
