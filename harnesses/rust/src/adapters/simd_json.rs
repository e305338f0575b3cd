//! simd-json: owned DOM, borrowed DOM (strings borrow from the in-situ-unescaped input), and the
//! raw tape. All parse in place, which is why every iteration gets a fresh copy of the input.

use super::{Bench, Encoder, JSON};
use crate::hash::{self, ArrayAcc, MapAcc};
use crate::model::Val;
use simd_json::prelude::*;
use simd_json::{BorrowedValue, Node, OwnedValue, StaticNode};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "in-situ parse to simd_json::OwnedValue (owned strings); write uses Writable::encode / encode_pp",
            tree: Some(tree_owned),
            write: Some(write),
            ..Bench::new("simd-json-owned", "simd-json", JSON)
        },
        Bench {
            notes: "in-situ parse to simd_json::BorrowedValue (strings borrow from the mutated input)",
            tree: Some(tree_borrowed),
            ..Bench::new("simd-json-borrowed", "simd-json", JSON)
        },
        Bench {
            notes: "in-situ parse to the flat tape (simd_json::to_tape), hashed by walking the tape nodes in order",
            incremental: Some(tape),
            ..Bench::new("simd-json-tape", "simd-json", JSON)
        },
        super::typed_row(
            "simd-json-typed",
            "simd-json",
            &["json"],
            "serde derive: simd_json::serde::to_vec / from_slice (in-situ on the copy)",
            typed::typed(),
        ),
    ]
}

fn err(e: simd_json::Error) -> String {
    e.to_string()
}

#[inline]
fn hash_static(s: &StaticNode) -> u64 {
    match s {
        StaticNode::Null => hash::NULL_HASH,
        StaticNode::Bool(b) => hash::hash_bool(*b),
        StaticNode::I64(i) => hash::hash_i64(*i),
        StaticNode::U64(u) => hash::hash_u64(*u),
        StaticNode::F64(f) => hash::hash_f64(*f),
    }
}

fn hash_owned(v: &OwnedValue) -> u64 {
    match v {
        OwnedValue::Static(s) => hash_static(s),
        OwnedValue::String(s) => hash::hash_str(s),
        OwnedValue::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a.iter() {
                acc.push(hash_owned(x));
            }
            acc.finish()
        }
        OwnedValue::Object(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m.iter() {
                acc.push(hash::hash_str(k), hash_owned(x));
            }
            acc.finish()
        }
    }
}

fn hash_borrowed(v: &BorrowedValue) -> u64 {
    match v {
        BorrowedValue::Static(s) => hash_static(s),
        BorrowedValue::String(s) => hash::hash_str(s),
        BorrowedValue::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a.iter() {
                acc.push(hash_borrowed(x));
            }
            acc.finish()
        }
        BorrowedValue::Object(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m.iter() {
                acc.push(hash::hash_str(k), hash_borrowed(x));
            }
            acc.finish()
        }
    }
}

fn walk_tape(nodes: &[Node], i: &mut usize) -> Result<u64, String> {
    let node = nodes.get(*i).ok_or("truncated tape")?;
    *i += 1;
    Ok(match *node {
        Node::Static(ref s) => hash_static(s),
        Node::String(s) => hash::hash_str(s),
        Node::Array { len, .. } => {
            let mut acc = ArrayAcc::new();
            for _ in 0..len {
                acc.push(walk_tape(nodes, i)?);
            }
            acc.finish()
        }
        Node::Object { len, .. } => {
            let mut acc = MapAcc::new();
            for _ in 0..len {
                let Some(Node::String(k)) = nodes.get(*i) else { return Err("object key is not a string".into()) };
                *i += 1;
                let kh = hash::hash_str(k);
                acc.push(kh, walk_tape(nodes, i)?);
            }
            acc.finish()
        }
    })
}

fn tree_owned(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v = simd_json::to_owned_value(data).map_err(err)?;
    Ok(hash_owned(&v))
}

fn tree_borrowed(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v = simd_json::to_borrowed_value(data).map_err(err)?;
    Ok(hash_borrowed(&v))
}

fn tape(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let t = simd_json::to_tape(data).map_err(err)?;
    let mut i = 0;
    let h = walk_tape(&t.0, &mut i)?;
    if i != t.0.len() {
        return Err("tape has nodes after the root value".into());
    }
    Ok(h)
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    let value: OwnedValue = simd_json::serde::to_owned_value(v).map_err(err)?;
    Ok(if fmt == "json-pretty" {
        Box::new(move || Ok(value.encode_pp().into_bytes()))
    } else {
        Box::new(move || Ok(value.encode().into_bytes()))
    })
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        simd_json::serde::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        simd_json::serde::from_slice(d).map_err(|e| e.to_string())
    }
}
