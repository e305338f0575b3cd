//! Runs one baseline's hashing work N times, for instruction counts under valgrind (the harness's
//! `run --iterations N` does the same through the protocol once it lands):
//!
//!     valgrind --tool=callgrind target/release/examples/hashcount object msgpack size-4.msgpack 10
//!
//! Modes: `object` (the flat walk of the reference document, model::hash_flat, as hash-object),
//! `walk` (hash::walk over the reference tree, as hash-walk), `events` (the flat document's walk
//! through the streaming hash, model::hash_flat_events, as hash-events), `data` (the bytes, as
//! hash-data), `typed` (the typed walk of the records, as hash-typed). The input copy of the
//! baselines' loops is left out. Two runs with different N give the cost of one iteration as the
//! difference of the counts over the difference of N; the printed CPU time per iteration is a rough
//! figure only.

use serbench_rust::{hash, model, typed};
use std::hint::black_box;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (mode, fmt, file, n) = (&a[0], &a[1], &a[2], a[3].parse::<u64>().unwrap());
    let data = std::fs::read(file).unwrap();
    let mut acc = 0u64;
    let c0 = serbench_rust::measure::thread_cpu_ns().unwrap_or(0);
    match mode.as_str() {
        "object" => {
            let d = model::FlatDoc::new(&model::ref_decode(fmt, &data).unwrap());
            let mut st = Vec::new();
            for _ in 0..n {
                acc ^= model::hash_flat(black_box(&d), &mut st);
            }
        }
        "walk" => {
            let v = model::ref_decode(fmt, &data).unwrap();
            for _ in 0..n {
                acc ^= model::hash_val(black_box(&v));
            }
        }
        "events" => {
            let d = model::FlatDoc::new(&model::ref_decode(fmt, &data).unwrap());
            let mut st = Vec::new();
            for _ in 0..n {
                acc ^= model::hash_flat_events(black_box(&d), &mut st).unwrap();
            }
        }
        "data" => {
            for _ in 0..n {
                acc ^= hash::hash_bin(black_box(&data));
            }
        }
        "typed" => {
            let r = typed::load(&data).unwrap();
            for _ in 0..n {
                acc ^= typed::hash_all(black_box(&r));
            }
        }
        // `typed-row BENCH FILE N` (fmt = the row's id): the row's typed-decode or typed-access
        // loop (aligned copy + decode or view + typed hash); `typed-base WIRE-FMT FILE N`: the
        // hash-typed baseline's loop (aligned copy of the same bytes + typed hash of the records)
        "typed-row" | "typed-base" => {
            let r = typed::load(&data).unwrap();
            let all = serbench_rust::adapters::all();
            let row = if mode == "typed-row" {
                all.iter().find(|b| b.id == fmt.as_str())
            } else {
                all.iter()
                    .find(|b| b.typed.as_ref().is_some_and(|t| t.one.is_some()) && b.formats.contains(&fmt.as_str()))
            };
            let row = row.expect("no such typed row");
            let t = row.typed.as_ref().unwrap();
            let wfmt = row.formats[0];
            let wire = ((t.encoder)(wfmt, &r).unwrap())().unwrap().to_vec();
            let read = t.decode.or(t.access).unwrap();
            for _ in 0..n {
                let mut copy = aligned(&wire);
                // SAFETY: `copy` holds at least wire.len() initialised bytes
                let bytes = unsafe { std::slice::from_raw_parts_mut(copy.as_mut_ptr() as *mut u8, wire.len()) };
                acc ^= if mode == "typed-row" {
                    read(wfmt, r.schema(), bytes).unwrap()
                } else {
                    black_box(bytes);
                    typed::hash_all(black_box(&r))
                };
            }
        }
        m => panic!("unknown mode {m}"),
    }
    // a rough figure (thread CPU time, since the machine is shared): ns per iteration
    let c1 = serbench_rust::measure::thread_cpu_ns().unwrap_or(0);
    println!("{} {:.0} cpu-ns/iter", hash::hex64(acc), (c1 - c0) as f64 / n as f64);
}

/// A 16-byte aligned copy, as main.rs's AlignedCopy (one allocation, one memcpy).
fn aligned(b: &[u8]) -> Vec<u128> {
    let mut v = vec![0u128; b.len().div_ceil(16)];
    // SAFETY: v has room for b.len() bytes
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), v.as_mut_ptr() as *mut u8, b.len()) };
    v
}
