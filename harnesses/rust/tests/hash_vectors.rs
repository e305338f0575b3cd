//! The object hash against the golden vectors (spec/hash.md): the tree walker over the reference
//! decoders' trees, and the streaming hasher driven by events from the same trees and by the flat walk.

use serbench_rust::hash::{self, StreamHasher};
use serbench_rust::model::{
    hash_flat, hash_flat_counted, hash_flat_events, hash_flat_events_counted, hash_val, ref_decode, FlatDoc, Val,
    REF_FORMATS,
};
use std::path::PathBuf;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors")
}

fn vectors() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(vectors_dir().join("vectors.json")).expect("vectors/vectors.json");
    let index: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(index["hash_version"], 2);
    index["vectors"].as_array().unwrap().clone()
}

fn stream(v: &Val, h: &mut StreamHasher) {
    match v {
        Val::Array(a) => {
            h.start_array();
            a.iter().for_each(|x| stream(x, h));
            h.end().unwrap();
        }
        Val::Map(m) => {
            h.start_map();
            for (k, x) in m {
                h.key_hash(hash::hash_str(k)).unwrap();
                stream(x, h);
            }
            h.end().unwrap();
        }
        leaf => h.emit(hash_val(leaf)).unwrap(),
    }
}

#[test]
fn tree_and_stream_hashes_match_every_vector() {
    let mut st = Vec::new();
    let mut checked = 0;
    for v in vectors() {
        let name = v["name"].as_str().unwrap();
        let expected = v["hash"].as_str().unwrap();
        for fmt in REF_FORMATS {
            let Some(file) = v["files"][*fmt].as_str() else { continue };
            let data = std::fs::read(vectors_dir().join(file)).unwrap();
            let tree = ref_decode(fmt, &data).unwrap_or_else(|e| panic!("{name}/{fmt}: {e}"));
            assert_eq!(hash::hex64(hash_val(&tree)), expected, "tree hash of {name} ({fmt})");
            let mut s = StreamHasher::new();
            stream(&tree, &mut s);
            assert_eq!(hash::hex64(s.value().unwrap()), expected, "stream hash of {name} ({fmt})");
            // the streaming form over the flat document, as the `hash-events` baseline walks it
            let doc = FlatDoc::new(&tree);
            let flat = hash_flat_events(&doc, &mut st).unwrap();
            assert_eq!(hash::hex64(flat), expected, "flat streaming walk of {name} ({fmt})");
            // and the instruction-count mode's walks, with the exact leaf
            let counted = hash_flat_events_counted(&doc, &mut st).unwrap();
            assert_eq!(hash::hex64(counted), expected, "counted flat streaming walk of {name} ({fmt})");
            let mut frames = Vec::new();
            assert_eq!(hash::hex64(hash_flat(&doc, &mut frames)), expected, "flat walk of {name} ({fmt})");
            let counted = hash_flat_counted(&doc, &mut frames);
            assert_eq!(hash::hex64(counted), expected, "counted flat walk of {name} ({fmt})");
            checked += 1;
        }
    }
    assert!(checked >= 44 * 4, "only {checked} vector files checked");
}

#[test]
fn map_order_does_not_matter() {
    let a = Val::Map(vec![("x".into(), Val::UInt(1)), ("y".into(), Val::NegInt(-1))]);
    let b = Val::Map(vec![("y".into(), Val::NegInt(-1)), ("x".into(), Val::UInt(1))]);
    assert_eq!(hash_val(&a), hash_val(&b));
    assert_ne!(hash_val(&Val::Float(1.0)), hash_val(&Val::UInt(1)));
    assert_ne!(hash_val(&Val::Float(0.0)), hash_val(&Val::Float(-0.0)));
    assert_ne!(hash_val(&Val::Str("ab".into())), hash_val(&Val::Bin(b"ab".to_vec())));
}
