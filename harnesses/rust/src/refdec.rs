//! The reference decoders: what a file in each format means for this harness (the `hash-data` and
//! `hash-object` baselines, the input of write rows, and the check of a write row's output).
//!
//! They are written here rather than taken from a crate for two reasons (spec/protocol.md):
//! - **Iterative.** Containers are kept on a heap stack, so nesting costs heap, never the call stack:
//!   a document nested 100,000 deep decodes (serde-based decoders stop at their crate's recursion
//!   limit, 128 for serde_json, and bson's `Document` overflows the stack).
//! - **Strict.** They accept exactly the data model (spec/data-model.md) in each format and reject,
//!   with the offset: truncation; trailing bytes; a length or count larger than the bytes left
//!   (checked before anything is allocated, and no container is preallocated from a count); BSON
//!   length fields that disagree with the content; invalid UTF-8 in strings and keys; duplicate map
//!   keys; keys that are not strings; integers outside int64/uint64; NaN and infinities; and every
//!   type outside the data model (MessagePack ext, CBOR tags, undefined and simple values, BSON types
//!   other than double, string, document, array, binary, bool, null, int32 and int64).
//!
//! The rules every harness's reference decoder follows, so that they give identical answers on the
//! conformance set (`vectors/conformance/manifest.json`, issue 69; `selftest` runs it):
//! - R1: the root is a map (JSON object, MessagePack map, CBOR map, BSON document), else rejected.
//! - R2: strings and keys are valid UTF-8 with no NUL (also not as JSON's `\u0000`) and no
//!   surrogates (a lone JSON `\uD800`-`\uDFFF` escape is rejected; a correct pair combines).
//! - R3: duplicate keys in a map are rejected.
//! - R4: no bytes after the root (JSON allows only space, tab, LF and CR around it; not form feed).
//! - R5: integers within int64/uint64, floats finite (NaN, infinities, and JSON numbers beyond
//!   float64's range such as `1e400` are rejected; `1e-400` is 0.0).
//! - R6: types outside the data model are rejected (listed above).
//! - R7: BSON binary of subtype 0x02 ("old binary") carries an int32 length of its own, which must
//!   equal the binary's length minus 4; the value is the bytes after it. Other subtypes are their
//!   bytes as they are.
//! - R9: no depth limit: iterative, a document nested 1,000,000 deep decodes (tests/refdec.rs).
//!
//! A rejection is the input's, not a library's: exit 6 where the input is the user's or the corpus's.

use crate::model::Val;
use std::fmt::Write as _;

/// Formats this harness can read with a reference decoder (UBJSON: no Rust implementation here).
pub const REF_FORMATS: &[&str] = &["json", "json-pretty", "msgpack", "cbor", "bson"];

/// Decodes `data` in `fmt` into the harness's tree, strictly (see the module doc).
pub fn ref_decode(fmt: &str, data: &[u8]) -> Result<Val, String> {
    match fmt {
        "json" | "json-pretty" => json(data),
        "msgpack" => msgpack(data),
        "cbor" => cbor(data),
        "bson" => bson(data),
        _ => Err(format!("no reference decoder for format {fmt}")),
    }
}

// --- the tree under construction -----------------------------------------------------------------

enum Items {
    Array(Vec<Val>),
    Map(Vec<(String, Val)>),
}

/// spec/data-model.md: strings and keys carry no NUL (C APIs with NUL-terminated strings cannot).
const NUL: &str = "NUL in a string or key (the data model has no NUL)";

/// spec/data-model.md: the root of every document is a map (R1).
const ROOT: &str = "the root is not a map (the data model's root is a map)";

struct Frame {
    items: Items,
    /// items (array) or entries (map) still to come; None: closed by a marker (JSON, BSON, CBOR
    /// indefinite length)
    left: Option<u64>,
    key: Option<String>,
}

