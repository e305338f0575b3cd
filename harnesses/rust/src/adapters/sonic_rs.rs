//! sonic-rs (SIMD JSON from ByteDance): its Value DOM and serializer.

use super::{build_then_encode, lib, lib_try, serialize_encoder, Bench, Encoder, JSON};
use crate::hash::{self, Node};
use crate::model::{fold, Val};
use sonic_rs::{JsonNumberTrait, Value, ValueRef};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "sonic_rs::Value (parse from &[u8]); write builds a Value from the harness's object, then sonic_rs::to_vec / to_vec_pretty, then drops it",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("sonic-rs", "sonic-rs", JSON)
        },
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): sonic_rs::to_vec / to_vec_pretty of the harness's Val (crate::ser)",
            write: Some(write_serialize),
            ..Bench::new("sonic-rs-serialize", "sonic-rs", JSON)
        },
        super::typed_row("sonic-rs-typed", "sonic-rs", &["json"], "serde derive: sonic_rs::to_vec / from_slice", typed::typed()),
    ]
}

fn err(e: sonic_rs::Error) -> String {
    e.to_string()
}

fn hash_number(n: &sonic_rs::Number) -> Result<u64, String> {
    Ok(if let Some(u) = n.as_u64() {
        hash::hash_u64(u)
    } else if let Some(i) = n.as_i64() {
        hash::hash_i64(i)
    } else {
        hash::hash_f64(n.as_f64().ok_or("number is not representable")?)
    })
}

/// The hash of a sonic-rs Value (iterative: [`hash::walk`]).
fn hash_value(v: &Value) -> Result<u64, String> {
    hash::walk(v, #[inline(always)] |v| {
        Ok(match v.as_ref() {
            ValueRef::Null => Node::Leaf(hash::NULL_HASH),
            ValueRef::Bool(b) => Node::Leaf(hash::hash_bool(b)),
            ValueRef::Number(n) => Node::Leaf(hash_number(&n)?),
            ValueRef::String(s) => Node::Leaf(hash::hash_str(s)),
            ValueRef::Array(a) => Node::Array(a.iter().map(Ok)),
            ValueRef::Object(m) => Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
        })
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = lib(|| sonic_rs::from_slice(data))?.map_err(err)?;
    hash_value(&v)
}

/// The harness's tree as a sonic-rs Value (what `sonic_rs::to_value` makes of it, built
/// iteratively), the input of the write row.
fn to_value(v: &Val) -> Result<Value, String> {
    fold(
        v,
        |x| {
            Ok(match x {
                Val::Null => Value::new_null(),
                Val::Bool(b) => Value::new_bool(*b),
                Val::UInt(u) => Value::new_u64(*u),
                Val::NegInt(i) => Value::new_i64(*i),
                Val::Float(f) => Value::new_f64(*f).ok_or("JSON cannot carry NaN or infinity")?,
                Val::Str(s) => Value::from(s.as_str()),
                Val::Bin(_) => return Err("JSON has no binary type".to_string()),
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| {
            let mut arr = sonic_rs::Array::with_capacity(a.len());
            for x in a {
                arr.push(x);
            }
            Ok(arr.into_value())
        },
        |m| {
            let mut obj = sonic_rs::Object::with_capacity(m.len());
            for (k, x) in m {
                obj.insert(k, x);
            }
            Ok(obj.into_value())
        },
    )
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        build_then_encode(v, to_value, |value| lib_try(|| sonic_rs::to_vec_pretty(value)))
    } else {
        build_then_encode(v, to_value, |value| lib_try(|| sonic_rs::to_vec(value)))
    }
}

/// serde's way (`crate::ser`): sonic-rs's serializer driven by the harness's object, no Value.
fn write_serialize(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| sonic_rs::to_vec_pretty(v)))
    } else {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| sonic_rs::to_vec(v)))
    }
}

#[cfg(test)]
mod tests {
    use sonic_rs::JsonValueTrait;

    /// Documents the known deviation (known-deviations.json): sonic-rs loses the sign of -0.0
    /// when parsing to its Value. If this starts failing, remove the deviation.
    #[test]
    fn negative_zero_sign_is_lost() {
        let v: sonic_rs::Value = sonic_rs::from_str("-0.0").unwrap();
        let f = v.as_f64().unwrap();
        assert_eq!(f, 0.0);
        assert!(f.is_sign_positive(), "sonic-rs now keeps -0.0: drop the known deviation");
        let direct: f64 = sonic_rs::from_str("-0.0").unwrap();
        eprintln!("sonic_rs::from_str::<f64>(\"-0.0\") sign negative: {}", direct.is_sign_negative());
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
        sonic_rs::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        sonic_rs::from_slice(d).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::assert_deep_walk;

    /// The walk over sonic-rs's Value is iterative (its own parser recurses without a limit and
    /// overflows the stack on such input: a library crash, tests/hostile.rs).
    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_value, |v| hash_value(v).unwrap());
    }
}
