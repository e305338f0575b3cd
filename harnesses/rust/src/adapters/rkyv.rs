//! rkyv 0.8: zero-copy archives of the native records (`#[derive(rkyv::Archive, ...)]` in typed.rs),
//! little endian, aligned (the crate's defaults). Four rows: `rkyv` serialises (`to_bytes`, into an
//! `AlignedVec`) and deserialises (`from_bytes`: validation, then a full copy into native records);
//! `rkyv-access` reads every field through the archived view after validation (`access`);
//! `rkyv-unchecked` reads it without validation (`unsafe access_unchecked`, trusting the bytes).

use super::{Bench, Typed};
use crate::typed::{
    document_hash, ArchivedInner, ArchivedNested, ArchivedPoint, ArchivedProduct, ArchivedSide, ArchivedTrade, Records,
    Schema, TypedHash,
};
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::rancor::Error;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use rkyv::vec::ArchivedVec;
use rkyv::Archive;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "rkyv::to_bytes (AlignedVec) / from_bytes (bytecheck validation + deserialise into native records)",
            typed: Some(Typed {
                tests: super::ENC_DEC,
                encoder: |_, r| Ok(crate::typed_encoder!(r, enc)),
                decode: Some(|_, s, d| crate::typed_decode_hash!(s, dec, d)),
                access: None,
                one: Some(|_, r| Ok(crate::one_codec!(r, enc, dec))),
            }),
            ..Bench::new("rkyv", "rkyv", &["rkyv"])
        },
        Bench {
            notes: "rkyv::access (bytecheck validation), then every field read through the archived view; no deserialisation",
            typed: Some(Typed { tests: &["typed-access"], encoder, decode: None, access: Some(access), one: None }),
            ..Bench::new("rkyv-access", "rkyv", &["rkyv"])
        },
        Bench {
            notes: "unsafe rkyv::access_unchecked (no validation: only for trusted bytes), then every field read through the archived view",
            typed: Some(Typed { tests: &["typed-access"], encoder, decode: None, access: Some(access_unchecked), one: None }),
            steps_override: &[("typed-access", &["copy-input", "view-unchecked", "visit-all"])],
            ..Bench::new("rkyv-unchecked", "rkyv", &["rkyv"])
        },
    ]
}

fn enc<T>(v: &T) -> Result<AlignedVec, String>
where
    T: for<'a> rkyv::Serialize<HighSerializer<AlignedVec, ArenaHandle<'a>, Error>>,
{
    rkyv::to_bytes::<Error>(v).map_err(|e| e.to_string())
}

fn dec<T>(d: &mut [u8]) -> Result<T, String>
where
    T: Archive,
    T::Archived:
        for<'a> rkyv::bytecheck::CheckBytes<HighValidator<'a, Error>> + rkyv::Deserialize<T, HighDeserializer<Error>>,
{
    rkyv::from_bytes::<T, Error>(d).map_err(|e| e.to_string())
}

fn encoder(_fmt: &str, r: &Records) -> Result<super::TypedEncoder, String> {
    Ok(crate::typed_encoder!(r, enc))
}

fn hash_view<T: TypedHash>(schema: Schema, v: &ArchivedVec<T>) -> u64 {
    document_hash(schema, v.iter().map(TypedHash::thash))
}

fn access(_fmt: &str, schema: Schema, d: &mut [u8]) -> Result<u64, String> {
    let e = |e: Error| e.to_string();
    Ok(match schema {
        Schema::Product => hash_view(schema, rkyv::access::<ArchivedVec<ArchivedProduct>, Error>(d).map_err(e)?),
        Schema::Trade => hash_view(schema, rkyv::access::<ArchivedVec<ArchivedTrade>, Error>(d).map_err(e)?),
        Schema::Nested => hash_view(schema, rkyv::access::<ArchivedVec<ArchivedNested>, Error>(d).map_err(e)?),
    })
}

fn access_unchecked(_fmt: &str, schema: Schema, d: &mut [u8]) -> Result<u64, String> {
    // SAFETY: the bytes are the crate's own `to_bytes` output for this schema, copied into a
    // 16-byte aligned buffer by the harness; this row measures reading trusted bytes.
    Ok(unsafe {
        match schema {
            Schema::Product => hash_view(schema, rkyv::access_unchecked::<ArchivedVec<ArchivedProduct>>(d)),
            Schema::Trade => hash_view(schema, rkyv::access_unchecked::<ArchivedVec<ArchivedTrade>>(d)),
            Schema::Nested => hash_view(schema, rkyv::access_unchecked::<ArchivedVec<ArchivedNested>>(d)),
        }
    })
}

// --- the typed hash over archived values (the same walk as over native records) ---------------

macro_rules! native_hash {
    ($($t:ty => $n:ty),*) => {$(
        impl TypedHash for $t {
            #[inline]
            fn thash(&self) -> u64 {
                TypedHash::thash(&self.to_native())
            }
        }
    )*};
}
native_hash!(rkyv::rend::u16_le => u16, rkyv::rend::u32_le => u32, rkyv::rend::u64_le => u64,
             rkyv::rend::i16_le => i16, rkyv::rend::i32_le => i32, rkyv::rend::i64_le => i64,
             rkyv::rend::f32_le => f32, rkyv::rend::f64_le => f64);

impl TypedHash for rkyv::string::ArchivedString {
    #[inline]
    fn thash(&self) -> u64 {
        self.as_str().thash()
    }
}

impl<T: TypedHash> TypedHash for ArchivedVec<T> {
    #[inline]
    fn thash(&self) -> u64 {
        self.as_slice().thash()
    }
}

impl<T: TypedHash> TypedHash for rkyv::option::ArchivedOption<T> {
    #[inline]
    fn thash(&self) -> u64 {
        match self {
            rkyv::option::ArchivedOption::Some(v) => v.thash(),
            rkyv::option::ArchivedOption::None => crate::hash::NULL_HASH,
        }
    }
}

// rkyv 0.8's ArchivedBTreeMap iterator keeps its traversal stack in a Vec (src/collections/btree/map/
// iter.rs), so reading a non-empty map through the view allocates once: the access rows show 364
// allocations per op on `nested` (its 363 non-empty maps, plus the input copy) where FlatBuffers shows 1.
impl<V: TypedHash> TypedHash for rkyv::collections::btree_map::ArchivedBTreeMap<rkyv::string::ArchivedString, V> {
    fn thash(&self) -> u64 {
        let mut m = crate::hash::MapAcc::new();
        for (k, v) in self.iter() {
            m.push(crate::hash::hash_str(k.as_str()), v.thash());
        }
        m.finish()
    }
}

impl TypedHash for ArchivedSide {
    #[inline]
    fn thash(&self) -> u64 {
        match self {
            ArchivedSide::Buy => crate::key!("Buy"),
            ArchivedSide::Sell => crate::key!("Sell"),
        }
    }
}

crate::impl_record_hash!(ArchivedProduct, ArchivedTrade, ArchivedPoint, ArchivedInner, ArchivedNested);
