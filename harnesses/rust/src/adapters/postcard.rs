//! postcard: serde's compact, varint-based format (`to_allocvec` / `take_from_bytes`).

use super::{Bench, Encoder, Typed};
use crate::typed::{Records, Schema};
use crate::typed_decode_hash;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "typed records with serde derive: postcard::to_allocvec / take_from_bytes",
        typed: Some(Typed { encoder: typed_enc, decode: typed_dec }),
        ..Bench::new("postcard", "postcard", &["postcard"])
    }]
}

fn enc<T: serde::Serialize>(v: &Vec<T>) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(v).map_err(|e| e.to_string())
}

fn dec<T: serde::de::DeserializeOwned>(d: &[u8]) -> Result<Vec<T>, String> {
    let (v, rest): (Vec<T>, &[u8]) = postcard::take_from_bytes(d).map_err(|e| e.to_string())?;
    if !rest.is_empty() {
        return Err("trailing bytes after the value".into());
    }
    Ok(v)
}

fn typed_enc(_fmt: &str, r: &Records) -> Result<Encoder, String> {
    Ok(typed_encoder!(r, enc))
}

fn typed_dec(_fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String> {
    let d: &[u8] = data;
    typed_decode_hash!(schema, dec, d)
}
