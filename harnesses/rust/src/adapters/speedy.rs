//! speedy: typed records only (spec/typed.md); it has no schemaless data model.

use super::Bench;

pub fn benches() -> Vec<Bench> {
    vec![super::typed_row(
        "speedy",
        "speedy",
        &["speedy"],
        "speedy derive (Readable/Writable, little endian): write_to_vec / read_from_buffer (owned strings); last release 2023",
        typed::typed(),
    )]
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    use speedy::{LittleEndian, Readable, Writable};
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: Writable<LittleEndian>>(v: &T) -> Result<Vec<u8>, String> {
        v.write_to_vec().map_err(|e| e.to_string())
    }
    fn dec<T: for<'a> Readable<'a, LittleEndian>>(d: &mut [u8]) -> Result<T, String> {
        T::read_from_buffer(d).map_err(|e| e.to_string())
    }
}
