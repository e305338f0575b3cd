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

/// Typed records (spec/typed.md): `encoder` prepares the crate's own input from the records
/// (outside the loop); `decode` decodes the crate's bytes (a fresh copy) into native records and
/// returns the typed document hash.
pub struct Typed {
    pub encoder: fn(fmt: &str, r: &Records) -> Result<Encoder, String>,
    pub decode: TypedDecodeFn,
}

pub type TypedDecodeFn = fn(fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String>;

/// Builds an `Encoder` from records with a generic `fn enc<T>(&Vec<T>) -> Result<Vec<u8>, String>`.
#[macro_export]
macro_rules! typed_encoder {
    ($records:expr, $enc:ident) => {
        match $records.clone() {
            $crate::typed::Records::Product(v) => Box::new(move || $enc(&v)) as $crate::adapters::Encoder,
            $crate::typed::Records::Trade(v) => Box::new(move || $enc(&v)),
            $crate::typed::Records::Nested(v) => Box::new(move || $enc(&v)),
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
        if self.typed.is_some() {
            t.push("typed-encode");
            t.push("typed-decode");
        }
        t
    }
    pub fn is_baseline(&self) -> bool {
        !self.baseline_for.is_empty()
    }
}

pub const JSON: &[&str] = &["json", "json-pretty"];
/// Wire formats of the typed tests (spec/typed.md).
pub const TYPED_FORMATS: &[&str] = &["json", "msgpack", "bincode", "postcard", "protobuf"];

#[path = "baselines.rs"]
mod baselines;
#[path = "bincode.rs"]
mod bincode_adapter;
#[path = "bson.rs"]
mod bson_adapter;
#[path = "ciborium.rs"]
mod ciborium_adapter;
#[path = "minicbor.rs"]
mod minicbor_adapter;
#[path = "postcard.rs"]
mod postcard_adapter;
#[path = "prost.rs"]
mod prost_adapter;
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
    v.extend(bincode_adapter::benches());
    v.extend(postcard_adapter::benches());
    v.extend(prost_adapter::benches());
    v
}
