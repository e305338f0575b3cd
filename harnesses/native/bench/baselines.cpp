// The baselines (one source, four executables): their cost is subtracted from the benchmarks' (fairness).
// A baseline does the hashing work of the rows it stands for, through the same code (DESIGN §4,
// spec/fairness.md rule 5), so what is left after subtraction is the library's:
//   hash-object (SB_HASH_OBJECT): copy the input (done by the loop) + walk the harness's own object
//     as a tree with TreeHasher and the streaming hasher, exactly as tree rows walk their library's
//     tree (an iterator per open container, a switch on each value's type, sb_hasher_* for the sums).
//   hash-events (SB_HASH_EVENTS): copy the input + replay the object as parse events (DocWalker) into
//     sb_hasher_*, as incremental (SAX/pull) rows do from their parser's callbacks.
//   hash-data: hash a buffer holding the input's bytes: what write benchmarks do besides encoding.
//   hash-flat (SB_HASH_FLAT): copy the input + the harness's fastest walk of its own object
//     (hash_doc: flat pre-order, no type switch, scalars through a seed table). Never subtracted:
//     it shows what the hash itself costs, apart from the per-value type dispatch that hash-object
//     shares with tree rows (docs/methodology.md, "Hash baselines"). Run it by name.
//   empty (SB_EMPTY): no work at all beyond what the loop does for every decode benchmark (copy the
//     input, call the adapter, feed the sink): the harness's own per-iteration overhead. Never
//     subtracted from anything; run it by name (`serbench run --lang native --lib empty`).
#include "sb.h"

namespace sb {

namespace {
// The harness's object seen as a library tree (TreeHasher's W): a value is its node, and the next
// sibling is `size` nodes further on, as a tree's child pointer would be.
struct DocTree {
  struct Ref {
    const Node* x;
    const char* pool;
  };
  struct Iter {
    const Node* x;  // the next child (a map: its key)
    const char* pool;
    uint64_t left;
    bool is_map;
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    const Node& x = *v.x;
    switch (x.type) {
      case T::Null: sb_hasher_emit(h, sb_hash_null()); return 0;
      case T::False: sb_hasher_emit(h, sb_hash_bool(0)); return 0;
      case T::True: sb_hasher_emit(h, sb_hash_bool(1)); return 0;
      case T::Uint: sb_hasher_emit(h, sb_hash_uint(x.u)); return 0;
      case T::Neg: sb_hasher_emit(h, sb_hash_int(x.i)); return 0;
      case T::Double: sb_hasher_emit(h, sb_hash_double(x.d)); return 0;
      case T::Str: sb_hasher_emit(h, sb_hash_str(v.pool + x.off, x.count)); return 0;
      case T::Bin: sb_hasher_emit(h, sb_hash_bin(v.pool + x.off, x.count)); return 0;
      case T::Array:
      case T::Map: break;
    }
    sb_hasher_open(h, x.type == T::Map);
    it = Iter{v.x + 1, v.pool, x.count, x.type == T::Map};
    return 1;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.left == 0) return 0;
    it.left--;
    if (it.is_map) {
      sb_hasher_key(h, it.pool + it.x->off, it.x->count);
      it.x++;
    }
    c = Ref{it.x, it.pool};
    it.x += it.x->size;
    return 1;
  }
};

class HashObject : public Adapter {
  Doc doc_;
  TreeHasher<DocTree> hash_;  // its stacks grow in the check: the timed loop never allocates

 public:
  explicit HashObject(const Doc& d) : doc_(d) {}
  bool decode(char*, size_t, uint64_t& hash, std::string& err) override {
    return hash_(DocTree::Ref{doc_.nodes.data(), doc_.bytes.data()}, hash, err);
  }
};

// Parse events into the streaming hasher, as a SAX handler gets them.
struct EventHash {
  sb_hasher* h;
  const char* pool;
  bool scalar(const Node& x) {
    switch (x.type) {
      case T::Null: sb_hasher_emit(h, sb_hash_null()); break;
      case T::False: sb_hasher_emit(h, sb_hash_bool(0)); break;
      case T::True: sb_hasher_emit(h, sb_hash_bool(1)); break;
      case T::Uint: sb_hasher_emit(h, sb_hash_uint(x.u)); break;
      case T::Neg: sb_hasher_emit(h, sb_hash_int(x.i)); break;
      case T::Double: sb_hasher_emit(h, sb_hash_double(x.d)); break;
      case T::Str: sb_hasher_emit(h, sb_hash_str(pool + x.off, x.count)); break;
      default: sb_hasher_emit(h, sb_hash_bin(pool + x.off, x.count)); break;
    }
    return true;
  }
  bool key(const Node& x) {
    sb_hasher_key(h, pool + x.off, x.count);
    return true;
  }
  bool begin(const Node& x) {
    sb_hasher_open(h, x.type == T::Map);
    return true;
  }
  bool end(const Node&) {
    sb_hasher_close(h);
    return true;
  }
};

class HashEvents : public Adapter {
  Doc doc_;
  Hasher h_;
  DocWalker walk_;  // both stacks grow in the check: the timed loop never allocates

