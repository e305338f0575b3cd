// Jansson (libjansson.a):
//   1 jansson-dump  write: json_dumps of a json_t built from the reference object
//   2 jansson-load  tree: json_loadb with JSON_ALLOW_NUL (strings may hold U+0000)
// JSON_PRESERVE_ORDER is a no-op since Jansson 2.8 (objects always keep insertion order), so there
// is no separate variant for it.
#include <jansson.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
json_t* build(const Doc& d, size_t& i, std::string& err) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return json_null();
    case T::False: return json_false();
    case T::True: return json_true();
    case T::Uint:
      if (n.u > static_cast<uint64_t>(INT64_MAX)) {
        err = "Jansson integers are int64 (json_int_t): cannot hold " + std::to_string(n.u);
        return nullptr;
      }
      return json_integer(n.i);
    case T::Neg: return json_integer(n.i);
    case T::Double: return json_real(n.d);
    case T::Str: return json_stringn_nocheck(d.str(n), n.count);
    case T::Bin: err = "JSON has no binary"; return nullptr;
    case T::Array: {
      json_t* a = json_array();
      for (uint32_t c = 0; c < n.count; c++) {
        json_t* e = build(d, i, err);
        if (!e) return json_decref(a), nullptr;
        json_array_append_new(a, e);
      }
      return a;
    }
    case T::Map: {
      json_t* o = json_object();
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        json_t* v = build(d, i, err);
        if (!v) return json_decref(o), nullptr;
        json_object_setn_new_nocheck(o, d.str(k), k.count, v);
      }
      return o;
    }
  }
  return nullptr;
}

class Dump : public Adapter {
  json_t* root_;
  const size_t flags_;
  char* out_ = nullptr;

 public:
  Dump(json_t* root, bool pretty) : root_(root), flags_(pretty ? JSON_INDENT(2) : JSON_COMPACT) {}
  ~Dump() override {
    free(out_);
    json_decref(root_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    free(out_);
    out_ = json_dumps(root_, flags_);  // a fresh output string every iteration
    if (!out_) {
      err = "json_dumps failed";
      return false;
    }
    out = out_;
    len = strlen(out_);
    return true;
  }
};
#else
uint64_t hash_val(json_t* v) {
  switch (json_typeof(v)) {
    case JSON_OBJECT: {
      uint64_t s = 0;
      const char* key;
      size_t klen;
      json_t* x;
      json_object_keylen_foreach(v, key, klen, x) s += sb_map_entry(sb_hash_str(key, klen), hash_val(x));
      return sb_map_end(s, json_object_size(v));
    }
    case JSON_ARRAY: {
      uint64_t a = sb_array_start();
      const size_t n = json_array_size(v);
      for (size_t i = 0; i < n; i++) a = sb_array_add(a, hash_val(json_array_get(v, i)));
      return sb_array_end(a, n);
    }
    case JSON_STRING: return sb_hash_str(json_string_value(v), json_string_length(v));
    case JSON_INTEGER: return sb_hash_int(json_integer_value(v));
    case JSON_REAL: return sb_hash_double(json_real_value(v));
    case JSON_TRUE: return sb_hash_bool(1);
    case JSON_FALSE: return sb_hash_bool(0);
    case JSON_NULL: return sb_hash_null();
  }
  return 0;
}

class Load : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    json_error_t je;
    json_t* v = json_loadb(buf, len, JSON_ALLOW_NUL, &je);
    if (!v) {
      err = std::string("json_loadb: ") + je.text + " at offset " + std::to_string(je.position);
      return false;
    }
    hash = hash_val(v);
    json_decref(v);
    return true;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "jansson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "jansson-dump";
    i.tests = {"write"};
    i.notes = "json_dumps (JSON_COMPACT / JSON_INDENT(2)); insertion order is always kept";
#else
    i.id = "jansson-load";
    i.tests = {"tree"};
    i.notes = "json_loadb with JSON_ALLOW_NUL";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  size_t i = 0;
  json_t* root = build(input, i, err);
  if (!root) return nullptr;
  return std::make_unique<Dump>(root, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Load>();
#endif
}

}  // namespace sb
