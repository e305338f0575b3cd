//! The serbench object hash, spec/hash.md version 2.
//!
//! Leaf hashes and container sums shared by every tree walker ([`walk`]), plus [`StreamHasher`],
//! the event-driven form (a container's count is fed after its children).

use smallvec::SmallVec;

pub const K: u64 = 0x9E37_79B9_7F4A_7C15;
/// wyhash's secret constants (spec/hash.md, "Arithmetic").
pub const P0: u64 = 0xA076_1D64_78BD_642F;
pub const P1: u64 = 0xE703_7ED1_A0B4_28DB;
pub const P2: u64 = 0x8EBC_6AF0_9C88_C6E3;
pub const P3: u64 = 0x5899_65CC_7537_4CC3;

pub const NULL: u64 = 1;
pub const BOOL: u64 = 2;
pub const UINT: u64 = 3;
pub const NEGINT: u64 = 4;
pub const FLOAT: u64 = 5;
pub const STRING: u64 = 6;
pub const BINARY: u64 = 7;
pub const ARRAY: u64 = 8;
pub const MAP: u64 = 9;

/// `S(t)`, the seed of type tag `t`.
#[inline(always)]
pub const fn seed(tag: u64) -> u64 {
    tag.wrapping_mul(K)
}

/// wyhash's mixing step: the full 128-bit product, low half XOR high half (one `mul` on x86-64).
#[inline(always)]
pub const fn mum(a: u64, b: u64) -> u64 {
    let r = (a as u128) * (b as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// `scalar(t, v)`: a value of type `tag` with 64-bit payload `v`.
#[inline(always)]
pub const fn scalar(tag: u64, v: u64) -> u64 {
    mum(v ^ seed(tag), P0)
}

pub const NULL_HASH: u64 = scalar(NULL, 0);
pub const FALSE_HASH: u64 = scalar(BOOL, 0);
pub const TRUE_HASH: u64 = scalar(BOOL, 1);

#[inline(always)]
fn w64(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().unwrap())
}

#[inline(always)]
fn w32(b: &[u8], i: usize) -> u64 {
    u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as u64
}

/// The last 1 to 15 bytes as two zero-padded little-endian words, read with overlapping loads
/// instead of a byte loop and never past the end: [`hash_slow`]'s path for a short string within 16
/// bytes of its page's end (or on a target without [`load16_in_page`]).
#[inline(always)]
fn tail16(t: &[u8]) -> (u64, u64) {
    let n = t.len();
    debug_assert!((1..16).contains(&n));
    if n >= 8 {
        // bytes 8..n: the last 8 bytes shifted down past the ones already in the first word; split
        // in two shifts so that n = 8 shifts by 64 in all (to 0) without a branch
        let hi = (w64(t, n - 8) >> 1) >> (8 * (16 - n) - 1);
        (w64(t, 0), hi)
    } else if n >= 4 {
        (w32(t, 0) | (w32(t, n - 4) << (8 * (n - 4))), 0)
    } else {
        // 1 to 3 bytes: first, middle and last (they overlap for n < 3; the same byte ORs onto itself)
        let lo = t[0] as u64 | (t[n / 2] as u64) << (8 * (n / 2)) | (t[n - 1] as u64) << (8 * (n - 1));
        (lo, 0)
    }
}

/// `c ? a : b` as arithmetic, so that the compiler cannot turn it into a branch: the conditions it
/// is used for (scalar or string, how many bytes a string has left) change from one value to the
/// next, and a mispredicted branch costs more than the select
/// (docs/studies/fewer-branches-per-value.md, "Fewer branches per value").
#[inline(always)]
pub fn select(c: bool, a: u64, b: u64) -> u64 {
    b ^ ((a ^ b) & (c as u64).wrapping_neg())
}

/// The masks that keep the first `n` (0..=16) bytes of the two little-endian words at a string's
/// start: `w(0)` and `w(8)` of spec/hash.md, bytes past `n` counted as 0.
const MASK16: [(u64, u64); 17] = {
    let mut m = [(0u64, 0u64); 17];
    let mut n = 1;
    while n <= 16 {
        let lo = if n >= 8 { !0 } else { !0u64 >> (64 - 8 * n) };
        let hi = if n >= 16 {
            !0
        } else if n <= 8 {
            0
        } else {
            !0u64 >> (64 - 8 * (n - 8))
        };
        m[n] = (lo, hi);
        n += 1;
    }
    m
};

/// Whether the 16 bytes at `p` lie in one 4 KiB page. Pages are 4 KiB or a multiple of it, so they
/// are then mapped if `p` is: a read of up to 15 bytes past a string's end, within its page, cannot
/// fault (the bytes past the end are masked off before they are used, so they never change a hash).
#[inline(always)]
pub fn can_read16(p: *const u8) -> bool {
    (p as usize & 4095) <= 4096 - 16
}

/// Whether this target has [`load16_in_page`]; elsewhere every string takes the exact path.
pub const FAST_SHORT: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// The little-endian 16 bytes at `p`, as two words, which may lie past the end of the object `p`
/// points into. An `asm!` load, so that the read past the end is the machine's (which allows it
/// within a mapped page) and not a Rust-level read outside an allocation; both words in one block,
/// so the second is `[p + 8]` and not an `add` before a second block (one instruction fewer per
/// short string, key and scalar leaf, which gcc's `memcpy` loads never had).
///
/// # Safety
/// `p` must point into a live object and the 16 bytes must lie in `p`'s page ([`can_read16`]).
#[inline(always)]
unsafe fn load16_in_page(p: *const u8) -> (u64, u64) {
    let (lo, hi): (u64, u64);
    // `lo` is written while `p` is still to be read: `out`, not `lateout`
    #[cfg(target_arch = "x86_64")]
    core::arch::asm!("mov {lo}, qword ptr [{p}]", "mov {hi}, qword ptr [{p} + 8]",
                     p = in(reg) p, lo = out(reg) lo, hi = lateout(reg) hi,
                     options(pure, readonly, nostack, preserves_flags));
    #[cfg(target_arch = "aarch64")]
    core::arch::asm!("ldp {lo}, {hi}, [{p}]", p = in(reg) p, lo = out(reg) lo, hi = lateout(reg) hi,
                     options(pure, readonly, nostack, preserves_flags));
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = p;
        unreachable!("FAST_SHORT is false on this target");
    }
    (lo, hi)
}

