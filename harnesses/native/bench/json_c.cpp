// json-c (libjson-c.a):
//   1 json-c-write  write: json_object_to_json_string_ext of a json_object built from the reference
//                   object (PLAIN / PRETTY, NOSLASHESCAPE); the output string is owned by the object
//   2 json-c-parse  tree: json_tokener_parse_ex with a fresh tokener per op, the length counting the
//                   NUL after the input (end of input); depth limit raised from the default 32 to
//                   1024 (json_tokener_new_ex) so nesting is not the test; JSON_TOKENER_VALIDATE_UTF8
//                   (json_tokener_set_flags), json-c's documented UTF-8 check of strings, off by
//                   default (without it invalid UTF-8 is accepted: decode-unchecked, fairness rule 12);
//                   it checks lead and continuation bytes only (overlong forms and surrogates pass)
#include <json-c/json.h>

#include <algorithm>
#include <climits>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  std::string& err;
  json_object* root = nullptr;
  std::vector<std::pair<json_object*, std::string>> open;  // (container, pending key: a C string)

  ~Build() {  // on failure, what was built so far (complete subtrees are in their parents)
    for (auto& o : open) json_object_put(o.first);
  }
  bool attach(json_object* v) {  // v == nullptr is json-c's null
    if (open.empty()) {
      root = v;
      return true;
    }
    auto& top = open.back();
    const int r = json_object_is_type(top.first, json_type_array)
                      ? json_object_array_add(top.first, v)
                      : json_object_object_add(top.first, top.second.c_str(), v);
    if (r != 0) {
      json_object_put(v);
      err = "json-c could not add a value to its container";
    }
    return r == 0;
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return attach(nullptr);  // json-c represents null as a NULL json_object*
      case T::False: return attach(json_object_new_boolean(0));
      case T::True: return attach(json_object_new_boolean(1));
      case T::Uint: return attach(json_object_new_uint64(n.u));
      case T::Neg: return attach(json_object_new_int64(n.i));
      case T::Double: return attach(json_object_new_double(n.d));
      case T::Str:
        if (n.count > INT_MAX) {
          err = "json-c string lengths are int";
          return false;
        }
        return attach(json_object_new_string_len(d->str(n), static_cast<int>(n.count)));
      default: err = "JSON has no binary"; return false;
    }
  }
  bool key(const Node& k) {
    open.back().second.assign(d->str(k), k.count);  // json-c keys are C strings
    return true;
  }
  bool begin(const Node& n) {
    json_object* c = n.type == T::Map
                         ? json_object_new_object()
                         : json_object_new_array_ext(static_cast<int>(std::min<uint32_t>(n.count, INT_MAX)));
    if (!c) {
      err = "out of memory";
      return false;
    }
    open.emplace_back(c, std::string());
    return true;
  }
  bool end(const Node&) {
    json_object* c = open.back().first;
    open.pop_back();
    return attach(c);
  }
};

json_object* build(const Doc& d, DocWalker& walk, std::string& err) {
  Build b{&d, err, nullptr, {}};
  if (!walk(d, b)) {
    json_object_put(b.root);
    return nullptr;
  }
  return b.root;
}

// Every op builds the json_object tree from the harness's object and writes it (spec/fairness.md
// rule 10). The output string belongs to the tree, so the previous op's tree is freed first.
class Write : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  json_object* root_ = nullptr;
  const int flags_;

 public:
  Write(const Doc& d, bool pretty)
      : doc_(d),
        flags_((pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN) |
               JSON_C_TO_STRING_NOSLASHESCAPE) {}
  ~Write() override { json_object_put(root_); }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    json_object_put(root_);
    if (!(root_ = build(doc_, walk_, err))) return false;
    out = json_object_to_json_string_length(root_, flags_, &len);
    if (!out) {
      err = "json_object_to_json_string_length failed";
      return false;
    }
    return true;
  }
};
#else
// The tree walk (TreeHasher: iterative, any depth).
struct JsonCWalk {
  using Ref = json_object*;
  struct Iter {
    json_object* v;
    bool is_map;
    size_t i, n;                   // arrays
    json_object_iterator it, end;  // objects
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    switch (json_object_get_type(v)) {
      case json_type_null: sb_hasher_emit(h, sb_hash_null()); return 0;
      case json_type_boolean: sb_hasher_emit(h, sb_hash_bool(json_object_get_boolean(v))); return 0;
      case json_type_double: sb_hasher_emit(h, sb_hash_double(json_object_get_double(v))); return 0;
      case json_type_int: {
        // json-c keeps an int64 or (above INT64_MAX) a uint64; get_uint64 returns either exactly.
        const int64_t i = json_object_get_int64(v);
        sb_hasher_emit(h, i < 0 ? sb_hash_int(i) : sb_hash_uint(json_object_get_uint64(v)));
        return 0;
      }
      case json_type_string:
        sb_hasher_emit(h, sb_hash_str(json_object_get_string(v), json_object_get_string_len(v)));
        return 0;
      case json_type_array:
        sb_hasher_open(h, 0);
        it.v = v;
        it.is_map = false;
        it.i = 0;
        it.n = json_object_array_length(v);
        return 1;
      case json_type_object:
        sb_hasher_open(h, 1);
        it.v = v;
        it.is_map = true;
        it.it = json_object_iter_begin(v);
        it.end = json_object_iter_end(v);
        return 1;
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.is_map) {
      if (json_object_iter_equal(&it.it, &it.end)) return 0;
      const char* k = json_object_iter_peek_name(&it.it);
      sb_hasher_key(h, k, strlen(k));
      c = json_object_iter_peek_value(&it.it);
      json_object_iter_next(&it.it);
      return 1;
    }
    if (it.i == it.n) return 0;
    c = json_object_array_get_idx(it.v, it.i++);
    return 1;
  }
};

class Parse : public Adapter {
  TreeHasher<JsonCWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    if (len >= INT_MAX) {  // json_tokener_parse_ex takes an int length, and gets len + 1 below
      err = "json-c cannot parse more than INT_MAX - 1 bytes at once";
      return false;
    }
    json_tokener* tok = json_tokener_new_ex(kLibraryMaxDepth);
    json_tokener_set_flags(tok, JSON_TOKENER_VALIDATE_UTF8);
    // The whole input is here, so the length includes the NUL after it (buf has kPadding zero bytes):
    // json_tokener.h says a caller at the end of its input MUST pass it, or a value with no inherent
    // end (a number, or `true` at the root) is json_tokener_continue rather than parsed.
    json_object* v = json_tokener_parse_ex(tok, buf, static_cast<int>(len) + 1);
    const json_tokener_error je = json_tokener_get_error(tok);
    size_t end = std::min(json_tokener_get_parse_end(tok), len);  // it may count the NUL as read
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
    const bool ok = hash_(v, hash, err);
    json_object_put(v);
    return ok;
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
    i.notes =
        "build a json_object tree from the harness's object + json_object_to_json_string_length (PLAIN / PRETTY) every "
        "op; the output buffer belongs to the tree";
#else
    i.id = "json-c-parse";
    i.tests = {"tree"};
    i.notes = "json_tokener_parse_ex, fresh tokener per op, JSON_TOKENER_VALIDATE_UTF8, length with the final NUL, "
        "depth limit 1024 (default 32)";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  (void)err;
  return std::make_unique<Write>(input, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
