//! The registration list: every benchmark of this harness, one adapter file per library.

use crate::model::Val;
use crate::typed::{Records, Schema};

/// Decodes the bytes (the caller passes a fresh copy, which in-situ parsers may overwrite) and
/// returns the object hash: of the library's tree for `tree`, computed from its events for
/// `incremental`.
pub type DecodeFn = fn(fmt: &str, data: &mut [u8]) -> Result<u64, String>;
/// The encoder of a write row, called in the timed loop. It owns a copy of the harness's object
/// (made outside the loop) and each call starts from it (spec/fairness.md rule 10): see
/// [`build_then_encode`]. Only a `-prebuilt` variant row holds the library's own value instead.
pub type Encoder = Box<dyn Fn() -> Result<Vec<u8>, String>>;
pub type WriteFn = fn(fmt: &str, v: &Val) -> Result<Encoder, String>;

/// A write row's encoder (spec/fairness.md rule 10): every call converts the harness's object
/// into what the library writes from (`build`: its DOM), writes it (`encode`) and drops what it
/// built, all inside the timed loop, as an application that keeps its data in its own types does.
/// Before (until issue 69) the DOM was built once outside the loop and the loop timed the dump
/// alone; that is now the `serde_json-dump-prebuilt` variant row only.
pub fn build_then_encode<T: 'static>(
    v: &Val,
    build: fn(&Val) -> Result<T, String>,
    encode: impl Fn(&T) -> Result<Vec<u8>, String> + 'static,
) -> Result<Encoder, String> {
    // Once, outside the loop: a document the library's type cannot carry (binary in JSON, a uint64
    // above INT64_MAX in BSON) is the input's problem (exit 6), not a rejection by the library
    // (exit 3), so it must fail here and not in the check. That trial value is leaked, never
    // dropped: a library's value may drop recursively, once per level of a document nested
    // 100,000 deep, and the harness's own code must not crash on such input (tests/hostile.rs).
    std::mem::forget(build(v)?);
    let v = v.clone();
    Ok(Box::new(move || {
        let built = build(&v)?;
        let out = encode(&built);
        drop(built);
        out
    }))
}

/// A write row's encoder through serde (`crate::ser`): every call drives the crate's serializer
/// from the harness's object (`encode`, e.g. `serde_json::to_vec(v)`), with no intermediate tree
/// (spec/fairness.md rule 10, `from-object`: serde's calls). `check` refuses, once outside the loop
/// and iteratively, what the format cannot carry (an input problem, exit 6, as the DOM rows'
/// trial build); it does not serialize (that recurses once per level, `crate::ser`).
pub fn serialize_encoder(
    v: &Val,
    check: fn(&Val) -> Result<(), String>,
    encode: impl Fn(&Val) -> Result<Vec<u8>, String> + 'static,
) -> Result<Encoder, String> {
    check(v)?;
    let v = v.clone();
    Ok(Box::new(move || encode(&v)))
}

/// Encoded bytes: a Vec, or an aligned buffer (rkyv), so no crate pays a copy to a Vec in the loop.
pub enum Out {
    Vec(Vec<u8>),
    Aligned(rkyv::util::AlignedVec),
    /// a buffer whose data starts at an offset (a FlatBuffers builder's collapsed buffer)
    Tail(Vec<u8>, usize),
}

impl From<Vec<u8>> for Out {
    fn from(v: Vec<u8>) -> Out {
        Out::Vec(v)
    }
}

impl From<rkyv::util::AlignedVec> for Out {
    fn from(v: rkyv::util::AlignedVec) -> Out {
        Out::Aligned(v)
    }
}

impl std::ops::Deref for Out {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Out::Vec(v) => v,
            Out::Aligned(v) => v,
            Out::Tail(v, head) => &v[*head..],
        }
    }
}

/// The encoder of a typed-encode row: built once from the records (converted to the crate's own
/// types outside the loop when it has them), then called in the loop.
pub type TypedEncoder = Box<dyn Fn() -> Result<Out, String>>;

/// Typed records (spec/typed.md). `encoder` prepares the crate's input from the records (outside the
/// loop); every row has one (typed-decode and typed-access rows use it, outside the loop, to make
/// the bytes they read). `decode` decodes the crate's bytes (a fresh, 16-byte aligned copy) into
/// native records and returns the typed document hash; `access` reads every field through a
/// zero-copy view and returns the same hash. `one` is the per-record codec of the latency pass.
pub struct Typed {
    pub tests: &'static [&'static str],
    pub encoder: fn(fmt: &str, r: &Records) -> Result<TypedEncoder, String>,
    pub decode: Option<TypedDecodeFn>,
    pub access: Option<TypedDecodeFn>,
    pub one: Option<OneCodecFn>,
}

