// libcbor (libcbor.so; Debian ships no static archive):
//   1 libcbor-write      write: cbor_serialize_alloc of a cbor_item_t built from the reference
//                        object (smallest integer width, float64 for doubles)
//   2 libcbor-load       tree: cbor_load to a cbor_item_t tree
//   3 libcbor-streaming  incremental: cbor_stream_decode callbacks, one item per call
#include <cbor.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
cbor_item_t* build_uint(uint64_t v) {
  if (v <= UINT8_MAX) return cbor_build_uint8(static_cast<uint8_t>(v));
  if (v <= UINT16_MAX) return cbor_build_uint16(static_cast<uint16_t>(v));
  if (v <= UINT32_MAX) return cbor_build_uint32(static_cast<uint32_t>(v));
  return cbor_build_uint64(v);
}

cbor_item_t* build_negint(uint64_t m) {  // represents -1 - m
  if (m <= UINT8_MAX) return cbor_build_negint8(static_cast<uint8_t>(m));
  if (m <= UINT16_MAX) return cbor_build_negint16(static_cast<uint16_t>(m));
  if (m <= UINT32_MAX) return cbor_build_negint32(static_cast<uint32_t>(m));
  return cbor_build_negint64(m);
}

// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  cbor_item_t* root = nullptr;
  std::vector<std::pair<cbor_item_t*, cbor_item_t*>> open;  // (container, pending key)

  ~Build() {  // on failure, what was built so far (complete subtrees are in their parents)
    for (auto& o : open) {
      cbor_decref(&o.first);
      if (o.second) cbor_decref(&o.second);
    }
  }
  bool attach(cbor_item_t* v) {
    if (!v) return false;  // libcbor's allocation failed
    if (open.empty()) {
      root = v;
      return true;
    }
    auto& top = open.back();
    bool ok;
    if (cbor_isa_array(top.first)) {
      ok = cbor_array_push(top.first, cbor_move(v));
    } else {
      ok = cbor_map_add(top.first, cbor_pair{cbor_move(top.second), cbor_move(v)});
      top.second = nullptr;
    }
    return ok;
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: return attach(cbor_new_null());
      case T::False: return attach(cbor_build_bool(false));
      case T::True: return attach(cbor_build_bool(true));
      case T::Uint: return attach(build_uint(n.u));
      case T::Neg: return attach(build_negint(static_cast<uint64_t>(-1 - n.i)));
      case T::Double: return attach(cbor_build_float8(n.d));
      case T::Str: return attach(cbor_build_stringn(d->str(n), n.count));
      default: return attach(cbor_build_bytestring(reinterpret_cast<cbor_data>(d->str(n)), n.count));
    }
  }
  bool key(const Node& k) {
    open.back().second = cbor_build_stringn(d->str(k), k.count);
    return open.back().second != nullptr;
  }
  bool begin(const Node& n) {
    cbor_item_t* c = n.type == T::Map ? cbor_new_definite_map(n.count) : cbor_new_definite_array(n.count);
    if (!c) return false;
    open.emplace_back(c, nullptr);
    return true;
  }
  bool end(const Node&) {
    cbor_item_t* c = open.back().first;
    open.pop_back();
    return attach(c);
  }
};

cbor_item_t* build(const Doc& d, DocWalker& walk) {
  Build b{&d, nullptr, {}};
  if (!walk(d, b)) {
    if (b.root) cbor_decref(&b.root);
    return nullptr;
  }
  return b.root;
}

// Every op builds the cbor_item_t tree from the harness's object and serialises it
// (spec/fairness.md rule 10); the previous op's tree and buffer are freed first.
class Write : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  cbor_item_t* root_ = nullptr;
  unsigned char* out_ = nullptr;

 public:
  explicit Write(const Doc& d) : doc_(d) {}
  ~Write() override {
    free(out_);
    if (root_) cbor_decref(&root_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    free(out_);
    out_ = nullptr;
    if (root_) cbor_decref(&root_);
    if (!(root_ = build(doc_, walk_))) {
      err = "libcbor could not allocate an item";
      return false;
    }
    size_t cap;
    len = cbor_serialize_alloc(root_, &out_, &cap);  // a fresh buffer every iteration
    if (len == 0) {
      err = "cbor_serialize_alloc failed";
      return false;
    }
    out = reinterpret_cast<const char*>(out_);
    return true;
  }
};
#elif SB_VARIANT == 2
// Definite strings are one handle; indefinite ones are chunks, joined here (rare in practice).
template <class Handle, class Len, class Chunks, class Count>
uint64_t hash_string(cbor_item_t* it, uint64_t seed, bool definite, Handle handle, Len length, Chunks chunks,
                     Count count) {
  if (definite) return sb_hash_bytes(seed, handle(it), length(it));
  std::string joined;
  cbor_item_t** c = chunks(it);
  for (size_t i = 0; i < count(it); i++) joined.append(reinterpret_cast<const char*>(handle(c[i])), length(c[i]));
  return sb_hash_bytes(seed, joined.data(), joined.size());
}

