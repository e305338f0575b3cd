//! rmp-serde: MessagePack through serde, with the hashing DeserializeSeed (no tree).

use super::{lib_try, Bench};
use crate::model::HashSeed;
use serde::de::DeserializeSeed;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "serde DeserializeSeed that hashes while rmp-serde decodes from &[u8], building no tree",
            incremental: Some(visitor),
            ..Bench::new("rmp-serde-visitor", "rmp-serde", &["msgpack"])
        },
        super::typed_row(
            "rmp-serde-typed",
            "rmp-serde",
            &["msgpack"],
            "serde derive: rmp_serde::to_vec (structs as arrays, the crate's default) / from_slice",
            typed::typed(),
        ),
    ]
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut de = rmp_serde::Deserializer::from_read_ref(&*data);
    // (rmp-serde gives no public access to the unread rest of a borrowed slice, so trailing
    // bytes after the root value go unnoticed here.)
    lib_try(|| HashSeed.deserialize(&mut de))
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        rmp_serde::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        rmp_serde::from_slice(d).map_err(|e| e.to_string())
    }
}