pub type OneCodecFn = fn(fmt: &str, r: &Records) -> Result<OneCodec, String>;
pub type OneEncodeFn = Box<dyn Fn(usize) -> Result<Out, String>>;
pub type OneDecodeFn = Box<dyn Fn(&mut [u8]) -> Result<u64, String>>;

pub type TypedDecodeFn = fn(fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String>;

pub const ENC_DEC: &[&str] = &["typed-encode", "typed-decode"];

/// One record at a time (`--latency`): encode record `i`; decode one record's bytes (a fresh
/// aligned copy) and return its typed hash; `hashes[i]` is record i's expected hash.
pub struct OneCodec {
    pub hashes: Vec<u64>,
    pub encode: OneEncodeFn,
    pub decode: OneDecodeFn,
}

/// Builds a `TypedEncoder` from records with a generic `fn enc<T>(&T) -> Result<impl Into<Out>, String>`.
#[macro_export]
macro_rules! typed_encoder {
    ($records:expr, $enc:ident) => {
        match $records.clone() {
            $crate::typed::Records::Product(v) => {
                Box::new(move || $enc(&v).map(Into::into)) as $crate::adapters::TypedEncoder
            }
            $crate::typed::Records::Trade(v) => Box::new(move || $enc(&v).map(Into::into)),
            $crate::typed::Records::Nested(v) => Box::new(move || $enc(&v).map(Into::into)),
        }
    };
}

/// Builds a `OneCodec` from generic `enc` / `dec` functions (as `typed_encoder!` / `typed_decode_hash!`).
#[macro_export]
macro_rules! one_codec {
    ($records:expr, $enc:ident, $dec:ident) => {
        match $records.clone() {
            $crate::typed::Records::Product(v) => $crate::one_codec!(@ v, $crate::typed::Product, $enc, $dec),
            $crate::typed::Records::Trade(v) => $crate::one_codec!(@ v, $crate::typed::Trade, $enc, $dec),
            $crate::typed::Records::Nested(v) => $crate::one_codec!(@ v, $crate::typed::Nested, $enc, $dec),
        }
    };
    (@ $v:ident, $t:ty, $enc:ident, $dec:ident) => {
        $crate::adapters::OneCodec {
            hashes: $v.iter().map($crate::typed::TypedHash::thash).collect(),
            encode: Box::new(move |i| $enc(&$v[i]).map(Into::into)),
            decode: Box::new(|d: &mut [u8]| {
                let x: $t = $dec(d)?;
                Ok($crate::typed::TypedHash::thash(&x))
            }),
        }
    };
}

/// The `Typed` of a crate with generic `enc<T>(&T)` and `dec<T>(&mut [u8]) -> T` functions.
#[macro_export]
macro_rules! generic_typed {
    ($enc:ident, $dec:ident) => {
        $crate::adapters::Typed {
            tests: $crate::adapters::ENC_DEC,
            encoder: |_, r| Ok($crate::typed_encoder!(r, $enc)),
            decode: Some(|_, s, d| $crate::typed_decode_hash!(s, $dec, d)),
            access: None,
            one: Some(|_, r| Ok($crate::one_codec!(r, $enc, $dec))),
        }
    };
}

/// Calls into a library. A panic inside it becomes the error "library panicked: ..." (the row's
/// rejection, exit 3) instead of unwinding through the harness. Only library calls go through here:
/// a panic in the harness's own code is not caught, so it is never reported as a library's
/// rejection. The cost on the normal path is one call through the unwinding trampoline.
#[inline]
pub fn lib<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".into());
        format!("library panicked: {msg}")
    })
}

/// [`lib`] around a library call that returns a `Result`: its error, or its panic, as the row's error.
#[inline]
pub fn lib_try<T, E: std::fmt::Display>(f: impl FnOnce() -> Result<T, E>) -> Result<T, String> {
    lib(f)?.map_err(|e| e.to_string())
}

/// A library's iterator whose `next` may panic (a lazy parser): each step goes through [`lib`].
pub struct LibIter<I>(pub I);

impl<I: Iterator> Iterator for LibIter<I> {
    type Item = Result<I::Item, String>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match lib(|| self.0.next()) {
            Ok(x) => x.map(Ok),
            Err(e) => Some(Err(e)),
        }
    }
}

