// YAJL 2 (libyajl_s.a):
//   1 yajl-gen    write: yajl_gen_* walking the reference object (YAJL has no DOM to encode from)
//   2 yajl-tree   tree: yajl_tree_parse
//   3 yajl-parse  incremental: yajl_parse with callbacks (integer/double callbacks, not raw numbers)
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>

#include <cinttypes>
#include <cstdio>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Drives the generator from the reference object (DocWalker: iterative, any depth).
struct GenVisit {
  yajl_gen g;
  const Doc* d;
  yajl_gen_status s = yajl_gen_status_ok;
  bool ok(yajl_gen_status r) { return (s = r) == yajl_gen_status_ok; }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return ok(yajl_gen_null(g));
      case T::False: return ok(yajl_gen_bool(g, 0));
      case T::True: return ok(yajl_gen_bool(g, 1));
      case T::Uint:
        if (n.u > static_cast<uint64_t>(INT64_MAX)) {  // above long long: emit the digits as a number
          char buf[24];
          int len = snprintf(buf, sizeof buf, "%" PRIu64, n.u);
          return ok(yajl_gen_number(g, buf, static_cast<size_t>(len)));
        }
        return ok(yajl_gen_integer(g, n.i));
      case T::Neg: return ok(yajl_gen_integer(g, n.i));
      case T::Double: return ok(yajl_gen_double(g, n.d));
      case T::Str: return ok(yajl_gen_string(g, reinterpret_cast<const unsigned char*>(d->str(n)), n.count));
      default: return ok(yajl_gen_invalid_string);  // binary: JSON has none
    }
  }
  bool key(const Node& k) { return scalar(k); }
  bool begin(const Node& n) { return ok(n.type == T::Map ? yajl_gen_map_open(g) : yajl_gen_array_open(g)); }
  bool end(const Node& n) { return ok(n.type == T::Map ? yajl_gen_map_close(g) : yajl_gen_array_close(g)); }
};

class Gen : public Adapter {
  const Doc doc_;
  const bool pretty_;
  yajl_gen g_ = nullptr;
  DocWalker walk_;  // its stack is reused across ops

 public:
  Gen(const Doc& d, bool pretty) : doc_(d), pretty_(pretty) {}
  ~Gen() override {
    if (g_) yajl_gen_free(g_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    if (g_) yajl_gen_free(g_);
    g_ = yajl_gen_alloc(nullptr);  // a fresh generator (and output buffer) every iteration
    if (pretty_) yajl_gen_config(g_, yajl_gen_beautify, 1);
    GenVisit v{g_, &doc_};
    if (!walk_(doc_, v)) {
      err = "yajl_gen status " + std::to_string(v.s);
      return false;
    }
    const unsigned char* buf;
    yajl_gen_get_buf(g_, &buf, &len);
    out = reinterpret_cast<const char*>(buf);
    return true;
  }
};
#elif SB_VARIANT == 2
// The tree walk (TreeHasher: iterative, any depth).
struct YajlWalk {
  using Ref = yajl_val;
  struct Iter {
    yajl_val v;
    size_t i;
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    if (YAJL_IS_OBJECT(v) || YAJL_IS_ARRAY(v)) {
      sb_hasher_open(h, YAJL_IS_OBJECT(v));
      it = Iter{v, 0};
      return 1;
    }
    if (YAJL_IS_STRING(v)) {
      const char* s = YAJL_GET_STRING(v);  // NUL-terminated: a string holding U+0000 is cut there
      sb_hasher_emit(h, sb_hash_str(s, strlen(s)));
    } else if (YAJL_IS_INTEGER(v)) {
      sb_hasher_emit(h, sb_hash_int(YAJL_GET_INTEGER(v)));
    } else if (YAJL_IS_NUMBER(v)) {
      // A number YAJL cannot hold in a long long (beyond int64, or INT64_MIN) is only a double.
      sb_hasher_emit(h, sb_hash_double(YAJL_GET_DOUBLE(v)));
    } else if (YAJL_IS_TRUE(v)) {
      sb_hasher_emit(h, sb_hash_bool(1));
    } else if (YAJL_IS_FALSE(v)) {
      sb_hasher_emit(h, sb_hash_bool(0));
    } else {
      sb_hasher_emit(h, sb_hash_null());
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (YAJL_IS_OBJECT(it.v)) {
      if (it.i == it.v->u.object.len) return 0;
      const char* k = it.v->u.object.keys[it.i];
      sb_hasher_key(h, k, strlen(k));
      c = it.v->u.object.values[it.i++];
      return 1;
    }
    if (it.i == it.v->u.array.len) return 0;
    c = it.v->u.array.values[it.i++];
    return 1;
  }
};

class Tree : public Adapter {
  TreeHasher<YajlWalk> hash_;

