// Typed records: the loader of a typed dataset file and the typed hash of the native records
// (records.h, spec/typed.md).
#include "records.h"

#include <limits>
#include <type_traits>

#include "sb.h"

namespace sb::typed {

const char* schema_name(Schema s) {
  switch (s) {
    case Schema::Product: return "product";
    case Schema::Trade: return "trade";
    default: return "nested";
  }
}

// --- the typed hash -------------------------------------------------------------------------------

uint64_t thash(const Product& r) {
  const Keys& k = kKeys;
  MapHash m;
  m.add(k.id, thash(r.id));
  m.add(k.name, thash(r.name));
  m.add(k.price, thash(r.price));
  m.add(k.in_stock, thash(r.in_stock));
  m.add(k.tags, thash(r.tags));
  return m.done();
}

uint64_t thash(const Trade& r) {
  const Keys& k = kKeys;
  MapHash m;
  m.add(k.price, thash(r.price));
  m.add(k.flag, thash(r.flag));
  m.add(k.text, thash(r.text));
  m.add(k.side, thash(r.side));
  m.add(k.small_int, thash(r.small_int));
  m.add(k.long_int, thash(r.long_int));
  return m.done();
}

uint64_t thash(const Point& r) {
  MapHash m;
  m.add(kKeys.x, thash(r.x));
  m.add(kKeys.y, thash(r.y));
  m.add(kKeys.z, thash(r.z));
  return m.done();
}

uint64_t thash(const Inner& r) {
  MapHash m;
  m.add(kKeys.label, thash(r.label));
  m.add(kKeys.point, thash(r.point));
  return m.done();
}

// Recursive over `children`: the loader bounds their depth (kMaxDepth), and a library's decoding of
// records the harness encoded has the same depth.
uint64_t thash(const Nested& r) {
  const Keys& k = kKeys;
  MapHash m;
  m.add(k.u8, thash(r.u8));
  m.add(k.u16, thash(r.u16));
  m.add(k.u32, thash(r.u32));
  m.add(k.u64, thash(r.u64));
  m.add(k.i8, thash(r.i8));
  m.add(k.i16, thash(r.i16));
  m.add(k.i32, thash(r.i32));
  m.add(k.i64, thash(r.i64));
  m.add(k.f32, thash(r.f32));
  m.add(k.f64, thash(r.f64));
  m.add(k.flag, thash(r.flag));
  m.add(k.name, thash(r.name));
  m.add(k.u8s, thash(r.u8s));
  m.add(k.u16s, thash(r.u16s));
  m.add(k.u32s, thash(r.u32s));
  m.add(k.u64s, thash(r.u64s));
  m.add(k.i8s, thash(r.i8s));
  m.add(k.i16s, thash(r.i16s));
  m.add(k.i32s, thash(r.i32s));
  m.add(k.i64s, thash(r.i64s));
  m.add(k.f32s, thash(r.f32s));
  m.add(k.f64s, thash(r.f64s));
  m.add(k.flags, thash(r.flags));
  m.add(k.names, thash(r.names));
  m.add(k.counts, thash(r.counts));
  m.add(k.note, thash(r.note));
  m.add(k.inner, thash(r.inner));
  m.add(k.children, thash(r.children));
  return m.done();
}

uint64_t document_hash(Schema s, uint64_t records_array_hash) {
  const Keys& k = kKeys;
  const uint64_t name = s == Schema::Product ? k.product : s == Schema::Trade ? k.trade : k.nested;
  MapHash m;
  m.add(k.schema, name);
  m.add(k.records, records_array_hash);
  return m.done();
}

uint64_t hash_document(const Records& r) {
  return visit(r, [](const auto& v) { return hash_document(v); });
}

// --- the loader -----------------------------------------------------------------------------------

namespace {

// Converts the reference decoder's Doc into records. Every reader checks the node's type (and an
// integer's range) and says which record and field it was on when it refuses.
class Loader {
  const Doc& d_;
  std::string& err_;
  size_t record_ = 0;
  const char* field_ = "";

  static size_t str_len(const char* s) { return std::char_traits<char>::length(s); }

 public:
  Loader(const Doc& d, std::string& err) : d_(d), err_(err) {}

  bool fail(const std::string& what) {
    err_ = "typed file: record " + std::to_string(record_) + ", field " + field_ + ": " + what;
    return false;
  }
  std::string_view text(const Node* v) const { return {d_.str(*v), v->count}; }

