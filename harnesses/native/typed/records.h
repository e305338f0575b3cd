// Typed records (spec/typed.md) for the native harness: the C++ records every typed bench encodes
// and decodes, the loader of a typed dataset file (`{"schema": ..., "records": [...]}` in JSON), and
// the typed hash (the object hash of spec/hash.md over the records seen as data-model values: a
// struct is a map of its fields, an enum its variant name, an absent optional null, an f32 the
// double of its value).
//
// The record types are plain structs with the data-model field names, so hand-written adaptors
// (nlohmann's to_json, MSGPACK_DEFINE, cereal's serialize) name the fields as the schema does, and
// generated code (protobuf, FlatBuffers, Cap'n Proto, ...) converts from and to them field by field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "objhash.h"

// An intrusive adaptor's hook: each record struct ends with SB_RECORD_FIELDS(<its fields in order>),
// empty unless a bench defines it before including this header, for libraries whose natural (documented)
// binding is a macro inside the class: msgpack-cxx's MSGPACK_DEFINE (typed/msgpack_cxx.cpp). It adds
// member functions only, never data, so every translation unit sees the same layout.
#ifndef SB_RECORD_FIELDS
#define SB_RECORD_FIELDS(...)
#endif

namespace sb::typed {

enum class Schema : uint8_t { Product, Trade, Nested };

// "product", "trade", "nested".
const char* schema_name(Schema s);

enum class Side : uint8_t { Buy = 0, Sell = 1 };

// "Buy", "Sell": the data-model value of a Side.
inline const char* side_name(Side s) { return s == Side::Buy ? "Buy" : "Sell"; }

struct Product {
  uint64_t id = 0;  // the full uint64 range
  std::string name;
  double price = 0;
  bool in_stock = false;
  std::vector<std::string> tags;
  SB_RECORD_FIELDS(id, name, price, in_stock, tags)
};

struct Trade {
  double price = 0;
  bool flag = false;
  std::string text;
  Side side = Side::Buy;
  int32_t small_int = 0;
  int64_t long_int = 0;
  SB_RECORD_FIELDS(price, flag, text, side, small_int, long_int)
};

struct Point {
  double x = 0;
  double y = 0;
  float z = 0;  // exactly representable (spec/typed.md, "float32 values")
  SB_RECORD_FIELDS(x, y, z)
};

struct Inner {
  std::string label;
  Point point;
  SB_RECORD_FIELDS(label, point)
};

struct Nested {
  uint8_t u8 = 0;
  uint16_t u16 = 0;
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  int8_t i8 = 0;
  int16_t i16 = 0;
  int32_t i32 = 0;
  int64_t i64 = 0;
  float f32 = 0;
  double f64 = 0;
  bool flag = false;
  std::string name;
  std::vector<uint8_t> u8s;
  std::vector<uint16_t> u16s;
  std::vector<uint32_t> u32s;
  std::vector<uint64_t> u64s;
  std::vector<int8_t> i8s;
  std::vector<int16_t> i16s;
  std::vector<int32_t> i32s;
  std::vector<int64_t> i64s;
  std::vector<float> f32s;
  std::vector<double> f64s;
  std::vector<bool> flags;
  std::vector<std::string> names;
  std::map<std::string, int64_t> counts;  // ordered, as serde's BTreeMap (the hash ignores order)
  std::optional<std::string> note;        // absent half the time: null in the data model
  Inner inner;
  std::vector<Nested> children;  // 0-3 at depths 0 and 1; the loader refuses more than kMaxDepth levels
  SB_RECORD_FIELDS(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, flag, name, u8s, u16s, u32s, u64s, i8s, i16s, i32s,
                   i64s, f32s, f64s, flags, names, counts, note, inner, children)
};

// The deepest `children` nesting the loader accepts (the datasets have 3 levels). Deeper input is
// refused with a clean error (exit 6), so the recursive conversions, hashes and library walks of
// typed rows never exhaust the stack on a hostile file.
constexpr size_t kMaxDepth = 64;

// One dataset's records: exactly one of the vectors is used, the one of `schema`.
struct Records {
  Schema schema = Schema::Product;
  std::vector<Product> product;
  std::vector<Trade> trade;
  std::vector<Nested> nested;
  size_t size() const {
    return schema == Schema::Product ? product.size() : schema == Schema::Trade ? trade.size() : nested.size();
  }
};

// The schema a record type belongs to (for templates over the record types).
template <class R>
constexpr Schema schema_of();
template <>
constexpr Schema schema_of<Product>() {
  return Schema::Product;
}
template <>
constexpr Schema schema_of<Trade>() {
  return Schema::Trade;
}
template <>
constexpr Schema schema_of<Nested>() {
  return Schema::Nested;
}

// The records of one type (r.product for Product, ...).
template <class R>
const std::vector<R>& records_of(const Records& r);
template <>
inline const std::vector<Product>& records_of<Product>(const Records& r) {
  return r.product;
}
template <>
inline const std::vector<Trade>& records_of<Trade>(const Records& r) {
  return r.trade;
}
template <>
inline const std::vector<Nested>& records_of<Nested>(const Records& r) {
  return r.nested;
}

// Calls f(records) with the vector of the dataset's schema: f is generic over the record type
// (a generic lambda), so one template encodes or hashes all three schemas.
template <class F>
auto visit(const Records& r, F&& f) {
  switch (r.schema) {
    case Schema::Product: return f(r.product);
    case Schema::Trade: return f(r.trade);
    default: return f(r.nested);
  }
}

// Loads a typed dataset file (its JSON bytes) into native records, outside any timed loop: the
// harness's reference JSON decoder (ref_decode) makes a Doc, which is converted field by field.
// Anything that is not exactly a typed document of spec/typed.md (unknown schema, a missing, extra
// or mistyped field, an integer out of its field's range, an f32 that is not exactly a float32,
// children nested deeper than kMaxDepth) is refused with a one-line reason (the caller exits 6).
bool load_records(const char* json, size_t len, Records& out, std::string& err);

// --- the typed hash -------------------------------------------------------------------------------
// Building blocks (also for the views and generated types of codegen rows, which hash field by field
// with the same keys): a struct is a map of (field-name hash, value hash) entries, an array an indexed
// sum, exactly as spec/hash.md's tree form.

struct MapHash {
  uint64_t sum = 0, n = 0;
  void add(uint64_t key_hash, uint64_t value_hash) {
    sum += sb_map_entry(key_hash, value_hash);
    n++;
  }
  uint64_t done() const { return sb_map_end(sum, n); }
};

struct ArrayHash {
  uint64_t acc = 0, n = 0;
  void add(uint64_t h) { acc = sb_array_add(acc, n++, h); }
  uint64_t done() const { return sb_array_end(acc, n); }
};

// The hash of every field name, enum name and document key, computed once at start-up (the hash of a
// string is not constexpr here: it reads words with memcpy), so the walks only load them.
struct Keys {
  static uint64_t s(const char* k) { return sb_hash_str(k, std::char_traits<char>::length(k)); }
  // product
  uint64_t id = s("id"), name = s("name"), price = s("price"), in_stock = s("in_stock"), tags = s("tags");
  // trade
  uint64_t flag = s("flag"), text = s("text"), side = s("side"), small_int = s("small_int"), long_int = s("long_int");
  uint64_t Buy = s("Buy"), Sell = s("Sell");
  // nested
  uint64_t u8 = s("u8"), u16 = s("u16"), u32 = s("u32"), u64 = s("u64"), i8 = s("i8"), i16 = s("i16"), i32 = s("i32"),
           i64 = s("i64"), f32 = s("f32"), f64 = s("f64");
  uint64_t u8s = s("u8s"), u16s = s("u16s"), u32s = s("u32s"), u64s = s("u64s"), i8s = s("i8s"), i16s = s("i16s"),
           i32s = s("i32s"), i64s = s("i64s"), f32s = s("f32s"), f64s = s("f64s"), flags = s("flags"),
           names = s("names");
  uint64_t counts = s("counts"), note = s("note"), inner = s("inner"), children = s("children");
  uint64_t label = s("label"), point = s("point"), x = s("x"), y = s("y"), z = s("z");
  // the document
  uint64_t schema = s("schema"), records = s("records");
  uint64_t product = s("product"), trade = s("trade"), nested = s("nested");
};
inline const Keys kKeys;

// Scalars, as the data model sees them.
inline uint64_t thash(uint8_t v) { return sb_hash_uint(v); }
inline uint64_t thash(uint16_t v) { return sb_hash_uint(v); }
inline uint64_t thash(uint32_t v) { return sb_hash_uint(v); }
inline uint64_t thash(uint64_t v) { return sb_hash_uint(v); }
inline uint64_t thash(int8_t v) { return sb_hash_int(v); }
inline uint64_t thash(int16_t v) { return sb_hash_int(v); }
inline uint64_t thash(int32_t v) { return sb_hash_int(v); }
inline uint64_t thash(int64_t v) { return sb_hash_int(v); }
inline uint64_t thash(float v) { return sb_hash_double(static_cast<double>(v)); }  // the f32 rule
inline uint64_t thash(double v) { return sb_hash_double(v); }
inline uint64_t thash(bool v) { return sb_hash_bool(v); }
inline uint64_t thash(std::string_view s) { return sb_hash_str(s.data(), s.size()); }
inline uint64_t thash(const std::string& s) { return sb_hash_str(s.data(), s.size()); }
inline uint64_t thash(Side s) { return s == Side::Buy ? kKeys.Buy : kKeys.Sell; }
inline uint64_t null_hash() { return sb_hash_null(); }

uint64_t thash(const Product& r);
uint64_t thash(const Trade& r);
uint64_t thash(const Point& r);
uint64_t thash(const Inner& r);
uint64_t thash(const Nested& r);

template <class T>
uint64_t thash(const std::vector<T>& v) {
  ArrayHash a;
  for (const auto& x : v) a.add(thash(x));
  return a.done();
}
inline uint64_t thash(const std::vector<bool>& v) {
  ArrayHash a;
  for (bool x : v) a.add(sb_hash_bool(x));
  return a.done();
}
inline uint64_t thash(const std::optional<std::string>& v) { return v ? thash(*v) : null_hash(); }
inline uint64_t thash(const std::map<std::string, int64_t>& m) {
  MapHash h;
  for (const auto& [k, v] : m) h.add(thash(k), thash(v));
  return h.done();
}

// The whole document `{"schema": <name>, "records": [...]}` from the hash of its records array
// (an ArrayHash of the record hashes, in order): what every typed check compares.
uint64_t document_hash(Schema s, uint64_t records_array_hash);

template <class R>
uint64_t hash_document(const std::vector<R>& v) {
  return document_hash(schema_of<R>(), thash(v));
}
uint64_t hash_document(const Records& r);

}  // namespace sb::typed
