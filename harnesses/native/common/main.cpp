// sb::main: the protocol (spec/protocol.md) for one benchmark executable.
//
//   describe                      -> this benchmark's `list` entry (the driver adds code size)
//   run / verify / selftest       -> as in protocol.md, for this benchmark only
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "alloc.h"
#include "canary.h"
#include "sb.h"

namespace sb {

using J = nlohmann::ordered_json;

// spec/protocol.md, "Exit codes". kUsage is only ever for the command line; whatever the input or a
// library does maps to 3, 4, 5 or 6 (or, when the library itself crashes, to its signal).
enum Exit { kOk = 0, kUsage = 2, kRejected = 3, kMismatch = 4, kUnsupported = 5, kInput = 6 };

// Runs one call into a library (make_adapter, encode, decode). A library that throws has failed
// on this input (exit 3 with its message), not the command line: JsonCpp, for one, throws on deep
// nesting. The try costs nothing while nothing throws (table-based unwinding).
template <class F>
static bool guarded(F&& f, std::string& err) {
  try {
    return f();
  } catch (const std::exception& e) {
    err = std::string("exception: ") + e.what();
  } catch (...) {
    err = "exception of a non-standard type";
  }
  return false;
}

// What the timed loop does, per test (reported as an `info` row and in `list`); a benchmark may say
// it more precisely (BenchInfo::measures, e.g. a write row that dumps a prebuilt tree).
bool is_typed_test(const std::string& test) {
  return test == "typed-encode" || test == "typed-decode" || test == "typed-access";
}

static std::string measures(const BenchInfo& b, const std::string& test) {
  const auto it = b.measures.find(test);
  if (it != b.measures.end()) return it->second;
  if (b.baseline && is_typed_test(test)) {
    if (test == "typed-encode")
      return "hash of the records' encoding in the format (the shortest any typed row of this harness makes, "
             "made once, outside the loop), never more bytes than a row hashes";
    return "copy the records' encoding in the format (the shortest any typed row makes) into the cell's "
           "16-byte aligned buffer + typed hash of the harness's prebuilt native records";
  }
  if (test == "typed-encode")
    return "encode the native records (prepared outside the loop) + hash of the output bytes; the output is "
           "read back by the same library and hashed once, outside the loop";
  if (test == "typed-decode")
    return "copy the library's own encoding into the cell's 16-byte aligned buffer + decode into native records "
           "(or the library's generated types) + typed hash walk + free them";
  if (test == "typed-access")
    return "copy the library's own encoding into the cell's 16-byte aligned buffer + open the zero-copy view "
           "(validating or not, per row) + read every field through it with the typed hash";
  if (b.baseline) {
    if (test == "write") return "hash of a buffer of the input's bytes (stands for hashing the output)";
    if (test == "tree")
      return "copy input into the reused buffer + walk the harness's own object as a tree and hash it "
             "(TreeHasher + streaming hasher, as tree rows do)";
    return "copy input into the reused buffer + replay the harness's own object as parse events into the "
           "streaming hasher (as incremental rows do)";
  }
  if (test == "write")
    return "from the harness's own object: build the library's input (its tree, or the writer's calls) + "
           "encode into a fresh output + free what was built + hash the output bytes";
  if (test == "tree") return "copy input into the reused buffer + decode to the library's tree + walk and hash it";
  return "copy input into the reused buffer + streaming decode, hashing from the events";
}

// The steps of each test's timed loop (`list`'s `steps`): the work contract of spec/fairness.md rule
// 12 (orchestrator/src/serbench/contracts.py), or for a baseline what it subtracts. A row whose loop
// does other work declares its own (BenchInfo::steps) with the contract's deviation words: `prebuilt`,
// `convert`, `decode-unchecked`, `view-unchecked`, `decode-lazy`.
static std::vector<std::string> default_steps(bool baseline, const std::string& test) {
  if (test == "write" || test == "typed-encode") {
    if (baseline) return {"hash-output"};
    if (test == "write") return {"from-object", "encode", "hash-output"};
    return {"encode", "hash-output"};
  }
  if (test == "incremental") {
    if (baseline) return {"copy-input", "hash-events"};
    return {"copy-input", "parse-events", "hash-events"};
  }
  if (baseline) return {"copy-input", "visit-all"};  // tree, typed-decode, typed-access
  if (test == "typed-access") return {"copy-input", "view", "visit-all"};
  return {"copy-input", "decode", "visit-all"};  // tree, typed-decode
}

static std::vector<std::string> steps(const BenchInfo& b, const std::string& test) {
  const auto it = b.steps.find(test);
  return it != b.steps.end() ? it->second : default_steps(b.baseline, test);
}

static std::string hex64(uint64_t h) {
  char b[17];
  snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

static bool read_file(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

static bool write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  return f.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) && f.flush();
}

static int64_t now_ns(clockid_t c) {
  timespec ts;
  clock_gettime(c, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Pre-fragment the heap (fairness): many random-size blocks, a random half freed and the rest kept
// for the life of the process, so no library runs on a pristine bump-allocating heap.
static void fragment_heap(uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x5eedULL);
  const size_t n = 20000;
  static std::vector<void*> keep;
  std::vector<void*> all(n);
  for (auto& p : all) {
    size_t sz = size_t(8) << (rng() % 10);  // 8 B .. 4 KiB, log-uniform
    sz += rng() % sz;
    p = malloc(sz);
    memset(p, 1, 8);
  }
  std::shuffle(all.begin(), all.end(), rng);
  for (size_t i = 0; i < n; i++) {
    if (i % 2)
      free(all[i]);
    else
      keep.push_back(all[i]);
  }
}

// The work cannot be optimised away: every iteration's hash is folded into a volatile sink, and an
// empty asm with a memory clobber stops the compiler from merging or hoisting iterations.
static volatile uint64_t g_sink;

// One cell, prepared: the input, the adapter and the reusable decode buffer.
struct Cell {
  const BenchInfo* info;
  std::string test, fmt;
  std::string data;       // the file
  std::vector<char> buf;  // fresh copy of the input for every decode iteration
  Doc doc;                // reference decoding (write tests and baselines)
  std::unique_ptr<Adapter> adapter;
  std::vector<HashFrame> scratch;    // hash_doc's stack for the write check
  uint64_t slow_spins = 0;           // test builds only: see slowdown_for
  std::unique_ptr<TypedCell> typed;  // typed tests: the operations (typed/typed_main.cpp)
  bool latency = false;              // --latency: the typed cell prepares one-record encodings

  bool write() const { return test == "write"; }

  // One iteration of the timed loop. Library exceptions are caught around the whole loop (cmd_run).
  bool once(std::string& err) {
    uint64_t h;
    if (typed) {
      if (!typed->once(h, err)) return false;
    } else if (write()) {
      const char* out;
      size_t len;
      if (!adapter->encode(out, len, err)) return false;
      h = sb_hash_bin(out, len);
    } else {
      memcpy(buf.data(), data.data(), data.size());
      if (!adapter->decode(buf.data(), data.size(), h, err)) return false;
    }
    for (uint64_t i = 0; i < slow_spins; i++) h = h * 0x9E3779B97F4A7C15ULL + i;  // a dependent chain
    g_sink = g_sink ^ h;
    asm volatile("" ::: "memory");
    return true;
  }

  // The correctness check (= verify): hash of what the library decoded, or of its output read back;
  // `output` (when not null) receives the bytes a write or typed-encode row produced.
  bool check(uint64_t& hash, long long& out_bytes, std::string& err, std::string* output = nullptr) {
    out_bytes = -1;
    if (typed) {
      std::string bytes;
      bool has_output = false;
      if (!guarded([&] { return typed->check(hash, bytes, has_output, err); }, err)) return false;
      if (has_output) {
        out_bytes = static_cast<long long>(bytes.size());
        if (output) *output = std::move(bytes);
      }
      return true;
    }
    if (write()) {
      const char* out = nullptr;
      size_t len = 0;
      if (!guarded([&] { return adapter->encode(out, len, err); }, err)) return false;
      out_bytes = static_cast<long long>(len);
      if (output) output->assign(out, len);
      Doc back;
      if (!ref_decode(fmt, out, len, back, err)) {  // the library's output: its failure (exit 3)
        err = "output is not valid " + fmt + ": " + err;
        return false;
      }
      hash = hash_doc(back, scratch);
      return true;
    }
    memcpy(buf.data(), data.data(), data.size());
    return guarded([&] { return adapter->decode(buf.data(), data.size(), hash, err); }, err);
  }
};

// Load + prepare; returns an exit code (kOk when the cell is ready).
static int prepare(Cell& c, const std::string& path, std::string& err) {
  if (!read_file(path, c.data)) {
    err = "cannot read " + path;
    return kUsage;
  }
  if (is_typed_test(c.test)) {
    // Typed tests read the dataset's JSON file; --format names the library's wire format (spec/typed.md).
    if (!make_typed_cell) {
      err = c.info->id + " has no typed tests";
      return kUnsupported;
    }
    int rc = kRejected;
    if (!guarded(
            [&] {
              rc = make_typed_cell(*c.info, c.test, c.fmt, path, c.data, c.latency, c.typed, err);
              return true;  // rc says how it went; false here is an exception (the library's)
            },
            err))
      return kRejected;
    return rc;
  }
  try {
    c.buf.assign(c.data.size() + kPadding, 0);
  } catch (const std::bad_alloc&) {
    err = "out of memory for a copy of the " + std::to_string(c.data.size()) + "-byte input";
    return kInput;
  }
  if (c.write() || c.info->baseline) {
    // The input itself is not valid FMT by the reference decoder: nothing can be measured (6).
    if (!ref_decode(c.fmt, c.data.data(), c.data.size(), c.doc, err)) return kInput;
  }
  if (!guarded(
          [&] {
            c.adapter = make_adapter(c.test, c.fmt, c.doc, c.data, err);
            return c.adapter != nullptr;
          },
          err))
    return kRejected;
  if (c.info->baseline && !c.write()) c.doc = Doc{};  // the adapter keeps its own copy
  return kOk;
}

static bool supports(const BenchInfo& b, const std::string& test, const std::string& fmt) {
  return std::count(b.tests.begin(), b.tests.end(), test) && std::count(b.formats.begin(), b.formats.end(), fmt);
}

struct Args {
  std::string cmd;
  std::map<std::string, std::string> opt;
  bool has(const char* k) const { return opt.count(k) != 0; }
  std::string get(const char* k, const char* def = "") const {
    auto it = opt.find(k);
    return it == opt.end() ? def : it->second;
  }
};

static bool parse_args(int argc, char** argv, Args& a, std::string& err) {
  static const char* flags[] = {"--alloc", "--no-check", "--latency", "--per-record", "--hold"};
  static const char* valued[] = {"--bench",       "--test",    "--format",     "--file",
                                 "--expect-hash", "--results", "--budget-ms",  "--min-samples",
                                 "--seed",        "--vectors", "--iterations", "--output-file"};
  if (argc < 2) {
    err =
        "usage: describe | run --bench ID --test T --format F --file P --expect-hash H --results P [--budget-ms N] "
        "[--min-samples N] [--alloc] [--latency] [--no-check] [--output-file P] [--seed N] [--iterations N] [--hold] "
        "| verify --bench ID --test T --format F --file P | selftest --vectors DIR | wire --format F --file P "
        "--output-file P [--per-record]";
    return false;
  }
  a.cmd = argv[1];
  for (int i = 2; i < argc; i++) {
    std::string o = argv[i];
    if (std::find_if(std::begin(flags), std::end(flags), [&](const char* f) { return o == f; }) != std::end(flags)) {
      a.opt[o] = "1";
    } else if (std::find_if(std::begin(valued), std::end(valued), [&](const char* f) { return o == f; }) !=
               std::end(valued)) {
      if (i + 1 >= argc) {
        err = o + " needs a value";
        return false;
      }
      a.opt[o] = argv[++i];
    } else {
      err = "unknown option " + o;
      return false;
    }
  }
  return true;
}

static J describe_json(const BenchInfo& b) {
  J o;
  o["id"] = b.id;
  o["library"] = b.library;
  o["version"] = b.version;
  o["formats"] = b.formats;
  o["tests"] = b.tests;
  o["notes"] = b.notes;
  o["baseline"] = b.baseline;
  J m = J::object();
  for (const auto& t : b.tests) m[t] = measures(b, t);
  o["measures"] = m;
  J s = J::object();
  for (const auto& t : b.tests) s[t] = steps(b, t);
  o["steps"] = s;
  return o;
}

struct Results {
  FILE* f;
  explicit Results(const std::string& path) : f(fopen(path.c_str(), "a")) {}
  ~Results() {
    if (f) fclose(f);
  }
  void row(J r) {
    fputs(r.dump(-1, ' ', false, J::error_handler_t::replace).c_str(), f);
    fputc('\n', f);
    fflush(f);  // rows written before a crash are kept
  }
};

static J kind(const char* k) {
  J r;
  r["kind"] = k;
  return r;
}

// Parses a whole decimal integer option; false (a usage error) on anything else.
static bool parse_int(const Args& a, const char* key, const char* def, long long lo, long long& out) {
  const std::string v = a.get(key, def);
  char* end = nullptr;
  errno = 0;
  out = strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != 0 || errno == ERANGE || out < lo) {
    fprintf(stderr, "%s must be an integer >= %lld, not '%s'\n", key, lo, v.c_str());
    return false;
  }
  return true;
}

static int measure(const Args& a, Cell& c, Results& out, long long budget_ns, long long min_samples,
                   long long iterations);

// The latency histogram of protocol.md step 7: buckets 2^k * (1 + j/64), j < 64 (under 1.6% relative
// error, HdrHistogram with 2 significant digits), as the Rust harness's measure::Histogram; exact
// below 64 ns. A percentile reports the highest value of its bucket, capped at the maximum.
class Histogram {
  static constexpr unsigned kSub = 6;  // 64 sub-buckets per power of two
  std::vector<uint64_t> counts_ = std::vector<uint64_t>(size_t{64} << kSub);
  uint64_t count_ = 0, max_ = 0;