/// The first `n` (0..=16) bytes at `p` as spec/hash.md's `w(0)` and `w(8)`: both words read whole
/// and masked, so every length takes the same instructions, with no branch on the length class
/// (1-3, 4-7, 8-16 bytes), which on the corpus's mixed key and string lengths mispredicts. The
/// baselines' leaf ([`crate::model`]'s `FlatDoc::leaf`) reads through it too.
///
/// # Safety
/// `p` must point into a live object, and `can_read16(p)`.
#[inline(always)]
pub unsafe fn masked16(p: *const u8, n: usize) -> (u64, u64) {
    let (ml, mh) = MASK16[n];
    let (lo, hi) = load16_in_page(p);
    (lo & ml, hi & mh)
}

/// `bytes(s, b)` for `1 <= n <= 16` bytes at `p`, from [`masked16`].
///
/// # Safety
/// `p` must point at `n` readable bytes, `1 <= n <= 16`, and `can_read16(p)`.
#[inline(always)]
pub unsafe fn hash_short(s: u64, p: *const u8, n: usize) -> u64 {
    let (lo, hi) = masked16(p, n);
    // the seed and P2 are constants at every call site: one folded constant
    mum(lo ^ P1, hi ^ n as u64 ^ (s ^ P2))
}

/// `bytes(s, b)` (spec/hash.md). A string of 1 to 16 bytes (most keys, many values) is one `mum`
/// with no branch on its length, inlined into the walk; longer ones, empty ones (whose pointer may
/// dangle) and the rare short one at a page's end go to [`hash_slow`].
#[inline(always)]
pub fn hash_bytes_seeded(s: u64, b: &[u8]) -> u64 {
    let n = b.len();
    if FAST_SHORT && n.wrapping_sub(1) < 16 && can_read16(b.as_ptr()) {
        // SAFETY: n >= 1 bytes at b's start, and the 16 from there lie in its page
        return unsafe { hash_short(s, b.as_ptr(), n) };
    }
    // the C harness's SB_LIKELY on the short path: the exact path laid out of the loop's way
    std::hint::cold_path();
    hash_slow(s, b)
}

