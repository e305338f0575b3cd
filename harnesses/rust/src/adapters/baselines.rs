//! Baselines (spec/fairness.md): what a row's loop costs without the library. Their timed ops are
//! built in main.rs because they need the harness's own prebuilt tree.

use super::{Bench, TYPED_FORMATS};
use crate::model::REF_FORMATS;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "write baseline: hashes the input file's bytes (a write row encodes, then hashes its output bytes)",
            baseline_for: &["write"],
            ..Bench::new("hash-data", "serbench-rust", REF_FORMATS)
        },
        Bench {
            notes: "tree baseline (and of incremental rows that walk a lazily parsed tree): copies the input (Vec clone) and hashes the harness's own object with its cheapest walk (model::hash_flat: a flat node array, a seed table, no type switch)",
            baseline_for: &["tree", "incremental"],
            // as bson-raw's incremental loop, it hashes in the tree form, not from events
            steps_override: &[("incremental", &["copy-input", "visit-all"])],
            ..Bench::new("hash-object", "serbench-rust", REF_FORMATS)
        },
        Bench {
            notes: "reference, never subtracted: copies the input and walks the harness's own tree with hash::walk and a match per value, as the tree rows walk theirs (the tree baseline until 2026-11-25)",
            baseline_for: &["tree"],
            ..Bench::new("hash-walk", "serbench-rust", REF_FORMATS)
        },
        Bench {
            notes: "incremental baseline: copies the input (Vec clone) and walks the harness's own object in document order through the streaming hash (StreamHasher) with its cheapest walk (model::hash_flat_events: the flat node array, a seed table, no type switch), as pull-parser, tape and visitor rows feed theirs from parse events",
            baseline_for: &["incremental"],
            ..Bench::new("hash-events", "serbench-rust", REF_FORMATS)
        },
        Bench {
            notes: "typed-encode baseline: hashes the records' encoding in the format (the shortest any crate of this harness makes, once), never more bytes than a row hashes",
            baseline_for: &["typed-encode"],
            ..Bench::new("hash-data-typed", "serbench-rust", TYPED_FORMATS)
        },
        Bench {
            notes: "typed-decode and typed-access baseline: copies the records' encoding in the format (the shortest any crate makes, into a 16-byte aligned buffer, as the rows do) and hashes the prebuilt native records with the typed hash the rows use",
            baseline_for: &["typed-decode", "typed-access"],
            ..Bench::new("hash-typed", "serbench-rust", TYPED_FORMATS)
        },
    ]
}