  static size_t index(uint64_t v) {
    if (v == 0) return 0;  // shares bucket 0 with 1 ns
    const unsigned k = 63 - static_cast<unsigned>(__builtin_clzll(v));
    const uint64_t j = k >= kSub ? (v >> (k - kSub)) & 63 : (v << (kSub - k)) & 63;
    return (size_t{k} << kSub) | j;
  }
  static uint64_t highest(size_t i) {
    const unsigned k = static_cast<unsigned>(i >> kSub);
    const uint64_t j = i & 63;
    return k >= kSub ? ((65 + j) << (k - kSub)) - 1 : ((64 + j) << k) >> kSub;
  }

 public:
  void record(uint64_t v) {
    counts_[index(v)]++;
    count_++;
    max_ = std::max(max_, v);
  }
  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }
  // The non-empty buckets as [highest value, count] pairs, in order: the latency row's `buckets`,
  // which the orchestrator pools over a cell's forks (protocol.md step 7).
  std::vector<std::array<uint64_t, 2>> buckets() const {
    std::vector<std::array<uint64_t, 2>> out;
    for (size_t i = 0; i < counts_.size(); i++)
      if (counts_[i] != 0) out.push_back({highest(i), counts_[i]});
    return out;
  }
  // The bucket holding the ceil(q * count)-th smallest value (0 < q <= 1).
  uint64_t percentile(double q) const {
    const double r = std::ceil(q * static_cast<double>(count_));
    const uint64_t rank = std::min(std::max<uint64_t>(static_cast<uint64_t>(r), 1), std::max<uint64_t>(count_, 1));
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); i++) {
      seen += counts_[i];
      if (seen >= rank) return std::min(highest(i), max_);
    }
    return max_;
  }
};