// The tree walk (TreeHasher: iterative, any depth).
struct CborWalk {
  using Ref = cbor_item_t*;
  struct Iter {
    bool is_map;
    size_t i, n;
    cbor_item_t** items;  // arrays
    cbor_pair* pairs;     // maps
  };
  static int enter(Ref it, Iter& pos, TreeSink* h, std::string& err) {
    switch (cbor_typeof(it)) {
      case CBOR_TYPE_UINT: sb_hasher_emit(h, sb_hash_uint(cbor_get_int(it))); return 0;
      case CBOR_TYPE_NEGINT: {
        const uint64_t m = cbor_get_int(it);
        if (m > static_cast<uint64_t>(INT64_MAX)) {
          err = "negative integer below INT64_MIN";
          return -1;
        }
        sb_hasher_emit(h, sb_hash_int(-1 - static_cast<int64_t>(m)));
        return 0;
      }
      case CBOR_TYPE_BYTESTRING:
        sb_hasher_emit(h,
                       hash_string(it, SB_SEED(SB_BINARY), cbor_bytestring_is_definite(it), cbor_bytestring_handle,
                                   cbor_bytestring_length, cbor_bytestring_chunks_handle, cbor_bytestring_chunk_count));
        return 0;
      case CBOR_TYPE_STRING:
        sb_hasher_emit(h, hash_string(it, SB_SEED(SB_STRING), cbor_string_is_definite(it), cbor_string_handle,
                                      cbor_string_length, cbor_string_chunks_handle, cbor_string_chunk_count));
        return 0;
      case CBOR_TYPE_ARRAY:
        sb_hasher_open(h, 0);
        pos = Iter{false, 0, cbor_array_size(it), cbor_array_handle(it), nullptr};
        return 1;
      case CBOR_TYPE_MAP:
        sb_hasher_open(h, 1);
        pos = Iter{true, 0, cbor_map_size(it), nullptr, cbor_map_handle(it)};
        return 1;
      case CBOR_TYPE_FLOAT_CTRL:
        if (cbor_float_ctrl_is_ctrl(it)) {
          if (cbor_is_null(it)) {
            sb_hasher_emit(h, sb_hash_null());
            return 0;
          }
          if (cbor_is_bool(it)) {
            sb_hasher_emit(h, sb_hash_bool(cbor_get_bool(it)));
            return 0;
          }
          err = "CBOR simple value outside the data model (undefined?)";
          return -1;
        }
        sb_hasher_emit(h, sb_hash_double(cbor_float_get_float(it)));  // any width, widened to double
        return 0;
      case CBOR_TYPE_TAG: err = "CBOR tags are outside the data model"; return -1;
    }
    err = "unknown CBOR item";
    return -1;
  }
  static int next(Iter& pos, Ref& c, TreeSink* h, std::string& err) {
    if (pos.i == pos.n) return 0;
    if (!pos.is_map) {
      c = pos.items[pos.i++];
      return 1;
    }
    cbor_item_t* k = pos.pairs[pos.i].key;
    if (!cbor_isa_string(k)) {
      err = "map key is not a string";
      return -1;
    }
    sb_hasher_key_hash(h, hash_string(k, SB_SEED(SB_STRING), cbor_string_is_definite(k), cbor_string_handle,
                                      cbor_string_length, cbor_string_chunks_handle, cbor_string_chunk_count));
    c = pos.pairs[pos.i++].value;
    return 1;
  }
};

class Load : public Adapter {
  TreeHasher<CborWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    cbor_load_result res;
    cbor_item_t* it = cbor_load(reinterpret_cast<cbor_data>(buf), len, &res);
    if (!it) {
      err = "cbor_load error " + std::to_string(res.error.code) + " at offset " + std::to_string(res.error.position);
      return false;
    }
    bool ok = res.read == len;
    if (!ok)
      err = "trailing bytes";
    else
      ok = hash_(it, hash, err);
    cbor_decref(&it);
    return ok;
  }
};
#else
// cbor_stream_decode reports a container's size when it starts, never its end, so the context
// counts the items left in each open container and closes it after its last one.
struct Ctx {
  struct Frame {
    int64_t left;  // items (a map counts keys and values) still to come; -1: indefinite length
    bool is_map, key_next;
  };
  Hasher h;
  std::vector<Frame> frames;  // grows with the nesting, reused across ops
  const char* error;
  // An indefinite-length string (RFC 8949 §3.2.3) arrives as a start, definite-length chunks of the
  // same major type, and a break; its chunks are joined here and hashed as one string at the break.
  enum class Chunked { kNone, kText, kBytes } chunked;
  std::string chunks;
};

