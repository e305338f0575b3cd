//! serde_json (features: float_roundtrip, so doubles parse exactly; no arbitrary_precision).

use super::{build_then_encode, lib, lib_try, serialize_encoder, Bench, Encoder, JSON};
use crate::hash::{self, Node};
use crate::model::{fold, HashSeed, Val};
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "serde_json::Value (BTreeMap objects); write builds a Value from the harness's object, then to_vec / to_vec_pretty, then drops it",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("serde_json", "serde_json", JSON)
        },
        Bench {
            notes: "variant: to_vec / to_vec_pretty of a serde_json::Value built once outside the loop, the dump alone",
            write: Some(write_prebuilt),
            steps_override: &[("write", &["prebuilt", "encode", "hash-output"])],
            ..Bench::new("serde_json-dump-prebuilt", "serde_json", JSON)
        },
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): serde_json::to_vec / to_vec_pretty of the harness's Val (crate::ser)",
            write: Some(write_serialize),
            ..Bench::new("serde_json-serialize", "serde_json", JSON)
        },
        Bench {
            notes: "serde_json into a borrowed DOM (strings and keys borrow from the input when unescaped: Cow<str>; objects as Vec of pairs)",
            tree: Some(tree_borrowed),
            ..Bench::new("serde_json-borrowed", "serde_json", JSON)
        },
        Bench {
            notes: "serde DeserializeSeed that hashes while serde_json parses, building no tree (Rust's streaming parse)",
            incremental: Some(visitor),
            ..Bench::new("serde_json-visitor", "serde_json", JSON)
        },
        super::typed_row("serde_json-typed", "serde_json", &["json"], "serde derive: to_vec / from_slice", typed::typed()),
    ]
}

fn err(e: serde_json::Error) -> String {
    e.to_string()
}

fn hash_number(n: &serde_json::Number) -> Result<u64, String> {
    Ok(if let Some(u) = n.as_u64() {
        hash::hash_u64(u)
    } else if let Some(i) = n.as_i64() {
        hash::hash_i64(i)
    } else {
        hash::hash_f64(n.as_f64().ok_or("number is not representable")?)
    })
}

/// The hash of a serde_json Value (iterative: [`hash::walk`]).
pub fn hash_value(v: &Value) -> Result<u64, String> {
    hash::walk(v, #[inline(always)] |v| {
        Ok(match v {
            Value::Null => Node::Leaf(hash::NULL_HASH),
            Value::Bool(b) => Node::Leaf(hash::hash_bool(*b)),
            Value::Number(n) => Node::Leaf(hash_number(n)?),
            Value::String(s) => Node::Leaf(hash::hash_str(s)),
            Value::Array(a) => Node::Array(a.iter().map(Ok)),
            Value::Object(m) => Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
        })
    })
}

/// The harness's tree as a serde_json Value (what `serde_json::to_value` makes of it, built
/// iteratively), the input of the write row.
pub fn to_value(v: &Val) -> Result<Value, String> {
    fold(
        v,
        |x| {
            Ok(match x {
                Val::Null => Value::Null,
                Val::Bool(b) => Value::Bool(*b),
                Val::UInt(u) => Value::from(*u),
                Val::NegInt(i) => Value::from(*i),
                Val::Float(f) => {
                    Value::Number(serde_json::Number::from_f64(*f).ok_or("JSON cannot carry NaN or infinity")?)
                }
                Val::Str(s) => Value::String(s.clone()),
                Val::Bin(_) => return Err("JSON has no binary type".to_string()),
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| Ok(Value::Array(a)),
        |m| Ok(Value::Object(m.into_iter().map(|(k, x)| (k.to_owned(), x)).collect())),
    )
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = lib(|| serde_json::from_slice(data))?.map_err(err)?;
    hash_value(&v)
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    // the seed's own frames are on the stack too, within serde_json's recursion limit (128)
    lib(|| {
        let mut de = serde_json::Deserializer::from_slice(data);
        let h = HashSeed.deserialize(&mut de)?;
        de.end().map(|_| h)
    })?
    .map_err(err)
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        build_then_encode(v, to_value, |x| lib_try(|| serde_json::to_vec_pretty(x)))
    } else {
        build_then_encode(v, to_value, |x| lib_try(|| serde_json::to_vec(x)))
    }
}

/// serde's way (`crate::ser`): serde_json's serializer driven by the harness's object, no Value.
fn write_serialize(fmt: &str, v: &Val) -> Result<Encoder, String> {
    if fmt == "json-pretty" {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| serde_json::to_vec_pretty(v)))
    } else {
        serialize_encoder(v, crate::ser::check_json, |v| lib_try(|| serde_json::to_vec(v)))
    }
}

