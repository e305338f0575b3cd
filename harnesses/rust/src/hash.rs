//! The serbench object hash, spec/hash.md version 1.
//!
//! Leaf hashes and container folds shared by every tree walker, plus [`StreamHasher`], the
//! event-driven form (a container's count is fed after its children).

pub const K: u64 = 0x9E37_79B9_7F4A_7C15;

pub const NULL: u64 = 1;
pub const BOOL: u64 = 2;
pub const UINT: u64 = 3;
pub const NEGINT: u64 = 4;
pub const FLOAT: u64 = 5;
pub const STRING: u64 = 6;
pub const BINARY: u64 = 7;
pub const ARRAY: u64 = 8;
pub const MAP: u64 = 9;
pub const ENTRY: u64 = 10;

#[inline(always)]
pub const fn fmix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline(always)]
pub const fn step(a: u64, x: u64) -> u64 {
    fmix(a.wrapping_mul(K).wrapping_add(x))
}

pub const NULL_HASH: u64 = step(NULL, 0);
pub const FALSE_HASH: u64 = step(BOOL, 0);
pub const TRUE_HASH: u64 = step(BOOL, 1);

#[inline]
pub fn hash_bytes(tag: u64, b: &[u8]) -> u64 {
    let mut a = step(tag, b.len() as u64);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        a = step(a, u64::from_le_bytes(c.try_into().unwrap()));
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        a = step(a, u64::from_le_bytes(w));
    }
    a
}

/// `hash_str` at compile time, for the field names of typed walks (`key!`): a walk then pays for
/// one step per field, as a walk over the harness's own records does, however the optimiser treats
/// a particular walk (a name hashed at run time costs each row about 15 ns per field).
pub const fn key_hash(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut a = step(STRING, b.len() as u64);
    let mut i = 0;
    while i < b.len() {
        let mut w = [0u8; 8];
        let mut j = 0;
        while j < 8 && i + j < b.len() {
            w[j] = b[i + j];
            j += 1;
        }
        a = step(a, u64::from_le_bytes(w));
        i += 8;
    }
    a
}

/// The hash of a field name, computed at compile time (`hash::key_hash`).
#[macro_export]
macro_rules! key {
    ($name:expr) => {
        const { $crate::hash::key_hash($name) }
    };
}

#[inline]
pub fn hash_str(s: &str) -> u64 {
    hash_bytes(STRING, s.as_bytes())
}

#[inline]
pub fn hash_bin(b: &[u8]) -> u64 {
    hash_bytes(BINARY, b)
}

#[inline]
pub fn hash_bool(b: bool) -> u64 {
    if b {
        TRUE_HASH
    } else {
        FALSE_HASH
    }
}

#[inline]
pub fn hash_u64(v: u64) -> u64 {
    step(UINT, v)
}

#[inline]
pub fn hash_i64(v: i64) -> u64 {
    if v >= 0 {
        step(UINT, v as u64)
    } else {
        step(NEGINT, v as u64)
    }
}

/// An integer wider than 64 bits (CBOR decoders hand out i128): `None` when the data model
/// cannot carry it.
#[inline]
pub fn hash_i128(v: i128) -> Option<u64> {
    if v >= 0 {
        u64::try_from(v).ok().map(hash_u64)
    } else {
        i64::try_from(v).ok().map(hash_i64)
    }
}

#[inline]
pub fn hash_f64(f: f64) -> u64 {
    step(FLOAT, f.to_bits())
}

/// Folds an array from its element hashes.
#[derive(Clone, Copy)]
pub struct ArrayAcc {
    a: u64,
    n: u64,
}

impl Default for ArrayAcc {
    fn default() -> Self {
        Self::new()
    }
}

impl ArrayAcc {
    #[inline]
    pub const fn new() -> Self {
        ArrayAcc { a: ARRAY, n: 0 }
    }
    #[inline]
    pub fn push(&mut self, h: u64) {
        self.a = step(self.a, h);
        self.n += 1;
    }
    #[inline]
    pub fn finish(self) -> u64 {
        step(self.a, self.n)
    }
}

/// Folds a map from (key hash, value hash) pairs, in any order.
#[derive(Clone, Copy, Default)]
pub struct MapAcc {
    s: u64,
    n: u64,
}

