// The baselines (one source, three executables): their cost is subtracted from the benchmarks' (fairness).
//   hash-object (SB_HASH_OBJECT): copy the input (done by the loop) + walk and hash the harness's
//     own contiguous object decoded from it: what tree/incremental benchmarks do besides decoding.
//   hash-data: hash a buffer holding the input's bytes: what write benchmarks do besides encoding.
//   empty (SB_EMPTY): no work at all beyond what the loop does for every decode benchmark (copy the
//     input, call the adapter, feed the sink): the harness's own per-iteration overhead. Never
//     subtracted from anything; run it by name (`serbench run --lang native --lib empty`).
#include "sb.h"

namespace sb {

namespace {
class HashObject : public Adapter {
  Doc doc_;
  std::vector<HashFrame> stack_;  // the walk's stack, sized once: the timed loop never allocates

 public:
  explicit HashObject(const Doc& d) : doc_(d) { stack_.reserve(d.max_depth); }
  bool decode(char*, size_t, uint64_t& hash, std::string&) override {
    hash = hash_doc(doc_, stack_);
    return true;
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
#elif defined(SB_HASH_OBJECT)
    i.id = "hash-object";
    i.tests = {"tree", "incremental"};
    i.notes = "baseline for tree/incremental: copy input + walk the harness's own contiguous object";
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
#else
  (void)input;
  return std::make_unique<HashData>(raw);
#endif
}

}  // namespace sb
