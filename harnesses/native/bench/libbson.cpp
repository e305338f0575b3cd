// libbson (libbson-static-1.0.a):
//   libbson-append  write: bson_append_* into a fresh bson_t, walking the reference object
//                   (libbson has no DOM to encode from)
//   libbson-iter    tree and incremental: bson_init_static over the input + recursive bson_iter.
//                   libbson has no separate DOM: its document *is* the zero-copy iterator, so both
//                   tests run this same code path.
#include <bson/bson.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
bool append_value(bson_t* b, const char* key, int klen, const Doc& d, size_t& i, std::string& err);

bool append_children(bson_t* b, const Doc& d, size_t& i, const Node& n, std::string& err) {
  if (n.type == T::Map) {
    for (uint32_t c = 0; c < n.count; c++) {
      const Node& k = d.nodes[i++];
      if (!append_value(b, d.str(k), static_cast<int>(k.count), d, i, err)) return false;
    }
    return true;
  }
  char buf[16];
  for (uint32_t c = 0; c < n.count; c++) {
    const char* key;
    const size_t klen = bson_uint32_to_string(c, &key, buf, sizeof buf);
    if (!append_value(b, key, static_cast<int>(klen), d, i, err)) return false;
  }
  return true;
}

bool append_value(bson_t* b, const char* key, int klen, const Doc& d, size_t& i, std::string& err) {
  const Node& n = d.nodes[i++];
  bool ok = false;
  switch (n.type) {
    case T::Null: ok = bson_append_null(b, key, klen); break;
    case T::False: ok = bson_append_bool(b, key, klen, false); break;
    case T::True: ok = bson_append_bool(b, key, klen, true); break;
    case T::Uint:
      if (n.u > static_cast<uint64_t>(INT64_MAX)) {
        err = "BSON has no uint64";
        return false;
      }
      [[fallthrough]];
    case T::Neg:  // int32 where it fits, else int64 (as the corpus does)
      ok = n.i >= INT32_MIN && n.i <= INT32_MAX ? bson_append_int32(b, key, klen, static_cast<int32_t>(n.i))
                                                : bson_append_int64(b, key, klen, n.i);
      break;
    case T::Double: ok = bson_append_double(b, key, klen, n.d); break;
    case T::Str: ok = bson_append_utf8(b, key, klen, d.str(n), static_cast<int>(n.count)); break;
    case T::Bin:
      ok = bson_append_binary(b, key, klen, BSON_SUBTYPE_BINARY, reinterpret_cast<const uint8_t*>(d.str(n)), n.count);
      break;
    case T::Array:
    case T::Map: {
      bson_t child;
      ok = n.type == T::Map ? bson_append_document_begin(b, key, klen, &child)
                            : bson_append_array_begin(b, key, klen, &child);
      if (!ok) break;
      if (!append_children(&child, d, i, n, err)) return false;
      ok = n.type == T::Map ? bson_append_document_end(b, &child) : bson_append_array_end(b, &child);
      break;
    }
  }
  if (!ok && err.empty()) err = "bson_append failed (key with NUL or document too large)";
  return ok;
}

class Append : public Adapter {
  const Doc doc_;
  bson_t* b_ = nullptr;

 public:
  explicit Append(const Doc& d) : doc_(d) {}
  ~Append() override {
    if (b_) bson_destroy(b_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    if (b_) bson_destroy(b_);
    b_ = bson_new();  // a fresh document every iteration
    size_t i = 0;
    const Node& root = doc_.nodes[i++];
    if (root.type != T::Map) {
      err = "BSON needs a map at the root";
      return false;
    }
    if (!append_children(b_, doc_, i, root, err)) return false;
    out = reinterpret_cast<const char*>(bson_get_data(b_));
    len = b_->len;
    return true;
  }
};
#else
// Hashes the elements of the document or array `it` points into.
bool hash_iter(bson_iter_t* it, bool is_map, uint64_t& h, std::string& err) {
  uint64_t acc = is_map ? 0 : sb_array_start(), n = 0;
  while (bson_iter_next(it)) {
    uint64_t v;
    switch (bson_iter_type(it)) {
      case BSON_TYPE_DOUBLE: v = sb_hash_double(bson_iter_double(it)); break;
      case BSON_TYPE_UTF8: {
        uint32_t l;
        const char* s = bson_iter_utf8(it, &l);
        v = sb_hash_str(s, l);
        break;
      }
      case BSON_TYPE_DOCUMENT:
      case BSON_TYPE_ARRAY: {
        bson_iter_t child;
        if (!bson_iter_recurse(it, &child)) {
          err = "corrupt embedded document";
          return false;
        }
        if (!hash_iter(&child, bson_iter_type(it) == BSON_TYPE_DOCUMENT, v, err)) return false;
        break;
      }
      case BSON_TYPE_BINARY: {
        bson_subtype_t st;
        uint32_t l;
        const uint8_t* p;
        bson_iter_binary(it, &st, &l, &p);
        v = sb_hash_bin(p, l);
        break;
      }
      case BSON_TYPE_BOOL: v = sb_hash_bool(bson_iter_bool(it)); break;
      case BSON_TYPE_NULL: v = sb_hash_null(); break;
      case BSON_TYPE_INT32: v = sb_hash_int(bson_iter_int32(it)); break;
      case BSON_TYPE_INT64: v = sb_hash_int(bson_iter_int64(it)); break;
      default: err = "BSON type " + std::to_string(bson_iter_type(it)) + " is outside the data model"; return false;
    }
    if (is_map)
      acc += sb_map_entry(sb_hash_str(bson_iter_key(it), bson_iter_key_len(it)), v);
    else
      acc = sb_array_add(acc, v);
    n++;
  }
  if (it->err_off) {  // bson_iter_next stops early on a corrupt element and records where
    err = "corrupt BSON at offset " + std::to_string(it->err_off);
    return false;
  }
  h = is_map ? sb_map_end(acc, n) : sb_array_end(acc, n);
  return true;
}

class Iter : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    bson_t b;
    bson_iter_t it;
    if (!bson_init_static(&b, reinterpret_cast<const uint8_t*>(buf), len) || !bson_iter_init(&it, &b)) {
      err = "invalid BSON document header";
      return false;
    }
    return hash_iter(&it, true, hash, err);
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
    i.notes = "zero-copy bson_iter over bson_init_static; tree and incremental are the same code";
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