 public:
  bool decode(char* buf, size_t, uint64_t& hash, std::string& err) override {
    char ebuf[256];
    yajl_val v = yajl_tree_parse(buf, ebuf, sizeof ebuf);  // buf is NUL-terminated by the padding
    if (!v) {
      err = std::string("yajl_tree_parse: ") + ebuf;
      return false;
    }
    const bool ok = hash_(v, hash, err);
    yajl_tree_free(v);
    return ok;
  }
};
#else
sb_hasher* H(void* ctx) { return static_cast<sb_hasher*>(ctx); }
// Callbacks return 0 (cancel) only when the hasher fails: out of memory or unbalanced events.
int on_null(void* c) { return sb_hasher_emit(H(c), sb_hash_null()), 1; }
int on_bool(void* c, int b) { return sb_hasher_emit(H(c), sb_hash_bool(b)), 1; }
int on_integer(void* c, long long v) { return sb_hasher_emit(H(c), sb_hash_int(v)), 1; }
int on_double(void* c, double v) { return sb_hasher_emit(H(c), sb_hash_double(v)), 1; }
int on_string(void* c, const unsigned char* s, size_t n) { return sb_hasher_emit(H(c), sb_hash_str(s, n)), 1; }
int on_start_map(void* c) { return sb_hasher_open(H(c), 1), !H(c)->error; }
int on_key(void* c, const unsigned char* s, size_t n) { return sb_hasher_key(H(c), s, n), 1; }
int on_end(void* c) { return sb_hasher_close(H(c)), !H(c)->error; }
int on_start_array(void* c) { return sb_hasher_open(H(c), 0), !H(c)->error; }

const yajl_callbacks kCallbacks = {on_null,      on_bool, on_integer, on_double,      nullptr, on_string,
                                   on_start_map, on_key,  on_end,     on_start_array, on_end};

class Parse : public Adapter {
  Hasher h_;  // its stack is reused across ops

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&h_);
    yajl_handle p = yajl_alloc(&kCallbacks, nullptr, &h_);  // a fresh parser every iteration
    const auto* u = reinterpret_cast<const unsigned char*>(buf);
    yajl_status st = yajl_parse(p, u, len);
    if (st == yajl_status_ok) st = yajl_complete_parse(p);
    bool ok = st == yajl_status_ok;
    if (!ok) {
      unsigned char* e = yajl_get_error(p, 0, u, len);
      err = reinterpret_cast<char*>(e);
      yajl_free_error(p, e);
      if (h_.error) err += std::string(" (") + sb_hasher_error(&h_) + ")";
    } else if (!sb_hasher_done(&h_, &hash)) {
      err = sb_hasher_error(&h_);
      ok = false;
    }
    yajl_free(p);
    return ok;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "yajl";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "yajl-gen";
    i.tests = {"write"};
    i.notes = "yajl_gen (beautify for json-pretty), fresh generator per op";
#elif SB_VARIANT == 2
    i.id = "yajl-tree";
    i.tests = {"tree"};
    i.notes = "yajl_tree_parse";
#else
    i.id = "yajl-parse";
    i.tests = {"incremental"};
    i.notes = "yajl_parse callbacks (integer/double), fresh handle per op";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Gen>(input, fmt == "json-pretty");
#elif SB_VARIANT == 2
  (void)fmt, (void)input;
  return std::make_unique<Tree>();
#else
  (void)fmt, (void)input;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
