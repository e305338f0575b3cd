//! The harness's own tree of the data model (`Val`), the reference decoders that build it, and the
//! hash of it. Write rows start from a `Val` converted to each library's input type; the
//! `hash-object` baseline walks a prebuilt `Val`.

use crate::hash::{self, ArrayAcc, MapAcc};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Null,
    Bool(bool),
    /// Any integer >= 0.
    UInt(u64),
    /// An integer < 0.
    NegInt(i64),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Array(Vec<Val>),
    Map(Vec<(String, Val)>),
}

impl Val {
    pub fn int(v: i64) -> Val {
        if v >= 0 {
            Val::UInt(v as u64)
        } else {
            Val::NegInt(v)
        }
    }
    pub fn int128(v: i128) -> Result<Val, String> {
        if v >= 0 {
            u64::try_from(v).map(Val::UInt).map_err(|_| format!("integer {v} above UINT64_MAX"))
        } else {
            i64::try_from(v).map(Val::NegInt).map_err(|_| format!("integer {v} below INT64_MIN"))
        }
    }
}

pub fn hash_val(v: &Val) -> u64 {
    match v {
        Val::Null => hash::NULL_HASH,
        Val::Bool(b) => hash::hash_bool(*b),
        Val::UInt(u) => hash::hash_u64(*u),
        Val::NegInt(i) => hash::hash_i64(*i),
        Val::Float(f) => hash::hash_f64(*f),
        Val::Str(s) => hash::hash_str(s),
        Val::Bin(b) => hash::hash_bin(b),
        Val::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a {
                acc.push(hash_val(x));
            }
            acc.finish()
        }
        Val::Map(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m {
                acc.push(hash::hash_str(k), hash_val(x));
            }
            acc.finish()
        }
    }
}

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Val::Null => s.serialize_unit(),
            Val::Bool(b) => s.serialize_bool(*b),
            Val::UInt(u) => s.serialize_u64(*u),
            Val::NegInt(i) => s.serialize_i64(*i),
            Val::Float(f) => s.serialize_f64(*f),
            Val::Str(x) => s.serialize_str(x),
            Val::Bin(b) => s.serialize_bytes(b),
            Val::Array(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            Val::Map(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, x) in m {
                    map.serialize_entry(k, x)?;
                }
                map.end()
            }
        }
    }
}

struct ValVisitor;

