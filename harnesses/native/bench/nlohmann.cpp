// nlohmann/json (header-only; nlohmann::json with std::map objects, a different instantiation from
// the harness's reference decoder, nlohmann::ordered_json):
//   1 nlohmann-json    json/json-pretty: dump / dump(2) (write), parse (tree), sax_parse (incremental)
//   2 nlohmann-binary  msgpack/cbor/bson/ubjson/ubjson-plain: to_* (write), from_* (tree),
//                      sax_parse with the binary input format (incremental)
#include <nlohmann/json.hpp>

#include "sb.h"

namespace sb {
namespace {

using json = nlohmann::json;
using nlohmann::detail::input_format_t;

// The tree walk (TreeHasher: iterative, any depth).
struct JsonWalk {
  using Ref = const json*;
  struct Iter {
    bool is_map;
    json::const_iterator it, end;
  };
  static int enter(Ref j, Iter& it, TreeSink* h, std::string& err) {
    switch (j->type()) {
      case json::value_t::null: sb_hasher_emit(h, sb_hash_null()); return 0;
      case json::value_t::boolean: sb_hasher_emit(h, sb_hash_bool(j->get<bool>())); return 0;
      case json::value_t::number_unsigned: sb_hasher_emit(h, sb_hash_uint(j->get<uint64_t>())); return 0;
      case json::value_t::number_integer: sb_hasher_emit(h, sb_hash_int(j->get<int64_t>())); return 0;
      case json::value_t::number_float: sb_hasher_emit(h, sb_hash_double(j->get<double>())); return 0;
      case json::value_t::string: {
        const auto& s = j->get_ref<const std::string&>();
        sb_hasher_emit(h, sb_hash_str(s.data(), s.size()));
        return 0;
      }
      case json::value_t::binary: {
        const auto& b = j->get_binary();
        sb_hasher_emit(h, sb_hash_bin(b.data(), b.size()));
        return 0;
      }
      case json::value_t::array:
      case json::value_t::object:
        sb_hasher_open(h, j->is_object());
        it = Iter{j->is_object(), j->cbegin(), j->cend()};
        return 1;
      default:  // discarded: from_bson (for one) can fail without throwing and return it
        err = "nlohmann returned a discarded value (its parser failed without an exception)";
        return -1;
    }
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.it == it.end) return 0;
    if (it.is_map) {
      const std::string& k = it.it.key();
      sb_hasher_key(h, k.data(), k.size());
    }
    c = &*it.it;
    ++it.it;
    return 1;
  }
};

// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  json root;
  std::vector<std::pair<json, std::string>> open;  // (container, pending key)

  void attach(json&& v) {
    if (open.empty())
      root = std::move(v);
    else if (open.back().first.is_array())
      open.back().first.push_back(std::move(v));
    else
      open.back().first[open.back().second] = std::move(v);
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: attach(nullptr); break;
      case T::False: attach(false); break;
      case T::True: attach(true); break;
      case T::Uint: attach(n.u); break;
      case T::Neg: attach(n.i); break;
      case T::Double: attach(n.d); break;
      case T::Str: attach(std::string(d->str(n), n.count)); break;
      default: attach(json::binary(std::vector<uint8_t>(d->str(n), d->str(n) + n.count))); break;
    }
    return true;
  }
  bool key(const Node& k) {
    open.back().second.assign(d->str(k), k.count);
    return true;
  }
  bool begin(const Node& n) {
    open.emplace_back(n.type == T::Map ? json::object() : json::array(), std::string());
    return true;
  }
  bool end(const Node&) {
    json v = std::move(open.back().first);
    open.pop_back();
    attach(std::move(v));
    return true;
  }
};

json build(const Doc& d, DocWalker& walk) {
  Build b{&d, nullptr, {}};
  walk(d, b);
  return std::move(b.root);
}

input_format_t input_format(const std::string& fmt) {
  if (fmt == "msgpack") return input_format_t::msgpack;
  if (fmt == "cbor") return input_format_t::cbor;
  if (fmt == "bson") return input_format_t::bson;
  if (fmt == "ubjson" || fmt == "ubjson-plain") return input_format_t::ubjson;
  return input_format_t::json;
}

// Every op builds the nlohmann::json from the harness's object and writes it (spec/fairness.md
// rule 10); the tree is freed at the end of the op.
class Write : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  const std::string fmt_;
  std::string text_;
  std::vector<uint8_t> bin_;

 public:
  Write(const Doc& d, std::string fmt) : doc_(d), fmt_(std::move(fmt)) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
      const json j_ = build(doc_, walk_);
      if (fmt_ == "json" || fmt_ == "json-pretty") {
        text_ = fmt_ == "json" ? j_.dump() : j_.dump(2);  // a fresh string every iteration
        out = text_.data();
        len = text_.size();
        return true;
      }
      if (fmt_ == "msgpack")
        bin_ = json::to_msgpack(j_);
      else if (fmt_ == "cbor")
        bin_ = json::to_cbor(j_);
      else if (fmt_ == "bson")
        bin_ = json::to_bson(j_);
      else  // "ubjson" is the sized+typed form (# counts, $ types), "ubjson-plain" the plain one
        bin_ = json::to_ubjson(j_, fmt_ == "ubjson", fmt_ == "ubjson");
    } catch (const json::exception& e) {
      err = e.what();
      return false;
    }
    out = reinterpret_cast<const char*>(bin_.data());
    len = bin_.size();
    return true;
  }
};

