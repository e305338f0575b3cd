//! Typed records (spec/typed.md): the record types shared by the serde-based crates (and bincode's
//! native derive), the typed hash, and the loader of a typed dataset file
//! (`{"schema": ..., "records": [...]}` in JSON).

use crate::hash::{self, MapAcc};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, bincode::Encode, bincode::Decode, Clone, Debug, PartialEq)]
pub struct Product {
    pub id: u64,
    pub name: String,
    pub price: f64,
    pub in_stock: bool,
    pub tags: Vec<String>,
}

#[derive(Serialize, Deserialize, bincode::Encode, bincode::Decode, Clone, Copy, Debug, PartialEq)]
pub enum Side {
    Buy,
    Sell,
}

#[derive(Serialize, Deserialize, bincode::Encode, bincode::Decode, Clone, Debug, PartialEq)]
pub struct Trade {
    pub price: f64,
    pub flag: bool,
    pub text: String,
    pub side: Side,
    pub small_int: i32,
    pub long_int: i64,
}

#[derive(Serialize, Deserialize, bincode::Encode, bincode::Decode, Clone, Debug, PartialEq)]
pub struct Nested {
    pub depth: u32,
    pub name: String,
    pub value: f64,
    pub child: Option<Box<Nested>>,
}

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

/// The object hash of a typed value, as the data model sees it: a struct is a map of its fields,
/// an enum its variant name, `None` null.
pub trait TypedHash {
    fn thash(&self) -> u64;
}

#[inline]
fn field(m: &mut MapAcc, name: &str, h: u64) {
    m.push(hash::hash_str(name), h);
}

impl TypedHash for Product {
    fn thash(&self) -> u64 {
        let mut m = MapAcc::new();
        field(&mut m, "id", hash::hash_u64(self.id));
        field(&mut m, "name", hash::hash_str(&self.name));
        field(&mut m, "price", hash::hash_f64(self.price));
        field(&mut m, "in_stock", hash::hash_bool(self.in_stock));
        field(&mut m, "tags", hash::hash_array(self.tags.iter().map(|t| hash::hash_str(t))));
        m.finish()
    }
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Buy => "Buy",
            Side::Sell => "Sell",
        }
    }
}

impl TypedHash for Trade {
    fn thash(&self) -> u64 {
        let mut m = MapAcc::new();
        field(&mut m, "price", hash::hash_f64(self.price));
        field(&mut m, "flag", hash::hash_bool(self.flag));
        field(&mut m, "text", hash::hash_str(&self.text));
        field(&mut m, "side", hash::hash_str(self.side.name()));
        field(&mut m, "small_int", hash::hash_i64(self.small_int as i64));
        field(&mut m, "long_int", hash::hash_i64(self.long_int));
        m.finish()
    }
}

impl TypedHash for Nested {
    fn thash(&self) -> u64 {
        let mut m = MapAcc::new();
        field(&mut m, "depth", hash::hash_u64(self.depth as u64));
        field(&mut m, "name", hash::hash_str(&self.name));
        field(&mut m, "value", hash::hash_f64(self.value));
        field(&mut m, "child", self.child.as_ref().map_or(hash::NULL_HASH, |c| c.thash()));
        m.finish()
    }
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

/// Decodes a format's bytes with a generic decoder per record type and hashes the result.
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