// `run --hold` (protocol.md step 10): called once the check has passed (or was skipped) and the timed
// loop has everything it needs, just before the first timed (or warm-up) operation. Blocks until one
// byte arrives on standard input or it reaches end of file; any other result (an error, a closed
// descriptor) goes on too, so a hold can never keep a process from measuring. The orchestrator
// starts the next process of a pass held on its own core and writes the byte once it has moved it to
// the harness core. read(2), not stdio, so that nothing beyond the one byte is consumed.
static void hold() {
  char byte;
  while (read(STDIN_FILENO, &byte, 1) < 0 && errno == EINTR) {
  }
}

// `run --latency` (protocol.md step 7, typed tests): every record alone, each operation timed into the
// histogram, after checking (unless --no-check) that every record round-trips on its own.
static int latency(Cell& c, Results& out, long long budget_ns, bool check, bool held) {
  TypedCell& t = *c.typed;
  const size_t n = t.latency_records();
  std::string err;
  auto fail = [&](const std::string& reason, int rc) {
    J r = kind("error");
    r["reason"] = reason;
    out.row(r);
    return rc;
  };
  if (n == 0) return fail("the dataset has no records (a typed dataset for --latency needs one)", kInput);
  if (check)
    for (size_t i = 0; i < n; i++) {
      uint64_t got = 0, want = 0;
      if (!t.latency_check(i, got, want, err)) return fail("record " + std::to_string(i) + ": " + err, kRejected);
      if (got != want) {
        J r = kind("check");
        r["ok"] = false;
        r["hash"] = hex64(got);
        r["expected"] = hex64(want);
        r["reason"] = "record " + std::to_string(i) + ": hash " + hex64(got) + " != " + hex64(want);
        out.row(r);
        return kMismatch;
      }
    }
  J info = kind("info");
  info["measures"] = t.latency_measures();
  info["records"] = n;
  info["histogram"] = "log buckets 2^k*(1+j/64), j<64; percentiles report the bucket's highest value (capped at max)";
  out.row(info);
  const uint64_t kMinOps = 100000;
  uint64_t h = 0;
  Histogram hist;
  if (held) hold();                 // step 10: before the warm-up, which then runs where the timing does
  for (size_t i = 0; i < n; i++) {  // warm-up pass, untimed
    if (!t.latency_once(i, h, err)) return fail(err, kRejected);
    g_sink = g_sink ^ h;
  }
  const long long start = now_ns(CLOCK_MONOTONIC);
  do {
    for (size_t i = 0; i < n; i++) {
      const long long t0 = now_ns(CLOCK_MONOTONIC);
      const bool ok = t.latency_once(i, h, err);
      const long long dt = now_ns(CLOCK_MONOTONIC) - t0;
      if (!ok) return fail(err, kRejected);
      g_sink = g_sink ^ h;
      asm volatile("" ::: "memory");
      hist.record(static_cast<uint64_t>(dt));
    }
  } while (hist.count() < kMinOps || now_ns(CLOCK_MONOTONIC) - start < budget_ns);
  J r = kind("latency");
  r["count"] = hist.count();
  r["p50_ns"] = hist.percentile(0.5);
  r["p99_ns"] = hist.percentile(0.99);
  r["p999_ns"] = hist.percentile(0.999);
  r["p9999_ns"] = hist.percentile(0.9999);
  r["max_ns"] = hist.max();
  r["buckets"] = hist.buckets();
  out.row(r);
  return kOk;
}

