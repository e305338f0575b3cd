// Shared code of the serbench native harness: the reference object (Doc), the adapter interface
// every benchmark executable implements, and sb::main (protocol run/verify/selftest/describe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "objhash.h"

namespace sb {

// The harness's own in-memory object: every value is one Node in a single vector, in pre-order,
// with all string/binary bytes in a single byte pool. It is what write benchmarks read to build
// their input and what the `hash-object` baseline walks. Being flat, it is built, walked and freed
// without recursion, whatever the nesting depth.
enum class T : uint8_t { Null, False, True, Uint, Neg, Double, Str, Bin, Array, Map };

struct Node {
  T type;
  uint32_t count;  // children (array), entries (map: 2*count nodes follow), or byte length
  uint64_t size;   // nodes in this subtree, itself included: skip = i + size
  union {
    uint64_t u;
    int64_t i;
    double d;
    uint64_t off;  // into Doc::bytes for Str/Bin
  };
};

struct Doc {
  std::vector<Node> nodes;
  std::string bytes;
  size_t max_depth = 0;  // open containers at the deepest point (the root map is depth 1)
  const char* str(const Node& n) const { return bytes.data() + n.off; }
};

// Decodes `data` in format `fmt` with the harness's own strict reference decoder (ref.cpp): it
// decides what a file means, so it rejects anything that is not exactly one valid value of the data
// model (spec/data-model.md) in that format. Iterative: any nesting depth. Keeps map order. Returns
// false with a one-line reason (exit 6 in sb::main) on anything else.
bool ref_decode(const std::string& fmt, const char* data, size_t len, Doc& out, std::string& err);

// Object hash of a Doc, iteratively; `stack` is scratch space, reused across calls so that a walk
// in a timed loop (the hash-object baseline) does not allocate once it has grown.
struct HashFrame {
  uint64_t acc, n, i, key;  // sum, count, entries or elements done, pending key's hash (maps)
  bool is_map;
};
uint64_t hash_doc(const Doc& d, std::vector<HashFrame>& stack);
inline uint64_t hash_doc(const Doc& d) {
  std::vector<HashFrame> stack;
  return hash_doc(d, stack);
}

// The hash of a scalar or string node (is_leaf), with no branch on its type: the seed each scalar
// type is mixed with, indexed by T. Null, false and true carry u = 0 (the reference decoder's
// builder sets it), so true's seed is S(BOOL) ^ 1 and every scalar is one mum(u ^ seed, P0)
// (spec/hash.md: scalar(BOOL, 1) = mum(1 ^ S(BOOL), P0)); Str and Bin hash their bytes with their
// seed.
inline constexpr uint64_t kLeafSeed[] = {SB_SEED(SB_NULL),   SB_SEED(SB_BOOL),  SB_SEED(SB_BOOL) ^ 1,
                                         SB_SEED(SB_UINT),   SB_SEED(SB_NEGINT), SB_SEED(SB_FLOAT),
                                         SB_SEED(SB_STRING), SB_SEED(SB_BINARY)};
static_assert(static_cast<int>(T::Bin) == 7 && static_cast<int>(T::Array) == 8, "kLeafSeed follows T");
inline bool is_leaf(const Node& x) { return x.type <= T::Bin; }

// A scalar and a short string are hashed by the same instructions: both are mum(w0 ^ x1, w1 ^ n ^ x2)
// over two masked words (sb_hash_short). A string's words are its first 16 bytes, n its length,
// x1 = P1 and x2 = seed ^ P2; a scalar's are its payload u (read where the node holds it, as 8
// "bytes") and the 8 bytes after it masked to nothing, with n = 8, x1 = seed and x2 = P0 ^ 8, which
// gives mum(u ^ seed, P0). Which words and constants is a table look-up and a select, never a branch:
// on the corpus's mixed types a branch on scalar-or-string mispredicts
// (docs/studies/fewer-branches-per-value.md, "Fewer branches per value"). The leaf's walk is the baseline's own: rows hash their scalars with
// sb_hash_uint and the like, and their strings with sb_hash_bytes, the same mum.
struct LeafConst {
  uint64_t x1, x2, nmask, n;  // n = (count & nmask) | this n: a string's length, 8 for a scalar
};
inline constexpr LeafConst leaf_const(int t) {
  return t <= static_cast<int>(T::Double) ? LeafConst{kLeafSeed[t], SB_P0 ^ 8, 0, 8}
                                          : LeafConst{SB_P1, kLeafSeed[t] ^ SB_P2, ~uint64_t{0}, 0};
}
alignas(64) inline constexpr LeafConst kLeafConst[] = {leaf_const(0), leaf_const(1), leaf_const(2), leaf_const(3),
                                                     leaf_const(4), leaf_const(5), leaf_const(6), leaf_const(7)};
// An empty or long string, or 16 bytes that would cross a page (objhash.h, sb_can_read16): the
// exact path.
uint64_t leaf_hash_slow(const Node& x, const char* pool);
inline uint64_t leaf_hash(const Node& x, const char* pool) {
#if defined(SB_COUNTED_WALKS)
  // The baselines' executables for `run --iterations` (bench-<id>-counted, CMakeLists.txt): the leaf
  // of fewest instructions, with a branch on scalar-or-string. The selects below take fewer cycles
  // than a mispredicted branch but about 20 instructions more per scalar, which counted would be
  // subtracted from rows that never execute them (protocol.md step 9; docs/methodology.md, "What
  // the instruction counts see"). Same hash, as leaf_hash_slow's exact path.
  const uint8_t u = static_cast<uint8_t>(x.type);
  if (u <= static_cast<uint8_t>(T::Double)) return sb_scalar(kLeafSeed[u], x.u);
  return sb_hash_bytes(kLeafSeed[u], pool + x.off, x.count);
#else
  const uint8_t t = static_cast<uint8_t>(x.type);
  const LeafConst& c = kLeafConst[t];
  const size_t n = (x.count & c.nmask) | c.n;
  const auto* p = reinterpret_cast<const unsigned char*>(sb_select(t > static_cast<uint8_t>(T::Double),
                                                                  reinterpret_cast<uintptr_t>(pool) + x.off,
                                                                  reinterpret_cast<uintptr_t>(&x.u)));
  if (SB_UNLIKELY(n - 1 >= 16 || !sb_can_read16(p))) return leaf_hash_slow(x, pool);  // n = 0 or n > 16
  uint64_t lo, hi;
  sb_read16_masked(p, n, &lo, &hi);
  return sb_mum(lo ^ c.x1, hi ^ n ^ c.x2);
#endif
}

// The streaming form (sb_hasher_*) over a Doc, with the same cheapest walk as hash_doc: the
// `hash-events` baseline, which feeds the hasher what a SAX or pull parser feeds it, without the
// per-value type switch (spec/fairness.md rule 5). The caller inits `h` before and reads
// sb_hasher_done after; `stack` is reused across calls.
struct EventFrame {
  uint64_t left;  // values still to come in the open container
  bool is_map;
};
void hash_doc_events(const Doc& d, sb_hasher* h, std::vector<EventFrame>& stack);

// Walks a Doc in document order without recursion, for adapters that build a library's tree or
// drive a streaming writer from it. The visitor has
//   bool scalar(const Node&)  a value that is not a container (and not a map key)
//   bool key(const Node&)     a map key (a Str node), before its value
//   bool begin(const Node&)   an array or map, before its children
//   bool end(const Node&)     the same array or map, after its last child
// and stops the walk by returning false. The walker keeps its stack between walks (an adapter that
// walks inside its timed loop allocates only on the first walk).
class DocWalker {
  struct Frame {
    const Node* node;  // the open container (nullptr: the root's pseudo-frame, which takes one value)
    uint64_t left;     // values still to come (a map counts its values; each comes after its key)
    bool is_map;
  };
  std::vector<Frame> st_;

