// The typed half of sb::main (spec/typed.md), linked into typed executables only (sb.h: the weak
// make_typed_cell and typed_wire). A row's cell drives its Codec (typed_bench.h); a baseline's cell
// (hash-typed, hash-data-typed) asks the typed rows of this build for their encoding of the records
// (`wire`, one process per row, so no executable ever links two libraries) and keeps the shortest.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>

#include "typed_bench.h"

namespace sb {

// Typed executables have no schemaless test (their BenchInfo lists none): sb::main never asks.
std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string&, const Doc&, const std::string&,
                                      std::string& err) {
  err = "no schemaless test " + test + " in a typed benchmark";
  return nullptr;
}

namespace typed {
namespace {

enum Exit { kOk = 0, kRejected = 3, kInput = 6 };

// The cell's input buffer for typed reads: each operation copies the encoding it reads into this
// one 16-byte aligned buffer (zero-copy readers need aligned input) with kPadding zero bytes after
// it, allocated once per cell as the schemaless path's Cell::buf (spec/fairness.md rule 1). A new
// allocation per operation, as before (version 8), put a malloc and a free in every timed operation
// and one allocation of the input's size in every typed row's count, which the rows' own work does
// not make. The padding is zeroed after each copy: a shorter record may follow a longer one.
class AlignedBuf {
  std::unique_ptr<uint8_t, decltype(&free)> p_{nullptr, &free};
  size_t cap_ = 0;

 public:
  // Room for `len` bytes and the padding; called before the timed loop (fresh grows it otherwise).
  void reserve(size_t len) {
    const size_t cap = (len + kPadding + 15) & ~size_t{15};
    if (cap <= cap_) return;
    void* p = aligned_alloc(16, cap);
    if (!p) throw std::bad_alloc();
    memset(p, 0, cap);  // touched now, so that no timed operation takes the pages' first faults
    p_.reset(static_cast<uint8_t*>(p));
    cap_ = cap;
  }
  uint8_t* fresh(const std::string& b) {
    reserve(b.size());
    memcpy(p_.get(), b.data(), b.size());
    memset(p_.get() + b.size(), 0, kPadding);
    return p_.get();
  }
};

// The longest of some encodings (the size an AlignedBuf needs for any of them).
size_t longest(const std::vector<std::string>& v) {
  size_t n = 0;
  for (const auto& x : v) n = std::max(n, x.size());
  return n;
}

// The hash of record i alone (latency checks).
uint64_t record_hash(const Records& r, size_t i) {
  return visit(r, [i](const auto& v) { return thash(v[i]); });
}

bool load(const std::string& file, Records& out, std::string& err) {
  return load_records(file.data(), file.size(), out, err);
}

// --- a row: its codec -------------------------------------------------------------------------------

class RowCell : public TypedCell {
  std::string test_;
  Records records_;                    // before codec_: the codec may keep a reference to them
  std::unique_ptr<Codec> codec_;       // destroyed first
  uint64_t expected_ = 0;              // the records' typed hash: what every read of them must give
  bool read_with_decode_ = true;       // typed-encode's check reads its output back with decode (else access)
  std::string wire_;                   // typed-decode / typed-access: the codec's own encoding of the records
  std::vector<std::string> one_wire_;  // --latency: each record's own encoding
  std::vector<uint64_t> one_hash_;     // and its typed hash
  AlignedBuf in_;                      // typed-decode / typed-access: each operation's input

  bool read(uint8_t* data, size_t len, uint64_t& h, std::string& err, bool with_decode) {
    return with_decode ? codec_->decode(data, len, h, err) : codec_->access(data, len, h, err);
  }

