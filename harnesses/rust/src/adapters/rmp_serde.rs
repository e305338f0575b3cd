//! rmp-serde: MessagePack through serde: the harness's object serialized directly (write), the
//! hashing DeserializeSeed (no tree).

use super::{lib_try, serialize_encoder, Bench, Encoder};
use crate::model::{HashSeed, Val};
use serde::de::DeserializeSeed;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "serde Serialize driven by the harness's object (no intermediate tree): rmp_serde::to_vec of the harness's Val (crate::ser; maps through serialize_map stay maps keyed by strings, the struct-as-array default concerns derived structs only)",
            write: Some(write),
            ..Bench::new("rmp-serde", "rmp-serde", &["msgpack"])
        },
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

/// serde's way (`crate::ser`): rmp-serde's serializer driven by the harness's object, no Value.
fn write(_fmt: &str, v: &Val) -> Result<Encoder, String> {
    serialize_encoder(v, crate::ser::check_none, |v| lib_try(|| rmp_serde::to_vec(v)))
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
