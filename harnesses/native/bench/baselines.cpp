// The baselines (one source, five executables): their cost is subtracted from the benchmarks' (fairness).
// A baseline does the hashing work of the rows it stands for (DESIGN §4, spec/fairness.md rule 5),
// so what is left after subtraction is the library's, reading its tree included:
//   hash-object (SB_HASH_OBJECT): copy the input (done by the loop) + hash the harness's own object
//     with its cheapest walk (hash_doc: flat pre-order, no iterators, scalars through a table of type
//     seeds instead of a switch): the hash's work and the least walk any tree needs. What a tree row
//     spends beyond that to read its library's tree (its iterators, its switch on each value's
//     type) is the cost of that tree's API, and stays in the row's net time.
//   hash-events (SB_HASH_EVENTS): copy the input + feed the object's parse events into sb_hasher_*
//     (the streaming form), as incremental (SAX/pull) rows do from their parser's callbacks, with
//     hash_doc's cheapest walk (hash_doc_events: no type switch).
//   hash-data: hash a buffer holding the input's bytes: what write benchmarks do besides encoding.
//   hash-walk (SB_HASH_WALK): copy the input + walk the harness's own object the way tree rows walk
//     their library's (TreeHasher: an iterator per open container, a switch on each value's type).
//     Never subtracted (it was hash-object until hash v2's 5 ns goal, docs/methodology.md "Hash
//     baselines"): it shows what that dispatch costs on the corpus's mixed types. Run it by name.
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

class HashWalk : public Adapter {
  Doc doc_;
  TreeHasher<DocTree> hash_;  // its stacks grow in the check: the timed loop never allocates

 public:
  explicit HashWalk(const Doc& d) : doc_(d) {}
  bool decode(char*, size_t, uint64_t& hash, std::string& err) override {
    return hash_(DocTree::Ref{doc_.nodes.data(), doc_.bytes.data()}, hash, err);
  }
};

class HashEvents : public Adapter {
  Doc doc_;
  Hasher h_;
  std::vector<EventFrame> st_;  // both stacks grow in the check: the timed loop never allocates

 public:
  explicit HashEvents(const Doc& d) : doc_(d) {}
  bool decode(char*, size_t, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&h_);
    hash_doc_events(doc_, &h_, st_);
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

class HashObject : public Adapter {
  Doc doc_;
  std::vector<HashFrame> st_;  // grows in the check: the timed loop never allocates

 public:
  explicit HashObject(const Doc& d) : doc_(d) {}
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
    i.steps["tree"] = {"copy-input"};
#elif defined(SB_HASH_OBJECT)
    i.id = "hash-object";
    i.tests = {"tree"};
    i.notes = "baseline for tree: copy input + hash the harness's object with its cheapest walk (hash_doc)";
    i.measures["tree"] = "copy input into the reused buffer + hash the harness's own object with its flat walk "
                         "(hash_doc: no type switch, no iterators): the hash's work";
#elif defined(SB_HASH_WALK)
    i.id = "hash-walk";
    i.tests = {"tree"};
    i.notes = "reference, never subtracted: copy input + walk the harness's object as tree rows walk theirs "
              "(TreeHasher, a switch per value)";
#elif defined(SB_HASH_EVENTS)
    i.id = "hash-events";
    i.tests = {"incremental"};
    i.notes = "baseline for incremental: copy input + the harness's object's events into sb_hasher (hash_doc_events)";
#else
    i.id = "hash-data";
    i.tests = {"write"};
    i.notes = "baseline for write: hash the encoded bytes (the input file's bytes)";
#endif
#if defined(SB_COUNTED_WALKS)  // bench-<id>-counted (CMakeLists.txt): run for --iterations only
    for (const auto& t : i.tests)
      i.measures[t] = "instruction-count build (bench-" + i.id + "-counted): " + i.notes +
                      "; the leaf of fewest instructions (sb.h, leaf_hash)";
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
#elif defined(SB_HASH_WALK)
  (void)raw;
  return std::make_unique<HashWalk>(input);
#else
  (void)input;
  return std::make_unique<HashData>(raw);
#endif
}

}  // namespace sb