  template <class I>
  bool integer(const Node* v, I& out) {
    using L = std::numeric_limits<I>;
    if (v->type == T::Uint && v->u <= static_cast<uint64_t>(L::max())) {
      out = static_cast<I>(v->u);
      return true;
    }
    if constexpr (std::is_signed_v<I>) {
      if (v->type == T::Neg && v->i >= static_cast<int64_t>(L::min())) {
        out = static_cast<I>(v->i);
        return true;
      }
    }
    return fail(std::string("expected an integer of ") + (std::is_signed_v<I> ? "int" : "uint") +
                std::to_string(8 * sizeof(I)) + " range");
  }
  bool value(const Node* v, uint8_t& out) { return integer(v, out); }
  bool value(const Node* v, uint16_t& out) { return integer(v, out); }
  bool value(const Node* v, uint32_t& out) { return integer(v, out); }
  bool value(const Node* v, uint64_t& out) { return integer(v, out); }
  bool value(const Node* v, int8_t& out) { return integer(v, out); }
  bool value(const Node* v, int16_t& out) { return integer(v, out); }
  bool value(const Node* v, int32_t& out) { return integer(v, out); }
  bool value(const Node* v, int64_t& out) { return integer(v, out); }
  // Floats must be floats: the hash tells a float from an integer, so an integer here would make the
  // native records hash differently from the file.
  bool value(const Node* v, double& out) {
    if (v->type != T::Double) return fail("expected a float");
    out = v->d;
    return true;
  }
  bool value(const Node* v, float& out) {
    if (v->type != T::Double) return fail("expected a float");
    out = static_cast<float>(v->d);
    if (static_cast<double>(out) != v->d) return fail("not exactly representable as a float32 (spec/typed.md)");
    return true;
  }
  bool value(const Node* v, bool& out) {
    if (v->type != T::True && v->type != T::False) return fail("expected a bool");
    out = v->type == T::True;
    return true;
  }
  bool value(const Node* v, std::string& out) {
    if (v->type != T::Str) return fail("expected a string");
    out.assign(d_.str(*v), v->count);
    return true;
  }
  bool value(const Node* v, Side& out) {
    if (v->type == T::Str && text(v) == "Buy") {
      out = Side::Buy;
    } else if (v->type == T::Str && text(v) == "Sell") {
      out = Side::Sell;
    } else {
      return fail("expected \"Buy\" or \"Sell\"");
    }
    return true;
  }
  bool value(const Node* v, std::optional<std::string>& out) {
    if (v->type == T::Null) {
      out.reset();
      return true;
    }
    return value(v, out.emplace());
  }
  bool value(const Node* v, std::map<std::string, int64_t>& out) {
    if (v->type != T::Map) return fail("expected a map");
    const Node* x = v + 1;
    for (uint32_t i = 0; i < v->count; i++) {
      int64_t n;
      if (!value(x + 1, n)) return false;
      out.emplace(std::string(d_.str(*x), x->count), n);  // keys are unique (the reference decoder)
      x += 1 + x[1].size;
    }
    return true;
  }
  template <class E>
  bool value(const Node* v, std::vector<E>& out) {
    if (v->type != T::Array) return fail("expected an array");
    out.reserve(v->count);
    const Node* x = v + 1;
    for (uint32_t i = 0; i < v->count; i++) {
      E e{};
      if (!value(x, e)) return false;
      out.push_back(std::move(e));
      x += x->size;
    }
    return true;
  }

  // A struct: a map with exactly the fields `names` (in any order); on_field(index, value node).
  template <size_t N, class F>
  bool fields(const Node* v, const char* const (&names)[N], F&& on_field) {
    if (v->type != T::Map) return fail("expected a map");
    static_assert(N <= 64, "seen is a 64-bit mask");
    uint64_t seen = 0;
    const Node* x = v + 1;
    for (uint32_t i = 0; i < v->count; i++) {
      const std::string_view key = text(x);
      size_t f = 0;
      while (f < N && key != std::string_view(names[f], str_len(names[f]))) f++;
      if (f == N) {
        field_ = "";
        return fail("unknown field \"" + std::string(key) + "\"");
      }
      seen |= uint64_t{1} << f;
      field_ = names[f];
      if (!on_field(f, x + 1)) return false;
      x += 1 + x[1].size;
    }
    for (size_t f = 0; f < N; f++)
      if (!(seen & (uint64_t{1} << f))) {
        field_ = names[f];
        return fail("missing");
      }
    return true;
  }

