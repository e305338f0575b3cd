//! serde_json (features: float_roundtrip, so doubles parse exactly; no arbitrary_precision).

use super::{Bench, Encoder, JSON};
use crate::hash::{self, ArrayAcc, MapAcc};
use crate::model::{HashSeed, Val};
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "serde_json::Value (BTreeMap objects); write uses to_vec / to_vec_pretty",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("serde_json", "serde_json", JSON)
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

pub fn hash_value(v: &Value) -> Result<u64, String> {
    Ok(match v {
        Value::Null => hash::NULL_HASH,
        Value::Bool(b) => hash::hash_bool(*b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                hash::hash_u64(u)
            } else if let Some(i) = n.as_i64() {
                hash::hash_i64(i)
            } else {
                hash::hash_f64(n.as_f64().ok_or("number is not representable")?)
            }
        }
        Value::String(s) => hash::hash_str(s),
        Value::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a {
                acc.push(hash_value(x)?);
            }
            acc.finish()
        }
        Value::Object(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m {
                acc.push(hash::hash_str(k), hash_value(x)?);
            }
            acc.finish()
        }
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = serde_json::from_slice(data).map_err(err)?;
    hash_value(&v)
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut de = serde_json::Deserializer::from_slice(data);
    let h = HashSeed.deserialize(&mut de).map_err(err)?;
    de.end().map_err(err)?;
    Ok(h)
}

fn write(fmt: &str, v: &Val) -> Result<Encoder, String> {
    let value = serde_json::to_value(v).map_err(err)?;
    Ok(if fmt == "json-pretty" {
        Box::new(move || serde_json::to_vec_pretty(&value).map_err(err))
    } else {
        Box::new(move || serde_json::to_vec(&value).map_err(err))
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
    match v {
        BVal::Null => hash::NULL_HASH,
        BVal::Bool(b) => hash::hash_bool(*b),
        BVal::UInt(u) => hash::hash_u64(*u),
        BVal::NegInt(i) => hash::hash_i64(*i),
        BVal::Float(f) => hash::hash_f64(*f),
        BVal::Str(s) => hash::hash_str(s),
        BVal::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a {
                acc.push(hash_bval(x));
            }
            acc.finish()
        }
        BVal::Object(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m {
                acc.push(hash::hash_str(k), hash_bval(x));
            }
            acc.finish()
        }
    }
}

fn tree_borrowed(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: BVal = serde_json::from_slice(data).map_err(err)?;
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
