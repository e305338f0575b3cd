// Boost.JSON 1.81, header-only: <boost/json/src.hpp> is compiled into this translation unit (the only
// one of the executable that includes Boost.JSON), so the library's code counts in the code size.
// Headers from Debian's libboost1.81-dev, unpacked into build/deps/ by setup.sh (see there).
// One executable per variant (SB_VARIANT):
//   1 boost-json-serialize     write: boost::json::serialize of a boost::json::value, fresh string
//                              per op (json only: Boost.JSON 1.81 has no pretty printer)
//   2 boost-json-parse         tree: boost::json::parse into a value (default memory resource)
//   3 boost-json-basic-parser  incremental: basic_parser with a handler that hashes the events (no
//                              tree), parser reused across ops (reset)
// parse_options::max_depth is raised from its default 32 to 1024 (the streaming hasher's depth
// limit). Boost.JSON 1.81 has no option for exact number parsing (parse_options::numbers came later).
#include <boost/json/src.hpp>  // the library's sources: in exactly one translation unit
// basic_parser's definitions (src.hpp pulls them in too; the basic_parser docs ask for this header)
#include <boost/json/basic_parser_impl.hpp>

#include "sb.h"

namespace sb {
namespace {

namespace bj = boost::json;

[[maybe_unused]] bj::parse_options parse_opts() {
  bj::parse_options o;
  o.max_depth = SB_MAX_DEPTH;
  return o;
}

#if SB_VARIANT == 1
// Builds the library's input (a value) from the reference object, outside the timed loop.
bj::value build(const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return nullptr;
    case T::False: return false;
    case T::True: return true;
    case T::Uint: return n.u;  // uint64_t: kind::uint64
    case T::Neg: return n.i;   // int64_t: kind::int64
    case T::Double: return n.d;
    case T::Str: return bj::string(bj::string_view(d.str(n), n.count));
    case T::Bin: throw std::runtime_error("JSON has no binary");
    case T::Array: {
      bj::array a;  // no reserve(): GCC 12's LTO warns on Boost's relocate path (false positive)
      for (uint32_t c = 0; c < n.count; c++) a.push_back(build(d, i));
      return a;
    }
    case T::Map: {
      bj::object o;
      o.reserve(n.count);
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        bj::string_view key(d.str(k), k.count);
        o.insert_or_assign(key, build(d, i));
      }
      return o;
    }
  }
  return nullptr;
}

class Serialize : public Adapter {
  const bj::value v_;
  std::string out_;

 public:
  explicit Serialize(bj::value v) : v_(std::move(v)) {}
  bool encode(const char*& out, size_t& len, std::string&) override {
    out_ = bj::serialize(v_);  // a fresh string every iteration; serialize cannot fail
    out = out_.data();
    len = out_.size();
    return true;
  }
};
#elif SB_VARIANT == 2
uint64_t hash_value(const bj::value& v) {
  switch (v.kind()) {
    case bj::kind::null: return sb_hash_null();
    case bj::kind::bool_: return sb_hash_bool(v.get_bool());
    case bj::kind::int64: return sb_hash_int(v.get_int64());
    case bj::kind::uint64: return sb_hash_uint(v.get_uint64());
    case bj::kind::double_: return sb_hash_double(v.get_double());
    case bj::kind::string: {
      const bj::string& s = v.get_string();
      return sb_hash_str(s.data(), s.size());
    }
    case bj::kind::array: {
      const bj::array& a = v.get_array();
      uint64_t h = sb_array_start();
      for (const bj::value& e : a) h = sb_array_add(h, hash_value(e));
      return sb_array_end(h, a.size());
    }
    case bj::kind::object: {
      const bj::object& o = v.get_object();
      uint64_t s = 0;
      for (const bj::key_value_pair& kv : o) {
        bj::string_view k = kv.key();
        s += sb_map_entry(sb_hash_str(k.data(), k.size()), hash_value(kv.value()));
      }
      return sb_map_end(s, o.size());
    }
  }
  return 0;
}

class Parse : public Adapter {
  const bj::parse_options opts_ = parse_opts();

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    bj::error_code ec;
    bj::value v = bj::parse(bj::string_view(buf, len), ec, {}, opts_);
    if (ec) {
      err = ec.message();
      return false;
    }
    hash = hash_value(v);
    return true;
  }
};
#else
// basic_parser handler feeding the streaming hash. Strings and keys come in one call unless they
// are split (on_*_part, then the rest in on_string/on_key): split ones are joined in part_.
struct Handler {
  static constexpr std::size_t max_array_size = -1;
  static constexpr std::size_t max_object_size = -1;
  static constexpr std::size_t max_string_size = -1;
  static constexpr std::size_t max_key_size = -1;

