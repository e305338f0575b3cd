// msgpack-cxx (header-only, built with MSGPACK_NO_BOOST):
//   msgpack-cxx (write, tree): msgpack::packer into a fresh msgpack::sbuffer; msgpack::unpack to a
//                              msgpack::object tree (zone-allocated)
//   msgpack-cxx-visitor (incremental): msgpack::parse with a visitor feeding the streaming hash
#include <msgpack.hpp>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Drives the packer from the reference object (DocWalker: iterative, any depth).
struct PackVisit {
  msgpack::packer<msgpack::sbuffer>* pk;
  const Doc* d;
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: pk->pack_nil(); break;
      case T::False: pk->pack_false(); break;
      case T::True: pk->pack_true(); break;
      case T::Uint: pk->pack_uint64(n.u); break;
      case T::Neg: pk->pack_int64(n.i); break;
      case T::Double: pk->pack_double(n.d); break;
      case T::Str: pk->pack_str(n.count).pack_str_body(d->str(n), n.count); break;
      default: pk->pack_bin(n.count).pack_bin_body(d->str(n), n.count); break;
    }
    return true;
  }
  bool key(const Node& k) { return scalar(k); }
  bool begin(const Node& n) {
    if (n.type == T::Map)
      pk->pack_map(n.count);
    else
      pk->pack_array(n.count);
    return true;
  }
  bool end(const Node&) { return true; }
};

class Pack : public Adapter {
  const Doc doc_;
  std::unique_ptr<msgpack::sbuffer> out_;
  DocWalker walk_;  // its stack is reused across ops

 public:
  explicit Pack(const Doc& d) : doc_(d) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
      out_ = std::make_unique<msgpack::sbuffer>();  // a fresh output buffer every iteration
      msgpack::packer<msgpack::sbuffer> pk(*out_);
      PackVisit v{&pk, &doc_};
      walk_(doc_, v);
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
    out = out_->data();
    len = out_->size();
    return true;
  }
};

// The tree walk (TreeHasher: iterative, any depth).
struct ObjWalk {
  using Ref = const msgpack::object*;
  struct Iter {
    const msgpack::object* o;
    uint32_t i;
  };
  static int enter(Ref o, Iter& it, TreeSink* h, std::string& err) {
    switch (o->type) {
      case msgpack::type::NIL: sb_hasher_emit(h, sb_hash_null()); return 0;
      case msgpack::type::BOOLEAN: sb_hasher_emit(h, sb_hash_bool(o->via.boolean)); return 0;
      case msgpack::type::POSITIVE_INTEGER: sb_hasher_emit(h, sb_hash_uint(o->via.u64)); return 0;
      case msgpack::type::NEGATIVE_INTEGER: sb_hasher_emit(h, sb_hash_int(o->via.i64)); return 0;
      case msgpack::type::FLOAT32:
      case msgpack::type::FLOAT64: sb_hasher_emit(h, sb_hash_double(o->via.f64)); return 0;
      case msgpack::type::STR: sb_hasher_emit(h, sb_hash_str(o->via.str.ptr, o->via.str.size)); return 0;
      case msgpack::type::BIN: sb_hasher_emit(h, sb_hash_bin(o->via.bin.ptr, o->via.bin.size)); return 0;
      case msgpack::type::ARRAY:
      case msgpack::type::MAP:
        sb_hasher_open(h, o->type == msgpack::type::MAP);
        it = Iter{o, 0};
        return 1;
      default: err = "msgpack ext is outside the data model"; return -1;
    }
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string& err) {
    if (it.o->type == msgpack::type::ARRAY) {
      if (it.i == it.o->via.array.size) return 0;
      c = &it.o->via.array.ptr[it.i++];
      return 1;
    }
    if (it.i == it.o->via.map.size) return 0;
    const auto& kv = it.o->via.map.ptr[it.i++];
    if (kv.key.type != msgpack::type::STR) {
      err = "map key is not a string";
      return -1;
    }
    sb_hasher_key(h, kv.key.via.str.ptr, kv.key.via.str.size);
    c = &kv.val;
    return 1;
  }
};

