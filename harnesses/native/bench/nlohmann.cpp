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

uint64_t hash_val(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return sb_hash_null();
    case json::value_t::boolean: return sb_hash_bool(j.get<bool>());
    case json::value_t::number_unsigned: return sb_hash_uint(j.get<uint64_t>());
    case json::value_t::number_integer: return sb_hash_int(j.get<int64_t>());
    case json::value_t::number_float: return sb_hash_double(j.get<double>());
    case json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      return sb_hash_str(s.data(), s.size());
    }
    case json::value_t::binary: {
      const auto& b = j.get_binary();
      return sb_hash_bin(b.data(), b.size());
    }
    case json::value_t::array: {
      uint64_t a = sb_array_start();
      for (const auto& e : j) a = sb_array_add(a, hash_val(e));
      return sb_array_end(a, j.size());
    }
    case json::value_t::object: {
      uint64_t s = 0;
      for (const auto& kv : j.items())
        s += sb_map_entry(sb_hash_str(kv.key().data(), kv.key().size()), hash_val(kv.value()));
      return sb_map_end(s, j.size());
    }
    default: return 0;  // discarded: never in a parsed value
  }
}

json build(const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return nullptr;
    case T::False: return false;
    case T::True: return true;
    case T::Uint: return n.u;
    case T::Neg: return n.i;
    case T::Double: return n.d;
    case T::Str: return std::string(d.str(n), n.count);
    case T::Bin: return json::binary(std::vector<uint8_t>(d.str(n), d.str(n) + n.count));
    case T::Array: {
      json a = json::array();
      for (uint32_t c = 0; c < n.count; c++) a.push_back(build(d, i));
      return a;
    }
    case T::Map: {
      json o = json::object();
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        o[std::string(d.str(k), k.count)] = build(d, i);
      }
      return o;
    }
  }
  return nullptr;
}

input_format_t input_format(const std::string& fmt) {
  if (fmt == "msgpack") return input_format_t::msgpack;
  if (fmt == "cbor") return input_format_t::cbor;
  if (fmt == "bson") return input_format_t::bson;
  if (fmt == "ubjson" || fmt == "ubjson-plain") return input_format_t::ubjson;
  return input_format_t::json;
}

class Write : public Adapter {
  const json j_;
  const std::string fmt_;
  std::string text_;
  std::vector<uint8_t> bin_;

 public:
  Write(json j, std::string fmt) : j_(std::move(j)), fmt_(std::move(fmt)) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
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
      hash = hash_val(j);
      return true;
    } catch (const json::exception& e) {
      err = e.what();
      return false;
    }
  }
};

// SAX handler (nlohmann::json_sax interface, duck-typed) feeding the streaming hash.
struct Handler {
  sb_hasher h;
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
      err = handler_.error.empty() ? "sax_parse failed" : handler_.error;
      return false;
    }
    if (!sb_hasher_done(&handler_.h, &hash)) {
      err = "unbalanced events";
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
    i.notes = "dump / dump(2), parse, sax_parse; std::map objects (keys come out sorted)";
#else
    i.id = "nlohmann-binary";
    i.formats = {"msgpack", "cbor", "bson", "ubjson", "ubjson-plain"};
    i.notes = "to_msgpack/to_cbor/to_bson/to_ubjson (ubjson: sized+typed), from_*, sax_parse";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string& test, const std::string& fmt, const Doc& input,
                                      const std::string&, std::string& err) {
  if (test == "write") {
    try {
      size_t i = 0;
      return std::make_unique<Write>(build(input, i), fmt);
    } catch (const std::exception& e) {
      err = e.what();
      return nullptr;
    }
  }
  if (test == "tree") return std::make_unique<Tree>(fmt);
  return std::make_unique<Sax>(fmt);
}

}  // namespace sb
