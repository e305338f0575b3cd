//! rmp: MessagePack's low-level API (read_marker and the RmpRead data readers), used as a pull
//! parser that feeds the streaming hash; strings and binaries are hashed in place from the slice.

use super::{lib, Bench};
use crate::hash::{self, StreamHasher};
use rmp::decode::{read_marker, RmpRead};
use rmp::Marker;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes:
            "low-level rmp::decode (read_marker + payload readers) as a pull parser over &[u8], with the streaming hash",
        incremental: Some(incremental),
        ..Bench::new("rmp", "rmp", &["msgpack"])
    }]
}

fn e<T: std::fmt::Debug>(x: T) -> String {
    format!("{x:?}")
}

/// One call into rmp: its panic or its error as the row's error.
macro_rules! rmp {
    ($call:expr) => {
        lib(|| $call)?.map_err(e)?
    };
}

fn take<'a>(rd: &mut &'a [u8], n: usize) -> Result<&'a [u8], String> {
    if rd.len() < n {
        return Err("truncated input".into());
    }
    let (a, b) = rd.split_at(n);
    *rd = b;
    Ok(a)
}

/// A pull parser over the input: every step reads at least one byte (a marker) or fails at the
/// end of the input, and a count only ever counts down, so truncated input ends in an error,
/// never a loop; containers are a heap stack (no recursion).
fn incremental(_fmt: &str, data: &mut [u8]) -> Result<u64, String> {
    let mut rd: &[u8] = data;
    let mut h = StreamHasher::new();
    let mut todo: Vec<u64> = Vec::new(); // remaining items per open container (map: 2 per entry)
    loop {
        let m = lib(|| read_marker(&mut rd))?.map_err(|x| e(x.0))?;
        let key_wanted = h.expects_key();
        let leaf: Option<u64> = match m {
            Marker::Null => Some(hash::NULL_HASH),
            Marker::True => Some(hash::TRUE_HASH),
            Marker::False => Some(hash::FALSE_HASH),
            Marker::FixPos(v) => Some(hash::hash_u64(v as u64)),
            Marker::FixNeg(v) => Some(hash::hash_i64(v as i64)),
            Marker::U8 => Some(hash::hash_u64(rmp!(rd.read_data_u8()) as u64)),
            Marker::U16 => Some(hash::hash_u64(rmp!(rd.read_data_u16()) as u64)),
            Marker::U32 => Some(hash::hash_u64(rmp!(rd.read_data_u32()) as u64)),
            Marker::U64 => Some(hash::hash_u64(rmp!(rd.read_data_u64()))),
            Marker::I8 => Some(hash::hash_i64(rmp!(rd.read_data_i8()) as i64)),
            Marker::I16 => Some(hash::hash_i64(rmp!(rd.read_data_i16()) as i64)),
            Marker::I32 => Some(hash::hash_i64(rmp!(rd.read_data_i32()) as i64)),
            Marker::I64 => Some(hash::hash_i64(rmp!(rd.read_data_i64()))),
            Marker::F32 => Some(hash::hash_f64(rmp!(rd.read_data_f32()) as f64)),
            Marker::F64 => Some(hash::hash_f64(rmp!(rd.read_data_f64()))),
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                let n = match m {
                    Marker::FixStr(n) => n as usize,
                    Marker::Str8 => rmp!(rd.read_data_u8()) as usize,
                    Marker::Str16 => rmp!(rd.read_data_u16()) as usize,
                    _ => rmp!(rd.read_data_u32()) as usize,
                };
                let s = take(&mut rd, n)?;
                std::str::from_utf8(s).map_err(|x| x.to_string())?;
                Some(hash::hash_bytes(hash::STRING, s))
            }
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
                let n = match m {
                    Marker::Bin8 => rmp!(rd.read_data_u8()) as usize,
                    Marker::Bin16 => rmp!(rd.read_data_u16()) as usize,
                    _ => rmp!(rd.read_data_u32()) as usize,
                };
                Some(hash::hash_bin(take(&mut rd, n)?))
            }
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => {
                let n = match m {
                    Marker::FixArray(n) => n as u64,
                    Marker::Array16 => rmp!(rd.read_data_u16()) as u64,
                    _ => rmp!(rd.read_data_u32()) as u64,
                };
                if key_wanted {
                    return Err("map key is not a string".into());
                }
                h.start_array();
                todo.push(n);
                None
            }
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => {
                let n = match m {
                    Marker::FixMap(n) => n as u64,
                    Marker::Map16 => rmp!(rd.read_data_u16()) as u64,
                    _ => rmp!(rd.read_data_u32()) as u64,
                };
                if key_wanted {
                    return Err("map key is not a string".into());
                }
                h.start_map();
                todo.push(2 * n);
                None
            }
            other => return Err(format!("marker {other:?} is not in the data model")),
        };
        if let Some(x) = leaf {
            if key_wanted {
                if !matches!(m, Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32) {
                    return Err("map key is not a string".into());
                }
                h.key_hash(x)?;
            } else {
                h.emit(x)?;
            }
            if let Some(t) = todo.last_mut() {
                *t -= 1;
            }
        }
        // close every container that is now complete
        while let Some(&0) = todo.last() {
            todo.pop();
            h.end()?;
            if let Some(t) = todo.last_mut() {
                *t -= 1;
            }
        }
        if todo.is_empty() {
            break;
        }
    }
    if !rd.is_empty() {
        return Err("trailing bytes after the value".into());
    }
    h.value()
}
