//! Typed records (spec/typed.md): the record types shared by the serde-based crates (and bincode's
//! native derive), the typed hash, and the loader of a typed dataset file
//! (`{"schema": ..., "records": [...]}` in JSON).

use crate::hash::{self, MapAcc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The derives every native record type carries: serde (serde_json, simd-json, sonic-rs, rmp-serde,
/// ciborium, serde_cbor, postcard), bincode 2, borsh, speedy, rkyv and minicbor (`#[n(i)]` indices).
macro_rules! records {
    ($($item:item)*) => {
        $(
            #[derive(Serialize, Deserialize, bincode::Encode, bincode::Decode, borsh::BorshSerialize,
                     borsh::BorshDeserialize, speedy::Readable, speedy::Writable, rkyv::Archive,
                     rkyv::Serialize, rkyv::Deserialize, minicbor::Encode, minicbor::Decode, Clone, Debug,
                     PartialEq)]
            $item
        )*
    };
}

records! {
    pub struct Product {
        #[n(0)] pub id: u64,
        #[n(1)] pub name: String,
        #[n(2)] pub price: f64,
        #[n(3)] pub in_stock: bool,
        #[n(4)] pub tags: Vec<String>,
    }

    pub enum Side {
        #[n(0)] Buy,
        #[n(1)] Sell,
    }

    pub struct Trade {
        #[n(0)] pub price: f64,
        #[n(1)] pub flag: bool,
        #[n(2)] pub text: String,
        #[n(3)] pub side: Side,
        #[n(4)] pub small_int: i32,
        #[n(5)] pub long_int: i64,
    }

    pub struct Point {
        #[n(0)] pub x: f64,
        #[n(1)] pub y: f64,
        #[n(2)] pub z: f32,
    }

    pub struct Inner {
        #[n(0)] pub label: String,
        #[n(1)] pub point: Point,
    }

    #[rkyv(serialize_bounds(__S: rkyv::ser::Writer + rkyv::ser::Allocator, __S::Error: rkyv::rancor::Source))]
    #[rkyv(deserialize_bounds(__D::Error: rkyv::rancor::Source))]
    #[rkyv(bytecheck(bounds(__C: rkyv::validation::ArchiveContext, __C::Error: rkyv::rancor::Source)))]
    pub struct Nested {
        #[n(0)] pub u8: u8,
        #[n(1)] pub u16: u16,
        #[n(2)] pub u32: u32,
        #[n(3)] pub u64: u64,
        #[n(4)] pub i8: i8,
        #[n(5)] pub i16: i16,
        #[n(6)] pub i32: i32,
        #[n(7)] pub i64: i64,
        #[n(8)] pub f32: f32,
        #[n(9)] pub f64: f64,
        #[n(10)] pub flag: bool,
        #[n(11)] pub name: String,
        #[n(12)] pub u8s: Vec<u8>,
        #[n(13)] pub u16s: Vec<u16>,
        #[n(14)] pub u32s: Vec<u32>,
        #[n(15)] pub u64s: Vec<u64>,
        #[n(16)] pub i8s: Vec<i8>,
        #[n(17)] pub i16s: Vec<i16>,
        #[n(18)] pub i32s: Vec<i32>,
        #[n(19)] pub i64s: Vec<i64>,
        #[n(20)] pub f32s: Vec<f32>,
        #[n(21)] pub f64s: Vec<f64>,
        #[n(22)] pub flags: Vec<bool>,
        #[n(23)] pub names: Vec<String>,
        #[n(24)] pub counts: BTreeMap<String, i64>,
        #[n(25)] pub note: Option<String>,
        #[n(26)] pub inner: Inner,
        #[rkyv(omit_bounds)]
        #[n(27)] pub children: Vec<Nested>,
    }
}

impl Copy for Side {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    Product,
    Trade,
    Nested,
}

