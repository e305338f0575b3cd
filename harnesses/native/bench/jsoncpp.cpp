// JsonCpp (libjsoncpp.so; Debian ships no static archive):
//   1 jsoncpp-write  write: Json::writeString with a StreamWriterBuilder (indentation "" or "  ")
//   2 jsoncpp-parse  tree: CharReader::parse (collectComments off)
#include <json/json.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
Json::Value build(const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return Json::Value();
    case T::False: return Json::Value(false);
    case T::True: return Json::Value(true);
    case T::Uint: return Json::Value(static_cast<Json::UInt64>(n.u));
    case T::Neg: return Json::Value(static_cast<Json::Int64>(n.i));
    case T::Double: return Json::Value(n.d);
    case T::Str: return Json::Value(d.str(n), d.str(n) + n.count);
    case T::Bin: throw std::runtime_error("JSON has no binary");
    case T::Array: {
      Json::Value a(Json::arrayValue);
      for (uint32_t c = 0; c < n.count; c++) a.append(build(d, i));
      return a;
    }
    case T::Map: {
      Json::Value o(Json::objectValue);
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        o[std::string(d.str(k), k.count)] = build(d, i);
      }
      return o;
    }
  }
  return Json::Value();
}

class Write : public Adapter {
  Json::Value root_;
  Json::StreamWriterBuilder builder_;
  std::string out_;

 public:
  Write(Json::Value root, bool pretty) : root_(std::move(root)) {
    builder_["indentation"] = pretty ? "  " : "";
    builder_["emitUTF8"] = true;
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
      out_ = Json::writeString(builder_, root_);  // a fresh string every iteration
    } catch (const std::exception& e) {
      err = e.what();
      return false;
    }
    out = out_.data();
    len = out_.size();
    return true;
  }
};
#else
uint64_t hash_val(const Json::Value& v) {
  switch (v.type()) {
    case Json::nullValue: return sb_hash_null();
    case Json::booleanValue: return sb_hash_bool(v.asBool());
    case Json::intValue: return sb_hash_int(v.asInt64());
    case Json::uintValue: return sb_hash_uint(v.asUInt64());
    case Json::realValue: return sb_hash_double(v.asDouble());
    case Json::stringValue: {
      const char *b, *e;
      v.getString(&b, &e);
      return sb_hash_str(b, static_cast<size_t>(e - b));
    }
    case Json::arrayValue: {
      uint64_t a = sb_array_start();
      for (const auto& x : v) a = sb_array_add(a, hash_val(x));
      return sb_array_end(a, v.size());
    }
    case Json::objectValue: {
      uint64_t s = 0;
      for (auto it = v.begin(); it != v.end(); ++it) {
        const char* end;
        const char* key = it.memberName(&end);
        s += sb_map_entry(sb_hash_str(key, static_cast<size_t>(end - key)), hash_val(*it));
      }
      return sb_map_end(s, v.size());
    }
  }
  return 0;
}

class Parse : public Adapter {
  std::unique_ptr<Json::CharReader> reader_;

 public:
  Parse() {
    Json::CharReaderBuilder b;
    b["collectComments"] = false;
    reader_.reset(b.newCharReader());
  }
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    Json::Value root;
    if (!reader_->parse(buf, buf + len, &root, &err)) return false;
    hash = hash_val(root);
    return true;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "jsoncpp";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "jsoncpp-write";
    i.tests = {"write"};
    i.notes = "Json::writeString, StreamWriterBuilder (emitUTF8); shared library only";
#else
    i.id = "jsoncpp-parse";
    i.tests = {"tree"};
    i.notes = "CharReader::parse, reader reused across ops; shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  try {
    size_t i = 0;
    return std::make_unique<Write>(build(input, i), fmt == "json-pretty");
  } catch (const std::exception& e) {
    err = e.what();
    return nullptr;
  }
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
