//! prost: Protocol Buffers. The message structs below are what prost-build generates from
//! spec/schemas/typed.proto, written out by hand (derive `prost::Message`) so the build needs no
//! protoc. Two rows: `prost` encodes messages prepared outside the loop and decodes into them
//! (hashing the generated types), `prost-convert` also converts from / to the native records inside
//! the loop (what an application with its own structs pays).

use super::{Bench, OneCodec, Typed, TypedEncoder};
use crate::struct_hash;
use crate::typed::{self as t, document_hash, hash_records, Records, Schema, TypedHash};
use prost::Message;
use std::collections::BTreeMap;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench {
            notes: "generated message types (spec/schemas/typed.proto, written as prost-build emits them), built outside the loop: encode_to_vec / decode, the typed hash walks the messages",
            typed: Some(Typed { tests: super::ENC_DEC, encoder, decode: Some(decode), access: None, one: Some(one) }),
            ..Bench::new("prost", "prost", &["protobuf"])
        },
        Bench {
            notes: "as prost, plus the conversion from the native records to the messages (encode) and back (decode) inside the loop",
            typed: Some(Typed {
                tests: super::ENC_DEC,
                encoder: encoder_convert,
                decode: Some(decode_convert),
                access: None,
                one: Some(one_convert),
            }),
            // the conversion between the native records and the messages is timed: before the
            // encode, and after the decode (the typed hash walks the native records)
            steps_override: &[
                ("typed-encode", &["convert", "encode", "hash-output"]),
                ("typed-decode", &["copy-input", "decode", "convert", "visit-all"]),
            ],
            ..Bench::new("prost-convert", "prost", &["protobuf"])
        },
    ]
}

#[derive(Clone, PartialEq, Message)]
pub struct Product {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(double, tag = "3")]
    pub price: f64,
    #[prost(bool, tag = "4")]
    pub in_stock: bool,
    #[prost(string, repeated, tag = "5")]
    pub tags: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Side {
    Buy = 0,
    Sell = 1,
}

