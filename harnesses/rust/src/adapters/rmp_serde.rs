//! rmp-serde: MessagePack through serde, with the hashing DeserializeSeed (no tree).

use super::Bench;
use crate::model::HashSeed;
use serde::de::DeserializeSeed;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "serde DeserializeSeed that hashes while rmp-serde decodes from &[u8], building no tree",
        incremental: Some(visitor),
        ..Bench::new("rmp-serde-visitor", "rmp-serde", &["msgpack"])
    }]
}

fn visitor(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut de = rmp_serde::Deserializer::from_read_ref(&*data);
    // (rmp-serde gives no public access to the unread rest of a borrowed slice, so trailing
    // bytes after the root value go unnoticed here.)
    HashSeed.deserialize(&mut de).map_err(|e| e.to_string())
}