  bool value(const Node* v, Product& r) {
    static const char* const names[] = {"id", "name", "price", "in_stock", "tags"};
    return fields(v, names, [&](size_t f, const Node* x) {
      switch (f) {
        case 0: return value(x, r.id);
        case 1: return value(x, r.name);
        case 2: return value(x, r.price);
        case 3: return value(x, r.in_stock);
        default: return value(x, r.tags);
      }
    });
  }
  bool value(const Node* v, Trade& r) {
    static const char* const names[] = {"price", "flag", "text", "side", "small_int", "long_int"};
    return fields(v, names, [&](size_t f, const Node* x) {
      switch (f) {
        case 0: return value(x, r.price);
        case 1: return value(x, r.flag);
        case 2: return value(x, r.text);
        case 3: return value(x, r.side);
        case 4: return value(x, r.small_int);
        default: return value(x, r.long_int);
      }
    });
  }
  bool value(const Node* v, Point& r) {
    static const char* const names[] = {"x", "y", "z"};
    return fields(v, names, [&](size_t f, const Node* x) {
      return f == 0 ? value(x, r.x) : f == 1 ? value(x, r.y) : value(x, r.z);
    });
  }
  bool value(const Node* v, Inner& r) {
    static const char* const names[] = {"label", "point"};
    return fields(v, names, [&](size_t f, const Node* x) { return f == 0 ? value(x, r.label) : value(x, r.point); });
  }

  size_t depth_ = 0;  // open Nested records
  bool value(const Node* v, Nested& r) {
    if (++depth_ > kMaxDepth) return fail("children nested deeper than " + std::to_string(kMaxDepth) + " levels");
    static const char* const names[] = {"u8",   "u16",   "u32",   "u64",    "i8",   "i16",   "i32",
                                        "i64",  "f32",   "f64",   "flag",   "name", "u8s",   "u16s",
                                        "u32s", "u64s",  "i8s",   "i16s",   "i32s", "i64s",  "f32s",
                                        "f64s", "flags", "names", "counts", "note", "inner", "children"};
    const bool ok = fields(v, names, [&](size_t f, const Node* x) {
      switch (f) {
        case 0: return value(x, r.u8);
        case 1: return value(x, r.u16);
        case 2: return value(x, r.u32);
        case 3: return value(x, r.u64);
        case 4: return value(x, r.i8);
        case 5: return value(x, r.i16);
        case 6: return value(x, r.i32);
        case 7: return value(x, r.i64);
        case 8: return value(x, r.f32);
        case 9: return value(x, r.f64);
        case 10: return value(x, r.flag);
        case 11: return value(x, r.name);
        case 12: return value(x, r.u8s);
        case 13: return value(x, r.u16s);
        case 14: return value(x, r.u32s);
        case 15: return value(x, r.u64s);
        case 16: return value(x, r.i8s);
        case 17: return value(x, r.i16s);
        case 18: return value(x, r.i32s);
        case 19: return value(x, r.i64s);
        case 20: return value(x, r.f32s);
        case 21: return value(x, r.f64s);
        case 22: return value(x, r.flags);
        case 23: return value(x, r.names);
        case 24: return value(x, r.counts);
        case 25: return value(x, r.note);
        case 26: return value(x, r.inner);
        default: return value(x, r.children);
      }
    });
    depth_--;
    return ok;
  }

  template <class R>
  bool records(const Node* v, std::vector<R>& out) {
    if (v->type != T::Array) {
      field_ = "records";
      return fail("expected an array");
    }
    out.reserve(v->count);
    const Node* x = v + 1;
    for (uint32_t i = 0; i < v->count; i++) {
      record_ = i;
      R r;
      if (!value(x, r)) return false;
      out.push_back(std::move(r));
      x += x->size;
    }
    return true;
  }

  bool document(Records& out) {
    const Node* root = d_.nodes.data();
    if (root->type != T::Map || root->count != 2) {
      err_ = "typed file: expected a map of \"schema\" and \"records\"";
      return false;
    }
    const Node *schema = nullptr, *recs = nullptr;
    const Node* x = root + 1;
    for (int i = 0; i < 2; i++) {
      const std::string_view key = text(x);
      if (key == "schema")
        schema = x + 1;
      else if (key == "records")
        recs = x + 1;
      x += 1 + x[1].size;
    }
    if (!schema || !recs || schema->type != T::Str) {
      err_ = "typed file: expected a map of \"schema\" (a string) and \"records\"";
      return false;
    }
    const std::string_view name = text(schema);
    if (name == "product") {
      out.schema = Schema::Product;
      return records(recs, out.product);
    }
    if (name == "trade") {
      out.schema = Schema::Trade;
      return records(recs, out.trade);
    }
    if (name == "nested") {
      out.schema = Schema::Nested;
      return records(recs, out.nested);
    }
    err_ = "typed file: unknown schema \"" + std::string(name) + "\"";
    return false;
  }
};

}  // namespace

bool load_records(const char* json, size_t len, Records& out, std::string& err) {
  Doc d;
  if (!ref_decode("json", json, len, d, err)) {
    err = "typed file: the reference decoder rejects it (json): " + err;
    return false;
  }
  out = Records{};
  Loader l(d, err);
  if (!l.document(out)) {
    out = Records{};
    return false;
  }
  return true;
}

}  // namespace sb::typed