/// The exact path of [`hash_bytes_seeded`]: no read past the string.
#[inline(never)]
pub fn hash_slow(s: u64, b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 16 {
        return hash_long(s, b);
    }
    if n == 0 {
        return s;
    }
    let (lo, hi) = tail16(b);
    mum(lo ^ P1, hi ^ n as u64 ^ (s ^ P2))
}

/// `bytes(s, b)` for 16 bytes or more: two independent lanes over 32 bytes per step while 32 or
/// more remain, so two multiplies are in flight at once; then at most one whole 16-byte block and
/// the last 0..=16 bytes in lane `a`. The block and the last bytes are taken without a branch on how
/// many remain (selects, and the 16 bytes that end the string read as one 128-bit word and shifted),
/// so a string costs one mispredicted branch at most, its loop's exit. Out of line: the walks
/// inline only the short case.
#[inline(never)]
pub fn hash_long(s: u64, b: &[u8]) -> u64 {
    let n = b.len();
    let mut a = s ^ n as u64;
    let mut c = 0u64;
    // fixed-size chunks, so the compiler drops the bounds checks of the loads
    let mut chunks = b.chunks_exact(32);
    for ch in &mut chunks {
        let ch: &[u8; 32] = ch.try_into().unwrap();
        a = mum(w64(ch, 0) ^ P1, w64(ch, 8) ^ a ^ P2);
        c = mum(w64(ch, 16) ^ P3, w64(ch, 24) ^ c ^ P0);
    }
    let rem = chunks.remainder().len();
    let block = rem > 16;
    // the block's words at the remainder's start when it is taken, else (unused) the 16 bytes that
    // end the string: inside it either way (n >= 16)
    let at = if block { n - rem } else { n - 16 };
    let q: &[u8; 16] = b[at..at + 16].try_into().unwrap();
    a = select(block, mum(w64(q, 0) ^ P1, w64(q, 8) ^ a ^ P2), a);
    let r = rem - 16 * block as usize; // 0..=16 bytes left, the last r of the string
    let e: &[u8; 16] = b[n - 16..].try_into().unwrap();
    let last = (w64(e, 8) as u128) << 64 | w64(e, 0) as u128;
    let shift = 8 * (16 - r) as u32; // 0..=128, in two steps so that none is 128
    let t = (last >> (shift / 2)) >> (shift - shift / 2);
    select(r != 0, mum(t as u64 ^ P1, (t >> 64) as u64 ^ a ^ P2), a) ^ c
}

/// A string or binary by its type tag (`STRING` or `BINARY`).
#[inline]
pub fn hash_bytes(tag: u64, b: &[u8]) -> u64 {
    hash_bytes_seeded(seed(tag), b)
}

/// `hash_str` at compile time, for the field names of typed walks (`key!`): a walk then pays for
/// one entry per field, as a walk over the harness's own records does, however the optimiser treats
/// a particular walk (a name hashed at run time would cost each row a string hash per field).
pub const fn key_hash(s: &str) -> u64 {
    spec_bytes(seed(STRING), s.as_bytes())
}

