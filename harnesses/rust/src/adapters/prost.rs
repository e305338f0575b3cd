//! prost: Protocol Buffers. The message structs below are what prost-build generates from
//! spec/schemas/typed.proto, written out by hand (derive `prost::Message`) so the build needs no
//! protoc.

use super::{Bench, Encoder, Typed};
use crate::hash;
use crate::typed::{document_hash, Records, Schema};
use prost::Message;

pub fn benches() -> Vec<Bench> {
    vec![Bench {
        notes: "typed records as prost messages (spec/schemas/typed.proto; structs written as prost-build emits them): encode_to_vec / decode",
        typed: Some(Typed { encoder: typed_enc, decode: typed_dec }),
        ..Bench::new("prost", "prost", &["protobuf"])
    }]
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
pub struct Nested {
    #[prost(uint32, tag = "1")]
    pub depth: u32,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(double, tag = "3")]
    pub value: f64,
    #[prost(message, optional, boxed, tag = "4")]
    pub child: Option<Box<Nested>>,
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

fn from_product(p: &crate::typed::Product) -> Product {
    Product { id: p.id, name: p.name.clone(), price: p.price, in_stock: p.in_stock, tags: p.tags.clone() }
}

fn from_trade(t: &crate::typed::Trade) -> Trade {
    let side = match t.side {
        crate::typed::Side::Buy => Side::Buy,
        crate::typed::Side::Sell => Side::Sell,
    };
    Trade {
        price: t.price,
        flag: t.flag,
        text: t.text.clone(),
        side: side as i32,
        small_int: t.small_int,
        long_int: t.long_int,
    }
}

fn from_nested(n: &crate::typed::Nested) -> Nested {
    Nested {
        depth: n.depth,
        name: n.name.clone(),
        value: n.value,
        child: n.child.as_ref().map(|c| Box::new(from_nested(c))),
    }
}

fn field(m: &mut hash::MapAcc, name: &str, h: u64) {
    m.push(hash::hash_str(name), h);
}

fn hash_product(p: &Product) -> u64 {
    let mut m = hash::MapAcc::new();
    field(&mut m, "id", hash::hash_u64(p.id));
    field(&mut m, "name", hash::hash_str(&p.name));
    field(&mut m, "price", hash::hash_f64(p.price));
    field(&mut m, "in_stock", hash::hash_bool(p.in_stock));
    field(&mut m, "tags", hash::hash_array(p.tags.iter().map(|t| hash::hash_str(t))));
    m.finish()
}

fn hash_trade(t: &Trade) -> u64 {
    // an unknown enum value (prost keeps it as i32) hashes as that number: a mismatch, not a crash
    let side = match Side::try_from(t.side) {
        Ok(Side::Buy) => hash::hash_str("Buy"),
        Ok(Side::Sell) => hash::hash_str("Sell"),
        Err(_) => hash::hash_i64(t.side as i64),
    };
    let mut m = hash::MapAcc::new();
    field(&mut m, "price", hash::hash_f64(t.price));
    field(&mut m, "flag", hash::hash_bool(t.flag));
    field(&mut m, "text", hash::hash_str(&t.text));
    field(&mut m, "side", side);
    field(&mut m, "small_int", hash::hash_i64(t.small_int as i64));
    field(&mut m, "long_int", hash::hash_i64(t.long_int));
    m.finish()
}

fn hash_nested(n: &Nested) -> u64 {
    let mut m = hash::MapAcc::new();
    field(&mut m, "depth", hash::hash_u64(n.depth as u64));
    field(&mut m, "name", hash::hash_str(&n.name));
    field(&mut m, "value", hash::hash_f64(n.value));
    field(&mut m, "child", n.child.as_ref().map_or(hash::NULL_HASH, |c| hash_nested(c)));
    m.finish()
}

fn typed_enc(_fmt: &str, r: &Records) -> Result<Encoder, String> {
    Ok(match r {
        Records::Product(v) => {
            let msg = ProductList { records: v.iter().map(from_product).collect() };
            Box::new(move || Ok(msg.encode_to_vec()))
        }
        Records::Trade(v) => {
            let msg = TradeList { records: v.iter().map(from_trade).collect() };
            Box::new(move || Ok(msg.encode_to_vec()))
        }
        Records::Nested(v) => {
            let msg = NestedList { records: v.iter().map(from_nested).collect() };
            Box::new(move || Ok(msg.encode_to_vec()))
        }
    })
}

fn typed_dec(_fmt: &str, schema: Schema, data: &mut [u8]) -> Result<u64, String> {
    let d: &[u8] = data;
    let e = |e: prost::DecodeError| e.to_string();
    match schema {
        Schema::Product => {
            let m = ProductList::decode(d).map_err(e)?;
            Ok(document_hash(schema, m.records.iter().map(hash_product)))
        }
        Schema::Trade => {
            let m = TradeList::decode(d).map_err(e)?;
            Ok(document_hash(schema, m.records.iter().map(hash_trade)))
        }
        Schema::Nested => {
            let m = NestedList::decode(d).map_err(e)?;
            Ok(document_hash(schema, m.records.iter().map(hash_nested)))
        }
    }
}