// A deliberately slowed row, for checking that `compare` finds a real difference among many equal
// cells (docs/methodology.md, "Full mode and compare"): SERBENCH_TEST_SLOW_BENCH=<id> and
// SERBENCH_TEST_SLOW_SPINS=<n> add a chain of n dependent multiplies to every operation of that
// benchmark. Unset, as in every real run, it costs one branch on a zero per operation.
static uint64_t slowdown_for(const BenchInfo& b) {
  const char* id = getenv("SERBENCH_TEST_SLOW_BENCH");
  const char* n = getenv("SERBENCH_TEST_SLOW_SPINS");
  if (!id || !n || b.id != id) return 0;
  return strtoull(n, nullptr, 10);
}

static int cmd_run(const BenchInfo& b, const Args& a) {
  for (const char* k : {"--bench", "--test", "--format", "--file", "--expect-hash", "--results"})
    if (!a.has(k)) {
      fprintf(stderr, "run: missing %s\n", k);
      return kUsage;
    }
  Cell c;
  c.info = &b;
  c.slow_spins = slowdown_for(b);
  c.test = a.get("--test");
  c.fmt = a.get("--format");
  if (!supports(b, c.test, c.fmt)) {
    fprintf(stderr, "%s does not support %s on %s\n", b.id.c_str(), c.test.c_str(), c.fmt.c_str());
    return kUnsupported;
  }
  c.latency = a.has("--latency");
  if (c.latency && c.test != "typed-encode" && c.test != "typed-decode") {
    fprintf(stderr, "--latency applies to typed-encode and typed-decode only\n");
    return kUnsupported;
  }
  long long budget_ms, min_samples;
  if (!parse_int(a, "--budget-ms", "1000", 0, budget_ms) || !parse_int(a, "--min-samples", "5", 0, min_samples))
    return kUsage;
  // Any 64-bit seed, negative ones wrapping as they always did (std::stoull).
  const std::string seed_text = a.get("--seed", "0");
  char* seed_end = nullptr;
  errno = 0;
  const unsigned long long seed = strtoull(seed_text.c_str(), &seed_end, 10);
  if (seed_text.empty() || *seed_end != 0 || errno == ERANGE) {
    fprintf(stderr, "--seed must be an integer, not '%s'\n", seed_text.c_str());
    return kUsage;
  }
  long long iterations = 0;  // 0: timed sampling; N > 0: the fixed-count loop (protocol.md step 9)
  if (a.has("--iterations") && !parse_int(a, "--iterations", "1", 1, iterations)) return kUsage;
  if (budget_ms > LLONG_MAX / 1000000) {
    fprintf(stderr, "--budget-ms %lld is too large\n", budget_ms);
    return kUsage;
  }
  fragment_heap(seed);

  Results out(a.get("--results"));
  if (!out.f) {
    fprintf(stderr, "cannot open %s\n", a.get("--results").c_str());
    return kUsage;
  }
  std::string err;
  int rc = prepare(c, a.get("--file"), err);
  if (rc == kUsage) {
    fprintf(stderr, "%s\n", err.c_str());
    return rc;
  }
  if (rc != kOk) {
    J r = kind("error");
    r["reason"] = err;
    out.row(r);
    return rc;
  }
  // Whatever a library throws inside the check or the timed loop is its failure on this input.
  std::string reason;
  try {
    return measure(a, c, out, budget_ms * 1000000LL, min_samples, iterations);
  } catch (const std::exception& e) {
    reason = std::string("exception: ") + e.what();
  } catch (...) {
    reason = "exception of a non-standard type";
  }
  J r = kind("error");
  r["reason"] = reason;
  out.row(r);
  return kRejected;
}