impl MapAcc {
    #[inline]
    pub const fn new() -> Self {
        MapAcc { s: 0, n: 0 }
    }
    #[inline]
    pub fn push(&mut self, key: u64, value: u64) {
        self.s = self.s.wrapping_add(step(step(ENTRY, key), value));
        self.n += 1;
    }
    #[inline]
    pub fn finish(self) -> u64 {
        step(step(MAP, self.s), self.n)
    }
}

#[inline]
pub fn hash_array<I: IntoIterator<Item = u64>>(it: I) -> u64 {
    let mut a = ArrayAcc::new();
    for h in it {
        a.push(h);
    }
    a.finish()
}

/// What a tree walker sees at one node: a leaf's hash, or the children of a container (an array's
/// elements; a map's entries as (key hash, value)). See [`walk`].
pub enum Node<A, M> {
    Leaf(u64),
    Array(A),
    Map(M),
}

enum WalkFrame<A, M> {
    Array(A, ArrayAcc),
    Map(M, MapAcc, u64),
}

/// The tree form of the hash over any tree, without recursion: an explicit stack of open
/// containers, so a document nested 100,000 deep costs heap, never the call stack (spec/protocol.md:
/// the harness's own walks never recurse without bound). `classify` looks at one node; errors (a
/// value outside the data model) stop the walk. Every tree walk of this harness, over its own tree
/// and over each library's, goes through here, so the `hash-object` baseline and the rows it is
/// subtracted from walk the same way.
#[inline]
pub fn walk<T, A, M, E>(root: T, mut classify: impl FnMut(T) -> Result<Node<A, M>, E>) -> Result<u64, E>
where
    A: Iterator<Item = Result<T, E>>,
    M: Iterator<Item = Result<(u64, T), E>>,
{
    let mut stack: Vec<WalkFrame<A, M>> = Vec::new();
    let mut item = root;
    loop {
        // descend into `item`: a leaf gives a hash to feed upwards, a container opens a frame
        let mut done: Option<u64> = match classify(item)? {
            Node::Leaf(h) => Some(h),
            Node::Array(it) => {
                stack.push(WalkFrame::Array(it, ArrayAcc::new()));
                None
            }
            Node::Map(it) => {
                stack.push(WalkFrame::Map(it, MapAcc::new(), 0));
                None
            }
        };
        // feed it to the open container and find the next child, closing finished containers
        item = loop {
            let Some(top) = stack.last_mut() else {
                // the root is finished (a container always feeds `done` before the stack empties)
                return Ok(done.unwrap_or(NULL_HASH));
            };
            let next = match top {
                WalkFrame::Array(it, acc) => {
                    if let Some(h) = done.take() {
                        acc.push(h);
                    }
                    match it.next() {
                        Some(child) => Ok(child?),
                        None => Err(acc.finish()),
                    }
                }
                WalkFrame::Map(it, acc, key) => {
                    if let Some(h) = done.take() {
                        acc.push(*key, h);
                    }
                    match it.next() {
                        Some(entry) => {
                            let (k, child) = entry?;
                            *key = k;
                            Ok(child)
                        }
                        None => Err(acc.finish()),
                    }
                }
            };
            match next {
                Ok(child) => break child,
                Err(h) => {
                    stack.pop();
                    done = Some(h);
                }
            }
        };
    }
}

pub fn hex64(h: u64) -> String {
    format!("{h:016x}")
}

struct Frame {
    is_map: bool,
    acc: u64,
    n: u64,
    key: Option<u64>,
}

/// Computes the hash from parse events, without a tree (spec/hash.md, "Streaming form").
#[derive(Default)]
pub struct StreamHasher {
    stack: Vec<Frame>,
    result: Option<u64>,
}

impl StreamHasher {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    pub fn emit(&mut self, h: u64) -> Result<(), String> {
        match self.stack.last_mut() {
            None => {
                if self.result.is_some() {
                    return Err("more than one root value".into());
                }
                self.result = Some(h);
            }
            Some(f) if f.is_map => {
                let k = f.key.take().ok_or("map value without a key")?;
                f.acc = f.acc.wrapping_add(step(step(ENTRY, k), h));
                f.n += 1;
            }
            Some(f) => {
                f.acc = step(f.acc, h);
                f.n += 1;
            }
        }
        Ok(())
    }

