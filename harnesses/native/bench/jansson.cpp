// Jansson (libjansson.a):
//   1 jansson-dump           write: build a json_t from the harness's object + json_dumps, every op
//   2 jansson-load           tree: json_loadb with JSON_ALLOW_NUL (strings may hold U+0000) and
//                            JSON_DECODE_ANY (any value at the root, RFC 8259 §2; without it Jansson
//                            takes only an array or object, as RFC 4627 did)
//   3 jansson-dump-prebuilt  write: json_dumps of a json_t built once, outside the timed loop (the
//                            dump alone; spec/fairness.md rule 10)
// JSON_PRESERVE_ORDER is a no-op since Jansson 2.8 (objects always keep insertion order), so there
// is no separate variant for it.
#include <jansson.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT != 2
// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  std::string& err;
  json_t* root = nullptr;
  std::vector<std::pair<json_t*, const Node*>> open;  // (container, pending key)

  ~Build() {  // on failure, what was built so far (complete subtrees are in their parents)
    for (auto& o : open) json_decref(o.first);
  }
  bool attach(json_t* v) {
    if (!v) {
      if (err.empty()) err = "out of memory";
      return false;
    }
    if (open.empty()) {
      root = v;
      return true;
    }
    auto& top = open.back();
    const int r = json_is_array(top.first)
                      ? json_array_append_new(top.first, v)
                      : json_object_setn_new_nocheck(top.first, d->str(*top.second), top.second->count, v);
    if (r != 0) err = "Jansson could not add a value to its container";  // the _new calls freed v
    return r == 0;
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return attach(json_null());
      case T::False: return attach(json_false());
      case T::True: return attach(json_true());
      case T::Uint:
        if (n.u > static_cast<uint64_t>(INT64_MAX)) {
          err = "Jansson integers are int64 (json_int_t): cannot hold " + std::to_string(n.u);
          return false;
        }
        return attach(json_integer(n.i));
      case T::Neg: return attach(json_integer(n.i));
      case T::Double: return attach(json_real(n.d));
      case T::Str: return attach(json_stringn_nocheck(d->str(n), n.count));
      default: err = "JSON has no binary"; return false;
    }
  }
  bool key(const Node& k) {
    open.back().second = &k;
    return true;
  }
  bool begin(const Node& n) {
    json_t* c = n.type == T::Map ? json_object() : json_array();
    if (!c) return attach(c);
    open.emplace_back(c, nullptr);
    return true;
  }
  bool end(const Node&) {
    json_t* c = open.back().first;
    open.pop_back();
    return attach(c);
  }
};

json_t* build(const Doc& d, DocWalker& walk, std::string& err) {
  Build b{&d, err, nullptr, {}};
  if (!walk(d, b)) {
    if (b.root) json_decref(b.root);
    return nullptr;
  }
  return b.root;
}

// Write rows start from the harness's object, as an application starts from its own data: every op
// builds the tree (the previous op's tree is freed first, so its output stays valid until then) and
// dumps it. `prebuilt` (jansson-dump-prebuilt) builds once here and times the dump alone.
class Dump : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  const bool prebuilt_;
  const size_t flags_;
  json_t* root_ = nullptr;
  char* out_ = nullptr;

 public:
  Dump(const Doc& d, bool pretty, bool prebuilt)
      : doc_(d), prebuilt_(prebuilt), flags_(pretty ? JSON_INDENT(2) : JSON_COMPACT) {}
  ~Dump() override {
    free(out_);
    if (root_) json_decref(root_);
  }
  bool prepare(std::string& err) { return !prebuilt_ || (root_ = build(doc_, walk_, err)) != nullptr; }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    free(out_);
    out_ = nullptr;
    if (!prebuilt_) {
      if (root_) json_decref(root_);
      if (!(root_ = build(doc_, walk_, err))) return false;
    }
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
// The tree walk (TreeHasher: iterative, any depth).
struct JanssonWalk {
  using Ref = json_t*;
  struct Iter {
    json_t* v;
    void* obj_it;  // objects: json_object_iter
    size_t i, n;   // arrays
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    switch (json_typeof(v)) {
      case JSON_OBJECT:
        sb_hasher_open(h, 1);
        it = Iter{v, json_object_iter(v), 0, 0};
        return 1;
      case JSON_ARRAY:
        sb_hasher_open(h, 0);
        it = Iter{v, nullptr, 0, json_array_size(v)};
        return 1;
      case JSON_STRING: sb_hasher_emit(h, sb_hash_str(json_string_value(v), json_string_length(v))); return 0;
      case JSON_INTEGER: sb_hasher_emit(h, sb_hash_int(json_integer_value(v))); return 0;
      case JSON_REAL: sb_hasher_emit(h, sb_hash_double(json_real_value(v))); return 0;
      case JSON_TRUE: sb_hasher_emit(h, sb_hash_bool(1)); return 0;
      case JSON_FALSE: sb_hasher_emit(h, sb_hash_bool(0)); return 0;
      case JSON_NULL: sb_hasher_emit(h, sb_hash_null()); return 0;
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (json_is_object(it.v)) {
      if (!it.obj_it) return 0;
      sb_hasher_key(h, json_object_iter_key(it.obj_it), json_object_iter_key_len(it.obj_it));
      c = json_object_iter_value(it.obj_it);
      it.obj_it = json_object_iter_next(it.v, it.obj_it);
      return 1;
    }
    if (it.i == it.n) return 0;
    c = json_array_get(it.v, it.i++);
    return 1;
  }
};

class Load : public Adapter {
  TreeHasher<JanssonWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    json_error_t je;
    json_t* v = json_loadb(buf, len, JSON_ALLOW_NUL | JSON_DECODE_ANY, &je);
    if (!v) {
      err = std::string("json_loadb: ") + je.text + " at offset " + std::to_string(je.position);
      return false;
    }
    const bool ok = hash_(v, hash, err);
    json_decref(v);
    return ok;
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
    i.notes =
        "build a json_t from the harness's object + json_dumps (JSON_COMPACT / JSON_INDENT(2)) every op; "
        "insertion order is always kept";
#elif SB_VARIANT == 3
    i.id = "jansson-dump-prebuilt";
    i.tests = {"write"};
    i.notes =
        "variant: json_dumps of a json_t built once outside the timed loop (the dump alone, not what an "
        "application pays; compare with jansson-dump)";
    i.measures["write"] = "json_dumps of a prebuilt json_t into a fresh string + hash the output bytes";
    i.steps["write"] = {"prebuilt", "encode", "hash-output"};  // the dump alone (spec/fairness.md rule 10)
#else
    i.id = "jansson-load";
    i.tests = {"tree"};
    i.notes = "json_loadb with JSON_ALLOW_NUL | JSON_DECODE_ANY";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
  // Jansson seeds its objects' hash function from /dev/urandom (or the time) on first use
  // (hashtable_seed.c), so two processes execute different instructions and lay out their tables
  // differently. A fixed seed, set before any object exists as json_object_seed requires, makes the
  // instruction-count mode repeatable and removes one source of process-to-process variance; the
  // hash function and the work per operation are the same for any seed.
  json_object_seed(0x5eb0);
#if SB_VARIANT != 2
  auto a = std::make_unique<Dump>(input, fmt == "json-pretty", SB_VARIANT == 3);
  if (!a->prepare(err)) return nullptr;
  return a;
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Load>();
#endif
}

}  // namespace sb
