//! bincode 2 (not 3.0.0): its native `Encode`/`Decode` derive with `config::standard()`
//! (varint integers, little endian).

use super::{Bench, Encoder, Typed};
use crate::typed::{Records, Schema};
use crate::typed_decode_hash;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "typed records with #[derive(bincode::Encode, bincode::Decode)], config::standard(): encode_to_vec / decode_from_slice",
        typed: Some(Typed { encoder: typed_enc, decode: typed_dec }),
        ..Bench::new("bincode", "bincode", &["bincode"])
    }]
}

fn enc<T: bincode::Encode>(v: &Vec<T>) -> Result<Vec<u8>, String> {
    bincode::encode_to_vec(v, bincode::config::standard()).map_err(|e| e.to_string())
}

fn dec<T: bincode::Decode<()>>(d: &[u8]) -> Result<Vec<T>, String> {
    let (v, n): (Vec<T>, usize) =
        bincode::decode_from_slice(d, bincode::config::standard()).map_err(|e| e.to_string())?;
    if n != d.len() {
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
