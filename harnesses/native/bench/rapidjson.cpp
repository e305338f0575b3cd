// RapidJSON benchmarks; one executable per variant (SB_VARIANT):
//   1 rapidjson-writer      write: Document.Accept(Writer / PrettyWriter) into a fresh StringBuffer
//   2 rapidjson-dom-insitu  tree: Document::ParseInsitu (strings point into the input buffer)
//   3 rapidjson-dom         tree: Document::Parse (strings copied into the document)
//   4 rapidjson-sax         incremental: Reader::Parse with a hashing handler (copying StringStream)
//   5 rapidjson-sax-insitu  incremental: the same over an InsituStringStream (kParseInsituFlag)
// All parses use kParseFullPrecisionFlag: the default fast path may be off by one ulp.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "sb.h"

namespace sb {
namespace {

namespace rj = rapidjson;
[[maybe_unused]] constexpr unsigned kFlags = rj::kParseFullPrecisionFlag;

[[maybe_unused]] std::string parse_error(rj::ParseErrorCode code, size_t off) {
  return std::string(rj::GetParseError_En(code)) + " at offset " + std::to_string(off);
}

[[maybe_unused]] uint64_t hash_value(const rj::Value& v) {
  switch (v.GetType()) {
    case rj::kNullType: return sb_hash_null();
    case rj::kFalseType: return sb_hash_bool(0);
    case rj::kTrueType: return sb_hash_bool(1);
    case rj::kStringType: return sb_hash_str(v.GetString(), v.GetStringLength());
    case rj::kNumberType:
      if (v.IsDouble()) return sb_hash_double(v.GetDouble());
      if (v.IsUint64()) return sb_hash_uint(v.GetUint64());
      return sb_hash_int(v.GetInt64());
    case rj::kArrayType: {
      uint64_t a = sb_array_start();
      for (const auto& e : v.GetArray()) a = sb_array_add(a, hash_value(e));
      return sb_array_end(a, v.Size());
    }
    case rj::kObjectType: {
      uint64_t s = 0;
      for (const auto& m : v.GetObject())
        s += sb_map_entry(sb_hash_str(m.name.GetString(), m.name.GetStringLength()), hash_value(m.value));
      return sb_map_end(s, v.MemberCount());
    }
  }
  return 0;
}

#if SB_VARIANT == 1
// Builds the library's input (a Document) from the reference object, outside the timed loop.
void build(const Doc& d, size_t& i, rj::Value& out, rj::Document::AllocatorType& al) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: out.SetNull(); break;
    case T::False: out.SetBool(false); break;
    case T::True: out.SetBool(true); break;
    case T::Uint: out.SetUint64(n.u); break;
    case T::Neg: out.SetInt64(n.i); break;
    case T::Double: out.SetDouble(n.d); break;
    case T::Str: out.SetString(d.str(n), n.count, al); break;
    case T::Bin: throw std::runtime_error("JSON has no binary");
    case T::Array:
      out.SetArray();
      out.Reserve(n.count, al);
      for (uint32_t c = 0; c < n.count; c++) {
        rj::Value e;
        build(d, i, e, al);
        out.PushBack(e, al);
      }
      break;
    case T::Map:
      out.SetObject();
      for (uint32_t c = 0; c < n.count; c++) {
        rj::Value k, v;
        build(d, i, k, al);
        build(d, i, v, al);
        out.AddMember(k, v, al);
      }
      break;
  }
}

class Writer : public Adapter {
  rj::Document doc_;
  bool pretty_;
  std::unique_ptr<rj::StringBuffer> out_;

 public:
  Writer(const Doc& d, bool pretty) : pretty_(pretty) {
    size_t i = 0;
    build(d, i, doc_, doc_.GetAllocator());
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    out_ = std::make_unique<rj::StringBuffer>();  // a fresh output buffer every iteration
    bool ok;
    if (pretty_) {
      rj::PrettyWriter<rj::StringBuffer> w(*out_);
      ok = doc_.Accept(w);
    } else {
      rj::Writer<rj::StringBuffer> w(*out_);
      ok = doc_.Accept(w);
    }
    if (!ok) {
      err = "Writer failed (NaN or Inf?)";
      return false;
    }
    out = out_->GetString();
    len = out_->GetSize();
    return true;
  }
};
#elif SB_VARIANT == 2 || SB_VARIANT == 3
class Dom : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    rj::Document d;
#if SB_VARIANT == 2
    (void)len;
    d.ParseInsitu<kFlags>(buf);  // buf is NUL-terminated by the loop's zero padding
