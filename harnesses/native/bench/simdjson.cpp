// simdjson (libsimdjson.so; Debian ships no static archive):
//   1 simdjson-dom       tree: dom::parser::parse into its tape, then walk the dom::element tree
//   2 simdjson-ondemand  incremental: ondemand::parser::iterate, walking every value once
// Both reuse one parser across ops, the library's documented usage (its buffers are sized once);
// the input copy carries the SIMDJSON_PADDING zero bytes it needs.
#include <simdjson.h>

#include "sb.h"

static_assert(sb::kPadding >= simdjson::SIMDJSON_PADDING, "input copies need simdjson's padding");

namespace sb {
namespace {

#if SB_VARIANT == 1
using namespace simdjson;

bool hash_el(dom::element e, uint64_t& h, std::string& err) {
  switch (e.type()) {
    case dom::element_type::ARRAY: {
      uint64_t a = sb_array_start(), v, n = 0;
      for (dom::element x : dom::array(e)) {
        if (!hash_el(x, v, err)) return false;
        a = sb_array_add(a, v);
        n++;
      }
      h = sb_array_end(a, n);
      return true;
    }
    case dom::element_type::OBJECT: {
      uint64_t s = 0, v, n = 0;
      for (dom::key_value_pair kv : dom::object(e)) {
        if (!hash_el(kv.value, v, err)) return false;
        s += sb_map_entry(sb_hash_str(kv.key.data(), kv.key.size()), v);
        n++;
      }
      h = sb_map_end(s, n);
      return true;
    }
    case dom::element_type::INT64: h = sb_hash_int(int64_t(e)); return true;
    case dom::element_type::UINT64: h = sb_hash_uint(uint64_t(e)); return true;
    case dom::element_type::DOUBLE: h = sb_hash_double(double(e)); return true;
    case dom::element_type::STRING: {
      std::string_view s(e);
      h = sb_hash_str(s.data(), s.size());
      return true;
    }
    case dom::element_type::BOOL: h = sb_hash_bool(bool(e)); return true;
    case dom::element_type::NULL_VALUE: h = sb_hash_null(); return true;
  }
  err = "unknown element type";
  return false;
}

class Dom : public Adapter {
  dom::parser parser_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    dom::element root;
    auto e = parser_.parse(buf, len, false).get(root);  // false: the buffer is already padded
    if (e) {
      err = error_message(e);
      return false;
    }
    return hash_el(root, hash, err);
  }
};
#else
using namespace simdjson;

#define SB_TRY(expr)        \
  do {                      \
    if (auto e_ = (expr)) { \
      err = e_;             \
      return false;         \
    }                       \
  } while (0)

// Works for ondemand::value and for the document itself (a scalar root has no value()).
template <class V>
bool hash_od(V& v, uint64_t& h, error_code& err) {
  ondemand::json_type t;
  SB_TRY(v.type().get(t));
  switch (t) {
    case ondemand::json_type::array: {
      ondemand::array arr;
      SB_TRY(v.get_array().get(arr));
      uint64_t a = sb_array_start(), x, n = 0;
      for (auto item : arr) {
        ondemand::value val;
        SB_TRY(item.get(val));
        if (!hash_od(val, x, err)) return false;
        a = sb_array_add(a, x);
        n++;
      }
      h = sb_array_end(a, n);
      return true;
    }
    case ondemand::json_type::object: {
      ondemand::object obj;
      SB_TRY(v.get_object().get(obj));
      uint64_t s = 0, x, n = 0;
      for (auto field : obj) {
        std::string_view key;
        SB_TRY(field.unescaped_key().get(key));
        const uint64_t kh = sb_hash_str(key.data(), key.size());  // key view dies at the next string
        ondemand::value val;
        SB_TRY(field.value().get(val));
        if (!hash_od(val, x, err)) return false;
        s += sb_map_entry(kh, x);
        n++;
      }
      h = sb_map_end(s, n);
      return true;
    }
    case ondemand::json_type::number: {
      ondemand::number num;
      SB_TRY(v.get_number().get(num));
      switch (num.get_number_type()) {
        case ondemand::number_type::floating_point_number: h = sb_hash_double(num.get_double()); break;
        case ondemand::number_type::signed_integer: h = sb_hash_int(num.get_int64()); break;
        case ondemand::number_type::unsigned_integer: h = sb_hash_uint(num.get_uint64()); break;
      }
      return true;
    }
    case ondemand::json_type::string: {
      std::string_view s;
      SB_TRY(v.get_string().get(s));
      h = sb_hash_str(s.data(), s.size());
      return true;
    }
    case ondemand::json_type::boolean: {
      bool b;
      SB_TRY(v.get_bool().get(b));
      h = sb_hash_bool(b);
      return true;
    }
    case ondemand::json_type::null: {
      bool isnull;
      SB_TRY(v.is_null().get(isnull));
      if (!isnull) {
        err = INCORRECT_TYPE;
        return false;
      }
      h = sb_hash_null();
      return true;
    }
  }
  err = INCORRECT_TYPE;
  return false;
}

class OnDemand : public Adapter {
  ondemand::parser parser_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    ondemand::document doc;
    error_code e = parser_.iterate(padded_string_view(buf, len, len + kPadding)).get(doc);
    if (!e && !hash_od(doc, hash, e)) {
      if (!e) e = TAPE_ERROR;
    }
    // On-demand stops where the walk stops: anything left after the root is trailing content
    // (3.0.1 has no document::at_end; current_location() fails once at the end).
    if (!e && !doc.current_location().error()) e = TRAILING_CONTENT;
    if (e) {
      err = error_message(e);
      return false;
    }
    return true;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "simdjson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "simdjson-dom";
    i.tests = {"tree"};
    i.notes = "dom::parser reused across ops (documented usage); shared library only";
#else
    i.id = "simdjson-ondemand";
    i.tests = {"incremental"};
    i.notes = "ondemand::parser reused across ops, walks every value; shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc&, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Dom>();
#else
  return std::make_unique<OnDemand>();
#endif
}

}  // namespace sb