impl Schema {
    pub fn name(self) -> &'static str {
        match self {
            Schema::Product => "product",
            Schema::Trade => "trade",
            Schema::Nested => "nested",
        }
    }
    pub fn parse(s: &str) -> Result<Schema, String> {
        match s {
            "product" => Ok(Schema::Product),
            "trade" => Ok(Schema::Trade),
            "nested" => Ok(Schema::Nested),
            _ => Err(format!("unknown typed schema {s:?}")),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Records {
    Product(Vec<Product>),
    Trade(Vec<Trade>),
    Nested(Vec<Nested>),
}

impl Records {
    pub fn schema(&self) -> Schema {
        match self {
            Records::Product(_) => Schema::Product,
            Records::Trade(_) => Schema::Trade,
            Records::Nested(_) => Schema::Nested,
        }
    }
}

/// The object hash of a typed value, as the data model sees it (spec/typed.md): a struct is a map
/// of its fields, an enum its variant name, `None` null, an f32 the double of its value. Implemented
/// for the native records and, field for field, for zero-copy views (rkyv's archived types).
pub trait TypedHash {
    fn thash(&self) -> u64;
}

macro_rules! uint_hash {
    ($($t:ty),*) => {$(
        impl TypedHash for $t {
            #[inline]
            fn thash(&self) -> u64 {
                hash::hash_u64(*self as u64)
            }
        }
    )*};
}
macro_rules! int_hash {
    ($($t:ty),*) => {$(
        impl TypedHash for $t {
            #[inline]
            fn thash(&self) -> u64 {
                hash::hash_i64(*self as i64)
            }
        }
    )*};
}
uint_hash!(u8, u16, u32, u64);
int_hash!(i8, i16, i32, i64);

impl TypedHash for f32 {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_f64(*self as f64)
    }
}
impl TypedHash for f64 {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_f64(*self)
    }
}
impl TypedHash for bool {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_bool(*self)
    }
}
impl TypedHash for str {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_str(self)
    }
}
impl TypedHash for String {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_str(self)
    }
}
impl<T: TypedHash> TypedHash for [T] {
    #[inline]
    fn thash(&self) -> u64 {
        hash::hash_array(self.iter().map(TypedHash::thash))
    }
}
impl<T: TypedHash> TypedHash for Vec<T> {
    #[inline]
    fn thash(&self) -> u64 {
        self.as_slice().thash()
    }
}
impl<T: TypedHash> TypedHash for Option<T> {
    #[inline]
    fn thash(&self) -> u64 {
        self.as_ref().map_or(hash::NULL_HASH, TypedHash::thash)
    }
}
impl<V: TypedHash> TypedHash for BTreeMap<String, V> {
    fn thash(&self) -> u64 {
        let mut m = MapAcc::new();
        for (k, v) in self {
            m.push(hash::hash_str(k), v.thash());
        }
        m.finish()
    }
}
impl TypedHash for Side {
    #[inline]
    fn thash(&self) -> u64 {
        // enums hash as their names (spec/typed.md), hashed at compile time as field names are
        match self {
            Side::Buy => crate::key!("Buy"),
            Side::Sell => crate::key!("Sell"),
        }
    }
}

/// The hash of a struct from its fields (the same field names on native and archived types).
#[macro_export]
macro_rules! struct_hash {
    ($s:expr; $($f:ident),* $(,)?) => {{
        let mut m = $crate::hash::MapAcc::new();
        $( m.push($crate::key!(stringify!($f)), $crate::typed::TypedHash::thash(&$s.$f)); )*
        m.finish()
    }};
}

