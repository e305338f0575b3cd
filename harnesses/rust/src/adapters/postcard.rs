//! postcard: typed records only (spec/typed.md); it has no schemaless data model.

use super::Bench;

pub fn benches() -> Vec<Bench> {
    vec![super::typed_row("postcard", "postcard", &["postcard"], "serde derive: to_allocvec / take_from_bytes", typed::typed())]
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use serde::{de::DeserializeOwned, Serialize};
    pub fn typed() -> crate::adapters::Typed {
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