#[derive(Clone, PartialEq, Message)]
pub struct Trade {
    #[prost(double, tag = "1")]
    pub price: f64,
    #[prost(bool, tag = "2")]
    pub flag: bool,
    #[prost(string, tag = "3")]
    pub text: String,
    #[prost(enumeration = "Side", tag = "4")]
    pub side: i32,
    #[prost(sint32, tag = "5")]
    pub small_int: i32,
    #[prost(sint64, tag = "6")]
    pub long_int: i64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Point {
    #[prost(double, tag = "1")]
    pub x: f64,
    #[prost(double, tag = "2")]
    pub y: f64,
    #[prost(float, tag = "3")]
    pub z: f32,
}

#[derive(Clone, PartialEq, Message)]
pub struct Inner {
    #[prost(string, tag = "1")]
    pub label: String,
    #[prost(message, optional, tag = "2")]
    pub point: Option<Point>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Nested {
    #[prost(uint32, tag = "1")]
    pub u8: u32,
    #[prost(uint32, tag = "2")]
    pub u16: u32,
    #[prost(uint32, tag = "3")]
    pub u32: u32,
    #[prost(uint64, tag = "4")]
    pub u64: u64,
    #[prost(sint32, tag = "5")]
    pub i8: i32,
    #[prost(sint32, tag = "6")]
    pub i16: i32,
    #[prost(sint32, tag = "7")]
    pub i32: i32,
    #[prost(sint64, tag = "8")]
    pub i64: i64,
    #[prost(float, tag = "9")]
    pub f32: f32,
    #[prost(double, tag = "10")]
    pub f64: f64,
    #[prost(bool, tag = "11")]
    pub flag: bool,
    #[prost(string, tag = "12")]
    pub name: String,
    #[prost(uint32, repeated, tag = "13")]
    pub u8s: Vec<u32>,
    #[prost(uint32, repeated, tag = "14")]
    pub u16s: Vec<u32>,
    #[prost(uint32, repeated, tag = "15")]
    pub u32s: Vec<u32>,
    #[prost(uint64, repeated, tag = "16")]
    pub u64s: Vec<u64>,
    #[prost(sint32, repeated, tag = "17")]
    pub i8s: Vec<i32>,
    #[prost(sint32, repeated, tag = "18")]
    pub i16s: Vec<i32>,
    #[prost(sint32, repeated, tag = "19")]
    pub i32s: Vec<i32>,
    #[prost(sint64, repeated, tag = "20")]
    pub i64s: Vec<i64>,
    #[prost(float, repeated, tag = "21")]
    pub f32s: Vec<f32>,
    #[prost(double, repeated, tag = "22")]
    pub f64s: Vec<f64>,
    #[prost(bool, repeated, tag = "23")]
    pub flags: Vec<bool>,
    #[prost(string, repeated, tag = "24")]
    pub names: Vec<String>,
    #[prost(btree_map = "string, sint64", tag = "25")]
    pub counts: BTreeMap<String, i64>,
    #[prost(string, optional, tag = "26")]
    pub note: Option<String>,
    #[prost(message, optional, tag = "27")]
    pub inner: Option<Inner>,
    #[prost(message, repeated, tag = "28")]
    pub children: Vec<Nested>,
}

#[derive(Clone, PartialEq, Message)]
pub struct ProductList {
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<Product>,
}

#[derive(Clone, PartialEq, Message)]
pub struct TradeList {
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<Trade>,
}

#[derive(Clone, PartialEq, Message)]
pub struct NestedList {
    #[prost(message, repeated, tag = "1")]
    pub records: Vec<Nested>,
}

// --- native records <-> messages -----------------------------------------------------------------

fn from_product(p: &t::Product) -> Product {
    Product { id: p.id, name: p.name.clone(), price: p.price, in_stock: p.in_stock, tags: p.tags.clone() }
}

fn from_trade(r: &t::Trade) -> Trade {
    let side = match r.side {
        t::Side::Buy => Side::Buy,
        t::Side::Sell => Side::Sell,
    };
    Trade {
        price: r.price,
        flag: r.flag,
        text: r.text.clone(),
        side: side as i32,
        small_int: r.small_int,
        long_int: r.long_int,
    }
}

fn widen<A: Copy + Into<B>, B>(v: &[A]) -> Vec<B> {
    v.iter().map(|&x| x.into()).collect()
}

fn from_nested(n: &t::Nested) -> Nested {
    Nested {
        u8: n.u8.into(),
        u16: n.u16.into(),
        u32: n.u32,
        u64: n.u64,
        i8: n.i8.into(),
        i16: n.i16.into(),
        i32: n.i32,
        i64: n.i64,
        f32: n.f32,
        f64: n.f64,
        flag: n.flag,
        name: n.name.clone(),
        u8s: widen(&n.u8s),
        u16s: widen(&n.u16s),
        u32s: n.u32s.clone(),
        u64s: n.u64s.clone(),
        i8s: widen(&n.i8s),
        i16s: widen(&n.i16s),
        i32s: n.i32s.clone(),
        i64s: n.i64s.clone(),
        f32s: n.f32s.clone(),
        f64s: n.f64s.clone(),
        flags: n.flags.clone(),
        names: n.names.clone(),
        counts: n.counts.clone(),
        note: n.note.clone(),
        inner: Some(Inner {
            label: n.inner.label.clone(),
            point: Some(Point { x: n.inner.point.x, y: n.inner.point.y, z: n.inner.point.z }),
        }),
        children: n.children.iter().map(from_nested).collect(),
    }
}

fn narrow<A: Copy + TryInto<B>, B>(v: Vec<A>, what: &str) -> Result<Vec<B>, String> {
    v.into_iter().map(|x| x.try_into().map_err(|_| format!("{what}: value out of range"))).collect()
}

fn to_product(p: Product) -> Result<t::Product, String> {
    Ok(t::Product { id: p.id, name: p.name, price: p.price, in_stock: p.in_stock, tags: p.tags })
}

fn to_trade(r: Trade) -> Result<t::Trade, String> {
    let side = match Side::try_from(r.side) {
        Ok(Side::Buy) => t::Side::Buy,
        Ok(Side::Sell) => t::Side::Sell,
        Err(_) => return Err(format!("unknown Side value {}", r.side)),
    };
    Ok(t::Trade { price: r.price, flag: r.flag, text: r.text, side, small_int: r.small_int, long_int: r.long_int })
}

fn to_nested(n: Nested) -> Result<t::Nested, String> {
    let range = |what: &str| format!("{what}: value out of range");
    let inner = n.inner.ok_or("Nested.inner is missing")?;
    let point = inner.point.ok_or("Inner.point is missing")?;
    Ok(t::Nested {
        u8: n.u8.try_into().map_err(|_| range("u8"))?,
        u16: n.u16.try_into().map_err(|_| range("u16"))?,
        u32: n.u32,
        u64: n.u64,
        i8: n.i8.try_into().map_err(|_| range("i8"))?,
        i16: n.i16.try_into().map_err(|_| range("i16"))?,
        i32: n.i32,
        i64: n.i64,
        f32: n.f32,
        f64: n.f64,
        flag: n.flag,
        name: n.name,
        u8s: narrow(n.u8s, "u8s")?,
        u16s: narrow(n.u16s, "u16s")?,
        u32s: n.u32s,
        u64s: n.u64s,
        i8s: narrow(n.i8s, "i8s")?,
        i16s: narrow(n.i16s, "i16s")?,
        i32s: n.i32s,
        i64s: n.i64s,
        f32s: n.f32s,
        f64s: n.f64s,
        flags: n.flags,
        names: n.names,
        counts: n.counts,
        note: n.note,
        inner: t::Inner { label: inner.label, point: t::Point { x: point.x, y: point.y, z: point.z } },
        children: n.children.into_iter().map(to_nested).collect::<Result<_, _>>()?,
    })
}

// --- the typed hash over the generated types -----------------------------------------------------

impl TypedHash for Product {
    fn thash(&self) -> u64 {
        struct_hash!(self; id, name, price, in_stock, tags)
    }
}

/// A `Side` field as prost keeps it (i32): the variant name, or the number when unknown (a
/// mismatch, not a crash).
struct SideField(i32);

impl TypedHash for SideField {
    fn thash(&self) -> u64 {
        match Side::try_from(self.0) {
            Ok(Side::Buy) => crate::key!("Buy"),
            Ok(Side::Sell) => crate::key!("Sell"),
            Err(_) => crate::hash::hash_i64(self.0 as i64),
        }
    }
}

impl TypedHash for Trade {
    /// `struct_hash!` written out: its `self.side` is an i32 here.
    fn thash(&self) -> u64 {
        let mut m = crate::hash::MapAcc::new();
        m.push(crate::key!("price"), self.price.thash());
        m.push(crate::key!("flag"), self.flag.thash());
        m.push(crate::key!("text"), self.text.thash());
        m.push(crate::key!("side"), SideField(self.side).thash());
        m.push(crate::key!("small_int"), self.small_int.thash());
        m.push(crate::key!("long_int"), self.long_int.thash());
        m.finish()
    }
}

impl TypedHash for Point {
    fn thash(&self) -> u64 {
        struct_hash!(self; x, y, z)
    }
}

impl TypedHash for Inner {
    fn thash(&self) -> u64 {
        struct_hash!(self; label, point)
    }
}

impl TypedHash for Nested {
    fn thash(&self) -> u64 {
        // u8/u16 (i8/i16) travel as uint32 (sint32): the same numbers, so the same hash
        struct_hash!(self; u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, flag, name, u8s, u16s, u32s,
            u64s, i8s, i16s, i32s, i64s, f32s, f64s, flags, names, counts, note, inner, children)
    }
}

// --- rows -----------------------------------------------------------------------------------------

fn encoder(_fmt: &str, r: &Records) -> Result<TypedEncoder, String> {
    Ok(match r {
        Records::Product(v) => {
            let msg = ProductList { records: v.iter().map(from_product).collect() };
            Box::new(move || Ok(msg.encode_to_vec().into()))
        }
        Records::Trade(v) => {
            let msg = TradeList { records: v.iter().map(from_trade).collect() };
            Box::new(move || Ok(msg.encode_to_vec().into()))
        }
        Records::Nested(v) => {
            let msg = NestedList { records: v.iter().map(from_nested).collect() };
            Box::new(move || Ok(msg.encode_to_vec().into()))
        }
    })
}

fn decode(_fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String> {
    let d: &[u8] = data;
    let e = |e: prost::DecodeError| e.to_string();
    Ok(match schema {
        Schema::Product => {
            document_hash(schema, ProductList::decode(d).map_err(e)?.records.iter().map(TypedHash::thash))
        }
        Schema::Trade => document_hash(schema, TradeList::decode(d).map_err(e)?.records.iter().map(TypedHash::thash)),
        Schema::Nested => document_hash(schema, NestedList::decode(d).map_err(e)?.records.iter().map(TypedHash::thash)),
    })
}

fn encoder_convert(_fmt: &str, r: &Records) -> Result<TypedEncoder, String> {
    Ok(match r.clone() {
        Records::Product(v) => {
            Box::new(move || Ok(ProductList { records: v.iter().map(from_product).collect() }.encode_to_vec().into()))
        }
        Records::Trade(v) => {
            Box::new(move || Ok(TradeList { records: v.iter().map(from_trade).collect() }.encode_to_vec().into()))
        }
        Records::Nested(v) => {
            Box::new(move || Ok(NestedList { records: v.iter().map(from_nested).collect() }.encode_to_vec().into()))
        }
    })
}

fn decode_convert(_fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String> {
    let d: &[u8] = data;
    let e = |e: prost::DecodeError| e.to_string();
    match schema {
        Schema::Product => {
            let v: Vec<t::Product> =
                ProductList::decode(d).map_err(e)?.records.into_iter().map(to_product).collect::<Result<_, _>>()?;
            Ok(hash_records(schema, &v))
        }
        Schema::Trade => {
            let v: Vec<t::Trade> =
                TradeList::decode(d).map_err(e)?.records.into_iter().map(to_trade).collect::<Result<_, _>>()?;
            Ok(hash_records(schema, &v))
        }
        Schema::Nested => {
            let v: Vec<t::Nested> =
                NestedList::decode(d).map_err(e)?.records.into_iter().map(to_nested).collect::<Result<_, _>>()?;
            Ok(hash_records(schema, &v))
        }
    }
}

/// One record at a time: `$msg` is the message type, `$from` / `$to` the conversions.
macro_rules! one {
    ($v:expr, $msg:ty, $from:ident, $to:ident, $convert:expr) => {{
        let v = $v.clone();
        let hashes = v.iter().map(TypedHash::thash).collect();
        let encode: super::OneEncodeFn = if $convert {
            Box::new(move |i| Ok($from(&v[i]).encode_to_vec().into()))
        } else {
            let msgs: Vec<$msg> = v.iter().map($from).collect();
            Box::new(move |i| Ok(msgs[i].encode_to_vec().into()))
        };
        let decode: super::OneDecodeFn = if $convert {
            Box::new(|d: &mut [u8]| Ok($to(<$msg>::decode(&d[..]).map_err(|e| e.to_string())?)?.thash()))
        } else {
            Box::new(|d: &mut [u8]| Ok(<$msg>::decode(&d[..]).map_err(|e| e.to_string())?.thash()))
        };
        OneCodec { hashes, encode, decode }
    }};
}

fn one_codec(r: &Records, convert: bool) -> OneCodec {
    match r {
        Records::Product(v) => one!(v, Product, from_product, to_product, convert),
        Records::Trade(v) => one!(v, Trade, from_trade, to_trade, convert),
        Records::Nested(v) => one!(v, Nested, from_nested, to_nested, convert),
    }
}

fn one(_fmt: &str, r: &Records) -> Result<OneCodec, String> {
    Ok(one_codec(r, false))
}

fn one_convert(_fmt: &str, r: &Records) -> Result<OneCodec, String> {
    Ok(one_codec(r, true))
}
