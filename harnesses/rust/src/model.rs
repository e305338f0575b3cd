//! The harness's own tree of the data model (`Val`), the reference decoders that build it
//! (`refdec.rs`), and the hash of it. Write rows start from a `Val` converted to each library's input
//! type (`fold`); the `hash-object` and `hash-events` baselines walk a prebuilt [`FlatDoc`] (tree
//! form, and streaming form through [`hash::StreamHasher`]), the reference row `hash-walk` a `Val`.
//!
//! Everything here is iterative (spec/protocol.md: the harness's own code never recurses without
//! bound on its input): the hash walk ([`hash_val`]), the conversions ([`fold`]) and even dropping a
//! tree (`impl Drop for Val`), since the drop glue of nested `Vec<Val>` recurses once per level.

use crate::hash::{self, ArrayAcc, MapAcc, Node};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;
use std::convert::Infallible;
use std::fmt;

pub use crate::refdec::{ref_decode, REF_FORMATS};

#[derive(Debug)]
pub enum Val {
    Null,
    Bool(bool),
    /// Any integer >= 0.
    UInt(u64),
    /// An integer < 0.
    NegInt(i64),
    Float(f64),
    Str(String),
    Bin(Vec<u8>),
    Array(Vec<Val>),
    Map(Vec<(String, Val)>),
}

impl Val {
    pub fn int(v: i64) -> Val {
        if v >= 0 {
            Val::UInt(v as u64)
        } else {
            Val::NegInt(v)
        }
    }
}

/// Drops a tree without recursion: the children of every container are moved onto one heap stack
/// first, so each `Val` dropped here has no children left (the derived drop glue would recurse
/// once per level and overflow the stack on a document nested 100,000 deep).
impl Drop for Val {
    fn drop(&mut self) {
        let mut stack: Vec<Val> = match self {
            Val::Array(a) if !a.is_empty() => std::mem::take(a),
            Val::Map(m) if !m.is_empty() => m.drain(..).map(|(_, x)| x).collect(),
            _ => return,
        };
        while let Some(mut v) = stack.pop() {
            match &mut v {
                Val::Array(a) => stack.append(a),
                Val::Map(m) => stack.extend(m.drain(..).map(|(_, x)| x)),
                _ => {}
            }
        }
    }
}

/// A deep copy without recursion ([`fold`]): a write row's encoder keeps its own copy of the
/// document, from which every call of its timed loop starts (spec/fairness.md rule 10).
impl Clone for Val {
    fn clone(&self) -> Val {
        let r = fold(
            self,
            |x| {
                Ok::<_, Infallible>(match x {
                    Val::Null => Val::Null,
                    Val::Bool(b) => Val::Bool(*b),
                    Val::UInt(u) => Val::UInt(*u),
                    Val::NegInt(i) => Val::NegInt(*i),
                    Val::Float(f) => Val::Float(*f),
                    Val::Str(s) => Val::Str(s.clone()),
                    Val::Bin(b) => Val::Bin(b.clone()),
                    Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
                })
            },
            |a| Ok(Val::Array(a)),
            |m| Ok(Val::Map(m.into_iter().map(|(k, x)| (k.to_owned(), x)).collect())),
        );
        match r {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }
}

/// The object hash of a `Val` (tree form), iterative ([`hash::walk`]).
pub fn hash_val(v: &Val) -> u64 {
    let r = hash::walk(
        v,
        #[inline(always)]
        |v| {
            Ok::<_, Infallible>(match v {
                Val::Null => Node::Leaf(hash::NULL_HASH),
                Val::Bool(b) => Node::Leaf(hash::hash_bool(*b)),
                Val::UInt(u) => Node::Leaf(hash::hash_u64(*u)),
                Val::NegInt(i) => Node::Leaf(hash::hash_i64(*i)),
                Val::Float(f) => Node::Leaf(hash::hash_f64(*f)),
                Val::Str(s) => Node::Leaf(hash::hash_str(s)),
                Val::Bin(b) => Node::Leaf(hash::hash_bin(b)),
                Val::Array(a) => Node::Array(a.iter().map(Ok)),
                Val::Map(m) => Node::Map(m.iter().map(|(k, x)| Ok((hash::hash_str(k), x)))),
            })
        },
    );
    match r {
        Ok(h) => h,
        Err(never) => match never {},
    }
}

/// The harness's document as a flat pre-order array of nodes, for the `hash-object` and
/// `hash-events` baselines (spec/fairness.md rule 5): a baseline does the hash's work and the least
/// walk any tree needs, so the type dispatch a row spends reading its library's tree or its parser's
/// events stays in the row's net time.
/// A container's children follow it; a map's entries are (key, value) node pairs.
///
/// The walks read their nodes through a pointer without a bounds check, with [`FlatDoc::node_at`]
/// (the C walk they match has none; with checks, `hash-object` ran 9,590 instructions per operation
/// at size 2 against the native harness's 7,574, docs/studies/rust-walk-bounds-checks.md, "A third CPU, and Rust's walk
/// without bounds checks").
pub struct FlatDoc {
    nodes: Vec<FlatNode>,
    bytes: Vec<u8>,
    max_depth: usize,
}

#[derive(Clone, Copy)]
struct FlatNode {
    /// index into [`FLAT_SEED`]: null, false, true, uint, negint, float, string, binary, array, map
    tag: u8,
    /// children (array), entries (map) or byte length (string, binary)
    count: u32,
    /// a scalar's 64-bit payload, or the offset of a string's bytes in `FlatDoc::bytes`
    payload: u64,
}

const F_FLOAT: u8 = 5;
const F_STR: u8 = 6;
const F_BIN: u8 = 7;
const F_ARRAY: u8 = 8;
const F_MAP: u8 = 9;
/// The seed each flat tag's scalar is mixed with: every scalar is `mum(payload ^ seed, P0)`
/// (spec/hash.md `scalar`; true is `scalar(BOOL, 1)` = payload 0 with seed `S(BOOL) ^ 1`), and a
/// string or binary hashes its bytes with its seed. A table instead of a `match`: no indirect jump,
/// so mixed types do not mispredict (docs/methodology.md, "Hash baselines").
const FLAT_SEED: [u64; 8] = [
    hash::seed(hash::NULL),
    hash::seed(hash::BOOL),
    hash::seed(hash::BOOL) ^ 1,
    hash::seed(hash::UINT),
    hash::seed(hash::NEGINT),
    hash::seed(hash::FLOAT),
    hash::seed(hash::STRING),
    hash::seed(hash::BINARY),
];

/// The constants of [`FlatDoc::leaf`] for each flat tag below `F_ARRAY`: `n = (count & nmask) | n`.
struct LeafConst {
    x1: u64,
    x2: u64,
    nmask: usize,
    n: usize,
}

const LEAF_CONST: [LeafConst; 8] = {
    const fn of(t: usize) -> LeafConst {
        if t <= F_FLOAT as usize {
            LeafConst { x1: FLAT_SEED[t], x2: hash::P0 ^ 8, nmask: 0, n: 8 }
        } else {
            LeafConst { x1: hash::P1, x2: FLAT_SEED[t] ^ hash::P2, nmask: !0, n: 0 }
        }
    }
    [of(0), of(1), of(2), of(3), of(4), of(5), of(6), of(7)]
};

impl FlatDoc {
    /// The node `p` points at, read without a bounds check.
    ///
    /// # Safety
    /// `p` points into `nodes`. The walks keep this by construction, the invariant each of their
    /// `SAFETY` comments cites as "FlatDoc's layout": [`FlatDoc::new`] writes each container's
    /// `count` children (a map's as key and value pairs) right after it, and a walk reads a
    /// container's children only while fewer than `count` have been read. Debug builds check it.
    #[inline(always)]
    unsafe fn node_at(&self, p: *const FlatNode) -> &FlatNode {
        debug_assert!(self.nodes.as_ptr_range().contains(&p), "a flat walk left its document");
        // SAFETY: the caller's contract
        unsafe { &*p }
    }