// How many operations the allocation pass counts for an operation of about op_ns (0: unknown): as
// many as fit 50 ms, from 2 to 8. The interposed counts are exact, so a slow operation needs few:
// nine 70 ms operations of a size-5 document made the pass 630 ms of the cell's first process,
// longer than its samples.
static int alloc_count(long long op_ns) {
  const long long most = 8, least = 2, budget_ns = 50000000;
  if (op_ns <= 0) return static_cast<int>(most);
  return static_cast<int>(std::min(most, std::max(least, budget_ns / op_ns)));
}

// The check, then the fixed-count loop, or (after --hold's wait) calibration, the canary's warm-up, samples
// (each just after one timed canary run) and (--alloc) the allocation pass (protocol.md, `run` steps 2
// to 6, 9 and 10).
static int measure(const Args& a, Cell& c, Results& out, long long budget_ns, long long min_samples,
                   long long iterations) {
  const BenchInfo& b = *c.info;
  std::string err;
  long long op_ns = 0;  // one operation's time in the last sample: sizes the allocation pass
  // --output-file (write and typed-encode): the bytes the check's encode produced, written even under
  // --no-check (then without a check row), as the orchestrator keeps them for their compressed sizes.
  const bool want_output = a.has("--output-file") && (c.write() || c.test == "typed-encode");
  if (!a.has("--no-check") || want_output) {
    uint64_t h = 0;
    long long ob;
    std::string output;
    if (!c.check(h, ob, err, want_output ? &output : nullptr)) {
      J r = kind("error");
      r["reason"] = err;
      out.row(r);
      return kRejected;
    }
    if (want_output && !write_file(a.get("--output-file"), output)) {
      fprintf(stderr, "cannot write %s\n", a.get("--output-file").c_str());
      return kUsage;
    }
    if (!a.has("--no-check")) {
      const std::string got = hex64(h), want = a.get("--expect-hash");
      J r = kind("check");
      r["ok"] = got == want;
      r["hash"] = got;
      r["expected"] = want;
      r["output_bytes"] = ob >= 0 ? J(ob) : J(nullptr);
      if (got != want) r["reason"] = "hash " + got + " != expected " + want;
      out.row(r);
      if (got != want) return kMismatch;
    }
  }
  // --hold (step 10) has no effect under --iterations (step 9): that path reads no clock.
  const bool held = a.has("--hold") && iterations == 0;
  if (c.latency) return latency(c, out, budget_ns, !a.has("--no-check"), held);
  J info = kind("info");
  info["measures"] = measures(b, c.test);
  info["input_bytes"] = c.data.size();
  out.row(info);

  if (iterations > 0) {
    // Step 9, the instruction-count mode: one untimed warm-up iteration, then exactly N in one batch.
    // No clock is read (even the digits of a measured time, formatted into the row, would vary the
    // count), so the instructions executed depend only on the build, the file and N.
    if (!c.once(err)) goto fail;
    for (long long i = 0; i < iterations; i++)
      if (!c.once(err)) goto fail;
    J r = kind("sample");
    r["iterations"] = iterations;
    r["wall_ns"] = 0;
    r["cpu_ns"] = nullptr;
    out.row(r);
    return kOk;
  }
  {
    if (held) hold();  // step 10: after the check and the info row, before calibration (the warm-up)
    // Calibrate: double the batch until one batch lasts max(1 ms, budget/50); this is the warm-up.
    const long long target = std::max(1000000LL, budget_ns / 50);
    const long long cal0 = now_ns(CLOCK_MONOTONIC);
    long long batch = 1;
    for (;;) {
      const long long t0 = now_ns(CLOCK_MONOTONIC);
      for (long long i = 0; i < batch; i++)
        if (!c.once(err)) goto fail;
      if (now_ns(CLOCK_MONOTONIC) - t0 >= target) break;
      batch *= 2;
    }
    J ci = kind("info");
    ci["batch"] = batch;
    ci["calibration_ns"] = now_ns(CLOCK_MONOTONIC) - cal0;
    out.row(ci);

    // The canary (step 4, canary.h): 20 untimed runs before the first sample, then one timed alone
    // just before each batch, outside the batch's timing.
    for (int i = 0; i < 20; i++) canary();
    std::vector<std::array<long long, 3>> samples;  // wall_ns, cpu_ns, canary_ns
    const long long start = now_ns(CLOCK_MONOTONIC);
    while (now_ns(CLOCK_MONOTONIC) - start < budget_ns || static_cast<long long>(samples.size()) < min_samples) {
      const long long k0 = now_ns(CLOCK_MONOTONIC);
      canary();
      const long long k1 = now_ns(CLOCK_MONOTONIC);
      const long long c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), t0 = now_ns(CLOCK_MONOTONIC);
      for (long long i = 0; i < batch; i++)
        if (!c.once(err)) goto fail;
      const long long t1 = now_ns(CLOCK_MONOTONIC), c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
      samples.push_back({t1 - t0, c1 - c0, k1 - k0});
    }
    if (!samples.empty()) op_ns = samples.back()[0] / batch;
    // Rows are written after sampling so file I/O never lands inside a sample.
    for (const auto& s : samples) {
      J r = kind("sample");
      r["iterations"] = batch;
      r["wall_ns"] = s[0];
      r["cpu_ns"] = s[1];
      r["canary_ns"] = s[2];
      out.row(r);
    }
  }
  if (a.has("--alloc")) {
    // Step 6, after the samples (counting is off while they are timed): one warm-up op (first-use
    // allocations such as lazily built tables are not per-op costs), then count every malloc-family
    // call over a few ops (alloc_count).
    if (!c.once(err)) goto fail;
    const int n = alloc_count(op_ns);
    g_alloc.calls = g_alloc.bytes = 0;
    g_alloc.enabled = true;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) ok = c.once(err);
    g_alloc.enabled = false;
    if (!ok) goto fail;
    J r = kind("alloc");
    r["allocs_per_op"] = static_cast<double>(g_alloc.calls) / n;
    r["alloc_bytes_per_op"] = static_cast<double>(g_alloc.bytes) / n;
    r["method"] = "malloc-interpose: malloc/calloc/realloc/memalign calls and requested bytes";
    out.row(r);
  }
  return kOk;
