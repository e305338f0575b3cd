// cJSON (libcjson.so; Debian ships no static archive):
//   1 cjson-print  write: cJSON_PrintUnformatted / cJSON_Print of a cJSON tree built from the
//                  reference object
//   2 cjson-parse  tree: cJSON_ParseWithLengthOpts
// cJSON keeps every number as a double. The adapter reads an integral number within +-2^53 as an
// integer (what a caller checking valuedouble would do), so integral floats (1.0, -0.0) and
// integers beyond 2^53 hash differently and the hash check reports them: that is cJSON's model.
#include <cjson/cJSON.h>

#include <cmath>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  std::string& err;
  cJSON* root = nullptr;
  std::vector<std::pair<cJSON*, std::string>> open;  // (container, pending key: a C string)

  ~Build() {  // on failure, what was built so far (complete subtrees are in their parents)
    for (auto& o : open) cJSON_Delete(o.first);
  }
  bool attach(cJSON* v) {
    if (!v) {
      err = "cJSON could not allocate an item";
      return false;
    }
    if (open.empty()) {
      root = v;
      return true;
    }
    auto& top = open.back();
    const bool ok = cJSON_IsArray(top.first) ? cJSON_AddItemToArray(top.first, v)
                                             : cJSON_AddItemToObject(top.first, top.second.c_str(), v);
    if (!ok) {
      cJSON_Delete(v);
      err = "cJSON could not add an item";
    }
    return ok;
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return attach(cJSON_CreateNull());
      case T::False: return attach(cJSON_CreateFalse());
      case T::True: return attach(cJSON_CreateTrue());
      case T::Uint: return attach(cJSON_CreateNumber(static_cast<double>(n.u)));
      case T::Neg: return attach(cJSON_CreateNumber(static_cast<double>(n.i)));
      case T::Double: return attach(cJSON_CreateNumber(n.d));
      case T::Str: return attach(cJSON_CreateString(std::string(d->str(n), n.count).c_str()));  // C strings only
      default: err = "JSON has no binary"; return false;
    }
  }
  bool key(const Node& k) {
    open.back().second.assign(d->str(k), k.count);
    return true;
  }
  bool begin(const Node& n) {
    cJSON* c = n.type == T::Map ? cJSON_CreateObject() : cJSON_CreateArray();
    if (!c) return attach(c);
    open.emplace_back(c, std::string());
    return true;
  }
  bool end(const Node&) {
    cJSON* c = open.back().first;
    open.pop_back();
    return attach(c);
  }
};

cJSON* build(const Doc& d, DocWalker& walk, std::string& err) {
  Build b{&d, err, nullptr, {}};
  if (!walk(d, b)) {
    cJSON_Delete(b.root);
    return nullptr;
  }
  return b.root;
}

// Every op builds the cJSON tree from the harness's object and prints it (spec/fairness.md rule 10);
// the previous op's tree and string are freed first.
class Print : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  const bool pretty_;
  cJSON* root_ = nullptr;
  char* out_ = nullptr;

 public:
  Print(const Doc& d, bool pretty) : doc_(d), pretty_(pretty) {}
  ~Print() override {
    cJSON_free(out_);
    cJSON_Delete(root_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    cJSON_free(out_);
    out_ = nullptr;
    cJSON_Delete(root_);
    if (!(root_ = build(doc_, walk_, err))) return false;
    out_ = pretty_ ? cJSON_Print(root_) : cJSON_PrintUnformatted(root_);  // fresh string per op
    if (!out_) {
      err = "cJSON_Print failed";
      return false;
    }
    out = out_;
    len = strlen(out_);
    return true;
  }
};
#else
// The tree walk (TreeHasher: iterative, any depth).
struct CjsonWalk {
  using Ref = const cJSON*;
  struct Iter {
    const cJSON* c;  // the next child
    bool is_map;
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    if (cJSON_IsNumber(v)) {
      const double d = v->valuedouble;
      const bool integral = std::nearbyint(d) == d && std::fabs(d) <= 9007199254740992.0;
      sb_hasher_emit(h, integral ? sb_hash_int(static_cast<int64_t>(d)) : sb_hash_double(d));
    } else if (cJSON_IsString(v)) {
      sb_hasher_emit(h, sb_hash_str(v->valuestring, strlen(v->valuestring)));
    } else if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
      sb_hasher_open(h, cJSON_IsObject(v));
      it = Iter{v->child, static_cast<bool>(cJSON_IsObject(v))};
      return 1;
    } else if (cJSON_IsTrue(v)) {
      sb_hasher_emit(h, sb_hash_bool(1));
    } else if (cJSON_IsFalse(v)) {
      sb_hasher_emit(h, sb_hash_bool(0));
    } else {
      sb_hasher_emit(h, sb_hash_null());
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (!it.c) return 0;
    if (it.is_map) sb_hasher_key(h, it.c->string, strlen(it.c->string));
    c = it.c;
    it.c = it.c->next;
    return 1;
  }
};

class Parse : public Adapter {
  TreeHasher<CjsonWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    const char* end = nullptr;
    cJSON* v = cJSON_ParseWithLengthOpts(buf, len, &end, false);
    if (!v) {
      err = "cJSON_Parse failed at offset " + std::to_string(end ? end - buf : -1);
      return false;
    }
    while (end < buf + len && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t')) end++;
    if (end != buf + len) {
      cJSON_Delete(v);
      err = "trailing content at offset " + std::to_string(end - buf);
      return false;
    }
    const bool ok = hash_(v, hash, err);
    cJSON_Delete(v);
    return ok;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "cjson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "cjson-print";
    i.tests = {"write"};
    i.notes =
        "build a cJSON tree from the harness's object + cJSON_PrintUnformatted / cJSON_Print every op; numbers are "
        "doubles; shared library only";
#else
    i.id = "cjson-parse";
    i.tests = {"tree"};
    i.notes =
        "cJSON has no UTF-8 check (a string or key that is not UTF-8 is accepted); "
        "cJSON_ParseWithLengthOpts; numbers are doubles (integral within 2^53 read as ints); shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  (void)err;
  return std::make_unique<Print>(input, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
