//! simd-json: owned DOM, borrowed DOM (strings borrow from the in-situ-unescaped input), and the
//! raw tape. All parse in place, which is why every iteration gets a fresh copy of the input.

use super::{build_then_encode, lib, lib_try, serialize_encoder, Bench, Encoder, JSON};
use crate::hash::{self, ArrayAcc};
use crate::model::{fold, Val};
use std::convert::Infallible;
use simd_json::prelude::*;
use simd_json::{BorrowedValue, Node, OwnedValue, StaticNode};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "in-situ parse to simd_json::OwnedValue (owned strings); write builds an OwnedValue from the harness's object, then Writable::encode / encode_pp, then drops it",
            tree: Some(tree_owned),
            write: Some(write),
            ..Bench::new("simd-json-owned", "simd-json", JSON)
        },
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): simd_json::to_vec / to_vec_pretty of the harness's Val (crate::ser)",
            write: Some(write_serialize),
            ..Bench::new("simd-json-serialize", "simd-json", JSON)
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

fn never(r: Result<u64, Infallible>) -> u64 {
    match r {
        Ok(h) => h,
        Err(never) => match never {},
    }
}

/// The hash of an owned DOM (iterative: [`hash::walk`]).
fn hash_owned(v: &OwnedValue) -> u64 {
    never(hash::walk(v, #[inline(always)] |v| {
        Ok(match v {
            OwnedValue::Static(s) => hash::Node::Leaf(hash_static(s)),
            OwnedValue::String(s) => hash::Node::Leaf(hash::hash_str(s)),
            OwnedValue::Array(a) => hash::Node::Array(a.iter().map(Ok)),
            OwnedValue::Object(m) => hash::Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
        })
    }))
}

fn hash_borrowed(v: &BorrowedValue) -> u64 {
    never(hash::walk(v, #[inline(always)] |v| {
        Ok(match v {
            BorrowedValue::Static(s) => hash::Node::Leaf(hash_static(s)),
            BorrowedValue::String(s) => hash::Node::Leaf(hash::hash_str(s)),
            BorrowedValue::Array(a) => hash::Node::Array(a.iter().map(Ok)),
            BorrowedValue::Object(m) => hash::Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
        })
    }))
}

/// One open container of the tape walk: its fold, items still to come, and (objects) the hash of
/// the key of the value being read.
enum TapeFrame {
    Array(ArrayAcc, usize),
    Object(hash::MapAcc, usize, u64),
}

/// The hash of a tape, walking its nodes in order with a stack of open containers (no recursion).
fn walk_tape(nodes: &[Node<'_>]) -> Result<u64, String> {
    let mut stack: Vec<TapeFrame> = Vec::new();
    let mut i = 0;
    loop {
        // in an object, a key comes before each value
        if let Some(TapeFrame::Object(_, left, key)) = stack.last_mut() {
            if *left > 0 {
                let Some(Node::String(k)) = nodes.get(i) else { return Err("object key is not a string".into()) };
                *key = hash::hash_str(k);
                i += 1;
            }
        }
        let node = nodes.get(i).ok_or("truncated tape")?;
        i += 1;
        let mut done = match *node {
            Node::Static(ref s) => Some(hash_static(s)),
            Node::String(s) => Some(hash::hash_str(s)),
            Node::Array { len, .. } => {
                stack.push(TapeFrame::Array(ArrayAcc::new(), len));
                None
            }
            Node::Object { len, .. } => {
                stack.push(TapeFrame::Object(hash::MapAcc::new(), len, 0));
                None
            }
        };
        // feed finished values to their containers, closing the ones that are complete
        loop {
            let h = match stack.last_mut() {
                None => match done {
                    Some(h) => {
                        if i != nodes.len() {
                            return Err("tape has nodes after the root value".into());
                        }
                        return Ok(h);
                    }
                    None => return Err("truncated tape".into()),
                },
                Some(TapeFrame::Array(acc, left)) => {
                    if let Some(h) = done.take() {
                        acc.push(h);
                        *left -= 1;
                    }
                    if *left > 0 {
                        break;
                    }
                    acc.finish()
                }
                Some(TapeFrame::Object(acc, left, key)) => {
                    if let Some(h) = done.take() {
                        acc.push(*key, h);
                        *left -= 1;
                    }
                    if *left > 0 {
                        break;
                    }
                    acc.finish()
                }
            };
            stack.pop();
            done = Some(h);
        }
    }
}

fn tree_owned(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v = lib(|| simd_json::to_owned_value(data))?.map_err(err)?;
    Ok(hash_owned(&v))
}

fn tree_borrowed(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v = lib(|| simd_json::to_borrowed_value(data))?.map_err(err)?;
    Ok(hash_borrowed(&v))
}

fn tape(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let t = lib(|| simd_json::to_tape(data))?.map_err(err)?;
    walk_tape(&t.0)
}

/// The harness's tree as simd-json's owned DOM (what `simd_json::serde::to_owned_value` makes of
/// it, built iteratively), the input of the write row.
fn to_owned(v: &Val) -> Result<OwnedValue, String> {
    fold(
        v,
        |x| {
            Ok(match x {
                Val::Null => OwnedValue::Static(StaticNode::Null),
                Val::Bool(b) => OwnedValue::Static(StaticNode::Bool(*b)),
                Val::UInt(u) => OwnedValue::Static(StaticNode::U64(*u)),
                Val::NegInt(i) => OwnedValue::Static(StaticNode::I64(*i)),
                Val::Float(f) => OwnedValue::Static(StaticNode::F64(*f)),
                Val::Str(s) => OwnedValue::String(s.clone()),
                Val::Bin(_) => return Err("JSON has no binary type".to_string()),
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| Ok(OwnedValue::Array(Box::new(a))),
        |m| {
            let mut o = simd_json::owned::Object::with_capacity_and_hasher(m.len(), Default::default());
            for (k, x) in m {
                o.insert(k.to_owned(), x);
            }
            Ok(OwnedValue::Object(Box::new(o)))
        },
    )
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        build_then_encode(v, to_owned, |value| lib(|| value.encode_pp().into_bytes()))
    } else {
        build_then_encode(v, to_owned, |value| lib(|| value.encode().into_bytes()))
    }
}

/// serde's way (`crate::ser`): simd-json's serializer driven by the harness's object, no OwnedValue.
fn write_serialize(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| simd_json::to_vec_pretty(v)))
    } else {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| simd_json::to_vec(v)))
    }
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

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::{assert_deep_walk, nested_hash};

    /// The walks over simd-json's owned DOM and its tape are iterative (its parser stops at 1024
    /// levels; the DOM is built by the harness's conversion, the tape by hand).
    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_owned, hash_owned);
        // {"a": [[...[1, "x"]...]]} as a tape
        let mut tape = vec![Node::Object { len: 1, count: 0 }, Node::String("a")];
        tape.extend((1..100_000).map(|_| Node::Array { len: 1, count: 0 }));
        tape.extend([Node::Array { len: 2, count: 0 }, Node::Static(StaticNode::U64(1)), Node::String("x")]);
        assert_eq!(walk_tape(&tape).unwrap(), nested_hash(100_000, false));
        tape.push(Node::Static(StaticNode::Null));
        assert!(walk_tape(&tape).is_err(), "a node after the root value");
        assert!(walk_tape(&tape[..tape.len() - 2]).is_err(), "a truncated tape");
    }
}