/// `bytes(s, b)` transcribed from spec/hash.md ("Bytes") a byte at a time, as a `const fn`: for
/// [`key_hash`], and the definition the tests hold [`hash_bytes_seeded`]'s fast paths to.
pub const fn spec_bytes(s: u64, b: &[u8]) -> u64 {
    /// `w(j)`: the little-endian word at byte `i`, bytes past the end counted as 0.
    const fn word(b: &[u8], i: usize) -> u64 {
        let mut w = 0u64;
        let mut j = 0;
        while j < 8 && i + j < b.len() {
            w |= (b[i + j] as u64) << (8 * j);
            j += 1;
        }
        w
    }
    let n = b.len();
    let mut a = s ^ n as u64;
    let mut c = 0u64;
    let mut i = 0;
    while n - i >= 32 {
        a = mum(word(b, i) ^ P1, word(b, i + 8) ^ a ^ P2);
        c = mum(word(b, i + 16) ^ P3, word(b, i + 24) ^ c ^ P0);
        i += 32;
    }
    while i < n {
        a = mum(word(b, i) ^ P1, word(b, i + 8) ^ a ^ P2);
        i += 16;
    }
    a ^ c
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
    hash_bytes_seeded(seed(STRING), s.as_bytes())
}

#[inline]
pub fn hash_bin(b: &[u8]) -> u64 {
    hash_bytes_seeded(seed(BINARY), b)
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
    scalar(UINT, v)
}

#[inline]
pub fn hash_i64(v: i64) -> u64 {
    // the sign picks the seed (a select rather than two copies of the multiply)
    let s = if v >= 0 { seed(UINT) } else { seed(NEGINT) };
    mum(v as u64 ^ s, P0)
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
    scalar(FLOAT, f.to_bits())
}

/// An array's term for element `i` with hash `h` (its index keys it, so order matters).
#[inline(always)]
pub const fn array_term(i: u64, h: u64) -> u64 {
    mum(h ^ P1, i ^ P2)
}

#[inline(always)]
pub const fn array_end(sum: u64, n: u64) -> u64 {
    mum(sum ^ seed(ARRAY), n ^ P3)
}

/// One map entry's term, from its key's and its value's hashes.
#[inline(always)]
pub const fn map_term(key: u64, value: u64) -> u64 {
    mum(key ^ P3, value ^ P0)
}

#[inline(always)]
pub const fn map_end(sum: u64, n: u64) -> u64 {
    mum(sum ^ seed(MAP), n ^ P3)
}

/// Sums an array from its element hashes, in order.
#[derive(Clone, Copy, Default)]
pub struct ArrayAcc {
    a: u64,
    n: u64,
}

