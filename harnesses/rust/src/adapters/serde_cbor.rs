//! serde_cbor 0.11: UNMAINTAINED (archived in 2021, RUSTSEC-2021-0127); kept because it is still
//! widely used.

use super::{Bench, Encoder};
use crate::hash::{self, ArrayAcc, MapAcc};
use crate::model::Val;
use serde_cbor::Value;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "unmaintained crate (RUSTSEC-2021-0127); serde_cbor::Value (BTreeMap maps, i128 integers); write uses serde_cbor::to_vec",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("serde_cbor", "serde_cbor", &["cbor"])
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

fn hash_value(v: &Value) -> Result<u64, String> {
    Ok(match v {
        Value::Null => hash::NULL_HASH,
        Value::Bool(b) => hash::hash_bool(*b),
        Value::Integer(i) => hash::hash_i128(*i).ok_or("integer outside the data model")?,
        Value::Float(f) => hash::hash_f64(*f),
        Value::Text(s) => hash::hash_str(s),
        Value::Bytes(b) => hash::hash_bin(b),
        Value::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a {
                acc.push(hash_value(x)?);
            }
            acc.finish()
        }
        Value::Map(m) => {
            let mut acc = MapAcc::new();
            for (k, x) in m {
                let Value::Text(k) = k else { return Err("map key is not a string".into()) };
                acc.push(hash::hash_str(k), hash_value(x)?);
            }
            acc.finish()
        }
        _ => return Err("CBOR tag is not in the data model".into()),
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let v: Value = serde_cbor::from_slice(data).map_err(|e| e.to_string())?;
    hash_value(&v)
}

fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    let value = serde_cbor::value::to_value(v).map_err(|e| e.to_string())?;
    Ok(Box::new(move || serde_cbor::to_vec(&value).map_err(|e| e.to_string())))
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
