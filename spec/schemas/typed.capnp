# serbench typed records (spec/typed.md), Cap'n Proto schema.
# Rust: harnesses/rust/src/generated/typed_capnp.rs, made by capnp 0.9.2 (Debian capnproto 0.9.2-2)
# with the capnpc 0.27.0 Rust plugin, see harnesses/rust/regen-schemas.sh.
@0xb7c1f3e2a4d5c6e8;

struct Product {
  id @0 :UInt64;
  name @1 :Text;
  price @2 :Float64;
  inStock @3 :Bool;
  tags @4 :List(Text);
}

enum Side {
  buy @0;   # data model: "Buy"
  sell @1;  # data model: "Sell"
}

struct Trade {
  price @0 :Float64;
  flag @1 :Bool;
  text @2 :Text;
  side @3 :Side;
  smallInt @4 :Int32;
  longInt @5 :Int64;
}

struct Point {
  x @0 :Float64;
  y @1 :Float64;
  z @2 :Float32;
}

struct Inner {
  label @0 :Text;
  point @1 :Point;
}

# one entry of the string -> int64 map
struct Count {
  key @0 :Text;
  value @1 :Int64;
}

struct Nested {
  u8 @0 :UInt8;
  u16 @1 :UInt16;
  u32 @2 :UInt32;
  u64 @3 :UInt64;
  i8 @4 :Int8;
  i16 @5 :Int16;
  i32 @6 :Int32;
  i64 @7 :Int64;
  f32 @8 :Float32;
  f64 @9 :Float64;
  flag @10 :Bool;
  name @11 :Text;
  u8s @12 :List(UInt8);
  u16s @13 :List(UInt16);
  u32s @14 :List(UInt32);
  u64s @15 :List(UInt64);
  i8s @16 :List(Int8);
  i16s @17 :List(Int16);
  i32s @18 :List(Int32);
  i64s @19 :List(Int64);
  f32s @20 :List(Float32);
  f64s @21 :List(Float64);
  flags @22 :List(Bool);
  names @23 :List(Text);
  counts @24 :List(Count);
  note @25 :Text;           # null pointer = absent
  inner @26 :Inner;
  children @27 :List(Nested);  # empty at depth 2
}

struct ProductList { records @0 :List(Product); }
struct TradeList { records @0 :List(Trade); }
struct NestedList { records @0 :List(Nested); }