 public:
  template <class V>
  bool operator()(const Doc& d, V& v) {
    st_.clear();
    if (d.nodes.empty()) return true;
    const Node* x = d.nodes.data();
    Frame f{nullptr, 1, false};  // the current container, kept out of st_ (its parents)
    for (;;) {
      if (f.left == 0) {  // the container is complete
        if (!f.node) return true;
        if (!v.end(*f.node)) return false;
        f = st_.back();
        st_.pop_back();
        continue;
      }
      f.left--;
      if (f.is_map && !v.key(*x++)) return false;  // pre-order: a map's key is the node before its value
      if (x->type == T::Array || x->type == T::Map) {
        if (!v.begin(*x)) return false;
        st_.push_back(f);
        f = Frame{x, x->count, x->type == T::Map};
        x++;
        continue;
      }
      if (!v.scalar(*x++)) return false;
    }
  }
};

// sb_hasher with its stack freed on destruction (a member of the adapters that hash events).
struct Hasher : sb_hasher {
  Hasher() : sb_hasher() {}  // value-initialised: zeroed
  ~Hasher() { sb_hasher_free(this); }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
};

// The hashing state TreeHasher hands to W::enter and W::next in place of an sb_hasher: the
// innermost open container's sum (an sb_frame, see objhash.h). It lives in
// TreeHasher's own locals, so once enter/next inline it stays in registers, and its parents' frames
// share one stack with the parents' iterators. The sb_hasher_* overloads below (after the
// namespace) give it the streaming hasher's interface; sb_hasher_open only notes the kind, and
// TreeHasher pushes the parent and starts the new sum when enter returns 1.
struct TreeSink {
  sb_frame f;     // the innermost open container; before the root, kRoot (its sum becomes the root's hash)
  bool open_map;  // the kind of the container enter has just opened
  // A frame whose sum after one emit is the value itself: acc = mum(v ^ 0, (0 & 0) ^ 1) = v.
  static constexpr sb_frame kRoot{0, 0, 0, 1, 0};
};

}  // namespace sb

