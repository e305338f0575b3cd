# serbench typed records (spec/typed.md), Cap'n Proto schema.
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

struct Nested {
  depth @0 :UInt32;
  name @1 :Text;
  value @2 :Float64;
  child @3 :Nested;  # null at the deepest level
}

struct ProductList { records @0 :List(Product); }
struct TradeList { records @0 :List(Trade); }
struct NestedList { records @0 :List(Nested); }