    #[inline]
    pub fn start_array(&mut self) {
        self.stack.push(Frame { is_map: false, acc: ARRAY, n: 0, key: None });
    }

    #[inline]
    pub fn start_map(&mut self) {
        self.stack.push(Frame { is_map: true, acc: 0, n: 0, key: None });
    }

    /// Feeds a map key's hash (see [`hash_str`]).
    #[inline]
    pub fn key_hash(&mut self, k: u64) -> Result<(), String> {
        match self.stack.last_mut() {
            Some(f) if f.is_map && f.key.is_none() => {
                f.key = Some(k);
                Ok(())
            }
            _ => Err("key outside a map, or two keys in a row".into()),
        }
    }

    /// True when the innermost open container is a map waiting for a key.
    #[inline]
    pub fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(f) if f.is_map && f.key.is_none())
    }

    #[inline]
    pub fn end(&mut self) -> Result<(), String> {
        let f = self.stack.pop().ok_or("close without an open container")?;
        if f.key.is_some() {
            return Err("map closed after a key without a value".into());
        }
        let h = if f.is_map { step(step(MAP, f.acc), f.n) } else { step(f.acc, f.n) };
        self.emit(h)
    }

    pub fn value(&self) -> Result<u64, String> {
        match self.result {
            Some(h) if self.stack.is_empty() => Ok(h),
            _ => Err("document is incomplete".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_by_objhash_py() {
        assert_eq!(hex64(NULL_HASH), "e220a8397b1dcdaf");
        assert_eq!(hex64(hash_str("hello, world!!")), "f6317c53dc741fb3");
        // the compile-time form agrees at every length around the 8-byte chunking
        for s in ["", "a", "price", "in_stock", "small_int", "hello, world!!", "0123456789abcdef", "Sell"] {
            assert_eq!(key_hash(s), hash_str(s), "{s:?}");
        }
        assert_eq!(crate::key!("hello, world!!"), hash_str("hello, world!!"));
        let arr = hash_array([hash_u64(1), hash_i64(-2), hash_f64(3.5)]);
        let mut m = MapAcc::new();
        m.push(hash_str("a"), arr);
        assert_eq!(hex64(m.finish()), "f90f462e715e9eaf");
    }

    #[test]
    fn scalars_match_reference() {
        // Values from objhash.py: hex64(step(NULL, 0)) etc. pinned through the vectors below.
        assert_eq!(hash_bytes(STRING, b""), step(STRING, 0));
        assert_ne!(hash_f64(0.0), hash_f64(-0.0));
        assert_ne!(hash_f64(1.0), hash_u64(1));
        assert_eq!(hash_i64(5), hash_u64(5));
    }

    #[test]
    fn stream_matches_tree() {
        // {"a": [1, -2, 3.5], "b": {"c": null}, "d": "xyz0123456789"}
        let tree = {
            let arr = hash_array([hash_u64(1), hash_i64(-2), hash_f64(3.5)]);
            let mut inner = MapAcc::new();
            inner.push(hash_str("c"), NULL_HASH);
            let mut m = MapAcc::new();
            m.push(hash_str("d"), hash_str("xyz0123456789"));
            m.push(hash_str("a"), arr);
            m.push(hash_str("b"), inner.finish());
            m.finish()
        };
        let mut s = StreamHasher::new();
        s.start_map();
        s.key_hash(hash_str("a")).unwrap();
        s.start_array();
        s.emit(hash_u64(1)).unwrap();
        s.emit(hash_i64(-2)).unwrap();
        s.emit(hash_f64(3.5)).unwrap();
        s.end().unwrap();
        s.key_hash(hash_str("b")).unwrap();
        s.start_map();
        s.key_hash(hash_str("c")).unwrap();
        s.emit(NULL_HASH).unwrap();
        s.end().unwrap();
        s.key_hash(hash_str("d")).unwrap();
        s.emit(hash_str("xyz0123456789")).unwrap();
        s.end().unwrap();
        assert_eq!(s.value().unwrap(), tree);
    }
}
