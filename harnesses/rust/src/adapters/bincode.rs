//! bincode 2 (not the 3.0.0 tombstone release): typed records only (spec/typed.md); it has no schemaless data model.

use super::Bench;

pub fn benches() -> Vec<Bench> {
    vec![super::typed_row(
        "bincode",
        "bincode",
        &["bincode"],
        "bincode 2's native Encode/Decode derive (not 3.0.0), config::standard() (varint): encode_to_vec / decode_from_slice",
        typed::typed(),
    )]
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    pub fn typed() -> crate::adapters::Typed {
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
