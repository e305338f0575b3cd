// libmpack (libmpack.a), the token-level MessagePack library used by Neovim:
//   1 libmpack-write        write: mpack_write of tokens walking the reference object, into a
//                           fresh growing buffer (mpack_pack_float = float32 when lossless)
//   2 libmpack-incremental  incremental: mpack_read token by token; containers carry only their
//                           item count, so the adapter counts items to know where they end
#include "sb.h"

// mpack.h does `#ifndef bool / #define bool unsigned`, meant for C89; in C++ that would rename the
// keyword, so bool is defined to itself around the include. It also has no extern "C" block.
#define bool bool
extern "C" {
#include <mpack.h>
}
#undef bool

namespace sb {
namespace {

#if SB_VARIANT == 1
class Write : public Adapter {
  const Doc doc_;
  std::string out_;
  size_t pos_ = 0;
  mpack_tokbuf_t tb_;

  // Room for the token is reserved first, so mpack_write never stops half-way (MPACK_EOF).
  bool put(const mpack_token_t& t, size_t extra = 0) {
    if (out_.size() - pos_ < MPACK_MAX_TOKEN_LEN + extra) out_.resize(2 * out_.size() + MPACK_MAX_TOKEN_LEN + extra);
    char* b = &out_[pos_];
    size_t bl = out_.size() - pos_;
    const int r = mpack_write(&tb_, &b, &bl, &t);
    pos_ = static_cast<size_t>(b - out_.data());
    return r == MPACK_OK;
  }

  // DocWalker visitor: the pre-order Doc maps onto MessagePack's headers-then-items directly.
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return put(mpack_pack_nil());
      case T::False: return put(mpack_pack_boolean(0));
      case T::True: return put(mpack_pack_boolean(1));
      case T::Uint: return put(mpack_pack_uint(n.u));
      case T::Neg: return put(mpack_pack_sint(n.i));
      case T::Double: return put(mpack_pack_float(n.d));
      default:  // Str, Bin
        if (!put(n.type == T::Str ? mpack_pack_str(n.count) : mpack_pack_bin(n.count))) return false;
        return n.count == 0 || put(mpack_pack_chunk(doc_.str(n), n.count), n.count);
    }
  }
  bool key(const Node& k) { return scalar(k); }
  bool begin(const Node& n) { return put(n.type == T::Map ? mpack_pack_map(n.count) : mpack_pack_array(n.count)); }
  bool end(const Node&) { return true; }
  friend class sb::DocWalker;

  DocWalker walk_;  // its stack is reused across ops

 public:
  explicit Write(const Doc& d) : doc_(d) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    out_ = std::string();  // a fresh output buffer every iteration
    out_.resize(256);
    pos_ = 0;
    mpack_tokbuf_init(&tb_);
    if (!walk_(doc_, *this)) {
      err = "mpack_write failed";
      return false;
    }
    out = out_.data();
    len = pos_;
    return true;
  }
};
#else
class Incremental : public Adapter {
  struct Frame {
    uint64_t left;  // items still to come (a map counts keys and values)
    bool is_map, key_next;
  };
  Hasher h_;
  std::vector<Frame> frames_;  // grows with the nesting, reused across ops

  bool at_key() const { return !frames_.empty() && frames_.back().is_map && frames_.back().key_next; }

  // A complete item was fed to the hasher: count it, closing every container it completes.
  void item_done() {
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      if (f.is_map) f.key_next = !f.key_next;
      if (--f.left > 0) return;
      sb_hasher_close(&h_);
      frames_.pop_back();
    }
  }

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&h_);
    frames_.clear();
    mpack_tokbuf_t tb;
    mpack_tokbuf_init(&tb);
    const char* p = buf;
    size_t left = len;
    // A str/bin header is followed by chunk tokens pointing into the input; with the whole input
    // in memory they are contiguous, so a string is (first chunk pointer, total length).
    const char* str = nullptr;
    uint32_t str_need = 0, str_have = 0;
    bool str_bin = false, str_key = false;
    while (!h_.has_result) {
      // Every pass needs input: mpack_read with nothing left inside a str/bin body returns OK and
      // an empty chunk, forever (a truncated string hung this loop).
      if (left == 0) {
        err = "truncated msgpack";
        return false;
      }
      mpack_token_t t;
      const size_t before = left;
      const int r = mpack_read(&tb, &p, &left, &t);
      if (r != MPACK_OK) {
        err = r == MPACK_EOF ? "truncated msgpack" : "malformed msgpack";
        return false;
      }
      if (left >= before) {  // no byte consumed: would spin
        err = "mpack_read made no progress";
        return false;
      }
      uint64_t v;
      switch (t.type) {
        case MPACK_TOKEN_NIL: v = sb_hash_null(); break;
        case MPACK_TOKEN_BOOLEAN: v = sb_hash_bool(mpack_unpack_boolean(t)); break;
        case MPACK_TOKEN_UINT: v = sb_hash_uint(mpack_unpack_uint(t)); break;
        case MPACK_TOKEN_SINT: v = sb_hash_int(mpack_unpack_sint(t)); break;
        case MPACK_TOKEN_FLOAT: v = sb_hash_double(mpack_unpack_float(t)); break;
        case MPACK_TOKEN_STR:
        case MPACK_TOKEN_BIN:
          str_bin = t.type == MPACK_TOKEN_BIN;
          str_key = at_key();
          if (str_key && str_bin) {
            err = "map key is not a string";
            return false;
          }
          str = nullptr;
          str_need = t.length;
          str_have = 0;
          if (str_need > 0) continue;  // wait for the chunks
          str = p;
          goto string_done;
        case MPACK_TOKEN_CHUNK:
          if (!str) str = t.data.chunk_ptr;
          str_have += t.length;
          if (str_have < str_need) continue;
        string_done:
          if (str_key) {
            sb_hasher_key(&h_, str, str_need);
            item_done();
            continue;
          }
          v = str_bin ? sb_hash_bin(str, str_need) : sb_hash_str(str, str_need);
          break;
        case MPACK_TOKEN_ARRAY:
        case MPACK_TOKEN_MAP: {
          const bool is_map = t.type == MPACK_TOKEN_MAP;
          if (at_key()) {
            err = "map key is not a string";
            return false;
          }
          sb_hasher_open(&h_, is_map);
          if (h_.error) {
            err = sb_hasher_error(&h_);
            return false;
          }
          if (t.length == 0) {
            sb_hasher_close(&h_);
            item_done();
            continue;
          }
          frames_.push_back(Frame{is_map ? 2ull * t.length : t.length, is_map, is_map});
          continue;
        }
        default: err = "msgpack ext is outside the data model"; return false;
      }
      if (at_key()) {
        err = "map key is not a string";
        return false;
      }
      sb_hasher_emit(&h_, v);
      item_done();
    }
    if (left != 0) {
      err = "trailing bytes";
      return false;
    }
    if (!sb_hasher_done(&h_, &hash)) {
      err = h_.error ? sb_hasher_error(&h_) : "unbalanced tokens";
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
    i.library = "libmpack";
    i.version = SB_VERSION;
    i.formats = {"msgpack"};
#if SB_VARIANT == 1
    i.id = "libmpack-write";
    i.tests = {"write"};
    i.notes = "mpack_write token by token into a fresh buffer";
#else
    i.id = "libmpack-incremental";
    i.tests = {"incremental"};
    i.notes =
        "libmpack has no UTF-8 check (a str that is not UTF-8 is accepted); mpack_read token by "
        "token (no tree)";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc& input, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Write>(input);
#else
  (void)input;
  return std::make_unique<Incremental>();
#endif
}

}  // namespace sb
