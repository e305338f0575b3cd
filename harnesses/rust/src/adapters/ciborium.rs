//! ciborium: CBOR's dynamic Value, and the hashing DeserializeSeed through its serde Deserializer.

use super::{build_then_encode, lib_try, serialize_encoder, Bench, Encoder};
use crate::hash::{self, Node};
use crate::model::{fold, HashSeed, Val};
use ciborium::Value;
use serde::de::DeserializeSeed;
use serde::{Deserialize, Deserializer};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes:
                "ciborium::de::from_reader(&[u8]) to ciborium::Value; write builds a Value from the harness's object, then ciborium::ser::into_writer into a Vec, then drops it",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("ciborium", "ciborium", &["cbor"])
        },
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): ciborium::ser::into_writer of the harness's Val into a Vec (crate::ser)",
            write: Some(write_serialize),
            ..Bench::new("ciborium-serialize", "ciborium", &["cbor"])
        },
        Bench {
            notes: "serde DeserializeSeed that hashes while ciborium decodes from &[u8], building no tree",
            incremental: Some(visitor),
            ..Bench::new("ciborium-visitor", "ciborium", &["cbor"])
        },
        super::typed_row(
            "ciborium-typed",
            "ciborium",
            &["cbor"],
            "serde derive: ser::into_writer (structs as maps) / de::from_reader(&[u8])",
            typed::typed(),
        ),
    ]
}

/// The hash of a ciborium Value (iterative: [`hash::walk`]).
pub fn hash_value(v: &Value) -> Result<u64, String> {
    hash::walk(v, #[inline(always)] |v| {
        Ok(Node::Leaf(match v {
            Value::Null => hash::NULL_HASH,
            Value::Bool(b) => hash::hash_bool(*b),
            Value::Integer(i) => hash::hash_i128(i128::from(*i)).ok_or("integer outside the data model")?,
            Value::Float(f) => hash::hash_f64(*f),
            Value::Text(s) => hash::hash_str(s),
            Value::Bytes(b) => hash::hash_bin(b),
            Value::Array(a) => return Ok(Node::Array(a.iter().map(Ok))),
            Value::Map(m) => {
                return Ok(Node::Map(m.iter().map(|(k, x)| {
                    let k = k.as_text().ok_or("map key is not a string")?;
                    Ok((hash::hash_str(k), x))
                })))
            }
            _ => return Err("CBOR tag or simple value is not in the data model".into()),
        }))
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = lib_try(|| ciborium::de::from_reader(&*data))?;
    hash_value(&v)
}

/// ciborium only exposes `from_reader::<T: DeserializeOwned>`, so the seed is wrapped in a type.
struct Hashed(u64);

impl<'de> Deserialize<'de> for Hashed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        HashSeed.deserialize(d).map(Hashed)
    }
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut rd: &[u8] = data;
    let Hashed(h) = lib_try(|| ciborium::de::from_reader(&mut rd))?;
    if !rd.is_empty() {
        return Err("trailing bytes after the value".into());
    }
    Ok(h)
}

/// The harness's tree as a ciborium Value (what `Value::serialized` makes of it, built
/// iteratively), the input of the write row.
fn to_value(v: &Val) -> Result<Value, String> {
    fold(
        v,
        |x| {
            Ok::<_, String>(match x {
                Val::Null => Value::Null,
                Val::Bool(b) => Value::Bool(*b),
                Val::UInt(u) => Value::Integer((*u).into()),
                Val::NegInt(i) => Value::Integer((*i).into()),
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
    build_then_encode(v, to_value, |value| {
        let mut out = Vec::new();
        lib_try(|| ciborium::ser::into_writer(value, &mut out))?;
        Ok(out)
    })
}

/// serde's way (`crate::ser`): ciborium's serializer driven by the harness's object, no Value.
fn write_serialize(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    serialize_encoder(v, crate::ser::check_none, |v| {
        let mut out = Vec::new();
        lib_try(|| ciborium::ser::into_writer(v, &mut out))?;
        Ok(out)
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
        let mut out = Vec::new();
        ciborium::ser::into_writer(v, &mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        ciborium::de::from_reader(&d[..]).map_err(|e| e.to_string())
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
