//! borsh: typed records only (spec/typed.md); it has no schemaless data model.

use super::Bench;

pub fn benches() -> Vec<Bench> {
    vec![super::typed_row("borsh", "borsh", &["borsh"], "BorshSerialize/BorshDeserialize derive: borsh::to_vec / from_slice", typed::typed())]
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: borsh::BorshSerialize>(v: &T) -> Result<Vec<u8>, String> {
        borsh::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: borsh::BorshDeserialize>(d: &mut [u8]) -> Result<T, String> {
        borsh::from_slice(d).map_err(|e| e.to_string())
    }
}