class Tree : public Adapter {
  const std::string fmt_;
  TreeHasher<JsonWalk> hash_;

 public:
  explicit Tree(std::string fmt) : fmt_(std::move(fmt)) {}
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    try {
      const auto* b = reinterpret_cast<const uint8_t*>(buf);
      json j;
      switch (input_format(fmt_)) {
        case input_format_t::json: j = json::parse(buf, buf + len); break;
        case input_format_t::msgpack: j = json::from_msgpack(b, b + len); break;
        case input_format_t::cbor: j = json::from_cbor(b, b + len); break;
        case input_format_t::bson: j = json::from_bson(b, b + len); break;
        default: j = json::from_ubjson(b, b + len); break;
      }
      return hash_(&j, hash, err);
    } catch (const json::exception& e) {
      err = e.what();
      return false;
    }
  }
};

// SAX handler (nlohmann::json_sax interface, duck-typed) feeding the streaming hash.
struct Handler {
  Hasher h;
  std::string error;
  bool null() { return sb_hasher_emit(&h, sb_hash_null()), true; }
  bool boolean(bool b) { return sb_hasher_emit(&h, sb_hash_bool(b)), true; }
  bool number_integer(json::number_integer_t v) { return sb_hasher_emit(&h, sb_hash_int(v)), true; }
  bool number_unsigned(json::number_unsigned_t v) { return sb_hasher_emit(&h, sb_hash_uint(v)), true; }
  bool number_float(json::number_float_t v, const std::string&) { return sb_hasher_emit(&h, sb_hash_double(v)), true; }
  bool string(std::string& s) { return sb_hasher_emit(&h, sb_hash_str(s.data(), s.size())), true; }
  bool binary(json::binary_t& b) { return sb_hasher_emit(&h, sb_hash_bin(b.data(), b.size())), true; }
  bool start_object(std::size_t) { return sb_hasher_open(&h, 1), !h.error; }
  bool key(std::string& k) { return sb_hasher_key(&h, k.data(), k.size()), true; }
  bool end_object() { return sb_hasher_close(&h), !h.error; }
  bool start_array(std::size_t) { return sb_hasher_open(&h, 0), !h.error; }
  bool end_array() { return sb_hasher_close(&h), !h.error; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    error = e.what();
    return false;
  }
};

class Sax : public Adapter {
  const input_format_t fmt_;
  Handler handler_;

 public:
  explicit Sax(const std::string& fmt) : fmt_(input_format(fmt)) {}
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&handler_.h);
    handler_.error.clear();
    const auto* b = reinterpret_cast<const uint8_t*>(buf);
    bool ok;
    try {
      ok = json::sax_parse(b, b + len, &handler_, fmt_);
    } catch (const json::exception& e) {
      handler_.error = e.what();
      ok = false;
    }
    if (!ok) {
      err = !handler_.error.empty() ? handler_.error
            : handler_.h.error      ? sb_hasher_error(&handler_.h)
                                    : "sax_parse failed";
      return false;
    }
    if (!sb_hasher_done(&handler_.h, &hash)) {
      err = sb_hasher_error(&handler_.h);
      return false;
    }
    return true;
  }
};

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "nlohmann-json";
    i.version = SB_VERSION;
    i.tests = {"write", "tree", "incremental"};
#if SB_VARIANT == 1
    i.id = "nlohmann-json";
    i.formats = {"json", "json-pretty"};
    i.notes =
        "write: build a json from the harness's object + dump / dump(2) every op; parse, sax_parse; std::map objects "
        "(keys come out sorted)";
#else
    i.id = "nlohmann-binary";
    i.formats = {"msgpack", "cbor", "bson", "ubjson", "ubjson-plain"};
    i.notes =
        "write: build a json from the harness's object + to_msgpack/to_cbor/to_bson/to_ubjson (ubjson: sized+typed) "
        "every op, from_*, sax_parse; nlohmann's binary readers have no "
        "UTF-8 check (its JSON parser has one), so a string or key that is not UTF-8 is accepted";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string& fmt, const Doc& input,
                                      const std::string&, std::string& err) {
  if (test == "write") {
    (void)err;
    return std::make_unique<Write>(input, fmt);
  }
  if (test == "tree") return std::make_unique<Tree>(fmt);
  return std::make_unique<Sax>(fmt);
}

}  // namespace sb