Ctx* C(void* p) { return static_cast<Ctx*>(p); }

bool at_key(Ctx* c) { return !c->frames.empty() && c->frames.back().is_map && c->frames.back().key_next; }

// A complete item was fed to the hasher: count it, closing every container it completes.
void item_done(Ctx* c) {
  while (!c->frames.empty()) {
    Ctx::Frame& f = c->frames.back();
    if (f.is_map) f.key_next = !f.key_next;
    if (f.left < 0 || --f.left > 0) return;
    sb_hasher_close(&c->h);
    c->frames.pop_back();
  }
}

void scalar(Ctx* c, uint64_t h) {
  if (at_key(c)) {
    c->error = "map key is not a string";
    return;
  }
  sb_hasher_emit(&c->h, h);
  item_done(c);
}

void open(Ctx* c, bool is_map, int64_t n) {
  if (at_key(c)) {
    c->error = "map key is not a string";
    return;
  }
  sb_hasher_open(&c->h, is_map);
  if (n == 0) {  // empty: complete at once
    sb_hasher_close(&c->h);
    item_done(c);
    return;
  }
  if (c->h.error) {
    c->error = sb_hasher_error(&c->h);
    return;
  }
  c->frames.push_back(Ctx::Frame{n, is_map, is_map});
}

void on_uint8(void* c, uint8_t v) { scalar(C(c), sb_hash_uint(v)); }
void on_uint16(void* c, uint16_t v) { scalar(C(c), sb_hash_uint(v)); }
void on_uint32(void* c, uint32_t v) { scalar(C(c), sb_hash_uint(v)); }
void on_uint64(void* c, uint64_t v) { scalar(C(c), sb_hash_uint(v)); }
void on_neg(void* c, uint64_t m) {
  if (m > static_cast<uint64_t>(INT64_MAX))
    C(c)->error = "negative integer below INT64_MIN";
  else
    scalar(C(c), sb_hash_int(-1 - static_cast<int64_t>(m)));
}
void on_neg8(void* c, uint8_t m) { on_neg(c, m); }
void on_neg16(void* c, uint16_t m) { on_neg(c, m); }
void on_neg32(void* c, uint32_t m) { on_neg(c, m); }
// A chunk of the open indefinite-length string, if one is open: true when it was taken.
bool chunk(Ctx* c, Ctx::Chunked type, cbor_data s, size_t n) {
  if (c->chunked == Ctx::Chunked::kNone) return false;
  if (c->chunked != type)
    c->error = "a chunk of an indefinite-length string is not of the string's type";
  else
    c->chunks.append(reinterpret_cast<const char*>(s), n);
  return true;
}
void on_string(void* p, cbor_data s, size_t n) {
  Ctx* c = C(p);
  if (chunk(c, Ctx::Chunked::kText, s, n)) return;
  if (at_key(c)) {
    sb_hasher_key(&c->h, s, n);
    item_done(c);
  } else {
    sb_hasher_emit(&c->h, sb_hash_str(s, n));
    item_done(c);
  }
}
void on_bytes(void* p, cbor_data s, size_t n) {
  if (!chunk(C(p), Ctx::Chunked::kBytes, s, n)) scalar(C(p), sb_hash_bin(s, n));
}
void start_chunked(Ctx* c, Ctx::Chunked type) {
  if (c->chunked != Ctx::Chunked::kNone) {
    c->error = "an indefinite-length string inside another";
    return;
  }
  c->chunked = type;
  c->chunks.clear();
}
void on_text_start(void* c) { start_chunked(C(c), Ctx::Chunked::kText); }
void on_bytes_start(void* c) { start_chunked(C(c), Ctx::Chunked::kBytes); }
void on_array(void* c, size_t n) { open(C(c), false, static_cast<int64_t>(n)); }
void on_map(void* c, size_t n) { open(C(c), true, 2 * static_cast<int64_t>(n)); }
void on_indef_array(void* c) { open(C(c), false, -1); }
void on_indef_map(void* c) { open(C(c), true, -1); }
void on_break(void* p) {
  Ctx* c = C(p);
  if (c->chunked != Ctx::Chunked::kNone) {  // the end of an indefinite-length string
    const bool text = c->chunked == Ctx::Chunked::kText;
    c->chunked = Ctx::Chunked::kNone;
    const auto* s = reinterpret_cast<cbor_data>(c->chunks.data());
    if (text)
      on_string(c, s, c->chunks.size());
    else
      on_bytes(c, s, c->chunks.size());
    return;
  }
  if (c->frames.empty() || c->frames.back().left >= 0) {
    c->error = "unexpected break";
    return;
  }
  if (c->frames.back().is_map && !c->frames.back().key_next) {
    c->error = "an indefinite-length map ends after a key, without its value";
    return;
  }
  c->frames.pop_back();
  sb_hasher_close(&c->h);
  item_done(c);
}
void on_tag(void* c, uint64_t) { C(c)->error = "CBOR tags are outside the data model"; }
void on_float4(void* c, float v) { scalar(C(c), sb_hash_double(v)); }  // half floats arrive here too
void on_float8(void* c, double v) { scalar(C(c), sb_hash_double(v)); }
void on_undefined(void* c) { C(c)->error = "undefined is outside the data model"; }
void on_null(void* c) { scalar(C(c), sb_hash_null()); }
void on_bool(void* c, bool b) { scalar(C(c), sb_hash_bool(b)); }