 public:
  // Returns an exit code (make_typed_cell's).
  int prepare(const BenchInfo& b, const std::string& test, const std::string& fmt, const std::string&,
              const std::string& file, bool latency, std::string& err) {
    test_ = test;
    if (!load(file, records_, err)) return kInput;
    expected_ = hash_document(records_);
    read_with_decode_ = std::count(b.tests.begin(), b.tests.end(), "typed-decode") > 0;
    codec_ = make_codec(test, fmt, records_, err);
    if (!codec_) return kRejected;
    if (test != "typed-encode") {
      const uint8_t* out = nullptr;
      size_t len = 0;
      if (!codec_->encode(out, len, err)) {
        err = "cannot encode the records: " + err;
        return kRejected;
      }
      wire_.assign(reinterpret_cast<const char*>(out), len);
    }
    if (latency) {
      const size_t n = records_.size();
      one_wire_.resize(n);
      one_hash_.resize(n);
      for (size_t i = 0; i < n; i++) {
        const uint8_t* out = nullptr;
        size_t len = 0;
        if (!codec_->encode_one(i, out, len, err)) {
          err = "record " + std::to_string(i) + ": " + err;
          return kRejected;
        }
        one_wire_[i].assign(reinterpret_cast<const char*>(out), len);
        one_hash_[i] = record_hash(records_, i);
      }
    }
    in_.reserve(std::max(wire_.size(), longest(one_wire_)));
    return kOk;
  }

  bool check(uint64_t& hash, std::string& output, bool& has_output, std::string& err) override {
    has_output = false;
    if (test_ == "typed-encode") {
      const uint8_t* out = nullptr;
      size_t len = 0;
      if (!codec_->encode(out, len, err)) return false;
      output.assign(reinterpret_cast<const char*>(out), len);
      has_output = true;
      if (!read(in_.fresh(output), output.size(), hash, err, read_with_decode_)) {
        err = "cannot read its own output: " + err;
        return false;
      }
      return true;
    }
    return read(in_.fresh(wire_), wire_.size(), hash, err, test_ == "typed-decode");
  }

  bool once(uint64_t& h, std::string& err) override {
    if (test_ == "typed-encode") {
      const uint8_t* out = nullptr;
      size_t len = 0;
      if (!codec_->encode(out, len, err)) return false;
      h = sb_hash_bin(out, len);
      return true;
    }
    uint8_t* in = in_.fresh(wire_);
    return test_ == "typed-decode" ? codec_->decode(in, wire_.size(), h, err)
                                   : codec_->access(in, wire_.size(), h, err);
  }