/// Open containers on a heap stack; a finished container is handed to its parent in a loop.
#[derive(Default)]
struct Tree {
    stack: Vec<Frame>,
    root: Option<Val>,
}

impl Tree {
    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Frame { items: Items::Map(_), key: None, .. }))
    }
    fn top_is_map(&self) -> bool {
        matches!(self.stack.last(), Some(Frame { items: Items::Map(_), .. }))
    }
    fn open(&mut self, map: bool, left: Option<u64>) -> Result<(), String> {
        // R1, as soon as the root's first byte says what it is
        if !map && self.stack.is_empty() {
            return Err(ROOT.into());
        }
        let items = if map { Items::Map(Vec::new()) } else { Items::Array(Vec::new()) };
        if left == Some(0) {
            return self.emit(if map { Val::Map(Vec::new()) } else { Val::Array(Vec::new()) });
        }
        self.stack.push(Frame { items, left, key: None });
        Ok(())
    }
    fn key(&mut self, k: String) {
        if let Some(f) = self.stack.last_mut() {
            f.key = Some(k);
        }
    }
    /// A finished value: appended to the open container (closing it, and its parents, when their
    /// counts are reached), or the root.
    fn emit(&mut self, mut v: Val) -> Result<(), String> {
        if matches!(&v, Val::Str(s) if s.contains('\0')) {
            return Err(NUL.into());
        }
        loop {
            let Some(top) = self.stack.last_mut() else {
                if !matches!(v, Val::Map(_)) {
                    return Err(ROOT.into());
                }
                self.root = Some(v);
                return Ok(());
            };
            match &mut top.items {
                Items::Array(a) => a.push(v),
                Items::Map(m) => match top.key.take() {
                    Some(k) if k.contains('\0') => return Err(NUL.into()),
                    Some(k) => m.push((k, v)),
                    None => return Err("map value without a key".into()),
                },
            }
            match &mut top.left {
                Some(n) => {
                    *n -= 1;
                    if *n > 0 {
                        return Ok(());
                    }
                }
                None => return Ok(()),
            }
            v = self.pop()?;
        }
    }
    fn pop(&mut self) -> Result<Val, String> {
        match self.stack.pop() {
            Some(Frame { items: Items::Array(a), .. }) => Ok(Val::Array(a)),
            Some(Frame { items: Items::Map(m), .. }) => {
                check_unique(&m)?;
                Ok(Val::Map(m))
            }
            None => Err("close without an open container".into()),
        }
    }
    /// Closes the innermost container (its end marker was read).
    fn close(&mut self) -> Result<(), String> {
        let v = self.pop()?;
        self.emit(v)
    }
    fn done(&self) -> bool {
        self.stack.is_empty() && self.root.is_some()
    }
    fn finish(mut self) -> Result<Val, String> {
        match (self.stack.is_empty(), self.root.take()) {
            (true, Some(v)) => Ok(v),
            _ => Err("document is incomplete".into()),
        }
    }
}

/// A key for an error message: quoted, at most 40 characters.
fn show(k: &str) -> String {
    let mut s = String::new();
    let short: String = k.chars().take(40).collect();
    let _ = write!(s, "{short:?}");
    if short.len() < k.len() {
        s.push_str("...");
    }
    s
}

/// The data model's maps have unique keys (spec/data-model.md).
fn check_unique(m: &[(String, Val)]) -> Result<(), String> {
    let dup = |k: &str| Err(format!("duplicate map key {}", show(k)));
    if m.len() <= 16 {
        for i in 1..m.len() {
            if m[..i].iter().any(|(k, _)| *k == m[i].0) {
                return dup(&m[i].0);
            }
        }
        return Ok(());
    }
    let mut keys: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    match keys.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => dup(w[0]),
        None => Ok(()),
    }
}

fn finite(f: f64, at: usize) -> Result<Val, String> {
    if f.is_finite() {
        Ok(Val::Float(f))
    } else {
        Err(format!("{f} at offset {at} is not in the data model (floats are finite)"))
    }
}