pub struct Bench {
    pub id: &'static str,
    /// crate name, as in Cargo.lock (the version is read from there)
    pub library: &'static str,
    pub formats: &'static [&'static str],
    pub notes: &'static str,
    pub tree: Option<DecodeFn>,
    pub incremental: Option<DecodeFn>,
    pub write: Option<WriteFn>,
    pub typed: Option<Typed>,
    /// baselines: the tests they stand for (their ops are built in main.rs)
    pub baseline_for: &'static [&'static str],
    /// (test, baseline id) where this row hashes another way than its test's default
    /// ([`default_baseline`]), e.g. an incremental row that walks a lazily parsed tree
    pub baseline_override: &'static [(&'static str, &'static str)],
    /// (test, steps) where this row's timed loop does other work than its test's contract
    /// ([`contract_steps`]): a deviation word in place of the contract's (a `-prebuilt` write, an
    /// unchecked view), or a reference row's own steps. Empty for every row that keeps the contract.
    pub steps_override: &'static [(&'static str, Steps)],
}

/// The steps of a timed loop, in order (`list`'s `steps`, spec/protocol.md).
pub type Steps = &'static [&'static str];

/// The words a row uses in place of a contract's word where it does other work (a labelled
/// variant, never ranked with the rows that keep the contract, DESIGN section 12): `prebuilt` (a
/// write that starts from the library's own value built outside the loop, for `from-object`),
/// `convert` (a typed row that converts between the harness's records and the crate's generated
/// types inside the loop), `decode-unchecked` / `view-unchecked` (validation skipped) and
/// `decode-lazy` (values left unmaterialised and not read in the loop).
pub const DEVIATIONS: &[&str] = &["prebuilt", "convert", "decode-unchecked", "view-unchecked", "decode-lazy"];

/// The work contract of each test (spec/fairness.md): the steps every row of `test` performs in
/// its timed loop, and (`baseline`) those of the baseline that stands for it, whose time is
/// subtracted. One place for all rows; a row that does other work says so in `steps_override`.
pub fn contract_steps(test: &str, baseline: bool) -> Steps {
    match (test, baseline) {
        ("write", false) => &["from-object", "encode", "hash-output"],
        ("write", true) => &["hash-output"],
        ("tree", false) => &["copy-input", "decode", "visit-all"],
        ("tree", true) => &["copy-input", "visit-all"],
        ("incremental", false) => &["copy-input", "parse-events", "hash-events"],
        ("incremental", true) => &["copy-input", "hash-events"],
        ("typed-encode", false) => &["encode", "hash-output"],
        ("typed-encode", true) => &["hash-output"],
        ("typed-decode", false) => &["copy-input", "decode", "visit-all"],
        ("typed-decode", true) => &["copy-input", "visit-all"],
        ("typed-access", false) => &["copy-input", "view", "visit-all"],
        ("typed-access", true) => &["copy-input", "visit-all"],
        _ => &[],
    }
}

/// The baseline a row of `test` subtracts unless it says otherwise (spec/fairness.md rule 5): the
/// one that does the same hashing work as the row. Tree rows walk a decoded tree with
/// [`crate::hash::walk`], as `hash-object` walks the harness's tree; incremental rows feed the
/// streaming form from parse events (a pull parser, a tape, a serde visitor), as `hash-events` feeds
/// it from a walk of the harness's flat document ([`crate::model::hash_flat_events`]); write rows
/// hash their output bytes, as `hash-data` hashes the input's; typed rows hash native records or
/// views with the typed hash (`hash-typed`) or hash their encoding (`hash-data-typed`).
pub fn default_baseline(test: &str) -> &'static str {
    match test {
        "write" => "hash-data",
        "incremental" => "hash-events",
        "typed-encode" => "hash-data-typed",
        "typed-decode" | "typed-access" => "hash-typed",
        _ => "hash-object",
    }
}

impl Bench {
    pub const fn new(id: &'static str, library: &'static str, formats: &'static [&'static str]) -> Self {
        Bench {
            id,
            library,
            formats,
            notes: "",
            tree: None,
            incremental: None,
            write: None,
            typed: None,
            baseline_for: &[],
            baseline_override: &[],
            steps_override: &[],
        }
    }
    /// The steps this row's loop performs for `test`: its test's contract unless it says otherwise.
    pub fn steps(&self, test: &str) -> Steps {
        self.steps_override
            .iter()
            .find(|(t, _)| *t == test)
            .map_or_else(|| contract_steps(test, self.is_baseline()), |(_, s)| *s)
    }
    /// The id of the baseline this row's `test` subtracts.
    pub fn baseline(&self, test: &str) -> &'static str {
        self.baseline_override.iter().find(|(t, _)| *t == test).map_or_else(|| default_baseline(test), |(_, b)| b)
    }
    pub fn tests(&self) -> Vec<&'static str> {
        if !self.baseline_for.is_empty() {
            return self.baseline_for.to_vec();
        }
        let mut t = Vec::new();
        if self.write.is_some() {
            t.push("write");
        }
        if self.tree.is_some() {
            t.push("tree");
        }
        if self.incremental.is_some() {
            t.push("incremental");
        }
        if let Some(ty) = &self.typed {
            t.extend_from_slice(ty.tests);
        }
        t
    }
    pub fn is_baseline(&self) -> bool {
        !self.baseline_for.is_empty()
    }
}

