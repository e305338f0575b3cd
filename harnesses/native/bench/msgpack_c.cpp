// msgpack-c (C API, libmsgpackc.a): `msgpack-c` = write with the streaming packer
// (msgpack_pack_*) into a fresh msgpack_sbuffer, tree with msgpack_unpack_next into a msgpack_object
// tree (zone-allocated; strings point into the input buffer).
#include <msgpack.h>

#include "sb.h"

namespace sb {
namespace {

// The tree walk (TreeHasher: iterative, any depth).
struct ObjWalk {
  using Ref = const msgpack_object*;
  struct Iter {
    const msgpack_object* o;
    uint32_t i;
  };
  static int enter(Ref o, Iter& it, TreeSink* h, std::string& err) {
    switch (o->type) {
      case MSGPACK_OBJECT_NIL: sb_hasher_emit(h, sb_hash_null()); return 0;
      case MSGPACK_OBJECT_BOOLEAN: sb_hasher_emit(h, sb_hash_bool(o->via.boolean)); return 0;
      case MSGPACK_OBJECT_POSITIVE_INTEGER: sb_hasher_emit(h, sb_hash_uint(o->via.u64)); return 0;
      case MSGPACK_OBJECT_NEGATIVE_INTEGER: sb_hasher_emit(h, sb_hash_int(o->via.i64)); return 0;
      case MSGPACK_OBJECT_FLOAT32:  // via.f64 holds the float widened to double
      case MSGPACK_OBJECT_FLOAT64: sb_hasher_emit(h, sb_hash_double(o->via.f64)); return 0;
      case MSGPACK_OBJECT_STR: sb_hasher_emit(h, sb_hash_str(o->via.str.ptr, o->via.str.size)); return 0;
      case MSGPACK_OBJECT_BIN: sb_hasher_emit(h, sb_hash_bin(o->via.bin.ptr, o->via.bin.size)); return 0;
      case MSGPACK_OBJECT_ARRAY:
      case MSGPACK_OBJECT_MAP:
        sb_hasher_open(h, o->type == MSGPACK_OBJECT_MAP);
        it = Iter{o, 0};
        return 1;
      default: err = "msgpack type outside the data model (ext)"; return -1;
    }
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string& err) {
    if (it.o->type == MSGPACK_OBJECT_ARRAY) {
      if (it.i == it.o->via.array.size) return 0;
      c = &it.o->via.array.ptr[it.i++];
      return 1;
    }
    if (it.i == it.o->via.map.size) return 0;
    const msgpack_object_kv& kv = it.o->via.map.ptr[it.i++];
    if (kv.key.type != MSGPACK_OBJECT_STR) {
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
    msgpack_unpacked res;
    msgpack_unpacked_init(&res);
    size_t off = 0;
    const msgpack_unpack_return r = msgpack_unpack_next(&res, buf, len, &off);
    bool ok = r == MSGPACK_UNPACK_SUCCESS && off == len;
    if (!ok)
      err = r == MSGPACK_UNPACK_SUCCESS ? "trailing bytes" : "msgpack_unpack_next returned " + std::to_string(r);
    else
      ok = hash_(&res.data, hash, err);
    msgpack_unpacked_destroy(&res);
    return ok;
  }
};

// Drives the packer from the reference object (DocWalker: iterative, any depth): msgpack-c's C API
// has no DOM to encode from. The pre-order Doc maps onto MessagePack's headers-then-items directly.
struct PackVisit {
  msgpack_packer* pk;
  const Doc* d;
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return msgpack_pack_nil(pk) == 0;
      case T::False: return msgpack_pack_false(pk) == 0;
      case T::True: return msgpack_pack_true(pk) == 0;
      case T::Uint: return msgpack_pack_uint64(pk, n.u) == 0;
      case T::Neg: return msgpack_pack_int64(pk, n.i) == 0;
      case T::Double: return msgpack_pack_double(pk, n.d) == 0;
      case T::Str: return !(msgpack_pack_str(pk, n.count) || msgpack_pack_str_body(pk, d->str(n), n.count));
      default: return !(msgpack_pack_bin(pk, n.count) || msgpack_pack_bin_body(pk, d->str(n), n.count));
    }
  }
  bool key(const Node& k) { return scalar(k); }
  bool begin(const Node& n) {
    return (n.type == T::Map ? msgpack_pack_map(pk, n.count) : msgpack_pack_array(pk, n.count)) == 0;
  }
  bool end(const Node&) { return true; }
};

class Pack : public Adapter {
  const Doc doc_;
  msgpack_sbuffer sbuf_;
  DocWalker walk_;  // its stack is reused across ops

 public:
  explicit Pack(const Doc& d) : doc_(d) { msgpack_sbuffer_init(&sbuf_); }
  ~Pack() override { msgpack_sbuffer_destroy(&sbuf_); }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    msgpack_sbuffer_destroy(&sbuf_);  // a fresh output buffer every iteration
    msgpack_sbuffer_init(&sbuf_);
    msgpack_packer pk;
    msgpack_packer_init(&pk, &sbuf_, msgpack_sbuffer_write);
    PackVisit v{&pk, &doc_};
    if (!walk_(doc_, v)) {
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
    i.notes =
        "C API: msgpack_pack_* into a fresh msgpack_sbuffer; msgpack_unpack_next to msgpack_object; tree is "
        "msgpack-c has no UTF-8 check (a str that is not UTF-8 is accepted)";
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