/// A bounds-checked cursor over the input.
struct Reader<'a> {
    d: &'a [u8],
    p: usize,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.d.len() - self.p
    }
    fn take(&mut self, n: u64) -> Result<&'a [u8], String> {
        if n > self.left() as u64 {
            return Err(format!(
                "truncated: {n} bytes needed at offset {}, {} left (a length larger than the input?)",
                self.p,
                self.left()
            ));
        }
        let s = &self.d[self.p..self.p + n as usize];
        self.p += n as usize;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn be(&mut self, n: u64) -> Result<u64, String> {
        Ok(self.take(n)?.iter().fold(0u64, |a, b| (a << 8) | *b as u64))
    }
    fn utf8(&mut self, n: u64) -> Result<String, String> {
        let at = self.p;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| format!("invalid UTF-8 in the string at offset {at}"))
    }
    /// A container count must fit in what is left, at `min` bytes per item.
    fn count(&self, n: u64, min: u64, at: usize) -> Result<u64, String> {
        match n.checked_mul(min) {
            Some(need) if need <= self.left() as u64 => Ok(n),
            _ => Err(format!("the count {n} at offset {at} is larger than the {} bytes left", self.left())),
        }
    }
}

// --- JSON (RFC 8259) -----------------------------------------------------------------------------

fn ws(d: &[u8], mut p: usize) -> usize {
    while p < d.len() && matches!(d[p], b' ' | b'\t' | b'\n' | b'\r') {
        p += 1;
    }
    p
}

fn eof(what: &str) -> String {
    format!("truncated: the input ends inside {what}")
}

fn json(d: &[u8]) -> Result<Val, String> {
    let mut t = Tree::default();
    let mut p = 0;
    loop {
        // a value is expected
        p = ws(d, p);
        let c = *d.get(p).ok_or_else(|| eof("the document"))?;
        match c {
            b'{' => {
                p = ws(d, p + 1);
                if d.get(p) == Some(&b'}') {
                    p += 1;
                    t.emit(Val::Map(Vec::new()))?;
                } else {
                    t.open(true, None)?;
                    p = json_key(d, p, &mut t)?;
                    continue;
                }
            }
            b'[' => {
                p = ws(d, p + 1);
                if d.get(p) == Some(&b']') {
                    p += 1;
                    t.emit(Val::Array(Vec::new()))?;
                } else {
                    t.open(false, None)?;
                    continue;
                }
            }
            b'"' => {
                let (s, q) = json_string(d, p)?;
                p = q;
                t.emit(Val::Str(s))?;
            }
            b't' | b'f' | b'n' => {
                let (word, v) = match c {
                    b't' => ("true", Val::Bool(true)),
                    b'f' => ("false", Val::Bool(false)),
                    _ => ("null", Val::Null),
                };
                if !d[p..].starts_with(word.as_bytes()) {
                    return Err(format!("invalid literal at offset {p}"));
                }
                p += word.len();
                t.emit(v)?;
            }
            b'-' | b'0'..=b'9' => {
                let (v, q) = json_number(d, p)?;
                p = q;
                t.emit(v)?;
            }
            _ => return Err(format!("unexpected byte 0x{c:02x} at offset {p}")),
        }
        // after a value: a comma, the end of its container, or the end of the input
        loop {
            p = ws(d, p);
            if t.stack.is_empty() {
                if p != d.len() {
                    return Err(format!("trailing bytes after the document at offset {p}"));
                }
                return t.finish();
            }
            let is_map = t.top_is_map();
            match d.get(p) {
                None => return Err(eof(if is_map { "an object" } else { "an array" })),
                Some(b',') => {
                    p += 1;
                    if is_map {
                        p = json_key(d, ws(d, p), &mut t)?;
                    }
                    break;
                }
                Some(b']') if !is_map => {
                    p += 1;
                    t.close()?;
                }
                Some(b'}') if is_map => {
                    p += 1;
                    t.close()?;
                }
                Some(c) => return Err(format!("unexpected byte 0x{c:02x} at offset {p} (',' or a close expected)")),
            }
        }
    }
}