    /// Flattens a tree, iteratively.
    pub fn new(v: &Val) -> FlatDoc {
        let mut d = FlatDoc { nodes: Vec::new(), bytes: Vec::new(), max_depth: 0 };
        // what is left to write, last first: a value with the depth of its container, or a map key
        let mut todo: Vec<Result<(&Val, usize), &str>> = vec![Ok((v, 0))];
        while let Some(next) = todo.pop() {
            let (v, depth) = match next {
                Ok(item) => item,
                Err(key) => {
                    // a key is a string node just before its value
                    let payload = d.push_bytes(key.as_bytes());
                    d.nodes.push(FlatNode { tag: F_STR, count: key.len() as u32, payload });
                    continue;
                }
            };
            let (tag, count, payload) = match v {
                Val::Null => (0, 0, 0),
                Val::Bool(b) => (1 + *b as u8, 0, 0),
                Val::UInt(u) => (3, 0, *u),
                Val::NegInt(i) => (4, 0, *i as u64),
                Val::Float(f) => (F_FLOAT, 0, f.to_bits()),
                Val::Str(s) => (F_STR, s.len(), d.push_bytes(s.as_bytes())),
                Val::Bin(b) => (F_BIN, b.len(), d.push_bytes(b)),
                Val::Array(a) => {
                    todo.extend(a.iter().rev().map(|x| Ok((x, depth + 1))));
                    (F_ARRAY, a.len(), 0)
                }
                Val::Map(m) => {
                    for (k, x) in m.iter().rev() {
                        todo.push(Ok((x, depth + 1)));
                        todo.push(Err(k.as_str()));
                    }
                    (F_MAP, m.len(), 0)
                }
            };
            if tag >= F_ARRAY {
                d.max_depth = d.max_depth.max(depth + 1);
            }
            // the data model's lengths fit u32 (spec/data-model.md); a longer one would not fit any format
            d.nodes.push(FlatNode { tag, count: count as u32, payload });
        }
        d
    }

    /// A string node's bytes, without a bounds check.
    ///
    /// # Safety
    /// `x` is a string or binary node of this document: [`FlatDoc::push_bytes`] put its `count`
    /// bytes at `payload` in `bytes`.
    #[inline(always)]
    unsafe fn str_bytes(&self, x: &FlatNode) -> &[u8] {
        let (at, n) = (x.payload as usize, x.count as usize);
        debug_assert!(at + n <= self.bytes.len());
        // SAFETY: the caller's contract
        unsafe { self.bytes.get_unchecked(at..at + n) }
    }