impl ArrayAcc {
    #[inline]
    pub const fn new() -> Self {
        ArrayAcc { a: 0, n: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, h: u64) {
        self.a = self.a.wrapping_add(array_term(self.n, h));
        self.n += 1;
    }
    #[inline(always)]
    pub fn finish(self) -> u64 {
        array_end(self.a, self.n)
    }
}

/// Sums a map from (key hash, value hash) pairs, in any order.
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
    #[inline(always)]
    pub fn push(&mut self, key: u64, value: u64) {
        self.s = self.s.wrapping_add(map_term(key, value));
        self.n += 1;
    }
    #[inline(always)]
    pub fn finish(self) -> u64 {
        map_end(self.s, self.n)
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
    /// the entries, their sum, and the key of the child container being walked
    Map(M, MapAcc, u64),
}

/// The tree form of the hash over any tree, without recursion: an explicit stack of open
/// containers, so a document nested 100,000 deep costs heap, never the call stack (spec/protocol.md:
/// the harness's own walks never recurse without bound). `classify` looks at one node; errors (a
/// value outside the data model) stop the walk. Every tree walk of this harness, over its own tree
/// and over each library's, goes through here, so the `hash-object` baseline and the rows it is
/// subtracted from walk the same way.
///
/// The top container's children are read in a tight loop that leaves it only to open a child
/// container or to close the top one: a scalar child (most of a document) costs its iterator step,
/// its classification, its hash and its term, and never touches the stack.
#[inline]
pub fn walk<T, A, M, E>(root: T, mut classify: impl FnMut(T) -> Result<Node<A, M>, E>) -> Result<u64, E>
where
    A: Iterator<Item = Result<T, E>>,
    M: Iterator<Item = Result<(u64, T), E>>,
{
    // `cur` is the open container, a local the optimiser keeps in registers while its children
    // are read; `parents` holds the containers around it
    let mut cur: WalkFrame<A, M> = match classify(root)? {
        Node::Leaf(h) => return Ok(h),
        Node::Array(it) => WalkFrame::Array(it, ArrayAcc::new()),
        Node::Map(it) => WalkFrame::Map(it, MapAcc::new(), 0),
    };
    // inline up to 16 parents (the corpus nests 11 deep at most), on the heap beyond: a `Vec` made
    // an allocation per walk, in every tree row's allocation count and time, which the `hash-object`
    // baseline (its stack reused across calls) does not make
    let mut parents: SmallVec<[WalkFrame<A, M>; 16]> = SmallVec::new();
    loop {
        // Some(frame): a child container to descend into; None: `cur` has ended
        let opened: Option<WalkFrame<A, M>> = match &mut cur {
            WalkFrame::Array(it, acc) => loop {
                let Some(child) = it.next() else { break None };
                match classify(child?)? {
                    Node::Leaf(h) => acc.push(h),
                    Node::Array(c) => break Some(WalkFrame::Array(c, ArrayAcc::new())),
                    Node::Map(c) => break Some(WalkFrame::Map(c, MapAcc::new(), 0)),
                }
            },
            WalkFrame::Map(it, acc, key) => loop {
                let Some(entry) = it.next() else { break None };
                let (k, child) = entry?;
                match classify(child)? {
                    Node::Leaf(h) => acc.push(k, h),
                    Node::Array(c) => {
                        *key = k;
                        break Some(WalkFrame::Array(c, ArrayAcc::new()));
                    }
                    Node::Map(c) => {
                        *key = k;
                        break Some(WalkFrame::Map(c, MapAcc::new(), 0));
                    }
                }
            },
        };
        if let Some(child) = opened {
            parents.push(std::mem::replace(&mut cur, child));
            continue;
        }
        // `cur` has ended: its hash goes to its parent, or is the result
        let h = match &cur {
            WalkFrame::Array(_, acc) => acc.finish(),
            WalkFrame::Map(_, acc, _) => acc.finish(),
        };
        let Some(parent) = parents.pop() else { return Ok(h) };
        cur = parent;
        match &mut cur {
            WalkFrame::Array(_, acc) => acc.push(h),
            WalkFrame::Map(_, acc, key) => acc.push(*key, h),
        }
    }
}

pub fn hex64(h: u64) -> String {
    format!("{h:016x}")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// below the root: holds the root's hash once it is complete (`n` = 1)
    Root,
    Array,
    Map,
}

#[derive(Clone, Copy)]
struct Frame {
    kind: Kind,
    /// an array's or a map's sum; the root's hash
    acc: u64,
    n: u64,
    key: Option<u64>,
}

impl Frame {
    const fn new(kind: Kind) -> Frame {
        Frame { kind, acc: 0, n: 0, key: None }
    }
}

/// Computes the hash from parse events, without a tree (spec/hash.md, "Streaming form"). The open
/// container is kept apart from its parents (`top`), so a scalar event updates it in place without
/// looking at the stack; the parents are pushed and popped only when a container opens or closes.
pub struct StreamHasher {
    top: Frame,
    parents: Vec<Frame>,
}

impl Default for StreamHasher {
    fn default() -> Self {
        Self::new()
    }
}

// The parents' stack of the last StreamHasher dropped on this thread, for the next one: rows and the
// `hash-events` baseline make a hasher per operation, and a new `Vec` for each would put one
// allocation (more on deep documents) in every Rust incremental row's allocation count, the
// harness's and not the library's (the native harness reuses its `sb_hasher`'s stack likewise).
thread_local! {
    static SPARE_PARENTS: std::cell::Cell<Vec<Frame>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for StreamHasher {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.parents);
        v.clear();
        // `try_with`: a hasher dropped while the thread's locals are being destroyed frees its own
        let _ = SPARE_PARENTS.try_with(|s| s.set(v));
    }
}

