// json-c (libjson-c.a):
//   1 json-c-write  write: json_object_to_json_string_ext of a json_object built from the reference
//                   object (PLAIN / PRETTY, NOSLASHESCAPE); the output string is owned by the object
//   2 json-c-parse  tree: json_tokener_parse_ex with a fresh tokener per op; depth limit raised from
//                   the default 32 to 1024 (json_tokener_new_ex) so nesting is not the test
#include <json-c/json.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
json_object* build(const Doc& d, size_t& i, std::string& err) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return nullptr;  // json-c represents null as a NULL json_object*
    case T::False: return json_object_new_boolean(0);
    case T::True: return json_object_new_boolean(1);
    case T::Uint: return json_object_new_uint64(n.u);
    case T::Neg: return json_object_new_int64(n.i);
    case T::Double: return json_object_new_double(n.d);
    case T::Str: return json_object_new_string_len(d.str(n), static_cast<int>(n.count));
    case T::Bin: err = "JSON has no binary"; return nullptr;
    case T::Array: {
      json_object* a = json_object_new_array_ext(static_cast<int>(n.count));
      for (uint32_t c = 0; c < n.count; c++) {
        json_object* e = build(d, i, err);
        if (!err.empty()) return json_object_put(a), nullptr;
        json_object_array_add(a, e);
      }
      return a;
    }
    case T::Map: {
      json_object* o = json_object_new_object();
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        const std::string key(d.str(k), k.count);  // json-c keys are C strings
        json_object* v = build(d, i, err);
        if (!err.empty()) return json_object_put(o), nullptr;
        json_object_object_add(o, key.c_str(), v);
      }
      return o;
    }
  }
  return nullptr;
}

class Write : public Adapter {
  json_object* root_;
  const int flags_;

 public:
  Write(json_object* root, bool pretty)
      : root_(root),
        flags_((pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN) |
               JSON_C_TO_STRING_NOSLASHESCAPE) {}
  ~Write() override { json_object_put(root_); }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    out = json_object_to_json_string_length(root_, flags_, &len);
    if (!out) {
      err = "json_object_to_json_string_length failed";
      return false;
    }
    return true;
  }
};
#else
uint64_t hash_val(json_object* v) {
  switch (json_object_get_type(v)) {
    case json_type_null: return sb_hash_null();
    case json_type_boolean: return sb_hash_bool(json_object_get_boolean(v));
    case json_type_double: return sb_hash_double(json_object_get_double(v));
    case json_type_int: {
      // json-c keeps an int64 or (above INT64_MAX) a uint64; get_uint64 returns either exactly.
      const int64_t i = json_object_get_int64(v);
      return i < 0 ? sb_hash_int(i) : sb_hash_uint(json_object_get_uint64(v));
    }
    case json_type_string: return sb_hash_str(json_object_get_string(v), json_object_get_string_len(v));
    case json_type_array: {
      uint64_t a = sb_array_start();
      const size_t n = json_object_array_length(v);
      for (size_t i = 0; i < n; i++) a = sb_array_add(a, hash_val(json_object_array_get_idx(v, i)));
      return sb_array_end(a, n);
    }
    case json_type_object: {
      uint64_t s = 0;
      json_object_object_foreach(v, key, val) s += sb_map_entry(sb_hash_str(key, strlen(key)), hash_val(val));
      return sb_map_end(s, json_object_object_length(v));
    }
  }
  return 0;
}

class Parse : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    json_tokener* tok = json_tokener_new_ex(SB_MAX_DEPTH);
    json_object* v = json_tokener_parse_ex(tok, buf, static_cast<int>(len));
    const json_tokener_error je = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (je != json_tokener_success) {
      err = std::string("json_tokener: ") + json_tokener_error_desc(je);
      json_object_put(v);
      return false;
    }
    while (end < len && (buf[end] == ' ' || buf[end] == '\n' || buf[end] == '\r' || buf[end] == '\t')) end++;
    if (end != len) {
      err = "trailing content at offset " + std::to_string(end);
      json_object_put(v);
      return false;
    }
    hash = hash_val(v);
    json_object_put(v);
    return true;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "json-c";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "json-c-write";
    i.tests = {"write"};
    i.notes = "json_object_to_json_string_length (PLAIN / PRETTY); output buffer owned and reused by the object";
#else
    i.id = "json-c-parse";
    i.tests = {"tree"};
    i.notes = "json_tokener_parse_ex, fresh tokener per op, depth limit 1024 (default 32)";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  size_t i = 0;
  json_object* root = build(input, i, err);
  if (!err.empty()) return nullptr;
  return std::make_unique<Write>(root, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