inline void sb_hasher_emit(sb::TreeSink* s, uint64_t v) {
  s->f.acc += sb_mum(v ^ s->f.c1, (s->f.n & s->f.amask) ^ s->f.kx);
  s->f.n++;
}
inline void sb_hasher_open(sb::TreeSink* s, int is_map) { s->open_map = is_map != 0; }
// Only called inside a map (W::next of a map).
inline void sb_hasher_key_hash(sb::TreeSink* s, uint64_t kh) { s->f.kx = kh ^ SB_P3; }
inline void sb_hasher_key(sb::TreeSink* s, const void* k, size_t n) { sb_hasher_key_hash(s, sb_hash_str(k, n)); }

namespace sb {

// Hashes a library's decoded tree without recursion: an explicit stack of positions in the open
// containers, each with its container's sum (the tree form and the streaming form of spec/hash.md
// give the same hash). Adapters keep one as a member, so its stack grows on the first decode and is
// reused by every later one. W describes the library's tree:
//   using Ref = ...;   a handle to one value (a pointer or a cheap view)
//   struct Iter;       a position inside an open array or map
//   static int enter(Ref v, Iter& it, TreeSink* h, std::string& err);
//       a scalar: sb_hasher_emit its hash, return 0; an array or map: sb_hasher_open it, set `it` to
//       its first child, return 1; a value outside the data model: set err, return -1
//   static int next(Iter& it, Ref& child, TreeSink* h, std::string& err);
//       the next child into `child` (for a map, after sb_hasher_key of its key) and 1; 0 at the end;
//       -1 with err set (a key that is not a string)
template <class W>
class TreeHasher {
  struct Frame {
    typename W::Iter it;
    sb_frame sum;
  };
  std::vector<Frame> st_;  // the parents of the innermost open container

 public:
  bool operator()(typename W::Ref root, uint64_t& hash, std::string& err) {
    st_.clear();
    TreeSink s{TreeSink::kRoot, false};
    typename W::Ref v = root;
    typename W::Iter cur{}, child;  // cur: the innermost open container (when depth > 0)
    size_t depth = 0;
    for (;;) {
      const int r = W::enter(v, child, &s, err);
      if (r < 0) return false;
      if (r > 0) {  // a container: it becomes the innermost, its parent waits on st_
        if (depth++ > 0) st_.push_back(Frame{cur, s.f});
        cur = child;
        s.f.acc = 0;
        s.f.n = 0;
        s.f.amask = s.open_map ? 0 : ~uint64_t{0};
        s.f.kx = s.open_map ? SB_P3 : SB_P2;
        s.f.c1 = s.open_map ? SB_P0 : SB_P1;
      } else if (depth == 0) {  // a scalar root
        hash = s.f.acc;
        return true;
      }
      for (;;) {  // the next value: a child of the innermost open container, or the end
        const int c = W::next(cur, v, &s, err);
        if (c < 0) return false;
        if (c > 0) break;
        const uint64_t h = sb_mum(s.f.acc ^ (s.f.amask ? SB_SEED(SB_ARRAY) : SB_SEED(SB_MAP)), s.f.n ^ SB_P3);
        if (--depth == 0) {
          hash = h;
          return true;
        }
        cur = st_.back().it;
        s.f = st_.back().sum;
        st_.pop_back();
        sb_hasher_emit(&s, h);
      }
    }
  }
};

// The nesting limit handed to libraries that take one (Boost.JSON's max_depth, json-c's tokener
// depth), raised from their defaults (32) so that nesting is not what their rows measure. It is the
// library's limit, not the harness's: the harness's own walks have none.
constexpr int kLibraryMaxDepth = 1024;

// Extra bytes of zeroed slack after every input copy (simdjson wants 64; also NUL-terminates).
constexpr size_t kPadding = 64;

// One benchmark used for one (test, format), prepared outside the timed loop.
class Adapter {
 public:
  virtual ~Adapter() = default;
  // tree/incremental: decode buf[0..len) (a fresh writable copy with kPadding zero bytes after it)
  // and return the object hash of what the library produced. false + err when the library fails.
  virtual bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) {
    (void)buf, (void)len, (void)hash;
    err = "decode not implemented";
    return false;
  }
  // write: encode the object prepared at construction; the output stays valid until the next call.
  virtual bool encode(const char*& out, size_t& len, std::string& err) {
    (void)out, (void)len;
    err = "encode not implemented";
    return false;
  }
};