/// The `-prebuilt` variant (spec/fairness.md rule 10): the Value is built here, once, outside the
/// loop, and the loop times the dump alone (as the native `jansson-dump-prebuilt`).
fn write_prebuilt(fmt: &str, v: &Val) -> Result<Encoder, String> {
    let value = to_value(v)?;
    Ok(if fmt == "json-pretty" {
        Box::new(move || lib_try(|| serde_json::to_vec_pretty(&value)))
    } else {
        Box::new(move || lib_try(|| serde_json::to_vec(&value)))
    })
}

// --- borrowed DOM -----------------------------------------------------------------------------

enum BVal<'a> {
    Null,
    Bool(bool),
    UInt(u64),
    NegInt(i64),
    Float(f64),
    Str(Cow<'a, str>),
    Array(Vec<BVal<'a>>),
    Object(Vec<(Cow<'a, str>, BVal<'a>)>),
}

struct BKey<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for BKey<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KV;
        impl<'de> Visitor<'de> for KV {
            type Value = BKey<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<BKey<'de>, E> {
                Ok(BKey(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<BKey<'de>, E> {
                Ok(BKey(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<BKey<'de>, E> {
                Ok(BKey(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KV)
    }
}

impl<'de> Deserialize<'de> for BVal<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = BVal<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E>(self) -> Result<BVal<'de>, E> {
                Ok(BVal::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<BVal<'de>, E> {
                Ok(BVal::Bool(b))
            }
            fn visit_u64<E>(self, v: u64) -> Result<BVal<'de>, E> {
                Ok(BVal::UInt(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<BVal<'de>, E> {
                Ok(if v >= 0 { BVal::UInt(v as u64) } else { BVal::NegInt(v) })
            }
            fn visit_f64<E>(self, v: f64) -> Result<BVal<'de>, E> {
                Ok(BVal::Float(v))
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<BVal<'de>, E> {
                Ok(BVal::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<BVal<'de>, E> {
                Ok(BVal::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<BVal<'de>, E> {
                Ok(BVal::Str(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BVal<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(x) = seq.next_element()? {
                    out.push(x);
                }
                Ok(BVal::Array(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BVal<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(BKey(k)) = map.next_key()? {
                    out.push((k, map.next_value()?));
                }
                Ok(BVal::Object(out))
            }
        }
        d.deserialize_any(V)
    }
}

fn hash_bval(v: &BVal) -> u64 {
    let r = hash::walk(v, #[inline(always)] |v| {
        Ok::<_, std::convert::Infallible>(match v {
            BVal::Null => Node::Leaf(hash::NULL_HASH),
            BVal::Bool(b) => Node::Leaf(hash::hash_bool(*b)),
            BVal::UInt(u) => Node::Leaf(hash::hash_u64(*u)),
            BVal::NegInt(i) => Node::Leaf(hash::hash_i64(*i)),
            BVal::Float(f) => Node::Leaf(hash::hash_f64(*f)),
            BVal::Str(s) => Node::Leaf(hash::hash_str(s)),
            BVal::Array(a) => Node::Array(a.iter().map(Ok)),
            BVal::Object(m) => Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
        })
    });
    match r {
        Ok(h) => h,
        Err(never) => match never {},
    }
}

fn tree_borrowed(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: BVal = lib(|| serde_json::from_slice(data))?.map_err(err)?;
    Ok(hash_bval(&v))
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        serde_json::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        serde_json::from_slice(d).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::assert_deep_walk;

    /// The walks over serde_json's trees are iterative: trees nested 100,000 deep (built by the
    /// harness's own conversion; serde_json's parser stops at 128) hash without recursion.
    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_value, |v| hash_value(v).unwrap());
        let mut b = BVal::Null;
        for _ in 0..100_000 {
            b = BVal::Array(vec![b]);
        }
        let mut want = hash::NULL_HASH;
        for _ in 0..100_000 {
            want = hash::hash_array([want]);
        }
        assert_eq!(hash_bval(&b), want);
        std::mem::forget(b);
    }
}