fail : {
  J r = kind("error");
  r["reason"] = err;
  out.row(r);
  return kRejected;
}
}

// verify logic shared by `verify` and `selftest`: exit code, hash or reason.
static int verify_one(const BenchInfo& b, const std::string& test, const std::string& fmt, const std::string& path,
                      uint64_t& hash, std::string& err) {
  if (!supports(b, test, fmt)) {
    err = b.id + " does not support " + test + " on " + fmt;
    return kUnsupported;
  }
  Cell c;
  c.info = &b;
  c.test = test;
  c.fmt = fmt;
  int rc = prepare(c, path, err);
  if (rc != kOk) return rc;
  long long ob;
  return guarded([&] { return c.check(hash, ob, err); }, err) ? kOk : kRejected;
}

static int cmd_verify(const BenchInfo& b, const Args& a) {
  for (const char* k : {"--bench", "--test", "--format", "--file"})
    if (!a.has(k)) {
      fprintf(stderr, "verify: missing %s\n", k);
      return kUsage;
    }
  uint64_t h = 0;
  std::string err;
  int rc = verify_one(b, a.get("--test"), a.get("--format"), a.get("--file"), h, err);
  if (rc == kUsage || rc == kUnsupported) {
    fprintf(stderr, "%s\n", err.c_str());
    return rc;
  }
  J r;
  if (rc == kOk)
    r["hash"] = hex64(h);
  else
    r["error"] = err;
  puts(r.dump(-1, ' ', false, J::error_handler_t::replace).c_str());
  return rc;
}