cbor_callbacks make_callbacks() {
  cbor_callbacks cb = cbor_empty_callbacks;
  cb.uint8 = on_uint8;
  cb.uint16 = on_uint16;
  cb.uint32 = on_uint32;
  cb.uint64 = on_uint64;
  cb.negint8 = on_neg8;
  cb.negint16 = on_neg16;
  cb.negint32 = on_neg32;
  cb.negint64 = on_neg;
  cb.byte_string = on_bytes;
  cb.byte_string_start = on_bytes_start;
  cb.string = on_string;
  cb.string_start = on_text_start;
  cb.array_start = on_array;
  cb.indef_array_start = on_indef_array;
  cb.map_start = on_map;
  cb.indef_map_start = on_indef_map;
  cb.indef_break = on_break;
  cb.tag = on_tag;
  cb.float2 = on_float4;
  cb.float4 = on_float4;
  cb.float8 = on_float8;
  cb.undefined = on_undefined;
  cb.null = on_null;
  cb.boolean = on_bool;
  return cb;
}
const cbor_callbacks kCallbacks = make_callbacks();

class Streaming : public Adapter {
  Ctx ctx_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&ctx_.h);
    ctx_.frames.clear();
    ctx_.error = nullptr;
    ctx_.chunked = Ctx::Chunked::kNone;
    const auto* data = reinterpret_cast<cbor_data>(buf);
    size_t off = 0;
    // One item per call; every call that finishes reads at least its initial byte, so the loop
    // ends with the input (checked anyway: a call that reads nothing is an error, not a spin).
    while (off < len && !ctx_.error && !ctx_.h.has_result) {
      const cbor_decoder_result r = cbor_stream_decode(data + off, len - off, &kCallbacks, &ctx_);
      if (r.status != CBOR_DECODER_FINISHED) {
        err = r.status == CBOR_DECODER_NEDATA ? "truncated CBOR" : "malformed CBOR";
        return false;
      }
      if (r.read == 0 || r.read > len - off) {
        err = "cbor_stream_decode made no progress";
        return false;
      }
      off += r.read;
    }
    if (ctx_.error) {
      err = ctx_.error;
      return false;
    }
    if (off != len || !sb_hasher_done(&ctx_.h, &hash)) {
      err = off != len ? "trailing bytes" : "truncated CBOR";
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
    i.library = "libcbor";
    i.version = SB_VERSION;
    i.formats = {"cbor"};
#if SB_VARIANT == 1
    i.id = "libcbor-write";
    i.tests = {"write"};
    i.notes = "build a cbor_item_t tree from the harness's object + cbor_serialize_alloc every op; shared library only";
#elif SB_VARIANT == 2
    i.id = "libcbor-load";
    i.tests = {"tree"};
    i.notes = "cbor_load to cbor_item_t; shared library only";
#else
    i.id = "libcbor-streaming";
    i.tests = {"incremental"};
    i.notes =
        "cbor_stream_decode hands text strings over unchecked and libcbor has no public UTF-8 "
        "check (cbor_load checks them); callbacks, definite-length strings only; shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  (void)err;
  return std::make_unique<Write>(input);
#elif SB_VARIANT == 2
  (void)input, (void)err;
  return std::make_unique<Load>();
#else
  (void)input, (void)err;
  return std::make_unique<Streaming>();
#endif
}

}  // namespace sb