  sb_hasher h;
  std::string part_;

  // The hasher failed: nesting beyond its 1024 frames (the parser stops first) or unbalanced events.
  static bool fail(bj::error_code& ec) {
    ec = bj::error::too_deep;
    return false;
  }
  bool emit(uint64_t v) { return sb_hasher_emit(&h, v), true; }
  // The whole string: s alone, or the joined parts plus s.
  bj::string_view whole(bj::string_view s) {
    if (part_.empty()) return s;
    part_.append(s.data(), s.size());
    return part_;
  }

  bool on_document_begin(bj::error_code&) { return true; }
  bool on_document_end(bj::error_code&) { return true; }
  bool on_array_begin(bj::error_code& ec) { return sb_hasher_open(&h, 0), h.error ? fail(ec) : true; }
  bool on_array_end(std::size_t, bj::error_code& ec) { return sb_hasher_close(&h), h.error ? fail(ec) : true; }
  bool on_object_begin(bj::error_code& ec) { return sb_hasher_open(&h, 1), h.error ? fail(ec) : true; }
  bool on_object_end(std::size_t, bj::error_code& ec) { return sb_hasher_close(&h), h.error ? fail(ec) : true; }
  bool on_string_part(bj::string_view s, std::size_t, bj::error_code&) {
    part_.append(s.data(), s.size());
    return true;
  }
  bool on_string(bj::string_view s, std::size_t, bj::error_code&) {
    bj::string_view w = whole(s);
    emit(sb_hash_str(w.data(), w.size()));
    part_.clear();
    return true;
  }
  bool on_key_part(bj::string_view s, std::size_t, bj::error_code&) {
    part_.append(s.data(), s.size());
    return true;
  }
  bool on_key(bj::string_view s, std::size_t, bj::error_code&) {
    bj::string_view w = whole(s);
    sb_hasher_key(&h, w.data(), w.size());
    part_.clear();
    return true;
  }
  bool on_number_part(bj::string_view, bj::error_code&) { return true; }
  bool on_int64(int64_t i, bj::string_view, bj::error_code&) { return emit(sb_hash_int(i)); }
  bool on_uint64(uint64_t u, bj::string_view, bj::error_code&) { return emit(sb_hash_uint(u)); }
  bool on_double(double d, bj::string_view, bj::error_code&) { return emit(sb_hash_double(d)); }
  bool on_bool(bool b, bj::error_code&) { return emit(sb_hash_bool(b)); }
  bool on_null(bj::error_code&) { return emit(sb_hash_null()); }
  bool on_comment_part(bj::string_view, bj::error_code&) { return true; }
  bool on_comment(bj::string_view, bj::error_code&) { return true; }
};

class BasicParser : public Adapter {
  bj::basic_parser<Handler> p_{parse_opts()};  // holds the 32 KiB hasher: kept off the loop's stack

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    p_.reset();
    Handler& hd = p_.handler();
    sb_hasher_init(&hd.h);
    hd.part_.clear();
    bj::error_code ec;
    size_t n = p_.write_some(false, buf, len, ec);  // more = false: the whole document
    if (ec) {
      err = ec.message() + " at offset " + std::to_string(n);
      return false;
    }
    if (n != len) {
      err = "extra data at offset " + std::to_string(n);
      return false;
    }
    if (!sb_hasher_done(&hd.h, &hash)) {
      err = "unbalanced events";
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
    i.library = "boost-json";
    i.version = SB_VERSION;
#if SB_VARIANT == 1
    i.id = "boost-json-serialize";
    i.formats = {"json"};
    i.tests = {"write"};
    i.notes = "boost::json::serialize of a value, fresh std::string per op; no pretty printer in 1.81; header-only";
#elif SB_VARIANT == 2
    i.id = "boost-json-parse";
    i.formats = {"json", "json-pretty"};
    i.tests = {"tree"};
    i.notes = "boost::json::parse into a value, default memory resource, max_depth 1024; header-only";
#else
    i.id = "boost-json-basic-parser";
    i.formats = {"json", "json-pretty"};
    i.tests = {"incremental"};
    i.notes = "basic_parser with a hashing handler (no tree), reused via reset(), max_depth 1024; header-only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
  (void)fmt;
#if SB_VARIANT == 1
  try {
    size_t i = 0;
    return std::make_unique<Serialize>(build(input, i));
  } catch (const std::exception& e) {
    err = e.what();
    return nullptr;
  }
#elif SB_VARIANT == 2
  (void)input, (void)err;
  return std::make_unique<Parse>();
#else
  (void)input, (void)err;
  return std::make_unique<BasicParser>();
#endif
}

}  // namespace sb