/// `"key" :` at `p`; returns the offset after the colon.
fn json_key(d: &[u8], p: usize, t: &mut Tree) -> Result<usize, String> {
    match d.get(p) {
        Some(b'"') => {}
        Some(c) => return Err(format!("unexpected byte 0x{c:02x} at offset {p} (a string key expected)")),
        None => return Err(eof("an object")),
    }
    let (k, q) = json_string(d, p)?;
    t.key(k);
    let q = ws(d, q);
    match d.get(q) {
        Some(b':') => Ok(q + 1),
        Some(c) => Err(format!("unexpected byte 0x{c:02x} at offset {q} (':' expected)")),
        None => Err(eof("an object")),
    }
}

fn hex4(d: &[u8], p: usize) -> Result<u32, String> {
    let h = d.get(p..p + 4).ok_or_else(|| eof("a \\u escape"))?;
    let s = std::str::from_utf8(h).map_err(|_| format!("invalid \\u escape at offset {p}"))?;
    if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("invalid \\u escape at offset {p}"));
    }
    u32::from_str_radix(s, 16).map_err(|_| format!("invalid \\u escape at offset {p}"))
}

/// The string starting with the quote at `p`; returns it and the offset after the closing quote.
fn json_string(d: &[u8], p: usize) -> Result<(String, usize), String> {
    let mut out = Vec::new();
    let mut i = p + 1;
    loop {
        let start = i;
        while i < d.len() && d[i] != b'"' && d[i] != b'\\' && d[i] >= 0x20 {
            i += 1;
        }
        out.extend_from_slice(&d[start..i]);
        match d.get(i) {
            None => return Err(eof("a string")),
            Some(b'"') => break,
            Some(b'\\') => {
                let e = *d.get(i + 1).ok_or_else(|| eof("a string"))?;
                i += 2;
                let ch = match e {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        let at = i - 2;
                        let hi = hex4(d, i)?;
                        i += 4;
                        let cp = match hi {
                            0xD800..=0xDBFF => {
                                if d.get(i..i + 2) != Some(b"\\u") {
                                    return Err(format!("lone surrogate \\u{hi:04x} at offset {at} (not UTF-8)"));
                                }
                                let lo = hex4(d, i + 2)?;
                                if !(0xDC00..=0xDFFF).contains(&lo) {
                                    return Err(format!("lone surrogate \\u{hi:04x} at offset {at} (not UTF-8)"));
                                }
                                i += 6;
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            }
                            0xDC00..=0xDFFF => {
                                return Err(format!("lone surrogate \\u{hi:04x} at offset {at} (not UTF-8)"))
                            }
                            cp => cp,
                        };
                        char::from_u32(cp).ok_or_else(|| format!("invalid \\u escape at offset {at}"))?
                    }
                    _ => return Err(format!("invalid escape at offset {}", i - 2)),
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            Some(c) => return Err(format!("unescaped control character 0x{c:02x} in a string at offset {i}")),
        }
    }
    let s = String::from_utf8(out).map_err(|_| format!("invalid UTF-8 in the string at offset {p}"))?;
    Ok((s, i + 1))
}

fn digits(d: &[u8], mut p: usize) -> usize {
    while p < d.len() && d[p].is_ascii_digit() {
        p += 1;
    }
    p
}

/// A number: an integer when it has no fraction and no exponent (within int64/uint64), else a
/// float64 (correctly rounded by `str::parse`; a value beyond the float64 range is rejected).
fn json_number(d: &[u8], start: usize) -> Result<(Val, usize), String> {
    let bad = || format!("invalid number at offset {start}");
    let neg = d[start] == b'-';
    let int_start = start + neg as usize;
    let p = match d.get(int_start) {
        Some(b'0') => int_start + 1,
        Some(b'1'..=b'9') => digits(d, int_start + 1),
        _ => return Err(bad()),
    };
    let int_end = p;
    let mut p = p;
    let mut float = false;
    if d.get(p) == Some(&b'.') {
        let q = digits(d, p + 1);
        if q == p + 1 {
            return Err(bad());
        }
        p = q;
        float = true;
    }
    if matches!(d.get(p), Some(b'e' | b'E')) {
        p += 1;
        if matches!(d.get(p), Some(b'+' | b'-')) {
            p += 1;
        }
        let q = digits(d, p);
        if q == p {
            return Err(bad());
        }
        p = q;
        float = true;
    }
    let text = std::str::from_utf8(&d[start..p]).map_err(|_| bad())?;
    if float {
        let f: f64 = text.parse().map_err(|_| bad())?;
        return finite(f, start)
            .map(|v| (v, p))
            .map_err(|_| format!("the number at offset {start} is beyond the float64 range"));
    }
    let mut mag: u64 = 0;
    for b in &d[int_start..int_end] {
        mag = mag
            .checked_mul(10)
            .and_then(|m| m.checked_add((b - b'0') as u64))
            .ok_or_else(|| format!("the integer at offset {start} is outside int64/uint64"))?;
    }
    let v = if !neg || mag == 0 {
        Val::UInt(mag)
    } else if mag <= 1 << 63 {
        Val::NegInt((mag as i64).wrapping_neg())
    } else {
        return Err(format!("the integer at offset {start} is below INT64_MIN"));
    };
    Ok((v, p))
}

// --- MessagePack -------------------------------------------------------------------------------

fn msgpack(d: &[u8]) -> Result<Val, String> {
    let mut r = Reader { d, p: 0 };
    let mut t = Tree::default();
    while !t.done() {
        let at = r.p;
        let m = r.u8()?;
        let str_len = match m {
            0xa0..=0xbf => Some((m & 0x1f) as u64),
            0xd9 => Some(r.be(1)?),
            0xda => Some(r.be(2)?),
            0xdb => Some(r.be(4)?),
            _ => None,
        };
        if let Some(n) = str_len {
            let s = r.utf8(n)?;
            if t.expects_key() {
                t.key(s);
            } else {
                t.emit(Val::Str(s))?;
            }
            continue;
        }
        if t.expects_key() {
            return Err(format!("the map key at offset {at} is not a string"));
        }
        match m {
            0x00..=0x7f => t.emit(Val::UInt(m as u64))?,
            0xe0..=0xff => t.emit(Val::int(m as i8 as i64))?,
            0xc0 => t.emit(Val::Null)?,
            0xc2 => t.emit(Val::Bool(false))?,
            0xc3 => t.emit(Val::Bool(true))?,
            0xc4..=0xc6 => {
                let n = r.be(1 << (m - 0xc4))?;
                t.emit(Val::Bin(r.take(n)?.to_vec()))?;
            }
            0xca => {
                let f = f32::from_bits(r.be(4)? as u32) as f64;
                t.emit(finite(f, at)?)?;
            }
            0xcb => t.emit(finite(f64::from_bits(r.be(8)?), at)?)?,
            0xcc..=0xcf => t.emit(Val::UInt(r.be(1 << (m - 0xcc))?))?,
            0xd0 => t.emit(Val::int(r.be(1)? as u8 as i8 as i64))?,
            0xd1 => t.emit(Val::int(r.be(2)? as u16 as i16 as i64))?,
            0xd2 => t.emit(Val::int(r.be(4)? as u32 as i32 as i64))?,
            0xd3 => t.emit(Val::int(r.be(8)? as i64))?,
            0x80..=0x8f | 0x90..=0x9f | 0xdc..=0xdf => {
                let (map, n) = match m {
                    0x80..=0x8f => (true, (m & 0x0f) as u64),
                    0x90..=0x9f => (false, (m & 0x0f) as u64),
                    0xdc => (false, r.be(2)?),
                    0xdd => (false, r.be(4)?),
                    0xde => (true, r.be(2)?),
                    _ => (true, r.be(4)?),
                };
                let n = r.count(n, if map { 2 } else { 1 }, at)?;
                t.open(map, Some(n))?;
            }
            0xc1 => return Err(format!("byte 0xc1 at offset {at} is never used in MessagePack")),
            _ => return Err(format!("the ext type at offset {at} is not in the data model")),
        }
    }
    if r.left() != 0 {
        return Err(format!("trailing bytes after the document at offset {}", r.p));
    }
    t.finish()
}

// --- CBOR (RFC 8949) ---------------------------------------------------------------------------

fn f16_to_f64(h: u16) -> f64 {
    let exp = (h >> 10) & 0x1f;
    let mant = (h & 0x3ff) as f64;
    let mag = match exp {
        0 => mant * 2f64.powi(-24),
        31 if mant == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (mant + 1024.0) * 2f64.powi(exp as i32 - 25),
    };
    if h & 0x8000 != 0 {
        -mag
    } else {
        mag
    }
}

/// The argument of a head (None: indefinite length).
fn cbor_arg(r: &mut Reader, ai: u8, at: usize) -> Result<Option<u64>, String> {
    Ok(Some(match ai {
        0..=23 => ai as u64,
        24 => r.be(1)?,
        25 => r.be(2)?,
        26 => r.be(4)?,
        27 => r.be(8)?,
        31 => return Ok(None),
        _ => return Err(format!("reserved additional information {ai} at offset {at}")),
    }))
}

/// A byte or text string (major 2 or 3) whose head is already read: definite, or the definite
/// chunks of an indefinite one (each text chunk valid UTF-8 on its own).
fn cbor_string(r: &mut Reader, major: u8, len: Option<u64>, at: usize) -> Result<Vec<u8>, String> {
    let chunk = |r: &mut Reader, n: u64| -> Result<Vec<u8>, String> {
        let c_at = r.p;
        let b = r.take(n)?;
        if major == 3 && std::str::from_utf8(b).is_err() {
            return Err(format!("invalid UTF-8 in the string at offset {c_at}"));
        }
        Ok(b.to_vec())
    };
    let Some(n) = len else {
        let mut out = Vec::new();
        loop {
            let c_at = r.p;
            let ib = r.u8()?;
            if ib == 0xff {
                return Ok(out);
            }
            if ib >> 5 != major {
                return Err(format!("chunk of another type at offset {c_at} in the indefinite string at {at}"));
            }
            match cbor_arg(r, ib & 31, c_at)? {
                Some(n) => out.extend(chunk(r, n)?),
                None => return Err(format!("nested indefinite string at offset {c_at}")),
            }
        }
    };
    chunk(r, n)
}

fn cbor(d: &[u8]) -> Result<Val, String> {
    let mut r = Reader { d, p: 0 };
    let mut t = Tree::default();
    while !t.done() {
        let at = r.p;
        let ib = r.u8()?;
        if ib == 0xff {
            // break: ends an indefinite-length array, or a map between entries
            match t.stack.last() {
                Some(f) if f.left.is_none() && f.key.is_none() => t.close()?,
                _ => return Err(format!("unexpected break at offset {at}")),
            }
            continue;
        }
        let (major, ai) = (ib >> 5, ib & 31);
        let arg = cbor_arg(&mut r, ai, at)?;
        if major == 3 {
            let b = cbor_string(&mut r, 3, arg, at)?;
            let s = String::from_utf8(b).map_err(|_| format!("invalid UTF-8 in the string at offset {at}"))?;
            if t.expects_key() {
                t.key(s);
            } else {
                t.emit(Val::Str(s))?;
            }
            continue;
        }
        if t.expects_key() {
            return Err(format!("the map key at offset {at} is not a string"));
        }
        let definite =
            |what: &str| arg.ok_or_else(|| format!("{what} at offset {at} cannot have an indefinite length"));
        match major {
            0 => t.emit(Val::UInt(definite("an integer")?))?,
            1 => {
                let n = definite("an integer")?;
                if n > i64::MAX as u64 {
                    return Err(format!("the integer at offset {at} is below INT64_MIN"));
                }
                t.emit(Val::NegInt(-1 - n as i64))?;
            }
            2 => t.emit(Val::Bin(cbor_string(&mut r, 2, arg, at)?))?,
            4 | 5 => {
                let map = major == 5;
                let n = match arg {
                    Some(n) => Some(r.count(n, if map { 2 } else { 1 }, at)?),
                    None => None,
                };
                t.open(map, n)?;
            }
            6 => return Err(format!("the tag at offset {at} is not in the data model")),
            _ => match ai {
                20 => t.emit(Val::Bool(false))?,
                21 => t.emit(Val::Bool(true))?,
                22 => t.emit(Val::Null)?,
                25 => t.emit(finite(f16_to_f64(definite("a float")? as u16), at)?)?,
                26 => t.emit(finite(f32::from_bits(definite("a float")? as u32) as f64, at)?)?,
                27 => t.emit(finite(f64::from_bits(definite("a float")?), at)?)?,
                23 => return Err(format!("undefined at offset {at} is not in the data model")),
                _ => return Err(format!("the simple value at offset {at} is not in the data model")),
            },
        }
    }
    if r.left() != 0 {
        return Err(format!("trailing bytes after the document at offset {}", r.p));
    }
    t.finish()
}

// --- BSON 1.1 ----------------------------------------------------------------------------------

fn le_i32(d: &[u8], p: usize) -> i32 {
    i32::from_le_bytes([d[p], d[p + 1], d[p + 2], d[p + 3]])
}

struct Doc {
    /// offset of the document's terminating 0x00, from its length field
    end: usize,
    /// arrays: the next index, which must be the key
    index: Option<u64>,
}

fn bson_type_name(t: u8) -> String {
    let name = match t {
        0x06 => "undefined",
        0x07 => "ObjectId",
        0x09 => "UTC datetime",
        0x0B => "regex",
        0x0C => "DBPointer",
        0x0D => "JavaScript code",
        0x0E => "symbol",
        0x0F => "code with scope",
        0x11 => "timestamp",
        0x13 => "decimal128",
        0x7F => "max key",
        0xFF => "min key",
        _ => return format!("unknown BSON type 0x{t:02x}"),
    };
    format!("BSON type {name} (0x{t:02x})")
}

fn bson(d: &[u8]) -> Result<Val, String> {
    if d.len() < 5 {
        return Err(format!("truncated: a BSON document is at least 5 bytes, the input has {}", d.len()));
    }
    let len = le_i32(d, 0);
    if len < 5 || len as i64 != d.len() as i64 {
        return Err(format!(
            "the document length field says {len} (as unsigned {}), the input has {} bytes",
            len as u32,
            d.len()
        ));
    }
    let mut t = Tree::default();
    let mut docs = vec![Doc { end: d.len() - 1, index: None }];
    t.open(true, None)?;
    let mut p = 4;
    while let Some(doc) = docs.last_mut() {
        let end = doc.end;
        let at = p;
        let ty = d[p];
        if ty == 0 {
            if p != end {
                return Err(format!(
                    "document terminator at offset {p}, but its length field puts the end at offset {end}"
                ));
            }
            p += 1;
            docs.pop();
            t.close()?;
            continue;
        }
        if p == end {
            return Err(format!("the document ending at offset {end} is not terminated by 0x00"));
        }
        // the key: a NUL-terminated string inside the document
        let k0 = p + 1;
        let nul = d[k0..end]
            .iter()
            .position(|b| *b == 0)
            .ok_or_else(|| format!("the key at offset {k0} runs past the end of its document"))?
            + k0;
        let key = &d[k0..nul];
        match &mut doc.index {
            Some(i) => {
                if key != i.to_string().as_bytes() {
                    return Err(format!("array key at offset {k0} is not the index {i}"));
                }
                *i += 1;
            }
            None => {
                let k = std::str::from_utf8(key).map_err(|_| format!("invalid UTF-8 in the key at offset {k0}"))?;
                t.key(k.to_owned());
            }
        }
        p = nul + 1;
        // the value: it must end before the document's terminator
        let room = end - p;
        let need = |n: usize| -> Result<(), String> {
            if n > room {
                Err(format!("truncated: the value at offset {p} needs {n} bytes, its document has {room} left"))
            } else {
                Ok(())
            }
        };
        match ty {
            0x01 => {
                need(8)?;
                let f = f64::from_le_bytes(d[p..p + 8].try_into().unwrap());
                t.emit(finite(f, p)?)?;
                p += 8;
            }
            0x02 => {
                need(4)?;
                let n = le_i32(d, p);
                if n < 1 {
                    return Err(format!("the string length {n} at offset {p} is invalid (at least 1, for its 0x00)"));
                }
                need(4 + n as usize)?;
                let s = &d[p + 4..p + 4 + n as usize];
                if s[s.len() - 1] != 0 {
                    return Err(format!("the string at offset {p} is not terminated by 0x00"));
                }
                let s = std::str::from_utf8(&s[..s.len() - 1])
                    .map_err(|_| format!("invalid UTF-8 in the string at offset {p}"))?;
                t.emit(Val::Str(s.to_owned()))?;
                p += 4 + n as usize;
            }
            0x03 | 0x04 => {
                need(4)?;
                let n = le_i32(d, p);
                if n < 5 {
                    return Err(format!("the document length {n} at offset {p} is invalid (at least 5)"));
                }
                need(n as usize)?;
                let array = ty == 0x04;
                docs.push(Doc { end: p + n as usize - 1, index: array.then_some(0) });
                t.open(!array, None)?;
                p += 4;
            }
            0x05 => {
                need(5)?;
                let n = le_i32(d, p);
                if n < 0 {
                    return Err(format!("the binary length {n} at offset {p} is negative"));
                }
                need(5 + n as usize)?;
                let sub = d[p + 4];
                let mut bytes = &d[p + 5..p + 5 + n as usize];
                if sub == 0x02 {
                    // R7: the old binary subtype wraps its bytes in a length of their own
                    if n < 4 || le_i32(bytes, 0) != n - 4 {
                        return Err(format!(
                            "the old binary (subtype 0x02) at offset {p} has an inner length that is not its length {n} minus 4"
                        ));
                    }
                    bytes = &bytes[4..];
                }
                t.emit(Val::Bin(bytes.to_vec()))?;
                p += 5 + n as usize;
            }
            0x08 => {
                need(1)?;
                let b = match d[p] {
                    0 => false,
                    1 => true,
                    x => return Err(format!("boolean byte 0x{x:02x} at offset {p} is neither 0 nor 1")),
                };
                t.emit(Val::Bool(b))?;
                p += 1;
            }
            0x0A => t.emit(Val::Null)?,
            0x10 => {
                need(4)?;
                t.emit(Val::int(le_i32(d, p) as i64))?;
                p += 4;
            }
            0x12 => {
                need(8)?;
                t.emit(Val::int(i64::from_le_bytes(d[p..p + 8].try_into().unwrap())))?;
                p += 8;
            }
            other => return Err(format!("{} at offset {at} is not in the data model", bson_type_name(other))),
        }
    }
    t.finish()
}