impl<'de> Visitor<'de> for ValVisitor {
    type Value = Val;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value of the serbench data model")
    }
    fn visit_unit<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val, E> {
        Ok(Val::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Val, D::Error> {
        Val::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Val, E> {
        Ok(Val::Bool(b))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val, E> {
        Ok(Val::int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val, E> {
        Ok(Val::UInt(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Val, E> {
        Val::int128(v).map_err(E::custom)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Val, E> {
        u64::try_from(v).map(Val::UInt).map_err(|_| E::custom("integer above UINT64_MAX"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val, E> {
        Ok(Val::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val, E> {
        Ok(Val::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Val, E> {
        Ok(Val::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Val, E> {
        Ok(Val::Bin(v.to_vec()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Val, E> {
        Ok(Val::Bin(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(x) = seq.next_element()? {
            out.push(x);
        }
        Ok(Val::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(k) = map.next_key::<String>()? {
            out.push((k, map.next_value()?));
        }
        Ok(Val::Map(out))
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Val, D::Error> {
        d.deserialize_any(ValVisitor)
    }
}

/// A `DeserializeSeed` that hashes while it deserialises, building no tree: serde's streaming
/// parse. Used with serde_json, rmp-serde and ciborium (the `*-visitor` benchmarks).
#[derive(Clone, Copy)]
pub struct HashSeed;

struct KeySeed;

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string map key")
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(hash::hash_str(v))
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

impl<'de> DeserializeSeed<'de> for HashSeed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HashSeed {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value of the serbench data model")
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(hash::NULL_HASH)
    }
    fn visit_none<E>(self) -> Result<u64, E> {
        Ok(hash::NULL_HASH)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, b: bool) -> Result<u64, E> {
        Ok(hash::hash_bool(b))
    }
    fn visit_i64<E>(self, v: i64) -> Result<u64, E> {
        Ok(hash::hash_i64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<u64, E> {
        Ok(hash::hash_u64(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
        hash::hash_i128(v).ok_or_else(|| E::custom("integer outside the data model"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
        u64::try_from(v).map(hash::hash_u64).map_err(|_| E::custom("integer above UINT64_MAX"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<u64, E> {
        Ok(hash::hash_f64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(hash::hash_str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<u64, E> {
        Ok(hash::hash_bin(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut acc = ArrayAcc::new();
        while let Some(h) = seq.next_element_seed(HashSeed)? {
            acc.push(h);
        }
        Ok(acc.finish())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let mut acc = MapAcc::new();
        while let Some(k) = map.next_key_seed(KeySeed)? {
            acc.push(k, map.next_value_seed(HashSeed)?);
        }
        Ok(acc.finish())
    }
}

// --- reference decoders -------------------------------------------------------------------------

/// Formats this harness can read with a reference decoder (UBJSON has no maintained crate).
pub const REF_FORMATS: &[&str] = &["json", "json-pretty", "msgpack", "cbor", "bson"];

/// The reference decoder for each format: serde_json (float_roundtrip) for JSON, rmpv for
/// MessagePack, ciborium for CBOR, bson for BSON.
pub fn ref_decode(fmt: &str, data: &[u8]) -> Result<Val, String> {
    match fmt {
        "json" | "json-pretty" => serde_json::from_slice::<Val>(data).map_err(|e| e.to_string()),
        "msgpack" => {
            let mut rd = data;
            let v = rmpv::decode::read_value(&mut rd).map_err(|e| e.to_string())?;
            if !rd.is_empty() {
                return Err("trailing bytes after the MessagePack value".into());
            }
            from_rmpv(&v)
        }
        "cbor" => {
            let v: ciborium::Value = ciborium::de::from_reader(data).map_err(|e| e.to_string())?;
            from_ciborium(&v)
        }
        "bson" => {
            let d = bson::Document::from_reader(data).map_err(|e| e.to_string())?;
            from_bson_doc(&d)
        }
        _ => Err(format!("no reference decoder for format {fmt}")),
    }
}

pub fn from_rmpv(v: &rmpv::Value) -> Result<Val, String> {
    use rmpv::Value as V;
    Ok(match v {
        V::Nil => Val::Null,
        V::Boolean(b) => Val::Bool(*b),
        V::Integer(i) => match (i.as_u64(), i.as_i64()) {
            (Some(u), _) => Val::UInt(u),
            (None, Some(i)) => Val::int(i),
            _ => return Err("bad integer".into()),
        },
        V::F32(f) => Val::Float(*f as f64),
        V::F64(f) => Val::Float(*f),
        V::String(s) => Val::Str(s.as_str().ok_or("invalid UTF-8 in a string")?.to_owned()),
        V::Binary(b) => Val::Bin(b.clone()),
        V::Array(a) => Val::Array(a.iter().map(from_rmpv).collect::<Result<_, _>>()?),
        V::Map(m) => Val::Map(
            m.iter()
                .map(|(k, x)| {
                    let k = k.as_str().ok_or("map key is not a string")?.to_owned();
                    Ok((k, from_rmpv(x)?))
                })
                .collect::<Result<_, String>>()?,
        ),
        V::Ext(..) => return Err("MessagePack ext type is not in the data model".into()),
    })
}

pub fn from_ciborium(v: &ciborium::Value) -> Result<Val, String> {
    use ciborium::Value as V;
    Ok(match v {
        V::Null => Val::Null,
        V::Bool(b) => Val::Bool(*b),
        V::Integer(i) => Val::int128(i128::from(*i))?,
        V::Float(f) => Val::Float(*f),
        V::Text(s) => Val::Str(s.clone()),
        V::Bytes(b) => Val::Bin(b.clone()),
        V::Array(a) => Val::Array(a.iter().map(from_ciborium).collect::<Result<_, _>>()?),
        V::Map(m) => Val::Map(
            m.iter()
                .map(|(k, x)| {
                    let k = k.as_text().ok_or("map key is not a string")?.to_owned();
                    Ok((k, from_ciborium(x)?))
                })
                .collect::<Result<_, String>>()?,
        ),
        _ => return Err("CBOR tag or simple value is not in the data model".into()),
    })
}

pub fn from_bson_doc(d: &bson::Document) -> Result<Val, String> {
    Ok(Val::Map(d.iter().map(|(k, x)| Ok((k.clone(), from_bson(x)?))).collect::<Result<_, String>>()?))
}

pub fn from_bson(v: &bson::Bson) -> Result<Val, String> {
    use bson::Bson as B;
    Ok(match v {
        B::Null => Val::Null,
        B::Boolean(b) => Val::Bool(*b),
        B::Int32(i) => Val::int(*i as i64),
        B::Int64(i) => Val::int(*i),
        B::Double(f) => Val::Float(*f),
        B::String(s) => Val::Str(s.clone()),
        B::Binary(b) => Val::Bin(b.bytes.clone()),
        B::Array(a) => Val::Array(a.iter().map(from_bson).collect::<Result<_, _>>()?),
        B::Document(d) => from_bson_doc(d)?,
        other => return Err(format!("BSON type {:?} is not in the data model", other.element_type())),
    })
}

pub fn to_rmpv(v: &Val) -> rmpv::Value {
    use rmpv::Value as V;
    match v {
        Val::Null => V::Nil,
        Val::Bool(b) => V::Boolean(*b),
        Val::UInt(u) => V::from(*u),
        Val::NegInt(i) => V::from(*i),
        Val::Float(f) => V::F64(*f),
        Val::Str(s) => V::from(s.as_str()),
        Val::Bin(b) => V::Binary(b.clone()),
        Val::Array(a) => V::Array(a.iter().map(to_rmpv).collect()),
        Val::Map(m) => V::Map(m.iter().map(|(k, x)| (V::from(k.as_str()), to_rmpv(x))).collect()),
    }
}

/// BSON: int32 where it fits, else int64 (as the corpus generator writes it).
pub fn to_bson(v: &Val) -> Result<bson::Bson, String> {
    use bson::Bson as B;
    Ok(match v {
        Val::Null => B::Null,
        Val::Bool(b) => B::Boolean(*b),
        Val::UInt(u) => {
            let i = i64::try_from(*u).map_err(|_| format!("BSON cannot carry integer {u}"))?;
            i32::try_from(i).map(B::Int32).unwrap_or(B::Int64(i))
        }
        Val::NegInt(i) => i32::try_from(*i).map(B::Int32).unwrap_or(B::Int64(*i)),
        Val::Float(f) => B::Double(*f),
        Val::Str(s) => B::String(s.clone()),
        Val::Bin(b) => B::Binary(bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: b.clone() }),
        Val::Array(a) => B::Array(a.iter().map(to_bson).collect::<Result<_, _>>()?),
        Val::Map(_) => B::Document(to_bson_doc(v)?),
    })
}

pub fn to_bson_doc(v: &Val) -> Result<bson::Document, String> {
    let Val::Map(m) = v else { return Err("BSON needs a map at the root".into()) };
    let mut d = bson::Document::new();
    for (k, x) in m {
        d.insert(k.clone(), to_bson(x)?);
    }
    Ok(d)
}
