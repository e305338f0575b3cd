// libbson (libbson-static-1.0.a):
//   libbson-append  write: bson_append_* into a fresh bson_t, walking the reference object
//                   (libbson has no DOM to encode from)
//   libbson-iter    tree and incremental: bson_init_static over the input + recursive bson_iter.
//                   libbson has no separate DOM: its document *is* the zero-copy iterator, so both
//                   tests run this same code path. bson_iter checks lengths and structure, not text:
//                   every key and string is checked with bson_utf8_validate inside the loop, the
//                   check bson_iter_utf8's documentation names (spec/fairness.md rules 2 and 12).
#include <bson/bson.h>

#include <algorithm>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Drives bson_append_* from the reference object (DocWalker: iterative, any depth). An open embedded
// document is a child bson_t that libbson writes through into its parent, so children live in a
// vector sized once to the Doc's depth: their addresses never move while they are open.
class Append : public Adapter {
  struct Frame {
    bson_t* b;
    bool is_array;
    uint32_t index;   // the next array key
    const Node* key;  // the pending map key
  };
  const Doc doc_;
  bson_t* b_ = nullptr;
  struct alignas(bson_t) Kid {  // a wrapper keeps bson_t's 128-byte alignment inside the vector
    bson_t b;
  };
  std::vector<Kid> kids_;  // kids_[i]: the open container at depth i + 1 (the root is b_)
  std::vector<Frame> st_;
  DocWalker walk_;  // stacks reused across ops
  std::string* err_ = nullptr;
  char buf_[16];

  void key_of(Frame& f, const char*& k, int& klen) {
    if (f.is_array) {
      klen = static_cast<int>(bson_uint32_to_string(f.index++, &k, buf_, sizeof buf_));
    } else {
      k = doc_.str(*f.key);
      klen = static_cast<int>(f.key->count);
    }
  }
  bool failed(bool ok) {
    if (!ok && err_->empty()) *err_ = "bson_append failed (document too large?)";
    return ok;
  }

 public:
  // DocWalker visitor.
  bool scalar(const Node& n) {
    Frame& f = st_.back();
    const char* k;
    int kl;
    key_of(f, k, kl);
    switch (n.type) {
      case T::Null: return failed(bson_append_null(f.b, k, kl));
      case T::False: return failed(bson_append_bool(f.b, k, kl, false));
      case T::True: return failed(bson_append_bool(f.b, k, kl, true));
      case T::Uint:
        if (n.u > static_cast<uint64_t>(INT64_MAX)) {
          *err_ = "BSON has no uint64";
          return false;
        }
        [[fallthrough]];
      case T::Neg:  // int32 where it fits, else int64 (as the corpus does)
        return failed(n.i >= INT32_MIN && n.i <= INT32_MAX ? bson_append_int32(f.b, k, kl, static_cast<int32_t>(n.i))
                                                           : bson_append_int64(f.b, k, kl, n.i));
      case T::Double: return failed(bson_append_double(f.b, k, kl, n.d));
      case T::Str:
        if (n.count > INT32_MAX) return failed(false);
        return failed(bson_append_utf8(f.b, k, kl, doc_.str(n), static_cast<int>(n.count)));
      default:
        return failed(bson_append_binary(f.b, k, kl, BSON_SUBTYPE_BINARY, reinterpret_cast<const uint8_t*>(doc_.str(n)),
                                         n.count));
    }
  }
  bool key(const Node& k) {
    st_.back().key = &k;
    return true;
  }
  bool begin(const Node& n) {
    if (st_.empty()) {  // the root: its elements go straight into b_
      if (n.type != T::Map) {
        *err_ = "BSON needs a map at the root";
        return false;
      }
      st_.push_back(Frame{b_, false, 0, nullptr});
      return true;
    }
    Frame& f = st_.back();
    const char* k;
    int kl;
    key_of(f, k, kl);
    bson_t* child = &kids_[st_.size() - 1].b;
    const bool ok =
        n.type == T::Map ? bson_append_document_begin(f.b, k, kl, child) : bson_append_array_begin(f.b, k, kl, child);
    if (!failed(ok)) return false;
    st_.push_back(Frame{child, n.type == T::Array, 0, nullptr});
    return true;
  }
  bool end(const Node&) {
    const Frame f = st_.back();
    st_.pop_back();
    if (st_.empty()) return true;
    return failed(f.is_array ? bson_append_array_end(st_.back().b, f.b) : bson_append_document_end(st_.back().b, f.b));
  }

