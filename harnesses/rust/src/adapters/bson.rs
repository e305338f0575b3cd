//! bson: the owned Document, and RawDocument for in-place iteration (no tree).

use super::{build_then_encode, lib_try, serialize_encoder, Bench, Encoder, LibIter};
use crate::hash::{self, Node};
use crate::model::{to_bson_doc, Val};
use bson::raw::{RawBsonRef, RawDocument};
use bson::{Bson, Document};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "bson::Document::from_reader(&[u8]); write builds a Document from the harness's object, then Document::to_writer into a Vec, then drops it",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("bson", "bson", &["bson"])
        },
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): bson::serialize_to_vec of the harness's Val (crate::ser; bson's serializer writes every integer as int64, from serialize_u64 / serialize_i64)",
            write: Some(write_serialize),
            ..Bench::new("bson-serialize", "bson", &["bson"])
        },
        Bench {
            notes: "bson::RawDocument::from_bytes: iterates the elements in place over the input, building no tree",
            incremental: Some(raw),
            // its hash walks a tree (the library's lazy iterators) with hash::walk, not events: it
            // hashes every element as the iterators parse it, as the contract asks, but in the tree
            // form of the hash, whose cost hash-object subtracts (its steps keep the contract: the
            // form of the hash is the harness's, not the library's work)
            baseline_override: &[("incremental", "hash-object")],
            ..Bench::new("bson-raw", "bson", &["bson"])
        },
        super::typed_row(
            "bson-typed",
            "bson",
            &["bson"],
            "serde derive: serialize_to_vec / deserialize_from_slice of {records: [...]} (BSON needs a document \
             at the root); BSON has no uint64, so records with a u64 above i64::MAX fail to encode",
            typed::typed(),
        ),
    ]
}

/// A node of the owned tree: the root Document, or a value inside it.
#[derive(Clone, Copy)]
enum Owned<'a> {
    Doc(&'a Document),
    Val(&'a Bson),
}

fn entries(d: &Document) -> impl Iterator<Item = Result<(u64, Owned<'_>), String>> {
    d.iter().map(|(k, x)| Ok((hash::hash_str(k), Owned::Val(x))))
}

/// The hash of an owned Document (iterative: [`hash::walk`]).
fn hash_doc(d: &Document) -> Result<u64, String> {
    hash::walk(Owned::Doc(d), #[inline(always)] |n| {
        let v = match n {
            Owned::Doc(d) => return Ok(Node::Map(entries(d))),
            Owned::Val(v) => v,
        };
        Ok(Node::Leaf(match v {
            Bson::Null => hash::NULL_HASH,
            Bson::Boolean(b) => hash::hash_bool(*b),
            Bson::Int32(i) => hash::hash_i64(*i as i64),
            Bson::Int64(i) => hash::hash_i64(*i),
            Bson::Double(f) => hash::hash_f64(*f),
            Bson::String(s) => hash::hash_str(s),
            Bson::Binary(b) => hash::hash_bin(&b.bytes),
            Bson::Array(a) => return Ok(Node::Array(a.iter().map(|x| Ok(Owned::Val(x))))),
            Bson::Document(d) => return Ok(Node::Map(entries(d))),
            other => return Err(format!("BSON type {:?} is not in the data model", other.element_type())),
        }))
    })
}

/// The hash of a RawDocument, iterating it in place: a stack of the library's lazy iterators (no
/// recursion), each step of which parses one element (through [`LibIter`]: a panic there is the
/// library's).
fn hash_raw_doc(d: &RawDocument) -> Result<u64, String> {
    hash::walk(RawBsonRef::Document(d), #[inline(always)] |v| {
        Ok(Node::Leaf(match v {
            RawBsonRef::Null => hash::NULL_HASH,
            RawBsonRef::Boolean(b) => hash::hash_bool(b),
            RawBsonRef::Int32(i) => hash::hash_i64(i as i64),
            RawBsonRef::Int64(i) => hash::hash_i64(i),
            RawBsonRef::Double(f) => hash::hash_f64(f),
            RawBsonRef::String(s) => hash::hash_str(s),
            RawBsonRef::Binary(b) => hash::hash_bin(b.bytes),
            RawBsonRef::Array(a) => {
                return Ok(Node::Array(
                    LibIter(a.into_iter()).map(|x| x.and_then(|x| x.map_err(|e| e.to_string()))),
                ))
            }
            RawBsonRef::Document(d) => {
                return Ok(Node::Map(LibIter(d.into_iter()).map(|x| {
                    let (k, x) = x.and_then(|x| x.map_err(|e| e.to_string()))?;
                    Ok((hash::hash_str(k.as_str()), x))
                })))
            }
            other => return Err(format!("BSON type {:?} is not in the data model", other.element_type())),
        }))
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let d = lib_try(|| Document::from_reader(&*data))?;
    hash_doc(&d)
}

fn raw(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let d = lib_try(|| RawDocument::from_bytes(&*data))?;
    if d.as_bytes().len() != data.len() {
        return Err("trailing bytes after the document".into());
    }
    hash_raw_doc(d)
}

fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    build_then_encode(v, to_bson_doc, |doc| {
        let mut out = Vec::new();
        lib_try(|| doc.to_writer(&mut out))?;
        Ok(out)
    })
}

/// serde's way (`crate::ser`): bson's raw serializer driven by the harness's object, no Document.
fn write_serialize(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    serialize_encoder(v, crate::ser::check_bson, |v| lib_try(|| bson::serialize_to_vec(v)))
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Deserialize, Serialize};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    /// BSON's root must be a document, so the record list travels as its one field.
    #[derive(Serialize)]
    struct Root<'a, T> {
        records: &'a T,
    }
    #[derive(Deserialize)]
    struct Owned<T> {
        records: T,
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        bson::serialize_to_vec(&Root { records: v }).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        bson::deserialize_from_slice::<Owned<T>>(d).map(|o| o.records).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::{assert_deep_walk, nested_hash};

    /// The walks over bson's owned Document and over a RawDocument (lazily parsed, element by
    /// element) are iterative.
    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_bson_doc, |d| hash_doc(d).unwrap());
        // {"a": {"a": ... {"b": 1}}} as raw bytes, front to back: each level adds its length (4),
        // type and key (3) and terminator (1) to the innermost document {"b": 1} (12 bytes)
        let mut body = Vec::new();
        for k in (1..=100_000i32).rev() {
            body.extend_from_slice(&(12 + 8 * k).to_le_bytes());
            body.extend_from_slice(b"\x03a\0");
        }
        body.extend_from_slice(b"\x0c\0\0\0\x10b\0\x01\0\0\0\0");
        body.resize(body.len() + 100_000, 0);
        let raw = RawDocument::from_bytes(&body).unwrap();
        assert_eq!(hash_raw_doc(raw).unwrap(), nested_hash(100_000, true));
    }
}
