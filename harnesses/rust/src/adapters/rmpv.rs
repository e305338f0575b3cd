//! rmpv: MessagePack's dynamic Value (read_value / write_value).

use super::{build_then_encode, lib_try, Bench, Encoder};
use crate::hash::{self, Node};
use crate::model::{to_rmpv, Val};
use rmpv::Value;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "rmpv::decode::read_value from &[u8] to rmpv::Value; write builds an rmpv::Value from the harness's object, then rmpv::encode::write_value into a Vec, then drops it",
        tree: Some(tree),
        write: Some(write),
        ..Bench::new("rmpv", "rmpv", &["msgpack"])
    }]
}

/// The hash of an rmpv Value (iterative: [`hash::walk`]).
pub fn hash_value(v: &Value) -> Result<u64, String> {
    hash::walk(v, #[inline(always)] |v| {
        Ok(Node::Leaf(match v {
            Value::Nil => hash::NULL_HASH,
            Value::Boolean(b) => hash::hash_bool(*b),
            Value::Integer(i) => match (i.as_u64(), i.as_i64()) {
                (Some(u), _) => hash::hash_u64(u),
                (None, Some(i)) => hash::hash_i64(i),
                _ => return Err("bad integer".into()),
            },
            Value::F32(f) => hash::hash_f64(*f as f64),
            Value::F64(f) => hash::hash_f64(*f),
            Value::String(s) => hash::hash_str(s.as_str().ok_or("invalid UTF-8 in a string")?),
            Value::Binary(b) => hash::hash_bin(b),
            Value::Array(a) => return Ok(Node::Array(a.iter().map(Ok))),
            Value::Map(m) => {
                return Ok(Node::Map(m.iter().map(|(k, x)| {
                    let k = k.as_str().ok_or("map key is not a string")?;
                    Ok((hash::hash_str(k), x))
                })))
            }
            Value::Ext(..) => return Err("ext type is not in the data model".into()),
        }))
    })
}

fn tree(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut rd: &[u8] = data;
    let v = lib_try(|| rmpv::decode::read_value(&mut rd))?;
    if !rd.is_empty() {
        return Err("trailing bytes after the value".into());
    }
    hash_value(&v)
}

fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    build_then_encode(v, to_rmpv, |value| {
        let mut out = Vec::new();
        lib_try(|| rmpv::encode::write_value(&mut out, value))?;
        Ok(out)
    })
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use crate::model::assert_deep_walk;

    #[test]
    fn walks_over_trees_nested_100000_deep_do_not_recurse() {
        assert_deep_walk(to_rmpv, |v| hash_value(v).unwrap());
    }
}
