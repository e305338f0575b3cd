//! minicbor: its token decoder (`decode::Tokenizer`) as a pull parser feeding the streaming hash;
//! strings and byte strings are borrowed from the input.

use super::{lib, Bench};
use crate::hash::{self, StreamHasher};
use minicbor::data::Token;
use minicbor::decode::Tokenizer;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "minicbor::decode::Tokenizer over &[u8] (zero-copy tokens) with the streaming hash",
            incremental: Some(incremental),
            ..Bench::new("minicbor", "minicbor", &["cbor"])
        },
        super::typed_row(
            "minicbor-typed",
            "minicbor",
            &["cbor"],
            "minicbor's own derive (#[n(i)] indices, structs as arrays): minicbor::to_vec / decode",
            typed::typed(),
        ),
    ]
}

/// One open container: items still to read (None: indefinite, closed by Break).
type Todo = Option<u64>;

/// The next token (a panic in minicbor is its error). The tokenizer fails at the end of the input,
/// so every loop below ends on truncated input.
fn next<'b>(tk: &mut Tokenizer<'_, 'b>) -> Result<Token<'b>, String> {
    lib(|| tk.token())?.map_err(|e| e.to_string())
}

fn incremental(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut tk = Tokenizer::new(data);
    let mut h = StreamHasher::new();
    let mut todo: Vec<Todo> = Vec::new();
    loop {
        let t = next(&mut tk)?;
        let key_wanted = h.expects_key();
        let mut is_str = false;
        let leaf: Option<u64> = match t {
            Token::Null => Some(hash::NULL_HASH),
            Token::Bool(b) => Some(hash::hash_bool(b)),
            Token::U8(v) => Some(hash::hash_u64(v as u64)),
            Token::U16(v) => Some(hash::hash_u64(v as u64)),
            Token::U32(v) => Some(hash::hash_u64(v as u64)),
            Token::U64(v) => Some(hash::hash_u64(v)),
            Token::I8(v) => Some(hash::hash_i64(v as i64)),
            Token::I16(v) => Some(hash::hash_i64(v as i64)),
            Token::I32(v) => Some(hash::hash_i64(v as i64)),
            Token::I64(v) => Some(hash::hash_i64(v)),
            Token::Int(v) => Some(hash::hash_i128(i128::from(v)).ok_or("integer outside the data model")?),
            Token::F16(f) | Token::F32(f) => Some(hash::hash_f64(f as f64)),
            Token::F64(f) => Some(hash::hash_f64(f)),
            Token::String(s) => {
                is_str = true;
                Some(hash::hash_str(s))
            }
            Token::Bytes(b) => Some(hash::hash_bin(b)),
            Token::BeginString | Token::BeginBytes => {
                // indefinite-length string: concatenate its chunks
                let text = matches!(t, Token::BeginString);
                let mut buf = Vec::new();
                loop {
                    match next(&mut tk)? {
                        Token::String(s) if text => buf.extend_from_slice(s.as_bytes()),
                        Token::Bytes(b) if !text => buf.extend_from_slice(b),
                        Token::Break => break,
                        other => return Err(format!("unexpected {other:?} in an indefinite string")),
                    }
                }
                is_str = text;
                Some(hash::hash_bytes(if text { hash::STRING } else { hash::BINARY }, &buf))
            }
            Token::Array(n) | Token::Map(n) => {
                if key_wanted {
                    return Err("map key is not a string".into());
                }
                if matches!(t, Token::Map(_)) {
                    h.start_map();
                    todo.push(Some(n.saturating_mul(2))); // a count beyond the input fails at its end
                } else {
                    h.start_array();
                    todo.push(Some(n));
                }
                None
            }
            Token::BeginArray | Token::BeginMap => {
                if key_wanted {
                    return Err("map key is not a string".into());
                }
                if matches!(t, Token::BeginMap) {
                    h.start_map();
                } else {
                    h.start_array();
                }
                todo.push(None);
                None
            }
            Token::Break => {
                match todo.pop() {
                    Some(None) => h.end()?,
                    _ => return Err("break outside an indefinite container".into()),
                }
                if let Some(Some(t)) = todo.last_mut() {
                    *t -= 1;
                }
                None
            }
            other => return Err(format!("{other:?} is not in the data model")),
        };
        if let Some(x) = leaf {
            if key_wanted {
                if !is_str {
                    return Err("map key is not a string".into());
                }
                h.key_hash(x)?;
            } else {
                h.emit(x)?;
            }
            if let Some(Some(t)) = todo.last_mut() {
                *t -= 1;
            }
        }
        while let Some(Some(0)) = todo.last() {
            todo.pop();
            h.end()?;
            if let Some(Some(t)) = todo.last_mut() {
                *t -= 1;
            }
        }
        if todo.is_empty() {
            break;
        }
    }
    if next(&mut tk).is_ok() {
        return Err("trailing bytes after the value".into());
    }
    h.value()
}

/// Typed records (spec/typed.md): generic `enc` / `dec` over the record types of `typed.rs`,
/// which carry this crate's derive.
mod typed {
    pub fn typed() -> crate::adapters::Typed {
        crate::generic_typed!(enc, dec)
    }
    fn enc<T: minicbor::Encode<()>>(v: &T) -> Result<Vec<u8>, String> {
        minicbor::to_vec(v).map_err(|e| e.to_string())
    }
    fn dec<T: for<'b> minicbor::Decode<'b, ()>>(d: &mut [u8]) -> Result<T, String> {
        minicbor::decode(d).map_err(|e| e.to_string())
    }
}
