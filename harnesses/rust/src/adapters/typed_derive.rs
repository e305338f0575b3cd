//! Typed records (spec/typed.md) through derive-based crates: the native record types in
//! `typed.rs` carry every crate's derive, and each crate encodes `Vec<Record>` (and one record at a
//! time for `--latency`) with its own API. Each module defines generic `enc` / `dec` functions.

use super::{Bench, Typed};

fn row(id: &'static str, library: &'static str, fmt: &'static [&'static str], notes: &'static str, t: Typed) -> Bench {
    Bench { notes, typed: Some(t), ..Bench::new(id, library, fmt) }
}

pub fn benches() -> Vec<Bench> {
    vec![
        row("serde_json-typed", "serde_json", &["json"], "serde derive: to_vec / from_slice", sj::typed()),
        row(
            "simd-json-typed",
            "simd-json",
            &["json"],
            "serde derive: simd_json::serde::to_vec / from_slice (in-situ on the copy)",
            simd::typed(),
        ),
        row("sonic-rs-typed", "sonic-rs", &["json"], "serde derive: sonic_rs::to_vec / from_slice", sonic::typed()),
        row(
            "rmp-serde-typed",
            "rmp-serde",
            &["msgpack"],
            "serde derive: rmp_serde::to_vec (structs as arrays, the crate's default) / from_slice",
            rmps::typed(),
        ),
        row(
            "ciborium-typed",
            "ciborium",
            &["cbor"],
            "serde derive: ser::into_writer (structs as maps) / de::from_reader(&[u8])",
            cib::typed(),
        ),
        row(
            "serde_cbor-typed",
            "serde_cbor",
            &["cbor"],
            "unmaintained crate (archived 2021, RUSTSEC-2021-0127); serde derive: to_vec (structs as maps) / from_slice",
            scbor::typed(),
        ),
        row(
            "minicbor-typed",
            "minicbor",
            &["cbor"],
            "minicbor's own derive (#[n(i)] indices, structs as arrays): minicbor::to_vec / decode",
            mcbor::typed(),
        ),
        row(
            "bincode",
            "bincode",
            &["bincode"],
            "bincode 2's native Encode/Decode derive (not 3.0.0), config::standard() (varint): encode_to_vec / decode_from_slice",
            bc::typed(),
        ),
        row(
            "bson-typed",
            "bson",
            &["bson"],
            "serde derive: serialize_to_vec / deserialize_from_slice of {records: [...]} (BSON needs a document \
             at the root); BSON has no uint64, so records with a u64 above i64::MAX fail to encode",
            bs::typed(),
        ),
        row("postcard", "postcard", &["postcard"], "serde derive: to_allocvec / take_from_bytes", pc::typed()),
        row("borsh", "borsh", &["borsh"], "BorshSerialize/BorshDeserialize derive: borsh::to_vec / from_slice", bo::typed()),
        row(
            "speedy",
            "speedy",
            &["speedy"],
            "speedy derive (Readable/Writable, little endian): write_to_vec / read_from_buffer (owned strings); last release 2023",
            sp::typed(),
        ),
    ]
}

mod bs {
    use serde::{de::DeserializeOwned, Deserialize, Serialize};
    pub fn typed() -> super::Typed {
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

mod sj {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        serde_json::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        serde_json::from_slice(d).map_err(|e| e.to_string())
    }
}

mod simd {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        simd_json::serde::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        simd_json::serde::from_slice(d).map_err(|e| e.to_string())
    }
}

mod sonic {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        sonic_rs::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        sonic_rs::from_slice(d).map_err(|e| e.to_string())
    }
}

mod rmps {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        rmp_serde::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        rmp_serde::from_slice(d).map_err(|e| e.to_string())
    }
}

mod cib {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        ciborium::ser::into_writer(v, &mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        ciborium::de::from_reader(&d[..]).map_err(|e| e.to_string())
    }
}

mod scbor {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        serde_cbor::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        serde_cbor::from_slice(d).map_err(|e| e.to_string())
    }
}

mod mcbor {
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: minicbor::Encode<()>>(v: &T) -> Result<Vec<u8>, String> {
        minicbor::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: for<'b> minicbor::Decode<'b, ()>>(d: &mut [u8]) -> Result<T, String> {
        minicbor::decode(d).map_err(|e| e.to_string())
    }
}

mod bc {
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: bincode::Encode>(v: &T) -> Result<Vec<u8>, String> {
        bincode::encode_to_vec(v, bincode::config::standard()).map_err(|e| e.to_string())
    }
    fn dec<T: bincode::Decode<()>>(d: &mut [u8]) -> Result<T, String> {
        let (v, n): (T, usize) =
            bincode::decode_from_slice(d, bincode::config::standard()).map_err(|e| e.to_string())?;
        if n != d.len() {
            return Err("trailing bytes after the value".into());
        }
        Ok(v)
    }
}

mod pc {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Serialize>(v: &T) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(v).map_err(|e| e.to_string())
    }
    fn dec<T: DeserializeOwned>(d: &mut [u8]) -> Result<T, String> {
        let (v, rest): (T, &[u8]) = postcard::take_from_bytes(d).map_err(|e| e.to_string())?;
        if !rest.is_empty() {
            return Err("trailing bytes after the value".into());
        }
        Ok(v)
    }
}

mod bo {
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: borsh::BorshSerialize>(v: &T) -> Result<Vec<u8>, String> {
        borsh::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: borsh::BorshDeserialize>(d: &mut [u8]) -> Result<T, String> {
        borsh::from_slice(d).map_err(|e| e.to_string())
    }
}

mod sp {
    use speedy::{LittleEndian, Readable, Writable};
    pub fn typed() -> super::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Writable<LittleEndian>>(v: &T) -> Result<Vec<u8>, String> {
        v.write_to_vec().map_err(|e| e.to_string())
    }
    fn dec<T: for<'a> Readable<'a, LittleEndian>>(d: &mut [u8]) -> Result<T, String> {
        T::read_from_buffer(d).map_err(|e| e.to_string())
    }
}