// The conformance set (vectors/conformance/manifest.json; spec/data-model.md): every case through the
// reference decoder and the object hash, by the logic of `verify --bench hash-object --test tree`. A
// case expected to be accepted must give its hash, one expected to be rejected must be refused by the
// reference decoder (exit 6); a format the reference decoder does not read is skipped. Nothing when
// the directory has no conformance set.
static void conformance(const BenchInfo& b, const std::string& dir, int& pass, int& fail, int& skip) {
  const std::string root = dir + "/conformance/";
  std::string text;
  if (!read_file(root + "manifest.json", text)) return;
  const J manifest = J::parse(text);
  for (const auto& c : manifest["cases"]) {
    const std::string fmt = c["format"], expect = c["expect"];
    J row;
    row["bench"] = b.id;
    row["test"] = "conformance";
    row["format"] = fmt;
    row["vector"] = c["name"];
    std::string status = "pass", reason;
    if (!supports(b, "tree", fmt)) {
      status = "skip";
      reason = "the native reference decoder does not read " + fmt;
    } else {
      uint64_t h = 0;
      std::string err;
      const int rc = verify_one(b, "tree", fmt, root + c["file"].get<std::string>(), h, err);
      if (expect == "accept") {
        const std::string want = c["hash"];
        if (rc != kOk)
          reason = "expected accept with hash " + want + ", got exit " + std::to_string(rc) + ": " + err;
        else if (hex64(h) != want)
          reason = "expected hash " + want + ", got " + hex64(h);
      } else if (expect == "reject") {
        if (rc == kOk)
          reason = "expected reject, got accept with hash " + hex64(h);
        else if (rc != kInput)
          reason = "expected the reference decoder's rejection (exit 6), got exit " + std::to_string(rc) + ": " + err;
      } else {
        reason = "unknown expectation '" + expect + "'";
      }
      if (!reason.empty()) status = "fail";
    }
    (status == "pass" ? pass : status == "fail" ? fail : skip)++;
    row["status"] = status;
    row["reason"] = reason.empty() ? J(nullptr) : J(reason);
    puts(row.dump(-1, ' ', false, J::error_handler_t::replace).c_str());
  }
}

