//! serde's `Serialize` for the harness's object ([`Val`]): the natural Rust way for an
//! application that holds its own data to write it. A serde serializer is driven by the data
//! directly, with no intermediate tree, as the native msgpack-c row drives `msgpack_pack_*` from
//! the object (spec/fairness.md rule 10, `from-object`: "serde's calls"). The `*-serialize` write
//! rows (and `rmp-serde`) use it through [`crate::adapters::serialize_encoder`].
//!
//! A map serializes with `serialize_map` in the `Val`'s own order, an array with
//! `serialize_seq`, binary with `serialize_bytes`, every scalar as its serde primitive.
//!
//! Unlike the rest of the harness's code this recurses, once per level of the document, through
//! the crate's serializer (serde's model: `SerializeSeq::serialize_element` calls back into
//! `Val::serialize`). It runs only inside a write row's encoder, a library call, never in the
//! harness's own decoding, hashing or conversions; on a document nested 100,000 deep such a row
//! may overflow the stack (tests/hostile.rs, `LIBRARY_CRASHES`), as every serde serializer of a
//! recursive type does. What a format cannot carry is found before the loop, iteratively
//! ([`check_json`], [`check_bson`]).

use crate::model::Val;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

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
                    map.serialize_entry(k.as_str(), x)?;
                }
                map.end()
            }
        }
    }
}

/// Every scalar of `v` through `f`, iteratively (a heap stack): the first error.
fn check_scalars(v: &Val, f: impl Fn(&Val) -> Result<(), String>) -> Result<(), String> {
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        match x {
            Val::Array(a) => stack.extend(a),
            Val::Map(m) => stack.extend(m.iter().map(|(_, x)| x)),
            _ => f(x)?,
        }
    }
    Ok(())
}

/// What JSON cannot carry, refused as the DOM rows' conversions refuse it (serde_json would write
/// a binary as an array of numbers and NaN as `null`, another document).
pub fn check_json(v: &Val) -> Result<(), String> {
    check_scalars(v, |x| match x {
        Val::Bin(_) => Err("JSON has no binary type".into()),
        Val::Float(f) if !f.is_finite() => Err("JSON cannot carry NaN or infinity".into()),
        _ => Ok(()),
    })
}

/// What BSON cannot carry (as `model::to_bson_doc`): a root that is not a map, an integer above
/// INT64_MAX.
pub fn check_bson(v: &Val) -> Result<(), String> {
    if !matches!(v, Val::Map(_)) {
        return Err("BSON needs a map at the root".into());
    }
    check_scalars(v, |x| match x {
        Val::UInt(u) if i64::try_from(*u).is_err() => Err(format!("BSON cannot carry integer {u}")),
        _ => Ok(()),
    })
}

/// Nothing to refuse: MessagePack and CBOR carry the whole data model.
pub fn check_none(_: &Val) -> Result<(), String> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{hash_val, nested, ref_decode};

    #[test]
    fn serializes_in_the_vals_order_and_types() {
        let v = Val::Map(vec![
            ("z".into(), Val::Array(vec![Val::Null, Val::Bool(true), Val::UInt(1), Val::NegInt(-2)])),
            ("a".into(), Val::Float(0.5)),
            ("m".into(), Val::Str("x".into())),
        ]);
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"z":[null,true,1,-2],"a":0.5,"m":"x"}"#);
        let b = Val::Map(vec![("b".into(), Val::Bin(vec![1, 2]))]);
        let out = rmp_serde::to_vec(&b).unwrap();
        assert_eq!(out, b"\x81\xa1b\xc4\x02\x01\x02");
        assert_eq!(hash_val(&ref_decode("msgpack", &out).unwrap()), hash_val(&b));
    }

    #[test]
    fn the_checks_are_iterative_and_refuse_what_the_format_cannot_carry() {
        for maps in [false, true] {
            let v = nested(100_000, maps);
            check_json(&v).unwrap();
            check_bson(&v).unwrap();
        }
        let bin = Val::Map(vec![("b".into(), Val::Bin(vec![]))]);
        assert!(check_json(&bin).unwrap_err().contains("binary"));
        check_bson(&bin).unwrap();
        assert!(check_json(&Val::Array(vec![Val::Float(f64::NAN)])).is_err());
        assert!(check_bson(&Val::Array(vec![])).is_err());
        assert!(check_bson(&Val::Map(vec![("u".into(), Val::UInt(u64::MAX))])).is_err());
    }
}
