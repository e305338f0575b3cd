// Shared code of the serbench native harness: the reference object (Doc), the adapter interface
// every benchmark executable implements, and sb::main (protocol run/verify/selftest/describe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "objhash.h"

namespace sb {

// The harness's own in-memory object: every value is one Node in a single vector, in pre-order,
// with all string/binary bytes in a single byte pool. It is what write benchmarks read to build
// their input and what the `hash-object` baseline walks.
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
  const char* str(const Node& n) const { return bytes.data() + n.off; }
};

// Decodes `data` in format `fmt` with the reference decoder (nlohmann::ordered_json, which keeps
// map order). Returns false with a reason on malformed input.
bool ref_decode(const std::string& fmt, const char* data, size_t len, Doc& out, std::string& err);
// Object hash of the tree rooted at node i.
uint64_t hash_doc(const Doc& d, size_t i = 0);

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

}  // namespace sb