 public:
  explicit HashEvents(const Doc& d) : doc_(d) {}
  bool decode(char*, size_t, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&h_);
    EventHash v{&h_, doc_.bytes.data()};
    walk_(doc_, v);
    if (sb_hasher_done(&h_, &hash)) return true;
    err = sb_hasher_error(&h_);
    return false;
  }
};

class Empty : public Adapter {
  uint64_t hash_;

 public:
  // The hash is computed once here, so the check passes while the timed call does nothing.
  explicit Empty(const Doc& d) : hash_(hash_doc(d)) {}
  bool decode(char*, size_t, uint64_t& hash, std::string&) override {
    hash = hash_;
    return true;
  }
};

class HashFlat : public Adapter {
  Doc doc_;
  std::vector<HashFrame> st_;  // grows in the check: the timed loop never allocates

 public:
  explicit HashFlat(const Doc& d) : doc_(d) {}
  bool decode(char*, size_t, uint64_t& hash, std::string&) override {
    hash = hash_doc(doc_, st_);
    return true;
  }
};

class HashData : public Adapter {
  std::string bytes_;

 public:
  // The file's bytes stand in for "an output" of about the right size; the check reads them back,
  // so the baseline's check proves the reference decoder reads the format right.
  explicit HashData(const std::string& raw) : bytes_(raw) {}
  bool encode(const char*& out, size_t& len, std::string&) override {
    out = bytes_.data();
    len = bytes_.size();
    return true;
  }
};
}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
#if defined(SB_EMPTY)
    i.id = "empty";
    i.tests = {"tree"};
    i.notes = "no work: the harness's per-iteration overhead (input copy, virtual call, sink)";
    i.measures["tree"] = "copy input into the reused buffer, nothing else (the loop's own overhead)";
#elif defined(SB_HASH_OBJECT)
    i.id = "hash-object";
    i.tests = {"tree"};
    i.notes = "baseline for tree: copy input + walk the harness's object as a tree (TreeHasher + sb_hasher)";
#elif defined(SB_HASH_FLAT)
    i.id = "hash-flat";
    i.tests = {"tree"};
    i.notes = "reference, never subtracted: copy input + hash_doc, the flat walk with no type switch";
    i.measures["tree"] = "copy input into the reused buffer + hash the harness's own object with its flat walk "
                         "(hash_doc: no type switch, no iterators): the hash alone";
#elif defined(SB_HASH_EVENTS)
    i.id = "hash-events";
    i.tests = {"incremental"};
    i.notes = "baseline for incremental: copy input + replay the harness's object as events into sb_hasher";
#else
    i.id = "hash-data";
    i.tests = {"write"};
    i.notes = "baseline for write: hash the encoded bytes (the input file's bytes)";
#endif
    i.library = "serbench";
    i.version = "1";
    i.formats = {"json", "json-pretty", "msgpack", "cbor", "bson", "ubjson", "ubjson-plain"};
    i.baseline = true;
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc& input, const std::string& raw,
                                      std::string&) {
#if defined(SB_EMPTY)
  (void)raw;
  return std::make_unique<Empty>(input);
#elif defined(SB_HASH_OBJECT)
  (void)raw;
  return std::make_unique<HashObject>(input);
#elif defined(SB_HASH_EVENTS)
  (void)raw;
  return std::make_unique<HashEvents>(input);
#elif defined(SB_HASH_FLAT)
  (void)raw;
  return std::make_unique<HashFlat>(input);
#else
  (void)input;
  return std::make_unique<HashData>(raw);
#endif
}

}  // namespace sb
