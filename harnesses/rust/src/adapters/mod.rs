//! The registration list: every benchmark of this harness, one adapter file per library.

use crate::model::Val;
use crate::typed::{Records, Schema};

/// Decodes the bytes (the caller passes a fresh copy, which in-situ parsers may overwrite) and
/// returns the object hash: of the library's tree for `tree`, computed from its events for
/// `incremental`.
pub type DecodeFn = fn(fmt: &str, data: &mut [u8]) -> Result<u64, String>;
/// The encoder of a write row: built once from the reference tree (converted to the library's
/// input type outside the timed loop), then called in the loop.
pub type Encoder = Box<dyn Fn() -> Result<Vec<u8>, String>>;
pub type WriteFn = fn(fmt: &str, v: &Val) -> Result<Encoder, String>;

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
        }
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

#[path = "baselines.rs"]
mod baselines;
#[path = "bson.rs"]
mod bson_adapter;
#[path = "capnp.rs"]
mod capnp_adapter;
#[path = "ciborium.rs"]
mod ciborium_adapter;
#[path = "flatbuffers.rs"]
mod flatbuffers_adapter;
#[path = "minicbor.rs"]
mod minicbor_adapter;
#[path = "prost.rs"]
mod prost_adapter;
#[path = "rkyv.rs"]
mod rkyv_adapter;
#[path = "rmp.rs"]
mod rmp_adapter;
#[path = "rmp_serde.rs"]
mod rmp_serde_adapter;
#[path = "rmpv.rs"]
mod rmpv_adapter;
#[path = "serde_cbor.rs"]
mod serde_cbor_adapter;
#[path = "serde_json.rs"]
mod serde_json_adapter;
#[path = "simd_json.rs"]
mod simd_json_adapter;
#[path = "sonic_rs.rs"]
mod sonic_rs_adapter;
#[path = "typed_derive.rs"]
mod typed_derive;

/// Every benchmark, in listing order.
pub fn all() -> Vec<Bench> {
    let mut v = Vec::new();
    v.extend(baselines::benches());
    v.extend(serde_json_adapter::benches());
    v.extend(simd_json_adapter::benches());
    v.extend(sonic_rs_adapter::benches());
    v.extend(rmpv_adapter::benches());
    v.extend(rmp_adapter::benches());
    v.extend(rmp_serde_adapter::benches());
    v.extend(ciborium_adapter::benches());
    v.extend(serde_cbor_adapter::benches());
    v.extend(minicbor_adapter::benches());
    v.extend(bson_adapter::benches());
    v.extend(prost_adapter::benches());
    v.extend(typed_derive::benches());
    v.extend(rkyv_adapter::benches());
    v.extend(flatbuffers_adapter::benches());
    v.extend(capnp_adapter::benches());
    v
}