    fn push_bytes(&mut self, b: &[u8]) -> u64 {
        let at = self.bytes.len() as u64;
        self.bytes.extend_from_slice(b);
        at
    }

    /// A scalar and a short string are hashed by the same instructions, `mum(w0 ^ x1, w1 ^ n ^ x2)`
    /// over two masked words (as [`hash::hash_short`]): a string's first 16 bytes with its length
    /// `n`, `x1 = P1`, `x2 = seed ^ P2`; a scalar's payload (read where the node holds it, as 8
    /// "bytes") and the 8 bytes after it masked to nothing, with `n = 8`, `x1 = seed`, `x2 = P0 ^ 8`,
    /// which is `mum(payload ^ seed, P0)`. Which words and constants is a table look-up and a select,
    /// not a branch: on the corpus's mixed types a branch on scalar-or-string mispredicts
    /// (docs/studies/fewer-branches-per-value.md, "Fewer branches per value"). The same as the native harness's
    /// `leaf_hash` (common/sb.h).
    #[inline(always)]
    fn leaf(&self, x: &FlatNode) -> u64 {
        let c = &LEAF_CONST[(x.tag & 7) as usize];
        let n = (x.count as usize & c.nmask) | c.n;
        let p = hash::select(
            x.tag > F_FLOAT,
            self.bytes.as_ptr().wrapping_add(x.payload as usize) as u64,
            &x.payload as *const u64 as u64,
        ) as *const u8;
        if !hash::FAST_SHORT || n.wrapping_sub(1) >= 16 || !hash::can_read16(p) {
            return self.leaf_slow(x);
        }
        // SAFETY: p is a string's first byte (n >= 1 of them, inside `bytes`) or a scalar node's
        // payload, and the 16 bytes from p lie in its page
        let (lo, hi) = unsafe { hash::masked16(p, n) };
        hash::mum(lo ^ c.x1, hi ^ n as u64 ^ c.x2)
    }

    /// The exact path of [`FlatDoc::leaf`]: an empty or long string, or 16 bytes across a page. A
    /// string of more than 16 bytes goes straight to [`hash::hash_long`], one call deep as in the
    /// native harness (`leaf_hash_slow`, then `sb_hash_bytes_long`), not through `hash_slow`'s
    /// length tests again.
    #[inline(never)]
    fn leaf_slow(&self, x: &FlatNode) -> u64 {
        if x.tag > F_FLOAT && x.count > 16 {
            // SAFETY: a tag above F_FLOAT is a string or binary node, of this document
            return hash::hash_long(FLAT_SEED[(x.tag & 7) as usize], unsafe { self.str_bytes(x) });
        }
        self.leaf_exact(x)
    }

    /// A leaf with a branch on scalar-or-string: the fewest instructions (no selects), the leaf of
    /// the baselines under `--iterations` ([`hash_flat_counted`]) and [`FlatDoc::leaf`]'s exact path.
    #[inline(always)]
    fn leaf_exact(&self, x: &FlatNode) -> u64 {
        let seed = FLAT_SEED[(x.tag & 7) as usize];
        if x.tag <= F_FLOAT {
            return hash::mum(x.payload ^ seed, hash::P0);
        }
        // SAFETY: a tag above F_FLOAT is a string or binary node, of this document
        hash::hash_bytes_seeded(seed, unsafe { self.str_bytes(x) })
    }