  explicit Append(const Doc& d) : doc_(d), kids_(std::max<size_t>(d.max_depth, 1)) {}
  ~Append() override {
    if (b_) bson_destroy(b_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    if (b_) bson_destroy(b_);
    b_ = bson_new();  // a fresh document every iteration
    st_.clear();
    err_ = &err;
    if (!walk_(doc_, *this)) return false;
    out = reinterpret_cast<const char*>(bson_get_data(b_));
    len = b_->len;
    return true;
  }
};
#else
// Hashes the document and its embedded documents and arrays with an explicit stack of iterators
// (any depth): bson_iter_recurse gives a child iterator over the same bytes.
//
// UTF-8: bson_iter_next checks lengths and terminators but never the text, and bson_iter_utf8's
// documentation asks the caller to check it, "by calling bson_utf8_validate() or validating the
// underlying bson_t before iterating it". The loop calls bson_utf8_validate on every key (array
// keys too, as BSON_VALIDATE_UTF8 does) and every string, with allow_null false: libbson's default,
// and the data model's (no NUL inside a string). Not bson_validate_with_error(BSON_VALIDATE_UTF8)
// first: in libbson 1.23 it ignores what bson_iter_visit_all reports, so it accepts a string value
// with 0xFF or an overlong sequence (CDRIVER-4448; fixed upstream in 2025), and it recurses once per
// level, so 10,000 nested arrays overflow the stack.
class Iter : public Adapter {
  struct Frame {
    bson_iter_t it;
    bool is_map;
  };
  Hasher h_;
  std::vector<Frame> st_;  // reused across ops

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    bson_t b;
    Frame root;
    if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(buf), len) || !bson_iter_init(&root.it, &b)) {
      err = "invalid BSON document header";
      return false;
    }
    root.is_map = true;
    sb_hasher_init(&h_);
    st_.clear();
    st_.push_back(root);
    sb_hasher_open(&h_, 1);
    while (!st_.empty()) {
      bson_iter_t* it = &st_.back().it;
      if (!bson_iter_next(it)) {
        if (it->err_off) {  // bson_iter_next stops early on a corrupt element and records where
          err = "corrupt BSON at offset " + std::to_string(it->err_off);
          return false;
        }
        sb_hasher_close(&h_);
        st_.pop_back();
        continue;
      }
      const char* k = bson_iter_key(it);
      const uint32_t kl = bson_iter_key_len(it);
      if (!bson_utf8_validate(k, kl, false)) {
        err = "invalid UTF-8 in a key at offset " + std::to_string(it->off);
        return false;
      }
      if (st_.back().is_map) sb_hasher_key(&h_, k, kl);
      switch (bson_iter_type(it)) {
        case BSON_TYPE_DOUBLE: sb_hasher_emit(&h_, sb_hash_double(bson_iter_double(it))); break;
        case BSON_TYPE_UTF8: {
          uint32_t l;
          const char* s = bson_iter_utf8(it, &l);
          if (!bson_utf8_validate(s, l, false)) {
            err = "invalid UTF-8 (or a NUL) in a string at offset " + std::to_string(it->off);
            return false;
          }
          sb_hasher_emit(&h_, sb_hash_str(s, l));
          break;
        }
        case BSON_TYPE_DOCUMENT:
        case BSON_TYPE_ARRAY: {
          Frame child;
          child.is_map = bson_iter_type(it) == BSON_TYPE_DOCUMENT;
          if (!bson_iter_recurse(it, &child.it)) {
            err = "corrupt embedded document";
            return false;
          }
          sb_hasher_open(&h_, child.is_map);
          st_.push_back(child);  // `it` is not used after this
          break;
        }
        case BSON_TYPE_BINARY: {
          bson_subtype_t st;
          uint32_t l;
          const uint8_t* p;
          bson_iter_binary(it, &st, &l, &p);
          sb_hasher_emit(&h_, sb_hash_bin(p, l));
          break;
        }
        case BSON_TYPE_BOOL: sb_hasher_emit(&h_, sb_hash_bool(bson_iter_bool(it))); break;
        case BSON_TYPE_NULL: sb_hasher_emit(&h_, sb_hash_null()); break;
        case BSON_TYPE_INT32: sb_hasher_emit(&h_, sb_hash_int(bson_iter_int32(it))); break;
        case BSON_TYPE_INT64: sb_hasher_emit(&h_, sb_hash_int(bson_iter_int64(it))); break;
        default: err = "BSON type " + std::to_string(bson_iter_type(it)) + " is outside the data model"; return false;
      }
    }
    if (!sb_hasher_done(&h_, &hash)) {
      err = sb_hasher_error(&h_);
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
    i.library = "libbson";
    i.version = SB_VERSION;
    i.formats = {"bson"};
#if SB_VARIANT == 1
    i.id = "libbson-append";
    i.tests = {"write"};
    i.notes = "bson_append_* into a fresh bson_t (int32 where it fits, else int64)";
#else
    i.id = "libbson-iter";
    i.tests = {"tree", "incremental"};
    i.notes =
        "zero-copy bson_iter over bson_init_static, every key and string checked with bson_utf8_validate (no "
        "NUL); tree and incremental are the same code";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc& input, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Append>(input);
#else
  (void)input;
  return std::make_unique<Iter>();
#endif
}

}  // namespace sb