impl StreamHasher {
    /// A hasher for one document; its parents' stack is the one the last hasher dropped on this
    /// thread left (empty, its capacity kept), so once warm it allocates nothing.
    pub fn new() -> Self {
        let parents = SPARE_PARENTS.try_with(|s| s.take()).unwrap_or_default();
        StreamHasher { top: Frame::new(Kind::Root), parents }
    }

    #[inline]
    pub fn emit(&mut self, h: u64) -> Result<(), String> {
        let f = &mut self.top;
        match f.kind {
            Kind::Array => f.acc = f.acc.wrapping_add(array_term(f.n, h)),
            Kind::Map => {
                let Some(k) = f.key.take() else { return Err("map value without a key".into()) };
                f.acc = f.acc.wrapping_add(map_term(k, h));
            }
            Kind::Root => {
                if f.n != 0 {
                    return Err("more than one root value".into());
                }
                f.acc = h;
            }
        }
        f.n += 1;
        Ok(())
    }

    #[inline]
    fn open(&mut self, kind: Kind) {
        self.parents.push(std::mem::replace(&mut self.top, Frame::new(kind)));
    }

    #[inline]
    pub fn start_array(&mut self) {
        self.open(Kind::Array);
    }

    #[inline]
    pub fn start_map(&mut self) {
        self.open(Kind::Map);
    }

    /// Feeds a map key's hash (see [`hash_str`]).
    #[inline]
    pub fn key_hash(&mut self, k: u64) -> Result<(), String> {
        match self.top {
            Frame { kind: Kind::Map, key: ref mut key @ None, .. } => {
                *key = Some(k);
                Ok(())
            }
            _ => Err("key outside a map, or two keys in a row".into()),
        }
    }

    /// True when the innermost open container is a map waiting for a key.
    #[inline]
    pub fn expects_key(&self) -> bool {
        self.top.kind == Kind::Map && self.top.key.is_none()
    }

    #[inline]
    pub fn end(&mut self) -> Result<(), String> {
        let f = self.top;
        let h = match f.kind {
            Kind::Root => return Err("close without an open container".into()),
            _ if f.key.is_some() => return Err("map closed after a key without a value".into()),
            Kind::Array => array_end(f.acc, f.n),
            Kind::Map => map_end(f.acc, f.n),
        };
        let Some(parent) = self.parents.pop() else { unreachable!("a container always has a parent frame") };
        self.top = parent;
        self.emit(h)
    }

