//! The reference decoders are strict (src/refdec.rs): they accept the data model in each format and
//! reject everything else with a reason, and they never panic, whatever the bytes.

use serbench_rust::hash::{self, hex64};
use serbench_rust::model::{hash_val, ref_decode, Val, REF_FORMATS};
use std::path::PathBuf;

fn h(fmt: &str, data: &[u8]) -> Result<String, String> {
    ref_decode(fmt, data).map(|v| hex64(hash_val(&v)))
}

fn rejects(fmt: &str, data: &[u8], why: &str) {
    match ref_decode(fmt, data) {
        Ok(v) => panic!("{fmt} {data:02x?} accepted as {v:?}, expected a rejection ({why})"),
        Err(e) => assert!(e.contains(why), "{fmt} {data:02x?}: {e:?} does not say {why:?}"),
    }
}

fn one(key: &str, v: Val) -> String {
    hex64(hash_val(&Val::Map(vec![(key.into(), v)])))
}

fn bson_doc(elements: &[u8]) -> Vec<u8> {
    let len = (elements.len() + 5) as i32;
    [&len.to_le_bytes()[..], elements, b"\0"].concat()
}

#[test]
fn json_accepts_the_data_model_and_its_edge_values() {
    assert_eq!(h("json", br#" {"a" : -0 } "#), Ok(one("a", Val::UInt(0))));
    assert_eq!(h("json", br#"{"a":-0.0}"#), Ok(one("a", Val::Float(-0.0))));
    assert_eq!(h("json", br#"{"a":1E+2}"#), Ok(one("a", Val::Float(100.0))));
    assert_eq!(h("json", br#"{"a":1e-400}"#), Ok(one("a", Val::Float(0.0))));
    assert_eq!(h("json", br#"{"a":18446744073709551615}"#), Ok(one("a", Val::UInt(u64::MAX))));
    assert_eq!(h("json", br#"{"a":-9223372036854775808}"#), Ok(one("a", Val::NegInt(i64::MIN))));
    assert_eq!(h("json", br#"{"a":"\ud83d\ude00\u00e9\/\n"}"#), Ok(one("a", Val::Str("😀é/\n".into()))));
    assert_eq!(h("json", b"{\"a\":\"\xc3\xa9\"}"), Ok(one("a", Val::Str("é".into()))));
    assert_eq!(h("json", b"{\"a\\u0062\":null}"), Ok(one("ab", Val::Null)));
    assert_eq!(h("json", b" \t\r\n{}\n"), Ok(hex64(hash_val(&Val::Map(vec![])))));
}

/// R1: the root of every document is a map (spec/data-model.md), in every format.
#[test]
fn a_root_that_is_not_a_map_is_rejected_in_every_format() {
    for (fmt, doc) in [
        ("json", &b"[]"[..]),
        ("json", b"[{}]"),
        ("json", b"1"),
        ("json", b"\"x\""),
        ("json", b"null"),
        ("json-pretty", b"[\n]\n"),
        ("msgpack", b"\x90"),
        ("msgpack", b"\x91\x80"),
        ("msgpack", b"\x01"),
        ("msgpack", b"\xa1a"),
        ("cbor", b"\x80"),
        ("cbor", b"\x9f\xff"),
        ("cbor", b"\x01"),
        ("cbor", b"\xf6"),
    ] {
        rejects(fmt, doc, "the root is not a map");
    }
    assert_eq!(h("msgpack", b"\x80"), Ok(hex64(hash_val(&Val::Map(vec![])))));
    assert_eq!(h("cbor", b"\xbf\xff"), Ok(hex64(hash_val(&Val::Map(vec![])))));
}

/// R9: no depth limit. `{"a": [[...[]...]]}` with a million arrays (BSON: a million documents,
/// `{"a": {"a": ... {}}}`), in every format, decodes and hashes.
#[test]
fn documents_nested_a_million_deep_decode() {
    const N: usize = 1_000_000;
    let mut inner = hash::hash_array([]);
    for _ in 1..N {
        inner = hash::hash_array([inner]);
    }
    let mut root = hash::MapAcc::new();
    root.push(hash::hash_str("a"), inner);
    let arrays = hex64(root.finish());
    let json = [&b"{\"a\":"[..], &b"[".repeat(N), &b"]".repeat(N), b"}"].concat();
    assert_eq!(h("json", &json).as_ref(), Ok(&arrays));
    let msgpack = [&b"\x81\xa1a"[..], &b"\x91".repeat(N - 1), b"\x90"].concat();
    assert_eq!(h("msgpack", &msgpack).as_ref(), Ok(&arrays));
    let cbor = [&b"\xa1\x61a"[..], &b"\x81".repeat(N - 1), b"\x80"].concat();
    assert_eq!(h("cbor", &cbor).as_ref(), Ok(&arrays));
    // a document of n levels below the root: each level is its length, type 0x03, key "a" and
    // terminator around the next, the innermost the empty document
    let mut bson = Vec::with_capacity(8 * N + 5);
    for level in (1..=N).rev() {
        bson.extend_from_slice(&((5 + 8 * level) as i32).to_le_bytes());
        bson.extend_from_slice(b"\x03a\0");
    }
    bson.extend_from_slice(b"\x05\0\0\0\0");
    bson.resize(bson.len() + N, 0);
    let mut maps = hash_val(&Val::Map(vec![]));
    for _ in 0..N {
        let mut m = hash::MapAcc::new();
        m.push(hash::hash_str("a"), maps);
        maps = m.finish();
    }
    assert_eq!(h("bson", &bson), Ok(hex64(maps)));
}

#[test]
fn json_rejects_what_is_not_json_or_not_in_the_data_model() {
    for (doc, why) in [
        (&b""[..], "truncated"),
        (b"{", "truncated"),
        (br#"{"a":1"#, "truncated"),
        (br#"{"a":"x"#, "truncated"),
        (br#"{"a":1}x"#, "trailing"),
        (br#"{"a":1} {}"#, "trailing"),
        (b"{}\x0c", "trailing"),
        (b"\x0c{}", "unexpected byte 0x0c"),
        (b"{\"a\":\x0c1}", "unexpected byte 0x0c"),
        (br#"{"a":1,"a":2}"#, "duplicate map key \"a\""),
        (br#"{"a":"x\u0000"}"#, "NUL in a string or key"),
        (br#"{"a\u0000":1}"#, "NUL in a string or key"),
        (br#"{"a":"\ud800"}"#, "lone surrogate"),
        (br#"{"a":"\udc00x"}"#, "lone surrogate"),
        (br#"{"a":"\ud800\u0041"}"#, "lone surrogate"),
        (b"{\"a\":\"\xff\"}", "invalid UTF-8"),
        (b"{\"\xed\xa0\x80\":1}", "invalid UTF-8"),
        (b"{\"a\":\"\x01\"}", "control character"),
        (br#"{"a":1e400}"#, "float64 range"),
        (br#"{"a":-1e400}"#, "float64 range"),
        (br#"{"a":18446744073709551616}"#, "outside int64/uint64"),
        (br#"{"a":-9223372036854775809}"#, "below INT64_MIN"),
        (br#"{"a":NaN}"#, "unexpected byte"),
        (br#"{"a":Infinity}"#, "unexpected byte"),
        (br#"{"a":01}"#, "unexpected byte"),
        (br#"{"a":1.}"#, "invalid number"),
        (br#"{"a":.5}"#, "unexpected byte"),
        (br#"{"a":-}"#, "invalid number"),
        (br#"{"a":1e}"#, "invalid number"),
        (br#"{a:1}"#, "a string key expected"),
        (br#"{1:1}"#, "a string key expected"),
        (br#"{"a":1,}"#, "a string key expected"),
        (br#"{"a":[1,]}"#, "unexpected byte"),
        (br#"{"a":[1 2]}"#, "unexpected byte"),
        (br#"{"a" 1}"#, "':' expected"),
        (br#"{"a":tru}"#, "invalid literal"),
        (br#"{"a":"\x"}"#, "invalid escape"),
        (br#"{"a":"\u12"}"#, "escape"),
        (b"\xef\xbb\xbf{}", "unexpected byte"),
    ] {
        rejects("json", doc, why);
    }
}

#[test]
fn msgpack_rejects_what_is_not_in_the_data_model_or_disagrees_with_its_length() {
    assert_eq!(h("msgpack", b"\x81\xa1a\xd0\x05"), Ok(one("a", Val::UInt(5))));
    assert_eq!(h("msgpack", b"\x81\xa1a\xca\x3f\x80\x00\x00"), Ok(one("a", Val::Float(1.0))));
    assert_eq!(h("msgpack", b"\x81\xa1a\xcf\xff\xff\xff\xff\xff\xff\xff\xff"), Ok(one("a", Val::UInt(u64::MAX))));
    assert_eq!(h("msgpack", b"\x81\xa1a\xc4\x02\x00\x01"), Ok(one("a", Val::Bin(vec![0, 1]))));
    for (doc, why) in [
        (&b""[..], "truncated"),
        (b"\x82\xa1a\x01", "larger than the 3 bytes left"),
        (b"\x82\xa1a\x01\xa1", "truncated"),
        (b"\x81\xa1a", "truncated"),
        (b"\x80\x00", "trailing"),
        (b"\x81\xa1a\xdd\xff\xff\xff\xff\x00\x00", "count 4294967295"),
        (b"\x81\xa1a\xdf\xff\xff\xff\xff\xa1b\x00", "count 4294967295"),
        (b"\x81\xa1a\xdb\xff\xff\xff\xffab", "4294967295 bytes needed"),
        (b"\x81\xa1a\xc6\xff\xff\xff\xffab", "4294967295 bytes needed"),
        (b"\x81\xa1a\xc1", "never used"),
        (b"\x81\xa1a\xd4\x01\x00", "ext type"),
        (b"\x81\xa1a\xc7\x01\x05\x00", "ext type"),
        (b"\x81\x01\x02", "not a string"),
        (b"\x81\xc4\x01a\x01", "not a string"),
        (b"\x81\x90\x01", "not a string"),
        (b"\x81\xa1a\xa1\xff", "invalid UTF-8"),
        (b"\x81\xa1\xff\x01", "invalid UTF-8"),
        (b"\x82\xa1a\x01\xa1a\x02", "duplicate map key"),
        (b"\x81\xa1a\xa1\x00", "NUL in a string or key"),
        (b"\x81\xa1a\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00", "finite"),
        (b"\x81\xa1a\xca\x7f\x80\x00\x00", "finite"),
    ] {
        rejects("msgpack", doc, why);
    }
}

#[test]
fn cbor_rejects_tags_simple_values_and_malformed_items() {
    assert_eq!(h("cbor", b"\xa1\x61a\xf9\x3c\x00"), Ok(one("a", Val::Float(1.0))));
    assert_eq!(h("cbor", b"\xa1\x61a\xf9\x80\x00"), Ok(one("a", Val::Float(-0.0))));
    assert_eq!(h("cbor", b"\xa1\x61a\xf9\x00\x01"), Ok(one("a", Val::Float(2f64.powi(-24)))));
    assert_eq!(h("cbor", b"\xa1\x61a\x7f\x61x\x62yz\xff"), Ok(one("a", Val::Str("xyz".into()))));
    assert_eq!(h("cbor", b"\xa1\x61a\x5f\x41\x01\x40\xff"), Ok(one("a", Val::Bin(vec![1]))));
    assert_eq!(h("cbor", b"\xbf\x61a\x9f\x01\xff\xff"), Ok(one("a", Val::Array(vec![Val::UInt(1)]))));
    assert_eq!(h("cbor", b"\xa1\x61a\x3b\x7f\xff\xff\xff\xff\xff\xff\xff"), Ok(one("a", Val::NegInt(i64::MIN))));
    assert_eq!(h("cbor", b"\xa1\x61a\x18\x05"), Ok(one("a", Val::UInt(5))), "non-shortest heads are valid CBOR");
    for (doc, why) in [
        (&b""[..], "truncated"),
        (b"\xa1\x61a", "truncated"),
        (b"\xa0\x00", "trailing"),
        (b"\xa1\x61a\xc1\x00", "tag"),
        (b"\xd9\xd9\xf7\xa0", "tag"),
        (b"\xa1\x61a\xf7", "undefined"),
        (b"\xa1\x61a\xf0", "simple value"),
        (b"\xa1\x61a\xf8\x20", "simple value"),
        (b"\xa1\x61a\x1c", "reserved"),
        (b"\xa1\x61a\x1f", "indefinite"),
        (b"\xa1\x61a\x3f", "indefinite"),
        (b"\xff", "unexpected break"),
        (b"\xa1\x61a\xff", "unexpected break"),
        (b"\xbf\x61a\xff", "unexpected break"),
        (b"\xa1\x61a\x81\xff", "unexpected break"),
        (b"\xa1\x01\x02", "not a string"),
        (b"\xa1\x41a\x02", "not a string"),
        (b"\xa2\x61a\x01\x61a\x02", "duplicate map key"),
        (b"\xbf\x61a\x01\x7f\x61a\xff\x02\xff", "duplicate map key"),
        (b"\xa1\x61a\x61\xff", "invalid UTF-8"),
        (b"\xa1\x61a\x7f\x61\xc3\x61\xa9\xff", "invalid UTF-8"),
        (b"\xa1\x61a\x7f\x41a\xff", "another type"),
        (b"\xa1\x61a\x7f\x7f\xff\xff", "nested indefinite"),
        (b"\xa1\x61a\x3b\x80\x00\x00\x00\x00\x00\x00\x00", "below INT64_MIN"),
        (b"\xa1\x61a\xf9\x7e\x00", "finite"),
        (b"\xa1\x61a\xf9\x7c\x00", "finite"),
        (b"\xa1\x61a\xfa\x7f\x80\x00\x00", "finite"),
        (b"\xa1\x61a\x9b\xff\xff\xff\xff\xff\xff\xff\xff\x00", "count 18446744073709551615"),
        (b"\xa1\x61a\xbb\x80\x00\x00\x00\x00\x00\x00\x00\x00", "count 9223372036854775808"),
        (b"\xa1\x61a\x7b\xff\xff\xff\xff\xff\xff\xff\xffab", "bytes needed"),
    ] {
        rejects("cbor", doc, why);
    }
}

#[test]
fn bson_rejects_length_fields_that_disagree_with_the_content() {
    let ok = bson_doc(b"\x10i\0\x05\0\0\0\x05b\0\x02\0\0\0\0xy\x04a\0\x0c\0\0\0\x080\0\x01\x0a1\0\0");
    assert_eq!(
        h("bson", &ok),
        Ok(hex64(hash_val(&Val::Map(vec![
            ("i".into(), Val::UInt(5)),
            ("b".into(), Val::Bin(b"xy".to_vec())),
            ("a".into(), Val::Array(vec![Val::Bool(true), Val::Null])),
        ]))))
    );
    // R7: binary of any subtype is its bytes, but the old binary subtype 0x02 wraps them in a
    // length of its own (which must be the binary's length minus 4)
    let bin = |v: &[u8]| Ok(one("a", Val::Bin(v.to_vec())));
    assert_eq!(h("bson", &bson_doc(b"\x05a\0\x01\0\0\0\x04x")), bin(b"x"));
    assert_eq!(h("bson", &bson_doc(b"\x05a\0\x01\0\0\0\x80x")), bin(b"x"));
    assert_eq!(h("bson", &bson_doc(b"\x05a\0\x06\0\0\0\x02\x02\0\0\0xy")), bin(b"xy"));
    assert_eq!(h("bson", &bson_doc(b"\x05a\0\x04\0\0\0\x02\0\0\0\0")), bin(b""));
    let max = u32::MAX.to_le_bytes();
    for (doc, why) in [
        (vec![], "truncated"),
        (b"\x05\0\0".to_vec(), "truncated"),
        ([&max[..], b"\x0aa\0\0"].concat(), "says -1 (as unsigned 4294967295)"),
        (b"\x06\0\0\0\x0aa\0\0".to_vec(), "the input has 8 bytes"),
        (b"\x08\0\0\0\x0aa\0\0\0".to_vec(), "the input has 9 bytes"),
        (b"\x04\0\0\0".to_vec(), "truncated"),
        (b"\x08\0\0\0\x0aa\0\x01".to_vec(), "not terminated"),
        (b"\x09\0\0\0\x0aa\0\0\0".to_vec(), "document terminator at offset 7"),
        (bson_doc(b"\x0aab"), "runs past the end"),
        (bson_doc(b"\x0a\xff\0"), "invalid UTF-8 in the key"),
        (bson_doc(b"\x0aa\0\x0aa\0"), "duplicate map key"),
        (bson_doc(b"\x02a\0\0\0\0\0"), "string length 0"),
        (bson_doc(b"\x02a\0\xff\xff\xff\x7fab\0"), "needs 2147483651 bytes"),
        (bson_doc(b"\x02a\0\x02\0\0\0ab"), "not terminated by 0x00"),
        (bson_doc(b"\x02a\0\x02\0\0\0\xff\0"), "invalid UTF-8 in the string"),
        (bson_doc(b"\x03a\0\xff\xff\xff\x7f\0"), "needs 2147483647 bytes"),
        (bson_doc(b"\x03a\0\x07\0\0\0\x0a\0"), "needs 7 bytes"),
        (bson_doc(b"\x03a\0\x05\0\0\0\x01"), "not terminated"),
        (bson_doc(b"\x03a\0\x04\0\0\0"), "at least 5"),
        (bson_doc(b"\x04a\0\x0b\0\0\0\x0a1\0\x0a0\0\0"), "not the index 0"),
        (bson_doc(b"\x04a\0\x08\0\0\0\x0ax\0\0"), "not the index 0"),
        (bson_doc(b"\x05a\0\xff\xff\xff\xff\0"), "negative"),
        (bson_doc(b"\x05a\0\x05\0\0\0\x02\x02\0\0\0x"), "inner length"),
        (bson_doc(b"\x05a\0\x05\0\0\0\x02\x00\0\0\0x"), "inner length"),
        (bson_doc(b"\x05a\0\x03\0\0\0\x02\x00\0\0"), "inner length"),
        (bson_doc(b"\x05a\0\x04\0\0\0\x02\xff\xff\xff\xff"), "inner length"),
        (bson_doc(b"\x08a\0\x02"), "neither 0 nor 1"),
        (bson_doc(b"\x07a\0\0\0\0\0\0\0\0\0\0\0\0\0"), "ObjectId"),
        (bson_doc(b"\x09a\0\0\0\0\0\0\0\0\0"), "UTC datetime"),
        (bson_doc(b"\x13a\0"), "decimal128"),
        (bson_doc(b"\x01a\0\0\0\0\0\0\0\xf8\x7f"), "finite"),
        (bson_doc(b"\x10a\0\x01\0"), "needs 4 bytes"),
    ] {
        rejects("bson", &doc, why);
    }
}

fn vectors() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let index: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("vectors.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for v in index["vectors"].as_array().unwrap() {
        for fmt in REF_FORMATS {
            if let Some(f) = v["files"][*fmt].as_str() {
                out.push((fmt.to_string(), std::fs::read(dir.join(f)).unwrap()));
            }
        }
    }
    out
}

#[test]
fn every_truncation_of_every_vector_is_rejected() {
    for (fmt, data) in vectors() {
        assert!(ref_decode(&fmt, &data).is_ok());
        // every offset of the small vectors; of the large ones (up to 17 KB) about 300 offsets,
        // including the last 16 (the test is quadratic in the size)
        let step = (data.len() / 300).max(1);
        let cuts = (0..data.len()).step_by(step).chain(data.len().saturating_sub(16)..data.len());
        for cut in cuts {
            let prefix = &data[..cut];
            // a pretty JSON file is complete without its final newline
            if fmt == "json-pretty" && cut == data.len() - 1 {
                continue;
            }
            if let Ok(v) = ref_decode(&fmt, prefix) {
                panic!("{fmt}: the first {cut} of {} bytes accepted as {v:?}", data.len());
            }
        }
    }
}

/// Bit flips, byte changes and splices of every vector (a fixed-seed xorshift): the decoders
/// return Ok or Err, never panic, and what they accept hashes.
#[test]
fn mutated_vectors_never_panic_the_decoders() {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut accepted = 0;
    for (fmt, data) in vectors() {
        for _ in 0..150 {
            let mut m = data.clone();
            for _ in 0..1 + rnd() % 3 {
                let i = (rnd() as usize) % m.len().max(1);
                match rnd() % 4 {
                    0 if !m.is_empty() => m[i] ^= 1 << (rnd() % 8),
                    1 if !m.is_empty() => m[i] = rnd() as u8,
                    2 => m.insert(i.min(m.len()), rnd() as u8),
                    _ if !m.is_empty() => {
                        m.remove(i);
                    }
                    _ => {}
                }
            }
            if let Ok(v) = ref_decode(&fmt, &m) {
                accepted += 1;
                let _ = hash_val(&v);
            }
        }
    }
    assert!(accepted > 0);
}