/// Implements [`TypedHash`] for the record types of one family (native, or a zero-copy view).
#[macro_export]
macro_rules! impl_record_hash {
    ($product:ty, $trade:ty, $point:ty, $inner:ty, $nested:ty) => {
        impl $crate::typed::TypedHash for $product {
            fn thash(&self) -> u64 {
                $crate::struct_hash!(self; id, name, price, in_stock, tags)
            }
        }
        impl $crate::typed::TypedHash for $trade {
            fn thash(&self) -> u64 {
                $crate::struct_hash!(self; price, flag, text, side, small_int, long_int)
            }
        }
        impl $crate::typed::TypedHash for $point {
            fn thash(&self) -> u64 {
                $crate::struct_hash!(self; x, y, z)
            }
        }
        impl $crate::typed::TypedHash for $inner {
            fn thash(&self) -> u64 {
                $crate::struct_hash!(self; label, point)
            }
        }
        impl $crate::typed::TypedHash for $nested {
            fn thash(&self) -> u64 {
                $crate::struct_hash!(self; u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, flag, name,
                    u8s, u16s, u32s, u64s, i8s, i16s, i32s, i64s, f32s, f64s, flags, names, counts, note,
                    inner, children)
            }
        }
    };
}

impl_record_hash!(Product, Trade, Point, Inner, Nested);

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Buy => "Buy",
            Side::Sell => "Sell",
        }
    }
}

#[inline]
fn field(m: &mut MapAcc, name: &str, h: u64) {
    m.push(hash::hash_str(name), h);
}

/// Hash of the whole typed document `{"schema": name, "records": [...]}` from record hashes.
pub fn document_hash<I: IntoIterator<Item = u64>>(schema: Schema, records: I) -> u64 {
    let mut m = MapAcc::new();
    field(&mut m, "schema", hash::hash_str(schema.name()));
    field(&mut m, "records", hash::hash_array(records));
    m.finish()
}

pub fn hash_records<T: TypedHash>(schema: Schema, records: &[T]) -> u64 {
    document_hash(schema, records.iter().map(TypedHash::thash))
}

pub fn hash_all(r: &Records) -> u64 {
    match r {
        Records::Product(v) => hash_records(Schema::Product, v),
        Records::Trade(v) => hash_records(Schema::Trade, v),
        Records::Nested(v) => hash_records(Schema::Nested, v),
    }
}

#[derive(Deserialize)]
struct File<T> {
    #[allow(dead_code)]
    schema: String,
    records: Vec<T>,
}

#[derive(Deserialize)]
struct Head {
    schema: String,
}

/// Loads a typed dataset file (JSON) into native records (outside any timed loop).
pub fn load(data: &[u8]) -> Result<Records, String> {
    let head: Head = serde_json::from_slice(data).map_err(|e| format!("typed file: {e}"))?;
    let e = |e: serde_json::Error| format!("typed file ({}): {e}", head.schema);
    Ok(match Schema::parse(&head.schema)? {
        Schema::Product => Records::Product(serde_json::from_slice::<File<Product>>(data).map_err(e)?.records),
        Schema::Trade => Records::Trade(serde_json::from_slice::<File<Trade>>(data).map_err(e)?.records),
        Schema::Nested => {
            let mut de = serde_json::Deserializer::from_slice(data);
            let f: File<Nested> = File::deserialize(&mut de).map_err(e)?;
            Records::Nested(f.records)
        }
    })
}

/// Decodes a format's bytes with a generic `fn dec<T>(&mut [u8]) -> Result<T, String>` per record
/// type and hashes the result.
#[macro_export]
macro_rules! typed_decode_hash {
    ($schema:expr, $decode:ident, $data:expr) => {
        match $schema {
            $crate::typed::Schema::Product => {
                let v: Vec<$crate::typed::Product> = $decode($data)?;
                Ok($crate::typed::hash_records($crate::typed::Schema::Product, &v))
            }
            $crate::typed::Schema::Trade => {
                let v: Vec<$crate::typed::Trade> = $decode($data)?;
                Ok($crate::typed::hash_records($crate::typed::Schema::Trade, &v))
            }
            $crate::typed::Schema::Nested => {
                let v: Vec<$crate::typed::Nested> = $decode($data)?;
                Ok($crate::typed::hash_records($crate::typed::Schema::Nested, &v))
            }
        }
    };
}