class Unpack : public Adapter {
  TreeHasher<ObjWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    try {
      size_t off = 0;
      msgpack::object_handle oh = msgpack::unpack(buf, len, off);
      if (off != len) {
        err = "trailing bytes";
        return false;
      }
      return hash_(&oh.get(), hash, err);
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
  }
};
#else
struct Visitor : msgpack::null_visitor {
  Hasher h;
  bool in_key = false;
  const char* error = nullptr;
  bool emit(uint64_t v) {
    if (in_key) {
      error = "map key is not a string";
      return false;
    }
    sb_hasher_emit(&h, v);
    return true;
  }
  bool visit_nil() { return emit(sb_hash_null()); }
  bool visit_boolean(bool v) { return emit(sb_hash_bool(v)); }
  bool visit_positive_integer(uint64_t v) { return emit(sb_hash_uint(v)); }
  bool visit_negative_integer(int64_t v) { return emit(sb_hash_int(v)); }
  bool visit_float32(float v) { return emit(sb_hash_double(v)); }
  bool visit_float64(double v) { return emit(sb_hash_double(v)); }
  bool visit_str(const char* s, uint32_t n) {
    if (in_key) return sb_hasher_key(&h, s, n), true;
    return emit(sb_hash_str(s, n));
  }
  bool visit_bin(const char* s, uint32_t n) { return emit(sb_hash_bin(s, n)); }
  bool visit_ext(const char*, uint32_t) {
    error = "msgpack ext is outside the data model";
    return false;
  }
  bool open(int is_map) {
    if (in_key) {
      error = "map key is not a string";
      return false;
    }
    sb_hasher_open(&h, is_map);
    return !h.error;
  }
  bool start_array(uint32_t) { return open(0); }
  bool end_array() { return sb_hasher_close(&h), !h.error; }
  bool start_map(uint32_t) { return open(1); }
  bool start_map_key() { return in_key = true; }
  bool end_map_key() { return !(in_key = false); }
  bool end_map() { return sb_hasher_close(&h), !h.error; }
  void parse_error(size_t, size_t off) { throw std::runtime_error("parse error at offset " + std::to_string(off)); }
  void insufficient_bytes(size_t, size_t) { throw std::runtime_error("truncated msgpack"); }
};

class Parse : public Adapter {
  Visitor v_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&v_.h);
    v_.in_key = false;
    v_.error = nullptr;
    size_t off = 0;
    bool ok;
    try {
      ok = msgpack::parse(buf, len, off, v_);
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
    if (!ok || off != len || !sb_hasher_done(&v_.h, &hash)) {
      err = v_.error     ? v_.error
            : v_.h.error ? sb_hasher_error(&v_.h)
            : !ok        ? "parse failed"
            : off != len ? "trailing bytes"
                         : "unbalanced events";
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
    i.library = "msgpack-cxx";
    i.version = SB_VERSION;
    i.formats = {"msgpack"};
#if SB_VARIANT == 1
    i.id = "msgpack-cxx";
    i.tests = {"write", "tree"};
    i.notes =
        "msgpack::packer into a fresh sbuffer; msgpack::unpack to msgpack::object (zone); "
        "msgpack-cxx has no UTF-8 check (a str that is not UTF-8 is accepted)";
#else
    i.id = "msgpack-cxx-visitor";
    i.tests = {"incremental"};
    i.notes =
        "msgpack-cxx has no UTF-8 check (a str that is not UTF-8 is accepted); msgpack::parse with "
        "a visitor (no object tree)";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string&, const Doc& input, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  if (test == "write") return std::make_unique<Pack>(input);
  return std::make_unique<Unpack>();
#else
  (void)test, (void)input;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