struct BenchInfo {
  std::string id, library, version, notes;
  std::vector<std::string> formats, tests;
  std::map<std::string, std::string> measures;  // test -> what its loop times, where the default text is not exact
  // test -> the steps its loop performs (`list`'s `steps`, spec/fairness.md rule 12), only where they
  // are not the test's contract (main.cpp, default_steps): a deviating row says so here, by its words.
  std::map<std::string, std::vector<std::string>> steps;
  bool baseline = false;
};

// Implemented once per benchmark executable (bench/*.cpp).
const BenchInfo& bench_info();
// `input` is the reference decoding of the file (filled for write tests and baselines only: write
// tests build their input from it), `raw` the file's bytes. Returns nullptr with err set when the
// library cannot represent the input (a failed cell).
std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string& fmt, const Doc& input,
                                      const std::string& raw, std::string& err);

int main(int argc, char** argv);

// --- typed tests (spec/typed.md) -------------------------------------------------------------------
// Implemented in typed/typed_main.cpp, which is linked (as objects) into typed executables only: the
// factory below is weak, so in a schemaless executable it is null and sb::main never reaches it (their
// BenchInfo lists no typed test). sb::main keeps the protocol (check row, alloc pass, sampling,
// latency histogram, --output-file); a TypedCell supplies the operations.
class TypedCell {
 public:
  virtual ~TypedCell() = default;
  // The check: the typed hash of what the library decoded (or of its output read back); `output`
  // the bytes typed-encode produced (has_output false for the other tests).
  virtual bool check(uint64_t& hash, std::string& output, bool& has_output, std::string& err) = 0;
  // One operation of the timed loop, its hash in h.
  virtual bool once(uint64_t& h, std::string& err) = 0;
  // --latency (prepared by make_typed_cell with latency = true): the records, what one operation
  // does, the check of record i (its hash through the library, and the one expected), and one
  // operation on record i.
  virtual size_t latency_records() const = 0;
  virtual std::string latency_measures() const = 0;
  virtual bool latency_check(size_t i, uint64_t& got, uint64_t& want, std::string& err) = 0;
  virtual bool latency_once(size_t i, uint64_t& h, std::string& err) = 0;
};

// Prepares a typed cell from the dataset file (its path, and its bytes). Returns an exit code: 0 ready;
// 3 the library cannot carry these records or fails preparing them (err: its reason); 6 the file is
// not a typed dataset (err: why).
__attribute__((weak)) int make_typed_cell(const BenchInfo& b, const std::string& test, const std::string& fmt,
                                          const std::string& path, const std::string& data, bool latency,
                                          std::unique_ptr<TypedCell>& out, std::string& err);

// `wire` (not a protocol command; typed executables only): writes this row's encoding of the
// records of the dataset file at `path` in `fmt` to `out_path` (with per_record, each record alone, every one preceded
// by its length as 8 little-endian bytes). The typed baselines ask the rows for the bytes they copy
// and hash (spec/typed.md). Returns an exit code as make_typed_cell.
__attribute__((weak)) int typed_wire(const BenchInfo& b, const std::string& fmt, const std::string& path,
                                     bool per_record, const std::string& out_path, std::string& err);

// typed-encode, typed-decode, typed-access.
bool is_typed_test(const std::string& test);

}  // namespace sb