static int cmd_selftest(const BenchInfo& b, const Args& a) {
  if (!a.has("--vectors")) {
    fprintf(stderr, "selftest: missing --vectors\n");
    return kUsage;
  }
  const std::string dir = a.get("--vectors");
  std::string text, known_text;
  if (!read_file(dir + "/vectors.json", text)) {
    fprintf(stderr, "cannot read %s/vectors.json\n", dir.c_str());
    return kUsage;
  }
  const J index = J::parse(text);
  // Known deviations: bench/test -> vector -> reason; reported as skip, and as a failure once the
  // library stops deviating (the list must stay true), like the Python harness.
  J known = J::object();
  if (read_file(SB_KNOWN_DEVIATIONS, known_text)) known = J::parse(known_text);
  int pass = 0, fail = 0, skip = 0;
  for (const auto& v : index["vectors"]) {
    const std::string name = v["name"];
    for (const auto& test : b.tests) {
      if (is_typed_test(test)) continue;  // the vectors are schemaless: typed tests are covered by ctest
      for (const auto& fmt : b.formats) {
        if (!v["files"].contains(fmt)) continue;
        J row;
        row["bench"] = b.id;
        row["test"] = test;
        row["format"] = fmt;
        row["vector"] = name;
        std::string reason, err;
        const std::string key = b.id + "/" + test;
        if (known.contains(key) && known[key].contains(name)) reason = known[key][name];
        // A vector may list formats to skip for a library.
        bool listed_skip = false;
        if (v.contains("skip")) {
          const J& s = v["skip"];
          if (s.is_object() && s.contains(b.library))
            for (const auto& f : s[b.library])
              if (f == fmt) listed_skip = true;
        }
        uint64_t h = 0;
        std::string status;
        if (listed_skip) {
          status = "skip";
          err = "skipped by the vector";
        } else {
          int rc = verify_one(b, test, fmt, dir + "/" + v["files"][fmt].get<std::string>(), h, err);
          if (rc == kOk && hex64(h) != v["hash"])
            err = "hash " + hex64(h) + " != " + v["hash"].get<std::string>();
          else if (rc == kOk)
            err.clear();
          const bool bad = !err.empty();
          if (!reason.empty()) {
            status = bad ? "skip" : "fail";
            err = bad ? "known: " + reason : "known deviation now passes";
          } else {
            status = bad ? "fail" : "pass";
          }
        }
        (status == "pass" ? pass : status == "fail" ? fail : skip)++;
        row["status"] = status;
        row["reason"] = err.empty() ? J(nullptr) : J(err);
        puts(row.dump(-1, ' ', false, J::error_handler_t::replace).c_str());
      }
    }
  }
#ifndef SB_COUNTED_WALKS  // once per harness: in hash-object, not in its instruction-count twin
  if (b.id == "hash-object") conformance(b, dir, pass, fail, skip);
#endif
  fflush(stdout);
  fprintf(stderr, "%s: %d passed, %d failed, %d skipped\n", b.id.c_str(), pass, fail, skip);
  return fail ? 1 : 0;
}

// `wire` (typed executables; not a protocol command): this row's encoding of a typed dataset, for
// the typed baselines (sb.h, typed_wire).
static int cmd_wire(const BenchInfo& b, const Args& a) {
  for (const char* k : {"--format", "--file", "--output-file"})
    if (!a.has(k)) {
      fprintf(stderr, "wire: missing %s\n", k);
      return kUsage;
    }
  const std::string fmt = a.get("--format");
  const bool typed_row = std::any_of(b.tests.begin(), b.tests.end(), is_typed_test);
  if (!typed_wire || !typed_row || b.baseline || !std::count(b.formats.begin(), b.formats.end(), fmt)) {
    fprintf(stderr, "%s makes no typed encoding in %s\n", b.id.c_str(), fmt.c_str());
    return kUnsupported;
  }
  std::string err;
  int rc = kRejected;
  if (!guarded(
          [&] {
            rc = typed_wire(b, fmt, a.get("--file"), a.has("--per-record"), a.get("--output-file"), err);
            return true;
          },
          err))
    rc = kRejected;
  if (rc != kOk) fprintf(stderr, "%s\n", err.c_str());
  return rc;
}

int main(int argc, char** argv) {
  const BenchInfo& b = bench_info();
  Args a;
  std::string err;
  if (!parse_args(argc, argv, a, err)) {
    fprintf(stderr, "%s\n", err.c_str());
    return kUsage;
  }
  if ((a.cmd == "run" || a.cmd == "verify") && a.get("--bench") != b.id) {
    fprintf(stderr, "unknown benchmark %s (this executable is %s)\n", a.get("--bench").c_str(), b.id.c_str());
    return kUsage;
  }
  try {
    if (a.cmd == "describe") {
      puts(describe_json(b).dump().c_str());
      return kOk;
    }
    if (a.cmd == "run") return cmd_run(b, a);
    if (a.cmd == "verify") return cmd_verify(b, a);
    if (a.cmd == "selftest") return cmd_selftest(b, a);
    if (a.cmd == "wire") return cmd_wire(b, a);
  } catch (const std::exception& e) {  // a malformed --vectors DIR/vectors.json (selftest)
    fprintf(stderr, "%s\n", e.what());
    return kUsage;
  }
  fprintf(stderr, "unknown command %s\n", a.cmd.c_str());
  return kUsage;
}

}  // namespace sb

int main(int argc, char** argv) { return sb::main(argc, argv); }