#else
    d.Parse<kFlags>(buf, len);
#endif
    if (d.HasParseError()) {
      err = parse_error(d.GetParseError(), d.GetErrorOffset());
      return false;
    }
    hash = hash_value(d);
    return true;
  }
};
#else
// SAX handler feeding the streaming hash.
struct Handler {
  sb_hasher h;
  bool Null() { return sb_hasher_emit(&h, sb_hash_null()), true; }
  bool Bool(bool b) { return sb_hasher_emit(&h, sb_hash_bool(b)), true; }
  bool Int(int i) { return sb_hasher_emit(&h, sb_hash_int(i)), true; }
  bool Uint(unsigned u) { return sb_hasher_emit(&h, sb_hash_uint(u)), true; }
  bool Int64(int64_t i) { return sb_hasher_emit(&h, sb_hash_int(i)), true; }
  bool Uint64(uint64_t u) { return sb_hasher_emit(&h, sb_hash_uint(u)), true; }
  bool Double(double d) { return sb_hasher_emit(&h, sb_hash_double(d)), true; }
  bool RawNumber(const char*, rj::SizeType, bool) { return false; }  // not enabled
  bool String(const char* s, rj::SizeType n, bool) { return sb_hasher_emit(&h, sb_hash_str(s, n)), true; }
  bool StartObject() { return sb_hasher_open(&h, 1), !h.error; }
  bool Key(const char* s, rj::SizeType n, bool) { return sb_hasher_key(&h, s, n), true; }
  bool EndObject(rj::SizeType) { return sb_hasher_close(&h), !h.error; }
  bool StartArray() { return sb_hasher_open(&h, 0), !h.error; }
  bool EndArray(rj::SizeType) { return sb_hasher_close(&h), !h.error; }
};

class Sax : public Adapter {
  Handler handler_;  // 32 KiB frame stack: kept out of the loop's stack frame

 public:
  bool decode(char* buf, size_t, uint64_t& hash, std::string& err) override {
    sb_hasher_init(&handler_.h);
    rj::Reader reader;
#if SB_VARIANT == 5
    // In-situ: strings are unescaped in place in the (fresh, per-iteration) input copy.
    rj::InsituStringStream ss(buf);
    rj::ParseResult r = reader.Parse<kFlags | rj::kParseInsituFlag>(ss, handler_);
#else
    rj::StringStream ss(buf);
    rj::ParseResult r = reader.Parse<kFlags>(ss, handler_);
#endif
    if (!r) {
      err = parse_error(r.Code(), r.Offset());
      return false;
    }
    if (!sb_hasher_done(&handler_.h, &hash)) {
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
    i.library = "rapidjson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "rapidjson-writer";
    i.tests = {"write"};
    i.notes = "Writer (json) / PrettyWriter (json-pretty) over a Document, fresh StringBuffer per op";
#elif SB_VARIANT == 2
    i.id = "rapidjson-dom-insitu";
    i.tests = {"tree"};
    i.notes = "in-situ: Document::ParseInsitu, kParseFullPrecisionFlag";
#elif SB_VARIANT == 3
    i.id = "rapidjson-dom";
    i.tests = {"tree"};
    i.notes = "copying: Document::Parse, kParseFullPrecisionFlag";
#elif SB_VARIANT == 4
    i.id = "rapidjson-sax";
    i.tests = {"incremental"};
    i.notes = "copying: Reader (SAX) over a StringStream, kParseFullPrecisionFlag";
#else
    i.id = "rapidjson-sax-insitu";
    i.tests = {"incremental"};
    i.notes = "in-situ: Reader (SAX) over an InsituStringStream, kParseInsituFlag | kParseFullPrecisionFlag";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  try {
    return std::make_unique<Writer>(input, fmt == "json-pretty");
  } catch (const std::exception& e) {
    err = e.what();
    return nullptr;
  }
#elif SB_VARIANT == 2 || SB_VARIANT == 3
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Dom>();
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Sax>();
#endif
}

}  // namespace sb
