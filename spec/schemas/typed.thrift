// serbench typed records (spec/typed.md), Thrift IDL.
// C++: harnesses/native/typed/gen/typed_types.{h,cpp}, made by `thrift --gen cpp` 0.17.0 (Debian
// thrift-compiler 0.17.0-2+b2), see harnesses/native/regen-schemas.sh.
//
// Thrift has no unsigned integers and no float32: u8 travels as i16, u16 as i32, u32 as i64 (the
// same numbers, range-checked when converted back), u64 as i64 holding the same 64 bits (read back
// as uint64), f32 as double (exact: every float32 is a double; checked to be a float32 when read
// back). Field ids follow the protobuf schema. i8 ... i64 are Thrift keywords: those fields are
// named i8_ ... i64_ (the hash uses the data-model names, as for flatc's u8_).
namespace cpp serbench.typed_thrift

struct Product {
  1: i64 id,             // uint64: the same 64 bits
  2: string name,
  3: double price,
  4: bool in_stock,
  5: list<string> tags,
}

enum Side {
  Buy = 0,
  Sell = 1,
}

struct Trade {
  1: double price,
  2: bool flag,
  3: string text,
  4: Side side,
  5: i32 small_int,
  6: i64 long_int,
}

struct Point {
  1: double x,
  2: double y,
  3: double z,           // float32
}

struct Inner {
  1: string label,
  2: Point point,
}

struct Nested {
  1: i16 u8,
  2: i32 u16,
  3: i64 u32,
  4: i64 u64,            // uint64: the same 64 bits
  5: i8 i8_,
  6: i16 i16_,
  7: i32 i32_,
  8: i64 i64_,
  9: double f32,         // float32
  10: double f64,
  11: bool flag,
  12: string name,
  13: list<i16> u8s,
  14: list<i32> u16s,
  15: list<i64> u32s,
  16: list<i64> u64s,
  17: list<i8> i8s,
  18: list<i16> i16s,
  19: list<i32> i32s,
  20: list<i64> i64s,
  21: list<double> f32s,
  22: list<double> f64s,
  23: list<bool> flags,
  24: list<string> names,
  25: map<string, i64> counts,
  26: optional string note,  // absent = null
  27: Inner inner,
  28: list<Nested> children, // empty at depth 2
}

struct ProductList { 1: list<Product> records }
struct TradeList { 1: list<Trade> records }
struct NestedList { 1: list<Nested> records }
