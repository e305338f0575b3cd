// msgpack-cxx (header-only, built with MSGPACK_NO_BOOST):
//   msgpack-cxx (write, tree): msgpack::packer into a fresh msgpack::sbuffer; msgpack::unpack to a
//                              msgpack::object tree (zone-allocated)
//   msgpack-cxx-visitor (incremental): msgpack::parse with a visitor feeding the streaming hash
#include <msgpack.hpp>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
void pack(msgpack::packer<msgpack::sbuffer>& pk, const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: pk.pack_nil(); break;
    case T::False: pk.pack_false(); break;
    case T::True: pk.pack_true(); break;
    case T::Uint: pk.pack_uint64(n.u); break;
    case T::Neg: pk.pack_int64(n.i); break;
    case T::Double: pk.pack_double(n.d); break;
    case T::Str: pk.pack_str(n.count).pack_str_body(d.str(n), n.count); break;
    case T::Bin: pk.pack_bin(n.count).pack_bin_body(d.str(n), n.count); break;
    case T::Array:
      pk.pack_array(n.count);
      for (uint32_t c = 0; c < n.count; c++) pack(pk, d, i);
      break;
    case T::Map:
      pk.pack_map(n.count);
      for (uint32_t c = 0; c < 2 * n.count; c++) pack(pk, d, i);
      break;
  }
}

class Pack : public Adapter {
  const Doc doc_;
  std::unique_ptr<msgpack::sbuffer> out_;

 public:
  explicit Pack(const Doc& d) : doc_(d) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
      out_ = std::make_unique<msgpack::sbuffer>();  // a fresh output buffer every iteration
      msgpack::packer<msgpack::sbuffer> pk(*out_);
      size_t i = 0;
      pack(pk, doc_, i);
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
    out = out_->data();
    len = out_->size();
    return true;
  }
};

bool hash_obj(const msgpack::object& o, uint64_t& h, std::string& err) {
  switch (o.type) {
    case msgpack::type::NIL: h = sb_hash_null(); return true;
    case msgpack::type::BOOLEAN: h = sb_hash_bool(o.via.boolean); return true;
    case msgpack::type::POSITIVE_INTEGER: h = sb_hash_uint(o.via.u64); return true;
    case msgpack::type::NEGATIVE_INTEGER: h = sb_hash_int(o.via.i64); return true;
    case msgpack::type::FLOAT32:
    case msgpack::type::FLOAT64: h = sb_hash_double(o.via.f64); return true;
    case msgpack::type::STR: h = sb_hash_str(o.via.str.ptr, o.via.str.size); return true;
    case msgpack::type::BIN: h = sb_hash_bin(o.via.bin.ptr, o.via.bin.size); return true;
    case msgpack::type::ARRAY: {
      uint64_t a = sb_array_start(), v;
      for (uint32_t i = 0; i < o.via.array.size; i++) {
        if (!hash_obj(o.via.array.ptr[i], v, err)) return false;
        a = sb_array_add(a, v);
      }
      h = sb_array_end(a, o.via.array.size);
      return true;
    }
    case msgpack::type::MAP: {
      uint64_t s = 0, v;
      for (uint32_t i = 0; i < o.via.map.size; i++) {
        const auto& kv = o.via.map.ptr[i];
        if (kv.key.type != msgpack::type::STR) {
          err = "map key is not a string";
          return false;
        }
        if (!hash_obj(kv.val, v, err)) return false;
        s += sb_map_entry(sb_hash_str(kv.key.via.str.ptr, kv.key.via.str.size), v);
      }
      h = sb_map_end(s, o.via.map.size);
      return true;
    }
    default: err = "msgpack ext is outside the data model"; return false;
  }
}

class Unpack : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    try {
      size_t off = 0;
      msgpack::object_handle oh = msgpack::unpack(buf, len, off);
      if (off != len) {
        err = "trailing bytes";
        return false;
      }
      return hash_obj(oh.get(), hash, err);
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
  }
};
#else
struct Visitor : msgpack::null_visitor {
  sb_hasher h;
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
  bool start_array(uint32_t) { return !in_key && (sb_hasher_open(&h, 0), !h.error); }
  bool end_array() { return sb_hasher_close(&h), !h.error; }
  bool start_map(uint32_t) { return !in_key && (sb_hasher_open(&h, 1), !h.error); }
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
      err = v_.error ? v_.error : off != len ? "trailing bytes" : "parse failed";
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
    i.notes = "msgpack::packer into a fresh sbuffer; msgpack::unpack to msgpack::object (zone)";
#else
    i.id = "msgpack-cxx-visitor";
    i.tests = {"incremental"};
    i.notes = "msgpack::parse with a visitor (no object tree)";
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
