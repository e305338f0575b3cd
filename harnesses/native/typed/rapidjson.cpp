// RapidJSON typed row (spec/typed.md), the library's natural fast path for known types: encode drives
// a Writer from the structs (no DOM) into a fresh StringBuffer; decode is a hand-written SAX handler
// (Reader::Parse, kParseFullPrecisionFlag as every RapidJSON row: the default fast path may be off by
// one ulp) that fills the structs directly, a stack of frames standing for the open objects and
// arrays. The wire is a JSON array of record objects, as serde_json-typed and nlohmann-typed write.
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <limits>
#include <type_traits>

#include "typed_bench.h"

namespace sb::typed {
namespace {

namespace rj = rapidjson;
constexpr unsigned kFlags = rj::kParseFullPrecisionFlag;

// --- encode: a Writer driven by the structs ------------------------------------------------------

template <class W, size_t N>
void key(W& w, const char (&k)[N]) {
  w.Key(k, N - 1);
}
template <class W>
void put(W& w, uint8_t v) {
  w.Uint(v);
}
template <class W>
void put(W& w, uint16_t v) {
  w.Uint(v);
}
template <class W>
void put(W& w, uint32_t v) {
  w.Uint(v);
}
template <class W>
void put(W& w, uint64_t v) {
  w.Uint64(v);
}
template <class W>
void put(W& w, int8_t v) {
  w.Int(v);
}
template <class W>
void put(W& w, int16_t v) {
  w.Int(v);
}
template <class W>
void put(W& w, int32_t v) {
  w.Int(v);
}
template <class W>
void put(W& w, int64_t v) {
  w.Int64(v);
}
template <class W>
void put(W& w, float v) {
  w.Double(static_cast<double>(v));  // the double of a float32 is exact: read back as a float, unchanged
}
template <class W>
void put(W& w, double v) {
  w.Double(v);
}
template <class W>
void put(W& w, bool v) {
  w.Bool(v);
}
template <class W>
void put(W& w, const std::string& v) {
  w.String(v.data(), static_cast<rj::SizeType>(v.size()));
}
template <class W>
void put(W& w, Side v) {
  if (v == Side::Buy)
    w.String("Buy", 3);
  else
    w.String("Sell", 4);
}
template <class W>
void put(W& w, const std::optional<std::string>& v) {
  if (v)
    put(w, *v);
  else
    w.Null();
}
template <class W>
void put(W& w, const std::map<std::string, int64_t>& m) {
  w.StartObject();
  for (const auto& [k, v] : m) {
    w.Key(k.data(), static_cast<rj::SizeType>(k.size()));
    w.Int64(v);
  }
  w.EndObject();
}
template <class W, class T>
void put(W& w, const std::vector<T>& v);
template <class W>
void put(W& w, const Product& r) {
  w.StartObject();
  key(w, "id"), put(w, r.id);
  key(w, "name"), put(w, r.name);
  key(w, "price"), put(w, r.price);
  key(w, "in_stock"), put(w, r.in_stock);
  key(w, "tags"), put(w, r.tags);
  w.EndObject();
}
template <class W>
void put(W& w, const Trade& r) {
  w.StartObject();
  key(w, "price"), put(w, r.price);
  key(w, "flag"), put(w, r.flag);
  key(w, "text"), put(w, r.text);
  key(w, "side"), put(w, r.side);
  key(w, "small_int"), put(w, r.small_int);
  key(w, "long_int"), put(w, r.long_int);
  w.EndObject();
}
template <class W>
void put(W& w, const Nested& r) {
  w.StartObject();
  key(w, "u8"), put(w, r.u8);
  key(w, "u16"), put(w, r.u16);
  key(w, "u32"), put(w, r.u32);
  key(w, "u64"), put(w, r.u64);
  key(w, "i8"), put(w, r.i8);
  key(w, "i16"), put(w, r.i16);
  key(w, "i32"), put(w, r.i32);
  key(w, "i64"), put(w, r.i64);
  key(w, "f32"), put(w, r.f32);
  key(w, "f64"), put(w, r.f64);
  key(w, "flag"), put(w, r.flag);
  key(w, "name"), put(w, r.name);
  key(w, "u8s"), put(w, r.u8s);
  key(w, "u16s"), put(w, r.u16s);
  key(w, "u32s"), put(w, r.u32s);
  key(w, "u64s"), put(w, r.u64s);
  key(w, "i8s"), put(w, r.i8s);
  key(w, "i16s"), put(w, r.i16s);
  key(w, "i32s"), put(w, r.i32s);
  key(w, "i64s"), put(w, r.i64s);
  key(w, "f32s"), put(w, r.f32s);
  key(w, "f64s"), put(w, r.f64s);
  key(w, "flags"), put(w, r.flags);
  key(w, "names"), put(w, r.names);
  key(w, "counts"), put(w, r.counts);
  key(w, "note"), put(w, r.note);
  key(w, "inner");
  w.StartObject();
  key(w, "label"), put(w, r.inner.label);
  key(w, "point");
  w.StartObject();
  key(w, "x"), put(w, r.inner.point.x);
  key(w, "y"), put(w, r.inner.point.y);
  key(w, "z"), put(w, r.inner.point.z);
  w.EndObject();
  w.EndObject();
  key(w, "children"), put(w, r.children);
  w.EndObject();
}
template <class W, class T>
void put(W& w, const std::vector<T>& v) {
  w.StartArray();
  for (const auto& x : v) put(w, static_cast<const T&>(x));
  w.EndArray();
}

// --- decode: a SAX handler into the structs ------------------------------------------------------

// Every field of every struct, and what an open frame is.
// clang-format off
enum class F : uint8_t {
  none,
  id, name, price, in_stock, tags,                                         // product
  flag, text, side, small_int, long_int,                                   // trade
  u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, u8s, u16s, u32s, u64s,   // nested
  i8s, i16s, i32s, i64s, f32s, f64s, flags, names, counts, note, inner, children,
  label, point, x, y, z                                                    // inner, point
};
// clang-format on
enum class K : uint8_t { Records, Product, Trade, Nested, Inner, Point, Counts, Array };

struct Field {
  const char* name;
  uint8_t len;
  F f;
};
#define SB_F(n) \
  Field { #n, sizeof(#n) - 1, F::n }
constexpr Field kProductFields[] = {SB_F(id), SB_F(name), SB_F(price), SB_F(in_stock), SB_F(tags)};
constexpr Field kTradeFields[] = {SB_F(price), SB_F(flag), SB_F(text), SB_F(side), SB_F(small_int), SB_F(long_int)};
constexpr Field kNestedFields[] = {SB_F(u8),     SB_F(u16),  SB_F(u32),   SB_F(u64),     SB_F(i8),    SB_F(i16),
                                   SB_F(i32),    SB_F(i64),  SB_F(f32),   SB_F(f64),     SB_F(flag),  SB_F(name),
                                   SB_F(u8s),    SB_F(u16s), SB_F(u32s),  SB_F(u64s),    SB_F(i8s),   SB_F(i16s),
                                   SB_F(i32s),   SB_F(i64s), SB_F(f32s),  SB_F(f64s),    SB_F(flags), SB_F(names),
                                   SB_F(counts), SB_F(note), SB_F(inner), SB_F(children)};
constexpr Field kInnerFields[] = {SB_F(label), SB_F(point)};
constexpr Field kPointFields[] = {SB_F(x), SB_F(y), SB_F(z)};
#undef SB_F

template <size_t N>
F lookup(const Field (&fields)[N], const char* k, size_t len) {
  for (const Field& f : fields)
    if (f.len == len && memcmp(f.name, k, len) == 0) return f.f;
  return F::none;
}

// A scalar event, as the handler gets it.
struct Val {
  enum Kind : uint8_t { Null, Bool, Int, Uint, Double, Str } kind;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  const char* s = nullptr;
  size_t n = 0;
};

template <class I>
bool to_int(const Val& v, I& out) {
  if (v.kind == Val::Uint && v.u <= static_cast<uint64_t>(std::numeric_limits<I>::max())) {
    out = static_cast<I>(v.u);
    return true;
  }
  if (v.kind == Val::Int && v.i >= static_cast<int64_t>(std::numeric_limits<I>::min()) &&
      (v.i < 0 || static_cast<uint64_t>(v.i) <= static_cast<uint64_t>(std::numeric_limits<I>::max()))) {
    out = static_cast<I>(v.i);
    return true;
  }
  return false;
}
bool set(const Val& v, uint8_t& o) { return to_int(v, o); }
bool set(const Val& v, uint16_t& o) { return to_int(v, o); }
bool set(const Val& v, uint32_t& o) { return to_int(v, o); }
bool set(const Val& v, uint64_t& o) { return to_int(v, o); }
bool set(const Val& v, int8_t& o) { return to_int(v, o); }
bool set(const Val& v, int16_t& o) { return to_int(v, o); }
bool set(const Val& v, int32_t& o) { return to_int(v, o); }
bool set(const Val& v, int64_t& o) { return to_int(v, o); }
bool set(const Val& v, double& o) {
  if (v.kind != Val::Double) return false;
  o = v.d;
  return true;
}
bool set(const Val& v, float& o) {
  if (v.kind != Val::Double) return false;
  o = static_cast<float>(v.d);
  return true;
}
bool set(const Val& v, bool& o) {
  if (v.kind != Val::Bool) return false;
  o = v.b;
  return true;
}
bool set(const Val& v, std::string& o) {
  if (v.kind != Val::Str) return false;
  o.assign(v.s, v.n);
  return true;
}
bool set(const Val& v, Side& o) {
  if (v.kind == Val::Str && v.n == 3 && memcmp(v.s, "Buy", 3) == 0)
    o = Side::Buy;
  else if (v.kind == Val::Str && v.n == 4 && memcmp(v.s, "Sell", 4) == 0)
    o = Side::Sell;
  else
    return false;
  return true;
}
bool set(const Val& v, std::optional<std::string>& o) {
  if (v.kind == Val::Null) {
    o.reset();
    return true;
  }
  return set(v, o.emplace());
}
template <class T>
bool push(const Val& v, void* vec) {
  T x{};
  if (!set(v, x)) return false;
  static_cast<std::vector<T>*>(vec)->push_back(x);
  return true;
}
bool push(const Val& v, std::vector<std::string>* vec) {
  if (v.kind != Val::Str) return false;
  vec->emplace_back(v.s, v.n);
  return true;
}

// R: the root's record type. `one`: the root is one record (latency), else an array of them.
template <class R>
class Handler : public rj::BaseReaderHandler<rj::UTF8<>, Handler<R>> {
  struct Frame {
    K kind;
    F field;  // a struct's pending field (after its key); an array's element kind
    void* obj;
  };
  std::vector<Frame> st_;  // reused across decodes
  std::vector<R>* out_ = nullptr;
  R* one_ = nullptr;
  std::string key_;  // counts: the pending key

  bool scalar(const Val& v) {
    if (st_.empty()) return false;
    Frame& f = st_.back();
    switch (f.kind) {
      case K::Product: {
        auto& r = *static_cast<Product*>(f.obj);
        switch (f.field) {
          case F::id: return set(v, r.id);
          case F::name: return set(v, r.name);
          case F::price: return set(v, r.price);
          case F::in_stock: return set(v, r.in_stock);
          default: return false;
        }
      }
      case K::Trade: {
        auto& r = *static_cast<Trade*>(f.obj);
        switch (f.field) {
          case F::price: return set(v, r.price);
          case F::flag: return set(v, r.flag);
          case F::text: return set(v, r.text);
          case F::side: return set(v, r.side);
          case F::small_int: return set(v, r.small_int);
          case F::long_int: return set(v, r.long_int);
          default: return false;
        }
      }
      case K::Nested: {
        auto& r = *static_cast<Nested*>(f.obj);
        switch (f.field) {
          case F::u8: return set(v, r.u8);
          case F::u16: return set(v, r.u16);
          case F::u32: return set(v, r.u32);
          case F::u64: return set(v, r.u64);
          case F::i8: return set(v, r.i8);
          case F::i16: return set(v, r.i16);
          case F::i32: return set(v, r.i32);
          case F::i64: return set(v, r.i64);
          case F::f32: return set(v, r.f32);
          case F::f64: return set(v, r.f64);
          case F::flag: return set(v, r.flag);
          case F::name: return set(v, r.name);
          case F::note: return set(v, r.note);
          default: return false;
        }
      }
      case K::Inner: return f.field == F::label && set(v, static_cast<Inner*>(f.obj)->label);
      case K::Point: {
        auto& p = *static_cast<Point*>(f.obj);
        return f.field == F::x ? set(v, p.x) : f.field == F::y ? set(v, p.y) : f.field == F::z && set(v, p.z);
      }
      case K::Counts: {
        int64_t n;
        if (!set(v, n)) return false;
        static_cast<std::map<std::string, int64_t>*>(f.obj)->emplace(key_, n);
        return true;
      }
      case K::Array:
        switch (f.field) {
          case F::tags:
          case F::names: return push(v, static_cast<std::vector<std::string>*>(f.obj));
          case F::u8s: return push<uint8_t>(v, f.obj);
          case F::u16s: return push<uint16_t>(v, f.obj);
          case F::u32s: return push<uint32_t>(v, f.obj);
          case F::u64s: return push<uint64_t>(v, f.obj);
          case F::i8s: return push<int8_t>(v, f.obj);
          case F::i16s: return push<int16_t>(v, f.obj);
          case F::i32s: return push<int32_t>(v, f.obj);
          case F::i64s: return push<int64_t>(v, f.obj);
          case F::f32s: return push<float>(v, f.obj);
          case F::f64s: return push<double>(v, f.obj);
          case F::flags: {
            bool b;
            if (!set(v, b)) return false;
            static_cast<std::vector<bool>*>(f.obj)->push_back(b);
            return true;
          }
          default: return false;  // children: records only
        }
      default: return false;  // the records array: records only
    }
  }

  static K record_kind() {
    if constexpr (std::is_same_v<R, Product>) return K::Product;
    if constexpr (std::is_same_v<R, Trade>) return K::Trade;
    return K::Nested;
  }

 public:
  void reset(std::vector<R>* out, R* one) {
    st_.clear();
    out_ = out;
    one_ = one;
  }

  bool Null() { return scalar(Val{Val::Null}); }
  bool Bool(bool b) {
    Val v{Val::Bool};
    v.b = b;
    return scalar(v);
  }
  bool Int(int i) { return Int64(i); }
  bool Uint(unsigned u) { return Uint64(u); }
  bool Int64(int64_t i) {
    Val v{Val::Int};
    v.i = i;
    return scalar(v);
  }
  bool Uint64(uint64_t u) {
    Val v{Val::Uint};
    v.u = u;
    return scalar(v);
  }
  bool Double(double d) {
    Val v{Val::Double};
    v.d = d;
    return scalar(v);
  }
  bool String(const char* s, rj::SizeType n, bool) {
    Val v{Val::Str};
    v.s = s;
    v.n = n;
    return scalar(v);
  }

  bool StartObject() {
    if (st_.empty()) {  // the root: one record (latency)
      if (!one_) return false;
      st_.push_back({record_kind(), F::none, one_});
      return true;
    }
    Frame& f = st_.back();
    if (f.kind == K::Records) {
      auto& v = *static_cast<std::vector<R>*>(f.obj);
      v.emplace_back();
      st_.push_back({record_kind(), F::none, &v.back()});
      return true;
    }
    if (f.kind == K::Array && f.field == F::children) {
      auto& v = *static_cast<std::vector<Nested>*>(f.obj);
      v.emplace_back();
      st_.push_back({K::Nested, F::none, &v.back()});
      return true;
    }
    if (f.kind == K::Nested && f.field == F::inner) {
      st_.push_back({K::Inner, F::none, &static_cast<Nested*>(f.obj)->inner});
      return true;
    }
    if (f.kind == K::Nested && f.field == F::counts) {
      st_.push_back({K::Counts, F::none, &static_cast<Nested*>(f.obj)->counts});
      return true;
    }
    if (f.kind == K::Inner && f.field == F::point) {
      st_.push_back({K::Point, F::none, &static_cast<Inner*>(f.obj)->point});
      return true;
    }
    return false;
  }
  bool Key(const char* k, rj::SizeType n, bool) {
    Frame& f = st_.back();  // a key is only ever inside an open object
    switch (f.kind) {
      case K::Product: f.field = lookup(kProductFields, k, n); break;
      case K::Trade: f.field = lookup(kTradeFields, k, n); break;
      case K::Nested: f.field = lookup(kNestedFields, k, n); break;
      case K::Inner: f.field = lookup(kInnerFields, k, n); break;
      case K::Point: f.field = lookup(kPointFields, k, n); break;
      case K::Counts: key_.assign(k, n); return true;
      default: return false;
    }
    return f.field != F::none;  // an unknown field is an error
  }
  bool EndObject(rj::SizeType) {
    st_.pop_back();
    return true;
  }
  bool StartArray() {
    if (st_.empty()) {  // the root: the records
      if (!out_) return false;
      st_.push_back({K::Records, F::none, out_});
      return true;
    }
    Frame& f = st_.back();
    void* vec = nullptr;
    if (f.kind == K::Product && f.field == F::tags) vec = &static_cast<Product*>(f.obj)->tags;
    if (f.kind == K::Nested) {
      auto& r = *static_cast<Nested*>(f.obj);
      switch (f.field) {
        case F::u8s: vec = &r.u8s; break;
        case F::u16s: vec = &r.u16s; break;
        case F::u32s: vec = &r.u32s; break;
        case F::u64s: vec = &r.u64s; break;
        case F::i8s: vec = &r.i8s; break;
        case F::i16s: vec = &r.i16s; break;
        case F::i32s: vec = &r.i32s; break;
        case F::i64s: vec = &r.i64s; break;
        case F::f32s: vec = &r.f32s; break;
        case F::f64s: vec = &r.f64s; break;
        case F::flags: vec = &r.flags; break;
        case F::names: vec = &r.names; break;
        case F::children: vec = &r.children; break;
        default: break;
      }
    }
    if (!vec) return false;
    st_.push_back({K::Array, f.field, vec});
    return true;
  }
  bool EndArray(rj::SizeType) {
    st_.pop_back();
    return true;
  }
};

template <class R>
class RapidjsonCodec : public Codec {
  const std::vector<R>& records_;
  std::unique_ptr<rj::StringBuffer> out_;
  Handler<R> handler_;  // its frame stack grows in the check, then is reused
  rj::Reader reader_;

  template <class T>
  bool write(const T& v, const uint8_t*& out, size_t& len) {
    out_ = std::make_unique<rj::StringBuffer>();  // a fresh output buffer every op
    rj::Writer<rj::StringBuffer> w(*out_);
    put(w, v);
    out = reinterpret_cast<const uint8_t*>(out_->GetString());
    len = out_->GetSize();
    return true;
  }
  bool parse(uint8_t* data, std::string& err) {
    rj::StringStream ss(reinterpret_cast<const char*>(data));  // NUL-terminated by the copy's padding
    const rj::ParseResult r = reader_.Parse<kFlags>(ss, handler_);
    if (!r) {
      err = std::string(rj::GetParseError_En(r.Code())) + " at offset " + std::to_string(r.Offset());
      return false;
    }
    return true;
  }

 public:
  explicit RapidjsonCodec(const std::vector<R>& r) : records_(r) {}

  bool encode(const uint8_t*& out, size_t& len, std::string&) override { return write(records_, out, len); }
  bool decode(uint8_t* data, size_t, uint64_t& hash, std::string& err) override {
    std::vector<R> v;
    handler_.reset(&v, nullptr);
    if (!parse(data, err)) return false;
    hash = hash_document(v);
    return true;
  }
  bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string&) override {
    return write(records_[i], out, len);
  }
  bool decode_one(uint8_t* data, size_t, uint64_t& hash, std::string& err) override {
    R r;
    handler_.reset(nullptr, &r);
    if (!parse(data, err)) return false;
    hash = thash(r);
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records& records, std::string&) {
  return make_for<RapidjsonCodec>(records);
}

}  // namespace sb::typed

namespace sb {
const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.id = "rapidjson-typed";
    i.library = "rapidjson";
    i.version = SB_VERSION;
    i.formats = {"json"};
    i.tests = {"typed-encode", "typed-decode"};
    i.notes =
        "Writer driven by the structs into a fresh StringBuffer / Reader::Parse (kParseFullPrecisionFlag) with a "
        "hand-written SAX handler filling the structs (no DOM)";
    return i;
  }();
  return b;
}
}  // namespace sb