  size_t latency_records() const override { return one_wire_.size(); }
  std::string latency_measures() const override {
    return test_ == "typed-encode"
               ? "encode one record (prepared outside the loop) + hash of its bytes"
               : "copy one record's encoding (into the cell's 16-byte aligned buffer) + decode it + typed hash of "
                 "the record";
  }
  bool latency_check(size_t i, uint64_t& got, uint64_t& want, std::string& err) override {
    want = one_hash_[i];
    return codec_->decode_one(in_.fresh(one_wire_[i]), one_wire_[i].size(), got, err);
  }
  bool latency_once(size_t i, uint64_t& h, std::string& err) override {
    if (test_ == "typed-encode") {
      const uint8_t* out = nullptr;
      size_t len = 0;
      if (!codec_->encode_one(i, out, len, err)) return false;
      h = sb_hash_bin(out, len);
      return true;
    }
    return codec_->decode_one(in_.fresh(one_wire_[i]), one_wire_[i].size(), h, err);
  }
};

// --- the baselines: the rows' bytes, the harness's records ----------------------------------------

std::string exe_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  const std::string p(buf);
  return p.substr(0, p.rfind('/'));
}

bool read_all(const std::string& path, std::string& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

// Runs `bench-<id> wire ...` (argv, no shell) with its stderr captured into `err`; its exit code.
int run_wire(const std::string& id, const std::string& fmt, const std::string& file, bool per_record,
             const std::string& out_path, std::string& err) {
  const std::string exe = exe_dir() + "/bench-" + id;
  char err_path[] = "/tmp/serbench-wire-err-XXXXXX";
  const int efd = mkstemp(err_path);
  if (efd < 0) {
    err = "cannot create a temporary file";
    return -1;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(efd, 2);
    std::vector<const char*> argv = {exe.c_str(), "wire",       "--format",      fmt.c_str(),
                                     "--file",    file.c_str(), "--output-file", out_path.c_str()};
    if (per_record) argv.push_back("--per-record");
    argv.push_back(nullptr);
    execv(exe.c_str(), const_cast<char* const*>(argv.data()));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) st = -1;
  close(efd);
  read_all(err_path, err);
  unlink(err_path);
  while (!err.empty() && err.back() == '\n') err.pop_back();
  if (pid < 0 || st == -1) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

// The typed rows of this build and their formats (typed.tsv, written by typed.cmake).
std::vector<std::pair<std::string, std::vector<std::string>>> typed_rows() {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  std::ifstream f(exe_dir() + "/typed.tsv");
  std::string line;
  while (std::getline(f, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    std::vector<std::string> formats;
    std::istringstream fs(line.substr(tab + 1));
    for (std::string x; std::getline(fs, x, ',');)
      if (!x.empty()) formats.push_back(x);
    rows.emplace_back(line.substr(0, tab), formats);
  }
  return rows;
}

// Splits a per-record wire file: each record's bytes after their length (8 little-endian bytes).
bool split_records(const std::string& all, std::vector<std::string>& out) {
  size_t at = 0;
  while (at < all.size()) {
    if (all.size() - at < 8) return false;
    uint64_t n;
    memcpy(&n, all.data() + at, 8);
    at += 8;
    if (n > all.size() - at) return false;
    out.emplace_back(all.data() + at, n);
    at += n;
  }
  return true;
}

class BaselineCell : public TypedCell {
  bool data_only_ = false;  // hash-data-typed: hash the encoding; hash-typed: copy it + hash the records
  bool encode_ = false;     // the test the baseline stands for is typed-encode (latency)
  Records records_;
  std::string wire_;                   // the shortest encoding of the records in the format
  std::vector<std::string> one_wire_;  // --latency: each record alone, by the row that made wire_
  AlignedBuf in_;                      // hash-typed: each operation's copy of the input

 public:
  int prepare(const BenchInfo& b, const std::string& test, const std::string& fmt, const std::string& path,
              const std::string& file, bool latency, std::string& err) {
    data_only_ = b.id == "hash-data-typed";
    encode_ = test == "typed-encode";
    if (!load(file, records_, err)) return kInput;
    char tmp[] = "/tmp/serbench-wire-XXXXXX";
    const int fd = mkstemp(tmp);
    if (fd < 0) {
      err = "cannot create a temporary file";
      return kRejected;
    }
    close(fd);
    std::string owner, why = "no typed row of this build encodes " + fmt;
    bool found = false;
    for (const auto& [id, formats] : typed_rows()) {
      if (!std::count(formats.begin(), formats.end(), fmt)) continue;
      std::string e, bytes;
      const int rc = run_wire(id, fmt, path, false, tmp, e);
      if (rc != 0 || !read_all(tmp, bytes)) {
        // a row that cannot carry these records (its cell fails) has no bytes to match
        why = id + " (exit " + std::to_string(rc) + "): " + e;
        continue;
      }
      if (!found || bytes.size() < wire_.size()) {
        wire_ = std::move(bytes);
        owner = id;
        found = true;
      }
    }
    if (found && latency) {
      std::string e, all;
      const int rc = run_wire(owner, fmt, path, true, tmp, e);
      if (rc != 0 || !read_all(tmp, all) || !split_records(all, one_wire_) || one_wire_.size() != records_.size()) {
        unlink(tmp);
        err = "one-record encodings of " + owner + " (exit " + std::to_string(rc) + "): " + e;
        return kRejected;
      }
    }
    unlink(tmp);
    if (!found) {
      err = why;
      return kRejected;
    }
    in_.reserve(std::max(wire_.size(), longest(one_wire_)));
    return kOk;
  }

  bool check(uint64_t& hash, std::string&, bool& has_output, std::string&) override {
    has_output = false;
    hash = hash_document(records_);
    return true;
  }
  bool once(uint64_t& h, std::string&) override {
    if (data_only_) {
      h = sb_hash_bin(wire_.data(), wire_.size());
      return true;
    }
    uint8_t* in = in_.fresh(wire_);
    asm volatile("" : : "r"(in) : "memory");  // the copy is made, as a row's is
    h = hash_document(records_);
    return true;
  }

  size_t latency_records() const override { return one_wire_.size(); }
  std::string latency_measures() const override {
    return encode_ ? "hash of one record's encoding"
                   : "copy one record's encoding (into the cell's 16-byte aligned buffer) + typed hash of the "
                     "prebuilt record";
  }
  bool latency_check(size_t i, uint64_t& got, uint64_t& want, std::string&) override {
    got = want = record_hash(records_, i);
    return true;
  }
  bool latency_once(size_t i, uint64_t& h, std::string&) override {
    if (encode_) {
      h = sb_hash_bin(one_wire_[i].data(), one_wire_[i].size());
      return true;
    }
    uint8_t* in = in_.fresh(one_wire_[i]);
    asm volatile("" : : "r"(in) : "memory");
    h = record_hash(records_, i);
    return true;
  }
};

}  // namespace

// The formats of every typed row of this build (the typed baselines' `formats`).
std::vector<std::string> all_typed_formats() {
  std::vector<std::string> out;
  for (const auto& row : typed_rows())
    for (const auto& f : row.second)
      if (!std::count(out.begin(), out.end(), f)) out.push_back(f);
  return out;
}

}  // namespace typed

int make_typed_cell(const BenchInfo& b, const std::string& test, const std::string& fmt, const std::string& path,
                    const std::string& data, bool latency, std::unique_ptr<TypedCell>& out, std::string& err) {
  if (b.baseline) {
    auto c = std::make_unique<typed::BaselineCell>();
    const int rc = c->prepare(b, test, fmt, path, data, latency, err);
    out = std::move(c);
    return rc;
  }
  auto c = std::make_unique<typed::RowCell>();
  const int rc = c->prepare(b, test, fmt, path, data, latency, err);
  out = std::move(c);
  return rc;
}

int typed_wire(const BenchInfo& b, const std::string& fmt, const std::string& path, bool per_record,
               const std::string& out_path, std::string& err) {
  std::string file;
  if (!typed::read_all(path, file)) {
    err = "cannot read " + path;
    return 2;
  }
  typed::Records records;
  if (!typed::load(file, records, err)) return typed::kInput;
  const bool encodes = std::count(b.tests.begin(), b.tests.end(), "typed-encode") > 0;
  auto codec = typed::make_codec(encodes || b.tests.empty() ? "typed-encode" : b.tests.front(), fmt, records, err);
  if (!codec) return typed::kRejected;
  std::string bytes;
  const size_t n = per_record ? records.size() : 1;
  for (size_t i = 0; i < n; i++) {
    const uint8_t* out = nullptr;
    size_t len = 0;
    if (!(per_record ? codec->encode_one(i, out, len, err) : codec->encode(out, len, err))) return typed::kRejected;
    if (per_record) {
      const uint64_t n64 = len;
      bytes.append(reinterpret_cast<const char*>(&n64), 8);
    }
    bytes.append(reinterpret_cast<const char*>(out), len);
  }
  std::ofstream f(out_path, std::ios::binary | std::ios::trunc);
  if (!f.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !f.flush()) {
    err = "cannot write " + out_path;
    return 2;
  }
  return typed::kOk;
}

}  // namespace sb
