//! rmp-serde: MessagePack through serde, with the hashing DeserializeSeed (no tree).

use super::{Bench, Encoder, Typed};
use crate::model::HashSeed;
use crate::typed::{Records, Schema};
use crate::typed_decode_hash;
use serde::de::DeserializeSeed;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "serde DeserializeSeed that hashes while rmp-serde decodes from &[u8], building no tree",
        incremental: Some(visitor),
        ..Bench::new("rmp-serde-visitor", "rmp-serde", &["msgpack"])
    },
    Bench {
        notes: "typed records with serde derive: rmp_serde::to_vec (structs as arrays, the crate's default) / from_slice",
        typed: Some(Typed { encoder: typed_enc, decode: typed_dec }),
        ..Bench::new("rmp-serde-typed", "rmp-serde", &["msgpack"])
    }]
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut de = rmp_serde::Deserializer::from_read_ref(&*data);
    // (rmp-serde gives no public access to the unread rest of a borrowed slice, so trailing
    // bytes after the root value go unnoticed here.)
    HashSeed.deserialize(&mut de).map_err(|e| e.to_string())
}

fn enc<T: serde::Serialize>(v: &Vec<T>) -> Result<Vec<u8>, String> {
    rmp_serde::to_vec(v).map_err(|e| e.to_string())
}

fn dec<T: serde::de::DeserializeOwned>(d: &[u8]) -> Result<Vec<T>, String> {
    rmp_serde::from_slice(d).map_err(|e| e.to_string())
}

fn typed_enc(_fmt: &str, r: &Records) -> Result<Encoder, String> {
    Ok(typed_encoder!(r, enc))
}

fn typed_dec(_fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String> {
    let d: &[u8] = data;
    typed_decode_hash!(schema, dec, d)
}