    pub fn value(&self) -> Result<u64, String> {
        match self.top {
            Frame { kind: Kind::Root, n: 1, acc, .. } => Ok(acc),
            _ => Err("document is incomplete".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_by_objhash_py() {
        // values from orchestrator/src/serbench/objhash.py (hash_value, hex64)
        assert_eq!(hex64(NULL_HASH), "670527f286862c69");
        assert_eq!(hex64(hash_str("hello, world!!")), "052f1d0e787859a5");
        assert_eq!(hex64(hash_str("")), "b54cda58fbbee87e");
        assert_eq!(hex64(hash_str("abc")), "fffe66391ebe87c4");
        // the compile-time form agrees at every length around the 16- and 32-byte steps
        let long = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_0123456789";
        for n in 0..long.len() {
            assert_eq!(key_hash(&long[..n]), hash_str(&long[..n]), "length {n}");
        }
        for s in ["price", "in_stock", "small_int", "hello, world!!", "Sell"] {
            assert_eq!(key_hash(s), hash_str(s), "{s:?}");
        }
        assert_eq!(crate::key!("hello, world!!"), hash_str("hello, world!!"));
        let arr = hash_array([hash_u64(1), hash_i64(-2), hash_f64(3.5)]);
        let mut m = MapAcc::new();
        m.push(hash_str("a"), arr);
        assert_eq!(hex64(m.finish()), "ccbd48a093035edc");
        assert_eq!(hex64(hash_array([hash_u64(1), hash_i64(-1), hash_f64(1.5)])), "f40ed65b31c6a160");
        assert_eq!(hex64(hash_array([])), "b9ebd45ee5d00974");
        assert_eq!(hex64(MapAcc::new().finish()), "365af1f36751b10a");
    }

    #[test]
    fn bytes_of_every_length_to_100_match_objhash_py() {
        // hash_value([pat[:n] for n in range(100)]) with pat[i] = (37 i + 11) % 256: every tail
        // length (the overlapping loads of tail16), one and two 16-byte steps, and the two lanes
        let pat: Vec<u8> = (0..100u32).map(|i| ((i * 37 + 11) % 256) as u8).collect();
        let h = hash_array((0..100).map(|n| hash_bin(&pat[..n])));
        assert_eq!(hex64(h), "ae934ca4283b04ec");
    }

    #[test]
    fn scalars_match_reference() {
        assert_eq!(hash_bytes(STRING, b""), seed(STRING));
        assert_ne!(hash_f64(0.0), hash_f64(-0.0));
        assert_ne!(hash_f64(1.0), hash_u64(1));
        assert_eq!(hash_i64(5), hash_u64(5));
        assert_eq!(hash_i64(-5), scalar(NEGINT, -5i64 as u64));
    }

    #[test]
    fn a_hasher_reuses_the_last_ones_stack_and_starts_empty() {
        // [[[1]]] by events, the tree's hash
        let want = hash_array([hash_array([hash_array([hash_u64(1)])])]);
        let feed = |s: &mut StreamHasher| {
            for _ in 0..3 {
                s.start_array();
            }
            s.emit(hash_u64(1)).unwrap();
            for _ in 0..3 {
                s.end().unwrap();
            }
            s.value().unwrap()
        };
        // a hasher dropped with containers still open (a row's error path) leaves nothing behind
        let mut s = StreamHasher::new();
        for _ in 0..100 {
            s.start_map();
        }
        drop(s);
        let mut s = StreamHasher::new();
        assert!(s.parents.is_empty() && s.parents.capacity() >= 100, "the dropped hasher's stack, emptied");
        assert_eq!(feed(&mut s), want);
        // two at once: the second starts from an empty stack of its own
        let mut t = StreamHasher::new();
        assert_eq!(feed(&mut t), want);
        assert_eq!(s.value().unwrap(), want);
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
        assert_eq!(hex64(tree), "d23719a94cae666a");
        // misuse is an error, not a wrong hash
        let mut s = StreamHasher::new();
        assert!(s.end().is_err());
        assert!(s.value().is_err());
        s.emit(NULL_HASH).unwrap();
        assert!(s.emit(NULL_HASH).is_err());
        let mut s = StreamHasher::new();
        s.start_map();
        assert!(s.emit(NULL_HASH).is_err());
        s.key_hash(1).unwrap();
        assert!(s.key_hash(2).is_err());
        assert!(s.end().is_err());
        // a key in an array, or below the root
        let mut s = StreamHasher::new();
        assert!(s.key_hash(1).is_err());
        s.start_array();
        assert!(!s.expects_key());
        assert!(s.key_hash(1).is_err());
        s.emit(NULL_HASH).unwrap();
        s.end().unwrap();
        assert_eq!(s.value().unwrap(), array_end(array_term(0, NULL_HASH), 1));
    }
}