pub const JSON: &[&str] = &["json", "json-pretty"];
/// Wire formats of the typed tests (spec/typed.md).
pub const TYPED_FORMATS: &[&str] = &[
    "json",
    "msgpack",
    "cbor",
    "bson",
    "bincode",
    "postcard",
    "borsh",
    "speedy",
    "protobuf",
    "rkyv",
    "flatbuffers",
    "capnp",
];

/// A typed row (spec/typed.md) of `library`'s adapter file.
pub fn typed_row(
    id: &'static str,
    library: &'static str,
    fmt: &'static [&'static str],
    notes: &'static str,
    t: Typed,
) -> Bench {
    Bench { notes, typed: Some(t), ..Bench::new(id, library, fmt) }
}

// --- registration ----------------------------------------------------------------------------

/// The library a code-size probe is built for (docs/libraries.md, "Rust code size"): set at compile
/// time by the orchestrator, so only that library's adapter is registered and the linker drops
/// every other library. Unset (every normal build): all libraries.
const SIZE_PROBE: Option<&str> = option_env!("SERBENCH_RUST_SIZE_PROBE");

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether this build registers `library` (evaluated at compile time, see `SIZE_PROBE`).
pub const fn registered(library: &str) -> bool {
    match SIZE_PROBE {
        None => true,
        Some(p) => str_eq(p, library),
    }
}

/// One line per library: its crate name (as in Cargo.lock and `Bench::library`) and its adapter
/// file. The macro declares the modules and builds `by_library()` / `LIBRARIES` from one list.
macro_rules! libraries {
    ($($lib:literal => $module:ident in $file:literal),* $(,)?) => {
        $(
            #[path = $file]
            mod $module;
        )*

        /// Every library this harness drives, in listing order.
        pub const LIBRARIES: &[&str] = &[$($lib),*];

        /// The benchmarks of each registered library (a code-size probe registers one).
        pub fn by_library() -> Vec<(&'static str, Vec<Bench>)> {
            let mut v = Vec::new();
            $(
                {
                    // a constant, so a probe build compiles the other libraries out entirely
                    const ON: bool = registered($lib);
                    if ON {
                        v.push(($lib, $module::benches()));
                    }
                }
            )*
            v
        }
    };
}

mod baselines;

libraries! {
    "serde_json" => serde_json_adapter in "serde_json.rs",
    "simd-json" => simd_json_adapter in "simd_json.rs",
    "sonic-rs" => sonic_rs_adapter in "sonic_rs.rs",
    "rmpv" => rmpv_adapter in "rmpv.rs",
    "rmp" => rmp_adapter in "rmp.rs",
    "rmp-serde" => rmp_serde_adapter in "rmp_serde.rs",
    "ciborium" => ciborium_adapter in "ciborium.rs",
    "serde_cbor" => serde_cbor_adapter in "serde_cbor.rs",
    "minicbor" => minicbor_adapter in "minicbor.rs",
    "bson" => bson_adapter in "bson.rs",
    "yyjson-sys" => yyjson_adapter in "yyjson.rs",
    "prost" => prost_adapter in "prost.rs",
    "bincode" => bincode_adapter in "bincode.rs",
    "postcard" => postcard_adapter in "postcard.rs",
    "borsh" => borsh_adapter in "borsh.rs",
    "speedy" => speedy_adapter in "speedy.rs",
    "rkyv" => rkyv_adapter in "rkyv.rs",
    "flatbuffers" => flatbuffers_adapter in "flatbuffers.rs",
    "capnp" => capnp_adapter in "capnp.rs",
}

