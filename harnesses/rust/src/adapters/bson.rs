//! bson: the owned Document, and RawDocument for in-place iteration (no tree).

use super::{Bench, Encoder};
use crate::hash::{self, ArrayAcc, MapAcc};
use crate::model::{to_bson_doc, Val};
use bson::raw::{RawArray, RawBsonRef, RawDocument};
use bson::{Bson, Document};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "bson::Document::from_reader(&[u8]); write uses Document::to_writer into a Vec",
            tree: Some(tree),
            write: Some(write),
            ..Bench::new("bson", "bson", &["bson"])
        },
        Bench {
            notes: "bson::RawDocument::from_bytes: iterates the elements in place over the input, building no tree",
            incremental: Some(raw),
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

fn hash_doc(d: &Document) -> Result<u64, String> {
    let mut acc = MapAcc::new();
    for (k, x) in d {
        acc.push(hash::hash_str(k), hash_bson(x)?);
    }
    Ok(acc.finish())
}

fn hash_bson(v: &Bson) -> Result<u64, String> {
    Ok(match v {
        Bson::Null => hash::NULL_HASH,
        Bson::Boolean(b) => hash::hash_bool(*b),
        Bson::Int32(i) => hash::hash_i64(*i as i64),
        Bson::Int64(i) => hash::hash_i64(*i),
        Bson::Double(f) => hash::hash_f64(*f),
        Bson::String(s) => hash::hash_str(s),
        Bson::Binary(b) => hash::hash_bin(&b.bytes),
        Bson::Array(a) => {
            let mut acc = ArrayAcc::new();
            for x in a {
                acc.push(hash_bson(x)?);
            }
            acc.finish()
        }
        Bson::Document(d) => hash_doc(d)?,
        other => return Err(format!("BSON type {:?} is not in the data model", other.element_type())),
    })
}

fn hash_raw_doc(d: &RawDocument) -> Result<u64, String> {
    let mut acc = MapAcc::new();
    for item in d {
        let (k, x) = item.map_err(|e| e.to_string())?;
        acc.push(hash::hash_str(k.as_str()), hash_raw(x)?);
    }
    Ok(acc.finish())
}

fn hash_raw_array(a: &RawArray) -> Result<u64, String> {
    let mut acc = ArrayAcc::new();
    for x in a {
        acc.push(hash_raw(x.map_err(|e| e.to_string())?)?);
    }
    Ok(acc.finish())
}

fn hash_raw(v: RawBsonRef) -> Result<u64, String> {
    Ok(match v {
        RawBsonRef::Null => hash::NULL_HASH,
        RawBsonRef::Boolean(b) => hash::hash_bool(b),
        RawBsonRef::Int32(i) => hash::hash_i64(i as i64),
        RawBsonRef::Int64(i) => hash::hash_i64(i),
        RawBsonRef::Double(f) => hash::hash_f64(f),
        RawBsonRef::String(s) => hash::hash_str(s),
        RawBsonRef::Binary(b) => hash::hash_bin(b.bytes),
        RawBsonRef::Array(a) => hash_raw_array(a)?,
        RawBsonRef::Document(d) => hash_raw_doc(d)?,
        other => return Err(format!("BSON type {:?} is not in the data model", other.element_type())),
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let d = Document::from_reader(&*data).map_err(|e| e.to_string())?;
    hash_doc(&d)
}

fn raw(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let d = RawDocument::from_bytes(&*data).map_err(|e| e.to_string())?;
    if d.as_bytes().len() != data.len() {
        return Err("trailing bytes after the document".into());
    }
    hash_raw_doc(d)
}

fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    let doc = to_bson_doc(v)?;
    Ok(Box::new(move || {
        let mut out = Vec::new();
        doc.to_writer(&mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }))
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