    #[inline(always)]
    fn empty(x: FlatNode) -> u64 {
        if x.tag == F_MAP {
            hash::map_end(0, 0)
        } else {
            hash::array_end(0, 0)
        }
    }
}

/// One open container of [`hash_flat`].
#[derive(Clone, Copy, Default)]
pub struct FlatFrame {
    acc: u64,
    n: u64,
    i: u64,
    key: u64,
    is_map: bool,
}

/// The object hash of a [`FlatDoc`] (tree form), iteratively: the open container's frame lives in
/// locals, arrays and maps have their own loops, and the only per-node decisions are leaf or
/// container and whether the container has ended. `st` holds the parents, reused across calls.
/// The same walk as the native harness's `hash_doc` (common/ref.cpp).
pub fn hash_flat(d: &FlatDoc, st: &mut Vec<FlatFrame>) -> u64 {
    hash_flat_with::<false>(d, st)
}

/// [`hash_flat`] with [`FlatDoc::leaf_exact`], for the `hash-object` baseline under `--iterations`
/// (protocol.md step 9): the one-mum leaf's selects take fewer cycles than a mispredicted branch but
/// about 20 instructions more per scalar, which counted would be subtracted from rows that never
/// execute them (docs/methodology.md, "What the instruction counts see"). The same hash.
pub fn hash_flat_counted(d: &FlatDoc, st: &mut Vec<FlatFrame>) -> u64 {
    hash_flat_with::<true>(d, st)
}

/// The leaf of the flat walks: the fewest branches, or with `EXACT` the fewest instructions.
#[inline(always)]
fn flat_leaf<const EXACT: bool>(d: &FlatDoc, x: &FlatNode) -> u64 {
    if EXACT {
        d.leaf_exact(x)
    } else {
        d.leaf(x)
    }
}

fn hash_flat_with<const EXACT: bool>(d: &FlatDoc, st: &mut Vec<FlatFrame>) -> u64 {
    let nodes = &d.nodes[..];
    let Some(root) = nodes.first() else { return 0 };
    if root.tag < F_ARRAY {
        return flat_leaf::<EXACT>(d, root);
    }
    if root.count == 0 {
        return FlatDoc::empty(*root);
    }
    st.clear();
    st.reserve(d.max_depth);
    let mut f = FlatFrame { n: root.count as u64, is_map: root.tag == F_MAP, ..FlatFrame::default() };
    // the next node, as a pointer: an index beside it kept one more register live in the loops,
    // whose constants the compiler then reloaded per value (the C walk keeps a pointer too)
    let mut p: *const FlatNode = nodes.as_ptr().wrapping_add(1);
    loop {
        // the children of `f` until one is a non-empty container (true) or `f` ends (false)
        let opened = if f.is_map {
            loop {
                if f.i == f.n {
                    break false;
                }
                // SAFETY (both): entry f.i < f.n of this map is its key (a string node) at p and
                // its value at p + 1, inside `nodes` (FlatDoc's layout)
                let k = unsafe { d.node_at(p) };
                f.key = hash::hash_bytes_seeded(FLAT_SEED[F_STR as usize], unsafe { d.str_bytes(k) });
                let x = unsafe { d.node_at(p.add(1)) };
                let h = if x.tag < F_ARRAY {
                    flat_leaf::<EXACT>(d, x)
                } else if x.count != 0 {
                    p = p.wrapping_add(1);
                    break true;
                } else {
                    FlatDoc::empty(*x)
                };
                p = p.wrapping_add(2);
                f.acc = f.acc.wrapping_add(hash::map_term(f.key, h));
                f.i += 1;
            }
        } else {
            loop {
                if f.i == f.n {
                    break false;
                }
                // SAFETY: child f.i < f.n of this array is at p, inside `nodes` (FlatDoc's layout)
                let x = unsafe { d.node_at(p) };
                let h = if x.tag < F_ARRAY {
                    flat_leaf::<EXACT>(d, x)
                } else if x.count != 0 {
                    break true;
                } else {
                    FlatDoc::empty(*x)
                };
                p = p.wrapping_add(1);
                f.acc = f.acc.wrapping_add(hash::array_term(f.i, h));
                f.i += 1;
            }
        };
        if opened {
            // SAFETY: the loop above stopped at a non-empty container, at p (FlatDoc's layout)
            let x = unsafe { *d.node_at(p) };
            p = p.wrapping_add(1);
            st.push(f);
            f = FlatFrame { n: x.count as u64, is_map: x.tag == F_MAP, ..FlatFrame::default() };
            continue;
        }
        let h = if f.is_map { hash::map_end(f.acc, f.n) } else { hash::array_end(f.acc, f.n) };
        let Some(parent) = st.pop() else { return h };
        f = parent;
        f.acc = f.acc.wrapping_add(if f.is_map { hash::map_term(f.key, h) } else { hash::array_term(f.i, h) });
        f.i += 1;
    }
}

/// One open container of [`hash_flat_events`]: how many values (array) or entries (map) it has
/// still to give, and whether a key comes before each.
#[derive(Clone, Copy, Default)]
pub struct FlatEventFrame {
    left: u32,
    is_map: bool,
}

/// The streaming form of the hash over a [`FlatDoc`], for the `hash-events` baseline (spec/fairness.md
/// rule 5): the document's events in order, fed to [`hash::StreamHasher`] as the pull-parser rows
/// feed it (`start_array`/`start_map`, a key's hash with `key_hash`, a scalar's hash with `emit`,
/// `end`), from a pre-order walk of the node array with no recursion and no per-value type switch
/// (a scalar's hash comes from the seed table, as in [`hash_flat`]). The open container's count of
/// values still to come is a local, its parents wait on `st`, reused across calls; the root is the
/// one value of a pseudo-container that has no `end`. The same walk as the native harness's
/// `hash_doc_events` (common/ref.cpp). The hasher's errors cannot occur on a `FlatDoc` built by
/// [`FlatDoc::new`], but are passed on rather than assumed away.
pub fn hash_flat_events(d: &FlatDoc, st: &mut Vec<FlatEventFrame>) -> Result<u64, String> {
    hash_flat_events_with::<false>(d, st)
}

/// [`hash_flat_events`] with [`FlatDoc::leaf_exact`], for the `hash-events` baseline under
/// `--iterations`, as [`hash_flat_counted`].
pub fn hash_flat_events_counted(d: &FlatDoc, st: &mut Vec<FlatEventFrame>) -> Result<u64, String> {
    hash_flat_events_with::<true>(d, st)
}

fn hash_flat_events_with<const EXACT: bool>(d: &FlatDoc, st: &mut Vec<FlatEventFrame>) -> Result<u64, String> {
    let nodes = &d.nodes[..];
    let mut h = hash::StreamHasher::new();
    st.clear();
    st.reserve(d.max_depth);
    let mut f = FlatEventFrame { left: u32::from(!nodes.is_empty()), is_map: false };
    // the next node, as a pointer (as in hash_flat, and as the C walk has it)
    let mut p: *const FlatNode = nodes.as_ptr();
    loop {
        while f.left == 0 {
            let Some(parent) = st.pop() else { return h.value() };
            h.end()?;
            f = parent;
        }
        f.left -= 1;
        if f.is_map {
            // a key is the string node just before its value, hashed as rows hash a key (hash_str)
            // SAFETY: a map's entry still to come is its key (a string node) at p (FlatDoc's layout)
            let k = unsafe { d.node_at(p) };
            h.key_hash(hash::hash_bytes_seeded(FLAT_SEED[F_STR as usize], unsafe { d.str_bytes(k) }))?;
            p = p.wrapping_add(1);
        }
        // SAFETY: a value still to come in the open container (or the root) is at p (FlatDoc's layout)
        let x = unsafe { d.node_at(p) };
        p = p.wrapping_add(1);
        if x.tag < F_ARRAY {
            h.emit(flat_leaf::<EXACT>(d, x))?;
        } else {
            let is_map = x.tag == F_MAP;
            if is_map {
                h.start_map();
            } else {
                h.start_array();
            }
            st.push(f);
            f = FlatEventFrame { left: x.count, is_map };
        }
    }
}

enum FoldFrame<'a, O> {
    Array(std::slice::Iter<'a, Val>, Vec<O>),
    Map(std::slice::Iter<'a, (String, Val)>, Vec<(&'a str, O)>, &'a str),
}

/// Builds another tree from a `Val`, bottom-up and without recursion: `leaf` converts a scalar,
/// `array` and `map` build a container from its converted children. This is how a write row's
/// input is made in each library's own type, however deep the document. On an error the partly
/// built values are leaked, not dropped: a library's tree type may drop recursively, and the
/// process ends soon after an error anyway.
pub fn fold<'a, O, E>(
    v: &'a Val,
    mut leaf: impl FnMut(&'a Val) -> Result<O, E>,
    mut array: impl FnMut(Vec<O>) -> Result<O, E>,
    mut map: impl FnMut(Vec<(&'a str, O)>) -> Result<O, E>,
) -> Result<O, E> {
    let mut stack: Vec<FoldFrame<'a, O>> = Vec::new();
    let mut item = v;
    let result = 'outer: loop {
        let mut done: Option<O> = match item {
            Val::Array(a) => {
                stack.push(FoldFrame::Array(a.iter(), Vec::with_capacity(a.len())));
                None
            }
            Val::Map(m) => {
                stack.push(FoldFrame::Map(m.iter(), Vec::with_capacity(m.len()), ""));
                None
            }
            scalar => match leaf(scalar) {
                Ok(o) => Some(o),
                Err(e) => break 'outer Err(e),
            },
        };
        item = loop {
            let Some(top) = stack.last_mut() else {
                match done {
                    Some(o) => break 'outer Ok(o),
                    None => unreachable!("a finished root always yields a value"),
                }
            };
            let next = match top {
                FoldFrame::Array(it, out) => {
                    if let Some(o) = done.take() {
                        out.push(o);
                    }
                    it.next()
                }
                FoldFrame::Map(it, out, key) => {
                    if let Some(o) = done.take() {
                        out.push((*key, o));
                    }
                    it.next().map(|(k, x)| {
                        *key = k.as_str();
                        x
                    })
                }
            };
            if let Some(child) = next {
                break child;
            }
            let built = match stack.pop() {
                Some(FoldFrame::Array(_, out)) => array(out),
                Some(FoldFrame::Map(_, out, _)) => map(out),
                None => unreachable!(),
            };
            match built {
                Ok(o) => done = Some(o),
                Err(e) => break 'outer Err(e),
            }
        };
    };
    if result.is_err() {
        std::mem::forget(stack);
    }
    result
}

/// A `DeserializeSeed` that hashes while it deserialises, building no tree: serde's streaming
/// parse. Used with serde_json, rmp-serde and ciborium (the `*-visitor` benchmarks).
#[derive(Clone, Copy)]
pub struct HashSeed;

struct KeySeed;

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string map key")
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(hash::hash_str(v))
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

impl<'de> DeserializeSeed<'de> for HashSeed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HashSeed {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value of the serbench data model")
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(hash::NULL_HASH)
    }
    fn visit_none<E>(self) -> Result<u64, E> {
        Ok(hash::NULL_HASH)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E>(self, b: bool) -> Result<u64, E> {
        Ok(hash::hash_bool(b))
    }
    fn visit_i64<E>(self, v: i64) -> Result<u64, E> {
        Ok(hash::hash_i64(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<u64, E> {
        Ok(hash::hash_u64(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
        hash::hash_i128(v).ok_or_else(|| E::custom("integer outside the data model"))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
        u64::try_from(v).map(hash::hash_u64).map_err(|_| E::custom("integer above UINT64_MAX"))
    }
    fn visit_f64<E>(self, v: f64) -> Result<u64, E> {
        Ok(hash::hash_f64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<u64, E> {
        Ok(hash::hash_str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<u64, E> {
        Ok(hash::hash_bin(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut acc = ArrayAcc::new();
        while let Some(h) = seq.next_element_seed(HashSeed)? {
            acc.push(h);
        }
        Ok(acc.finish())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let mut acc = MapAcc::new();
        while let Some(k) = map.next_key_seed(KeySeed)? {
            acc.push(k, map.next_value_seed(HashSeed)?);
        }
        Ok(acc.finish())
    }
}

// --- conversions into library input types (write rows) -----------------------------------------

/// A `Val` as rmpv's Value (built iteratively with [`fold`]).
pub fn to_rmpv(v: &Val) -> Result<rmpv::Value, String> {
    use rmpv::Value as V;
    fold(
        v,
        |x| {
            Ok(match x {
                Val::Null => V::Nil,
                Val::Bool(b) => V::Boolean(*b),
                Val::UInt(u) => V::from(*u),
                Val::NegInt(i) => V::from(*i),
                Val::Float(f) => V::F64(*f),
                Val::Str(s) => V::from(s.as_str()),
                Val::Bin(b) => V::Binary(b.clone()),
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| Ok(V::Array(a)),
        |m| Ok(V::Map(m.into_iter().map(|(k, x)| (V::from(k), x)).collect())),
    )
}

/// A `Val` as a bson Document: int32 where it fits, else int64 (as the corpus generator writes it).
pub fn to_bson_doc(v: &Val) -> Result<bson::Document, String> {
    use bson::Bson as B;
    if !matches!(v, Val::Map(_)) {
        return Err("BSON needs a map at the root".into());
    }
    let root = fold(
        v,
        |x| {
            Ok::<_, String>(match x {
                Val::Null => B::Null,
                Val::Bool(b) => B::Boolean(*b),
                Val::UInt(u) => {
                    let i = i64::try_from(*u).map_err(|_| format!("BSON cannot carry integer {u}"))?;
                    i32::try_from(i).map(B::Int32).unwrap_or(B::Int64(i))
                }
                Val::NegInt(i) => i32::try_from(*i).map(B::Int32).unwrap_or(B::Int64(*i)),
                Val::Float(f) => B::Double(*f),
                Val::Str(s) => B::String(s.clone()),
                Val::Bin(b) => {
                    B::Binary(bson::Binary { subtype: bson::spec::BinarySubtype::Generic, bytes: b.clone() })
                }
                Val::Array(_) | Val::Map(_) => unreachable!("fold passes scalars only"),
            })
        },
        |a| Ok(B::Array(a)),
        |m| {
            let mut d = bson::Document::new();
            for (k, x) in m {
                d.insert(k, x);
            }
            Ok(B::Document(d))
        },
    )?;
    match root {
        B::Document(d) => Ok(d),
        _ => unreachable!("a map folds to a document"),
    }
}

/// A document nested `depth` deep, built without recursion (tests of the harness's walks):
/// `{"a": [[...[1, "x"]...]]}` with `depth` arrays, or with `maps`, `{"a": {"a": ... {"b": 1}}}`
/// with `depth` maps below the root.
#[doc(hidden)]
pub fn nested(depth: usize, maps: bool) -> Val {
    let mut v = if maps {
        Val::Map(vec![("b".into(), Val::UInt(1))])
    } else {
        Val::Array(vec![Val::UInt(1), Val::Str("x".into())])
    };
    for _ in 1..depth {
        v = if maps { Val::Map(vec![("a".into(), v)]) } else { Val::Array(vec![v]) };
    }
    Val::Map(vec![("a".into(), v)])
}

/// Tests of each adapter's walk over its library's tree: `convert` builds the library's tree of the
/// 100,000-deep documents (arrays, then maps) and `hash` walks it; the walk must reach the reference
/// hash without recursing. The tree is leaked, because a library's tree drops recursively.
#[cfg(test)]
pub fn assert_deep_walk<T, E: std::fmt::Debug>(convert: impl Fn(&Val) -> Result<T, E>, hash: impl Fn(&T) -> u64) {
    for maps in [false, true] {
        let tree = convert(&nested(100_000, maps)).unwrap();
        assert_eq!(hash(&tree), nested_hash(100_000, maps));
        std::mem::forget(tree);
    }
}

/// The hash of [`nested`], computed level by level (no tree).
#[doc(hidden)]
pub fn nested_hash(depth: usize, maps: bool) -> u64 {
    let mut h = if maps {
        let mut m = MapAcc::new();
        m.push(hash::hash_str("b"), hash::hash_u64(1));
        m.finish()
    } else {
        hash::hash_array([hash::hash_u64(1), hash::hash_str("x")])
    };
    for _ in 1..depth {
        h = if maps {
            let mut m = MapAcc::new();
            m.push(hash::hash_str("a"), h);
            m.finish()
        } else {
            hash::hash_array([h])
        };
    }
    let mut m = MapAcc::new();
    m.push(hash::hash_str("a"), h);
    m.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEEP: usize = 100_000;

    #[test]
    fn a_tree_nested_100000_deep_is_built_hashed_and_dropped_without_recursion() {
        for maps in [false, true] {
            let v = nested(DEEP, maps);
            assert_eq!(hash_val(&v), nested_hash(DEEP, maps));
            drop(v); // the derived drop glue of Vec<Val> would recurse once per level
        }
    }

    /// A map of every scalar type, empty containers and nested ones, with keys of one and more bytes.
    fn every_type_and_shape() -> Val {
        let s = |x: &str| Val::Str(x.to_owned());
        Val::Map(vec![
            ("n".into(), Val::Null),
            ("t".into(), Val::Bool(true)),
            ("f".into(), Val::Bool(false)),
            ("u".into(), Val::UInt(u64::MAX)),
            ("i".into(), Val::NegInt(i64::MIN)),
            ("d".into(), Val::Float(-0.0)),
            ("s".into(), s("a string longer than sixteen bytes, with ü")),
            ("b".into(), Val::Bin(vec![0, 1, 2])),
            ("ea".into(), Val::Array(vec![])),
            ("em".into(), Val::Map(vec![])),
            (
                "a".into(),
                Val::Array(vec![
                    Val::Map(vec![("k".into(), Val::Array(vec![s(""), Val::UInt(1)]))]),
                    Val::Array(vec![]),
                ]),
            ),
            ("last".into(), Val::UInt(7)),
        ])
    }

    #[test]
    fn the_flat_walk_hashes_every_type_and_shape_as_the_tree_walk_does() {
        let s = |x: &str| Val::Str(x.to_owned());
        let mixed = every_type_and_shape();
        let mut st = Vec::new();
        for v in [mixed, Val::Null, s("root"), Val::Array(vec![]), Val::Map(vec![]), nested(1000, true)] {
            assert_eq!(hash_flat(&FlatDoc::new(&v), &mut st), hash_val(&v));
        }
        for maps in [false, true] {
            assert_eq!(hash_flat(&FlatDoc::new(&nested(DEEP, maps)), &mut st), nested_hash(DEEP, maps));
        }
        // every length class of the leaf's paths: empty, one mum (1 to 16), and hash_long (17 on)
        for n in 0..=70 {
            let v =
                Val::Map(vec![("k".repeat(n), Val::Array(vec![s(&"é".repeat(n / 2)), Val::Bin(vec![n as u8; n])]))]);
            assert_eq!(hash_flat(&FlatDoc::new(&v), &mut st), hash_val(&v), "length {n}");
            assert_eq!(hash_flat_counted(&FlatDoc::new(&v), &mut st), hash_val(&v), "length {n}");
        }
    }

    /// The streaming form over a tree, driven as a pull parser drives it (the events of the
    /// document in order): an oracle for [`hash_flat_events`] that shares none of its walk.
    /// Recursive, for the shallow documents of these tests only.
    fn stream_val(v: &Val, h: &mut hash::StreamHasher) {
        match v {
            Val::Array(a) => {
                h.start_array();
                a.iter().for_each(|x| stream_val(x, h));
                h.end().unwrap();
            }
            Val::Map(m) => {
                h.start_map();
                for (k, x) in m {
                    h.key_hash(hash::hash_str(k)).unwrap();
                    stream_val(x, h);
                }
                h.end().unwrap();
            }
            leaf => h.emit(hash_val(leaf)).unwrap(),
        }
    }

    fn streamed(v: &Val) -> u64 {
        let mut h = hash::StreamHasher::new();
        stream_val(v, &mut h);
        h.value().unwrap()
    }

    fn flat_events(v: &Val, st: &mut Vec<FlatEventFrame>) -> u64 {
        hash_flat_events(&FlatDoc::new(v), st).unwrap()
    }

    #[test]
    fn the_streaming_flat_walk_hashes_every_type_and_shape_as_the_streaming_and_tree_forms_do() {
        let s = |x: &str| Val::Str(x.to_owned());
        let mut st = Vec::new();
        for v in
            [every_type_and_shape(), Val::Null, Val::Bool(false), s("root"), Val::Bin(vec![7; 40]), nested(50, true)]
        {
            let h = flat_events(&v, &mut st);
            assert_eq!(h, streamed(&v));
            assert_eq!(h, hash_val(&v));
            assert_eq!(h, hash_flat(&FlatDoc::new(&v), &mut Vec::new()));
        }
    }

    #[test]
    fn the_streaming_flat_walk_hashes_empty_containers_at_the_root_and_nested_as_the_streaming_form_does() {
        const EMPTY_ARRAY: &str = "b9ebd45ee5d00974"; // vectors empty-array, objhash.py
        const EMPTY_MAP: &str = "365af1f36751b10a"; // vectors empty-map
        let mut st = Vec::new();
        assert_eq!(hash::hex64(flat_events(&Val::Array(vec![]), &mut st)), EMPTY_ARRAY);
        assert_eq!(hash::hex64(flat_events(&Val::Map(vec![]), &mut st)), EMPTY_MAP);
        let a = || Val::Array(vec![]);
        let m = || Val::Map(vec![]);
        let docs = [
            Val::Array(vec![a()]),
            Val::Array(vec![m()]),
            Val::Array(vec![a(), m(), Val::UInt(1), a()]),
            Val::Map(vec![("a".into(), a())]),
            Val::Map(vec![("m".into(), m()), ("a".into(), a()), ("n".into(), Val::Null)]),
            Val::Array(vec![Val::Array(vec![Val::Array(vec![m()])])]),
            Val::Map(vec![("x".into(), Val::Map(vec![("y".into(), Val::Map(vec![("z".into(), a())]))]))]),
        ];
        for v in &docs {
            let h = flat_events(v, &mut st);
            assert_eq!(h, streamed(v));
            assert_eq!(h, hash_val(v));
        }
        // [[]] and [{}] by the spec's arithmetic: one element, the empty container's hash
        assert_eq!(flat_events(&docs[0], &mut st), hash::hash_array([hash::hash_array([])]));
        assert_eq!(flat_events(&docs[1], &mut st), hash::hash_array([MapAcc::new().finish()]));
        // a node array with no node is no document: an error, never a hash
        let none = FlatDoc { nodes: Vec::new(), bytes: Vec::new(), max_depth: 0 };
        assert!(hash_flat_events(&none, &mut st).is_err());
    }

    #[test]
    fn the_streaming_flat_walk_takes_a_document_nested_100000_deep_without_recursion() {
        let mut st = Vec::new();
        for maps in [false, true] {
            let d = FlatDoc::new(&nested(DEEP, maps));
            assert_eq!(hash_flat_events(&d, &mut st), Ok(nested_hash(DEEP, maps)));
            // the stack is reused: a second call on the same stack hashes the same
            assert_eq!(hash_flat_events(&d, &mut st), Ok(nested_hash(DEEP, maps)));
        }
        // maps and arrays in turn, each holding the next and a scalar, the innermost an empty map:
        // {"k": [{"k": [..., 99996], "n": 99997}, 99998], "n": 99999}
        let mut v = Val::Map(vec![]);
        for level in 0..DEEP {
            v = if level % 2 == 0 {
                Val::Array(vec![v, Val::UInt(level as u64)])
            } else {
                Val::Map(vec![("k".into(), v), ("n".into(), Val::UInt(level as u64))])
            };
        }
        assert_eq!(flat_events(&v, &mut st), hash_val(&v));
    }

    #[test]
    fn the_streaming_flat_walk_hashes_a_map_the_same_in_any_entry_order() {
        let entries = || {
            vec![
                ("x".to_owned(), Val::UInt(1)),
                ("y".to_owned(), Val::NegInt(-1)),
                ("a key longer than sixteen bytes".to_owned(), Val::Array(vec![Val::Float(0.5), Val::Null])),
                ("m".to_owned(), Val::Map(vec![("p".into(), Val::Bool(true)), ("q".into(), Val::Bool(false))])),
            ]
        };
        let forward = Val::Map(entries());
        let mut rev = entries();
        rev.reverse();
        if let (_, Val::Map(inner)) = &mut rev[0] {
            inner.reverse();
        }
        let backward = Val::Map(rev);
        let mut st = Vec::new();
        let h = flat_events(&forward, &mut st);
        assert_eq!(h, flat_events(&backward, &mut st));
        assert_eq!(h, hash_val(&forward));
        assert_eq!(h, streamed(&backward));
        // an array's order does matter, and so does a value under the same key
        let swapped = Val::Array(vec![Val::Null, Val::Float(0.5)]);
        assert_ne!(flat_events(&swapped, &mut st), flat_events(&Val::Array(vec![Val::Float(0.5), Val::Null]), &mut st));
        let other = Val::Map(vec![("x".into(), Val::UInt(2)), ("y".into(), Val::NegInt(-1))]);
        let same_keys = Val::Map(vec![("y".into(), Val::NegInt(-1)), ("x".into(), Val::UInt(1))]);
        assert_ne!(flat_events(&other, &mut st), flat_events(&same_keys, &mut st));
    }

    #[test]
    fn a_tree_nested_100000_deep_clones_without_recursion() {
        for maps in [false, true] {
            let v = nested(DEEP, maps).clone();
            assert_eq!(hash_val(&v), nested_hash(DEEP, maps));
        }
        let v = every_type_and_shape();
        assert_eq!(hash_val(&v.clone()), hash_val(&v));
    }

    #[test]
    fn fold_rebuilds_a_tree_nested_100000_deep_without_recursion() {
        for maps in [false, true] {
            let v = nested(DEEP, maps);
            // fold into the harness's own type again: the same hash
            let copy = fold(
                &v,
                |x| {
                    Ok::<_, String>(match x {
                        Val::UInt(u) => Val::UInt(*u),
                        Val::Str(s) => Val::Str(s.clone()),
                        _ => unreachable!(),
                    })
                },
                |a| Ok(Val::Array(a)),
                |m| Ok(Val::Map(m.into_iter().map(|(k, x)| (k.to_owned(), x)).collect())),
            )
            .unwrap();
            assert_eq!(hash_val(&copy), nested_hash(DEEP, maps));
        }
    }

    #[test]
    fn the_conversions_to_rmpv_and_bson_take_a_tree_nested_100000_deep() {
        for maps in [false, true] {
            let v = nested(DEEP, maps);
            // the crates' own values drop recursively: leaked, not dropped (as the harness does)
            std::mem::forget(to_rmpv(&v).unwrap());
            std::mem::forget(to_bson_doc(&v).unwrap());
        }
        assert!(to_bson_doc(&Val::Array(vec![])).is_err());
        let too_big = Val::Map(vec![("u".into(), Val::UInt(u64::MAX))]);
        assert!(to_bson_doc(&too_big).unwrap_err().contains("cannot carry"));
    }
}