/// Every benchmark, in listing order: the baselines, then each registered library's rows.
pub fn all() -> Vec<Bench> {
    let mut v = baselines::benches();
    for (_, b) in by_library() {
        v.extend(b);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::nested;

    #[test]
    fn every_write_row_converts_a_tree_nested_100000_deep_into_its_input_without_recursion() {
        for maps in [false, true] {
            let v = nested(100_000, maps);
            for b in all() {
                let Some(write) = b.write else { continue };
                for fmt in b.formats {
                    let enc = write(fmt, &v).unwrap_or_else(|e| panic!("{} {fmt}: {e}", b.id));
                    // the library's own tree drops recursively; the harness never drops it (main.rs `keep`)
                    std::mem::forget(enc);
                }
            }
        }
    }

    /// The steps a row's loop does that its baseline does not: the library's own work, what its
    /// net time measures.
    fn net<'a>(steps: &[&'a str], baseline: &[&str]) -> Vec<&'a str> {
        // a baseline's steps are the row's without the library's (never more: rule 5)
        let mut rest = baseline.iter().peekable();
        let mut own = Vec::new();
        for s in steps {
            if rest.peek() == Some(&s) {
                rest.next();
            } else {
                own.push(*s);
            }
        }
        assert!(rest.peek().is_none(), "the baseline's steps {baseline:?} are not all in the row's {steps:?}");
        own
    }

    /// Every row declares, for every test, the steps of its loop (`list`): its test's contract, or
    /// a labelled deviation; and its baseline's steps are its own less the library's work (the
    /// contract's, for rows that keep it). The one row that hashes another way than its test's
    /// rows (bson-raw: the tree form over the library's lazy iterators, less `hash-object`) keeps
    /// the contract's words, which say what the library does, not which form of the hash.
    #[test]
    fn every_row_declares_its_tests_contract_or_a_labelled_deviation() {
        let benches = all();
        let contract_words: Vec<&str> =
            ["write", "tree", "incremental", "typed-encode", "typed-decode", "typed-access"]
                .iter()
                .flat_map(|t| contract_steps(t, false).iter().chain(contract_steps(t, true)))
                .copied()
                .collect();
        let mut deviating = Vec::new();
        for b in &benches {
            for t in b.tests() {
                let steps = b.steps(t);
                assert!(!steps.is_empty(), "{} {t}: no steps", b.id);
                for w in steps {
                    assert!(contract_words.contains(w) || DEVIATIONS.contains(w), "{} {t}: unknown step {w:?}", b.id);
                }
                if b.is_baseline() {
                    continue;
                }
                let deviation = steps.iter().find(|w| DEVIATIONS.contains(w));
                // a -prebuilt id and the prebuilt step go together, and so do unchecked ones
                assert_eq!(b.id.ends_with("-prebuilt"), steps.contains(&"prebuilt"), "{} {t}: {steps:?}", b.id);
                assert_eq!(
                    b.id.contains("unchecked"),
                    steps.iter().any(|w| w.ends_with("-unchecked")),
                    "{} {t}: {steps:?}",
                    b.id
                );
                let base = benches.iter().find(|x| x.id == b.baseline(t)).unwrap();
                assert!(base.is_baseline() && base.tests().contains(&t), "{} {t}: baseline {}", b.id, base.id);
                let contract_own = net(contract_steps(t, false), contract_steps(t, true));
                if b.baseline(t) != default_baseline(t) {
                    assert_eq!((b.id, t), ("bson-raw", "incremental"));
                    assert_eq!(steps, contract_steps(t, false));
                    continue;
                }
                let own = net(steps, base.steps(t));
                match deviation {
                    Some(w) => {
                        deviating.push(format!("{}/{t}", b.id));
                        assert_ne!(steps, contract_steps(t, false), "{} {t}: {w:?} but the contract's steps", b.id);
                    }
                    None => {
                        assert_eq!(steps, contract_steps(t, false), "{} {t}: no contract and no deviation word", b.id);
                        assert_eq!(own, contract_own, "{} {t}", b.id);
                    }
                }
            }
        }
        deviating.sort();
        assert_eq!(
            deviating,
            [
                "flatbuffers-unchecked/typed-access",
                "prost-convert/typed-decode",
                "prost-convert/typed-encode",
                "rkyv-unchecked/typed-access",
                "serde_json-dump-prebuilt/write",
            ]
        );
    }

    #[test]
    fn a_library_panic_becomes_an_error_naming_it() {
        let r: Result<u8, String> = lib(|| panic!("boom {}", 7));
        assert_eq!(r.unwrap_err(), "library panicked: boom 7");
        let r: Result<u8, String> = lib_try(|| Err::<u8, _>("bad input"));
        assert_eq!(r.unwrap_err(), "bad input");
        let mut it = LibIter([1, 2].into_iter().map(|x| if x == 2 { panic!("lazy") } else { x }));
        assert_eq!(it.next(), Some(Ok(1)));
        assert_eq!(it.next(), Some(Err("library panicked: lazy".into())));
    }
}
