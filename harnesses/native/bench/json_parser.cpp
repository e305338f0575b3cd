// json-parser (udp/json-parser, libjsonparser.a), the classic C suite's "json-parser" row:
//   json-parser  tree: json_parse_ex with zeroed json_settings (strict: no comments) into a
//                json_value tree, walked with TreeHasher, freed with json_value_free
// json-parser has no writer (its companion json-builder is not packaged in Debian 12, see
// docs/libraries.md) and no event API, so tree is its one test. Its parser and json_value_free
// follow parent pointers instead of recursing, so any depth is fine for it.
// Its numbers: integers are int64_t and one that overflows (INT64_MIN included, as the parser
// accumulates the magnitude before the sign) silently becomes a double; doubles are computed
// digit by digit with pow(), not correctly rounded (1e-07, 1.5e+300, 5e-324 read wrong). The hash
// check reports both (known-deviations.json); the adapter does not fix them up.
#include <json-parser/json.h>

#include <cstring>

#include "sb.h"

namespace sb {
namespace {

// The tree walk (TreeHasher: iterative, any depth).
struct JsonParserWalk {
  using Ref = const json_value*;
  struct Iter {
    const json_value* v;
    unsigned i, n;  // the next child and the count (object entries or array elements)
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string& err) {
    switch (v->type) {
      case json_object:
        sb_hasher_open(h, 1);
        it = Iter{v, 0, v->u.object.length};
        return 1;
      case json_array:
        sb_hasher_open(h, 0);
        it = Iter{v, 0, v->u.array.length};
        return 1;
      case json_string: sb_hasher_emit(h, sb_hash_str(v->u.string.ptr, v->u.string.length)); return 0;
      case json_integer: sb_hasher_emit(h, sb_hash_int(v->u.integer)); return 0;
      case json_double: sb_hasher_emit(h, sb_hash_double(v->u.dbl)); return 0;
      case json_boolean: sb_hasher_emit(h, sb_hash_bool(v->u.boolean != 0)); return 0;
      case json_null: sb_hasher_emit(h, sb_hash_null()); return 0;
      default: err = "json-parser returned a json_none value"; return -1;
    }
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.i == it.n) return 0;
    if (it.v->type == json_object) {
      const json_object_entry& e = it.v->u.object.values[it.i++];
      sb_hasher_key(h, e.name, e.name_length);
      c = e.value;
      return 1;
    }
    c = it.v->u.array.values[it.i++];
    return 1;
  }
};

class Parse : public Adapter {
  TreeHasher<JsonParserWalk> hash_;
  json_settings settings_;

 public:
  Parse() { memset(&settings_, 0, sizeof settings_); }  // no comments, no memory limit, malloc/free
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    char jerr[json_error_max];
    json_value* v = json_parse_ex(&settings_, buf, len, jerr);
    if (!v) {
      err = std::string("json_parse_ex: ") + jerr;
      return false;
    }
    const bool ok = hash_(v, hash, err);
    json_value_free(v);
    return ok;
  }
};

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "json-parser";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
    i.id = "json-parser";
    i.tests = {"tree"};
    i.notes =
        "json-parser has no UTF-8 check (a string or key that is not UTF-8 is accepted); "
        "json_parse_ex (zeroed json_settings: no comments) to json_value + json_value_free; integers are int64 "
        "(overflow, INT64_MIN included, becomes a double) and doubles are not correctly rounded";
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc&, const std::string&,
                                      std::string&) {
  return std::make_unique<Parse>();
}

}  // namespace sb
