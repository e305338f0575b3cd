// msgpack-c (C API, libmsgpackc.a): `msgpack-c` = write with the streaming packer
// (msgpack_pack_*) into a fresh msgpack_sbuffer, tree with msgpack_unpack_next into a msgpack_object
// tree (zone-allocated; strings point into the input buffer).
#include <msgpack.h>

#include "sb.h"

namespace sb {
namespace {

bool hash_obj(const msgpack_object& o, uint64_t& h, std::string& err) {
  switch (o.type) {
    case MSGPACK_OBJECT_NIL: h = sb_hash_null(); return true;
    case MSGPACK_OBJECT_BOOLEAN: h = sb_hash_bool(o.via.boolean); return true;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: h = sb_hash_uint(o.via.u64); return true;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: h = sb_hash_int(o.via.i64); return true;
    case MSGPACK_OBJECT_FLOAT32:  // via.f64 holds the float widened to double
    case MSGPACK_OBJECT_FLOAT64: h = sb_hash_double(o.via.f64); return true;
    case MSGPACK_OBJECT_STR: h = sb_hash_str(o.via.str.ptr, o.via.str.size); return true;
    case MSGPACK_OBJECT_BIN: h = sb_hash_bin(o.via.bin.ptr, o.via.bin.size); return true;
    case MSGPACK_OBJECT_ARRAY: {
      uint64_t a = sb_array_start(), e;
      for (uint32_t i = 0; i < o.via.array.size; i++) {
        if (!hash_obj(o.via.array.ptr[i], e, err)) return false;
        a = sb_array_add(a, e);
      }
      h = sb_array_end(a, o.via.array.size);
      return true;
    }
    case MSGPACK_OBJECT_MAP: {
      uint64_t s = 0, v;
      for (uint32_t i = 0; i < o.via.map.size; i++) {
        const msgpack_object_kv& kv = o.via.map.ptr[i];
        if (kv.key.type != MSGPACK_OBJECT_STR) {
          err = "map key is not a string";
          return false;
        }
        if (!hash_obj(kv.val, v, err)) return false;
        s += sb_map_entry(sb_hash_str(kv.key.via.str.ptr, kv.key.via.str.size), v);
      }
      h = sb_map_end(s, o.via.map.size);
      return true;
    }
    default: err = "msgpack type outside the data model (ext)"; return false;
  }
}

class Unpack : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    msgpack_unpacked res;
    msgpack_unpacked_init(&res);
    size_t off = 0;
    const msgpack_unpack_return r = msgpack_unpack_next(&res, buf, len, &off);
    bool ok = r == MSGPACK_UNPACK_SUCCESS && off == len;
    if (!ok)
      err = r == MSGPACK_UNPACK_SUCCESS ? "trailing bytes" : "msgpack_unpack_next returned " + std::to_string(r);
    else
      ok = hash_obj(res.data, hash, err);
    msgpack_unpacked_destroy(&res);
    return ok;
  }
};

// Walks the reference object calling the packer: msgpack-c's C API has no DOM to encode from.
int pack(msgpack_packer* pk, const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return msgpack_pack_nil(pk);
    case T::False: return msgpack_pack_false(pk);
    case T::True: return msgpack_pack_true(pk);
    case T::Uint: return msgpack_pack_uint64(pk, n.u);
    case T::Neg: return msgpack_pack_int64(pk, n.i);
    case T::Double: return msgpack_pack_double(pk, n.d);
    case T::Str: return msgpack_pack_str(pk, n.count) || msgpack_pack_str_body(pk, d.str(n), n.count);
    case T::Bin: return msgpack_pack_bin(pk, n.count) || msgpack_pack_bin_body(pk, d.str(n), n.count);
    case T::Array:
      if (msgpack_pack_array(pk, n.count)) return -1;
      for (uint32_t c = 0; c < n.count; c++)
        if (pack(pk, d, i)) return -1;
      return 0;
    case T::Map:
      if (msgpack_pack_map(pk, n.count)) return -1;
      for (uint32_t c = 0; c < 2 * n.count; c++)
        if (pack(pk, d, i)) return -1;
      return 0;
  }
  return -1;
}

class Pack : public Adapter {
  const Doc doc_;
  msgpack_sbuffer sbuf_;

 public:
  explicit Pack(const Doc& d) : doc_(d) { msgpack_sbuffer_init(&sbuf_); }
  ~Pack() override { msgpack_sbuffer_destroy(&sbuf_); }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    msgpack_sbuffer_destroy(&sbuf_);  // a fresh output buffer every iteration
    msgpack_sbuffer_init(&sbuf_);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sbuf_, msgpack_sbuffer_write);
    size_t i = 0;
    if (pack(&pk, doc_, i) != 0) {
      err = "msgpack_pack failed";
      return false;
    }
    out = sbuf_.data;
    len = sbuf_.size;
    return true;
  }
};

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.id = "msgpack-c";
    i.library = "msgpack-c";
    i.version = SB_VERSION;
    i.formats = {"msgpack"};
    i.tests = {"write", "tree"};
    i.notes = "C API: msgpack_pack_* into a fresh msgpack_sbuffer; msgpack_unpack_next to msgpack_object";
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string&, const Doc& input, const std::string&,
                                      std::string&) {
  if (test == "write") return std::make_unique<Pack>(input);
  return std::make_unique<Unpack>();
}

}  // namespace sb
