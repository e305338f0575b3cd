// Boost.JSON 1.81, header-only: <boost/json/src.hpp> is compiled into this translation unit (the only
// one of the executable that includes Boost.JSON), so the library's code counts in the code size.
// Headers from Debian's libboost1.81-dev, unpacked into build/deps/ by setup.sh (see there).
// One executable per variant (SB_VARIANT):
//   1 boost-json-serialize     write: boost::json::serialize of a boost::json::value, fresh string
//                              per op (json only: Boost.JSON 1.81 has no pretty printer)
//   2 boost-json-parse         tree: boost::json::parse into a value (default memory resource)
//   3 boost-json-basic-parser  incremental: basic_parser with a handler that hashes the events (no
//                              tree), parser reused across ops (reset)
// parse_options::max_depth is raised from its default 32 to 1024 (kLibraryMaxDepth), so that nesting
// is not what these rows measure. Boost.JSON 1.81 has no option for exact number parsing (parse_options::numbers came
// later).
#include <boost/json/src.hpp>  // the library's sources: in exactly one translation unit
// basic_parser's definitions (src.hpp pulls them in too; the basic_parser docs ask for this header)
#include <boost/json/basic_parser_impl.hpp>

#include "sb.h"

namespace sb {
namespace {

namespace bj = boost::json;

[[maybe_unused]] bj::parse_options parse_opts() {
  bj::parse_options o;
  o.max_depth = kLibraryMaxDepth;
  return o;
}

#if SB_VARIANT == 1
// Builds the library's input (a value) from the reference object, outside the timed loop
// (DocWalker: iterative, any depth); open containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  bj::value root;
  std::vector<std::pair<bj::value, bj::string_view>> open;  // (container, pending key)

  void attach(bj::value&& v) {
    if (open.empty())
      root = std::move(v);
    else if (open.back().first.is_array())
      open.back().first.get_array().push_back(std::move(v));
    else
      open.back().first.get_object().insert_or_assign(open.back().second, std::move(v));
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: attach(nullptr); break;
      case T::False: attach(false); break;
      case T::True: attach(true); break;
      case T::Uint: attach(n.u); break;  // uint64_t: kind::uint64
      case T::Neg: attach(n.i); break;   // int64_t: kind::int64
      case T::Double: attach(n.d); break;
      case T::Str: attach(bj::string(bj::string_view(d->str(n), n.count))); break;
      default: throw std::runtime_error("JSON has no binary");
    }
    return true;
  }
  bool key(const Node& k) {
    open.back().second = bj::string_view(d->str(k), k.count);  // the Doc outlives the build
    return true;
  }
  bool begin(const Node& n) {
    if (n.type == T::Map) {
      bj::object o;
      o.reserve(n.count);
      open.emplace_back(std::move(o), bj::string_view());
    } else {
      open.emplace_back(bj::array(), bj::string_view());  // no reserve(): GCC 12's LTO warns on Boost's
    }                                                     // relocate path (false positive)
    return true;
  }
  bool end(const Node&) {
    bj::value v = std::move(open.back().first);
    open.pop_back();
    attach(std::move(v));
    return true;
  }
};

bj::value build(const Doc& d, DocWalker& walk) {
  Build b{&d, nullptr, {}};
  walk(d, b);
  return std::move(b.root);
}

// Every op builds the boost::json::value from the harness's object and serialises it
// (spec/fairness.md rule 10); the value is freed at the end of the op.
class Serialize : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  std::string out_;

 public:
  explicit Serialize(const Doc& d) : doc_(d) {}
  bool encode(const char*& out, size_t& len, std::string&) override {
    const bj::value v = build(doc_, walk_);
    out_ = bj::serialize(v);  // a fresh string every iteration; serialize cannot fail
    out = out_.data();
    len = out_.size();
    return true;
  }
};
#elif SB_VARIANT == 2
// The tree walk (TreeHasher: iterative, any depth).
struct ValueWalk {
  using Ref = const bj::value*;
  struct Iter {
    bool is_map;
    const bj::value *a, *ae;
    const bj::key_value_pair *o, *oe;
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    switch (v->kind()) {
      case bj::kind::null: sb_hasher_emit(h, sb_hash_null()); return 0;
      case bj::kind::bool_: sb_hasher_emit(h, sb_hash_bool(v->get_bool())); return 0;
      case bj::kind::int64: sb_hasher_emit(h, sb_hash_int(v->get_int64())); return 0;
      case bj::kind::uint64: sb_hasher_emit(h, sb_hash_uint(v->get_uint64())); return 0;
      case bj::kind::double_: sb_hasher_emit(h, sb_hash_double(v->get_double())); return 0;
      case bj::kind::string: {
        const bj::string& s = v->get_string();
        sb_hasher_emit(h, sb_hash_str(s.data(), s.size()));
        return 0;
      }
      case bj::kind::array: {
        const bj::array& a = v->get_array();
        sb_hasher_open(h, 0);
        it = Iter{false, a.data(), a.data() + a.size(), nullptr, nullptr};
        return 1;
      }
      case bj::kind::object: {
        const bj::object& o = v->get_object();
        sb_hasher_open(h, 1);
        it = Iter{true, nullptr, nullptr, o.begin(), o.end()};
        return 1;
      }
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.is_map) {
      if (it.o == it.oe) return 0;
      const bj::string_view k = it.o->key();
      sb_hasher_key(h, k.data(), k.size());
      c = &it.o->value();
      ++it.o;
      return 1;
    }
    if (it.a == it.ae) return 0;
    c = it.a++;
    return 1;
  }
};

class Parse : public Adapter {
  const bj::parse_options opts_ = parse_opts();
  TreeHasher<ValueWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    bj::error_code ec;
    bj::value v = bj::parse(bj::string_view(buf, len), ec, {}, opts_);
    if (ec) {
      err = ec.message();
      return false;
    }
    return hash_(&v, hash, err);
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

  Hasher h;
  std::string part_;

  // The hasher failed: out of memory for its stack, or unbalanced events.
  // Any error code stops the parser; decode() reports the hasher's own reason instead.
  static bool fail(bj::error_code& ec) {
    ec = bj::error::exception;
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
  bj::basic_parser<Handler> p_{parse_opts()};  // its handler's hasher stack is reused across ops

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    p_.reset();
    Handler& hd = p_.handler();
    sb_hasher_init(&hd.h);
    hd.part_.clear();
    bj::error_code ec;
    size_t n = p_.write_some(false, buf, len, ec);  // more = false: the whole document
    if (ec) {
      err = (hd.h.error ? sb_hasher_error(&hd.h) : ec.message()) + " at offset " + std::to_string(n);
      return false;
    }
    if (n != len) {
      err = "extra data at offset " + std::to_string(n);
      return false;
    }
    if (!sb_hasher_done(&hd.h, &hash)) {
      err = sb_hasher_error(&hd.h);
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
    i.notes =
        "build a boost::json::value from the harness's object + boost::json::serialize every op, fresh std::string per "
        "op; no pretty printer in 1.81; header-only";
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
  (void)err;
  return std::make_unique<Serialize>(input);
#elif SB_VARIANT == 2
  (void)input, (void)err;
  return std::make_unique<Parse>();
#else
  (void)input, (void)err;
  return std::make_unique<BasicParser>();
#endif
}

}  // namespace sb
