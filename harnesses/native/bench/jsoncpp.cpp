// JsonCpp (libjsoncpp.so; Debian ships no static archive):
//   1 jsoncpp-write  write: Json::writeString with a StreamWriterBuilder (indentation "" or "  ")
//   2 jsoncpp-parse  tree: CharReader::parse (collectComments off)
#include <json/json.h>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
// Builds the library's input from the reference object (DocWalker: iterative, any depth); open
// containers wait on a stack with their map's pending key.
struct Build {
  const Doc* d;
  Json::Value root;
  std::vector<std::pair<Json::Value, std::string>> open;  // (container, pending key)

  void attach(Json::Value&& v) {
    if (open.empty())
      root = std::move(v);
    else if (open.back().first.isArray())
      open.back().first.append(std::move(v));
    else
      open.back().first[open.back().second] = std::move(v);
  }
  bool scalar(const Node& n) {
    switch (n.type) {
      case T::Null: attach(Json::Value()); break;
      case T::False: attach(Json::Value(false)); break;
      case T::True: attach(Json::Value(true)); break;
      case T::Uint: attach(Json::Value(static_cast<Json::UInt64>(n.u))); break;
      case T::Neg: attach(Json::Value(static_cast<Json::Int64>(n.i))); break;
      case T::Double: attach(Json::Value(n.d)); break;
      case T::Str: attach(Json::Value(d->str(n), d->str(n) + n.count)); break;
      default: throw std::runtime_error("JSON has no binary");
    }
    return true;
  }
  bool key(const Node& k) {
    open.back().second.assign(d->str(k), k.count);
    return true;
  }
  bool begin(const Node& n) {
    open.emplace_back(Json::Value(n.type == T::Map ? Json::objectValue : Json::arrayValue), std::string());
    return true;
  }
  bool end(const Node&) {
    Json::Value v(std::move(open.back().first));
    open.pop_back();
    attach(std::move(v));
    return true;
  }
};

Json::Value build(const Doc& d, DocWalker& walk) {
  Build b{&d, Json::Value(), {}};
  walk(d, b);
  return std::move(b.root);
}

// Every op builds the Json::Value from the harness's object and writes it (spec/fairness.md rule 10);
// the tree is freed at the end of the op.
class Write : public Adapter {
  const Doc doc_;
  DocWalker walk_;  // its stack is reused across ops
  Json::StreamWriterBuilder builder_;
  std::string out_;

 public:
  Write(const Doc& d, bool pretty) : doc_(d) {
    builder_["indentation"] = pretty ? "  " : "";
    builder_["emitUTF8"] = true;
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    try {
      const Json::Value root = build(doc_, walk_);
      out_ = Json::writeString(builder_, root);  // a fresh string every iteration
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
// The tree walk (TreeHasher: iterative, any depth).
struct JsonCppWalk {
  using Ref = const Json::Value*;
  struct Iter {
    bool is_map;
    Json::Value::const_iterator it, end;
  };
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    switch (v->type()) {
      case Json::nullValue: sb_hasher_emit(h, sb_hash_null()); return 0;
      case Json::booleanValue: sb_hasher_emit(h, sb_hash_bool(v->asBool())); return 0;
      case Json::intValue: sb_hasher_emit(h, sb_hash_int(v->asInt64())); return 0;
      case Json::uintValue: sb_hasher_emit(h, sb_hash_uint(v->asUInt64())); return 0;
      case Json::realValue: sb_hasher_emit(h, sb_hash_double(v->asDouble())); return 0;
      case Json::stringValue: {
        const char *b, *e;
        v->getString(&b, &e);
        sb_hasher_emit(h, sb_hash_str(b, static_cast<size_t>(e - b)));
        return 0;
      }
      case Json::arrayValue:
      case Json::objectValue:
        sb_hasher_open(h, v->type() == Json::objectValue);
        it = Iter{v->type() == Json::objectValue, v->begin(), v->end()};
        return 1;
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.it == it.end) return 0;
    if (it.is_map) {
      const char* end;
      const char* key = it.it.memberName(&end);
      sb_hasher_key(h, key, static_cast<size_t>(end - key));
    }
    c = &*it.it;
    ++it.it;
    return 1;
  }
};

class Parse : public Adapter {
  std::unique_ptr<Json::CharReader> reader_;
  TreeHasher<JsonCppWalk> hash_;

 public:
  Parse() {
    Json::CharReaderBuilder b;
    b["collectComments"] = false;
    reader_.reset(b.newCharReader());
  }
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    Json::Value root;
    // Beyond its stackLimit (1000 levels) CharReader::parse throws Json::RuntimeError rather than
    // returning false: sb::main's guard makes that exit 3 with the message, like any library error.
    if (!reader_->parse(buf, buf + len, &root, &err)) return false;
    return hash_(&root, hash, err);
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
    i.notes =
        "build a Json::Value from the harness's object + Json::writeString every op, StreamWriterBuilder (emitUTF8); "
        "shared library only";
#else
    i.id = "jsoncpp-parse";
    i.tests = {"tree"};
    i.notes =
        "jsoncpp has no UTF-8 check (a string or key that is not UTF-8 is accepted); "
        "CharReader::parse, reader reused across ops; shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  (void)err;
  return std::make_unique<Write>(input, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
