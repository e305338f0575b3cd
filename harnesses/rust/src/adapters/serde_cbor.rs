//! serde_cbor 0.11: UNMAINTAINED (archived in 2021, RUSTSEC-2021-0127); kept because it is still
//! widely used.

use super::{build_then_encode, lib_try, serialize_encoder, Bench, Encoder};
use crate::hash::{self, Node};
use crate::model::{fold, Val};
use serde_cbor::Value;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "unmaintained crate (RUSTSEC-2021-0127); serde_cbor::Value (BTreeMap maps, i128 integers); write builds a Value from the harness's object, then serde_cbor::to_vec, then drops it",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("serde_cbor", "serde_cbor", &["cbor"])
        },
        Bench {
            notes: "unmaintained crate (RUSTSEC-2021-0127); serde Serialize driven by the harness's object (no intermediate tree): serde_cbor::to_vec of the harness's Val (crate::ser)",
            write: Some(write_serialize),
            ..Bench::new("serde_cbor-serialize", "serde_cbor", &["cbor"])
        },
        super::typed_row(
            "serde_cbor-typed",
            "serde_cbor",
            &["cbor"],
            "unmaintained crate (archived 2021, RUSTSEC-2021-0127); serde derive: to_vec (structs as maps) / from_slice",
            typed::typed(),
        ),
    ]
}

/// The hash of a serde_cbor Value (iterative: [`hash::walk`]).
fn hash_value(v: &Value) -> Result<u64, String> {
    hash::walk(v, #[inline(always)] |v| {
        Ok(Node::Leaf(match v {
            Value::Null => hash::NULL_HASH,
            Value::Bool(b) => hash::hash_bool(*b),
            Value::Integer(i) => hash::hash_i128(*i).ok_or("integer outside the data model")?,
            Value::Float(f) => hash::hash_f64(*f),
            Value::Text(s) => hash::hash_str(s),
            Value::Bytes(b) => hash::hash_bin(b),
            Value::Array(a) => return Ok(Node::Array(a.iter().map(Ok))),
            Value::Map(m) => {
                return Ok(Node::Map(m.iter().map(|(k, x)| {
                    let Value::Text(k) = k else { return Err("map key is not a string".to_string()) };
                    Ok((hash::hash_str(k), x))
                })))
            }
            _ => return Err("CBOR tag is not in the data model".into()),
        }))
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = lib_try(|| serde_cbor::from_slice(data))?;
    hash_value(&v)
}

/// The harness's tree as a serde_cbor Value (what `serde_cbor::value::to_value` makes of it, built
/// iteratively), the input of the write row.
fn to_value(v: &Val) -> Result<Value, String> {
    fold(
        v,
        |x| {
            Ok::<_, String>(match x {
                Val::Null => Value::Null,
                Val::Bool(b) => Value::Bool(*b),
                Val::UInt(u) => Value::Integer(*u as i128),
                Val::NegInt(i) => Value::Integer(*i as i128),
                Val::Float(f) => Value::Float(*f),
                Val::Str(s) => Value::Text(s.clone()),
                Val::Bin(b) => Value::Bytes(b.clone()),
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| Ok(Value::Array(a)),
        |m| Ok(Value::Map(m.into_iter().map(|(k, x)| (Value::Text(k.to_owned()), x)).collect())),
    )
}

fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    build_then_encode(v, to_value, |value| lib_try(|| serde_cbor::to_vec(value)))
}

/// serde's way (`crate::ser`): serde_cbor's serializer driven by the harness's object, no Value.
fn write_serialize(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    serialize_encoder(v, crate::ser::check_none, |v| lib_try(|| serde_cbor::to_vec(v)))
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        serde_cbor::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        serde_cbor::from_slice(d).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::assert_deep_walk;

    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_value, |v| hash_value(v).unwrap());
    }
}
