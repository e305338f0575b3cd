// RapidJSON benchmarks; one executable per variant (SB_VARIANT):
//   1 rapidjson-writer      write: build a Document from the harness's object + Accept(Writer / PrettyWriter) into a
//   fresh StringBuffer 2 rapidjson-dom-insitu  tree: Document::ParseInsitu (strings point into the input buffer) 3
//   rapidjson-dom         tree: Document::Parse (strings copied into the document) 4 rapidjson-sax         incremental:
//   Reader::Parse with a hashing handler (copying StringStream) 5 rapidjson-sax-insitu  incremental: the same over an
//   InsituStringStream (kParseInsituFlag)
// All parses use kParseFullPrecisionFlag: the default fast path may be off by one ulp. And
// kParseValidateEncodingFlag, RapidJSON's documented UTF-8 check of strings (off by default: without
// it a string or key that is not UTF-8 is accepted, which is decode-unchecked, spec/fairness.md rule 12).
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
[[maybe_unused]] constexpr unsigned kFlags = rj::kParseFullPrecisionFlag | rj::kParseValidateEncodingFlag;

[[maybe_unused]] std::string parse_error(rj::ParseErrorCode code, size_t off) {
  return std::string(rj::GetParseError_En(code)) + " at offset " + std::to_string(off);
}

// The tree walk of the DOM rows (TreeHasher: iterative, any depth).
struct RjWalk {
  using Ref = const rj::Value*;
  // One pair of pointers for both kinds (fewer registers in TreeHasher's loop): an array's next
  // element, or a map's next member's name, whose value is the Value after it.
  struct Iter {
    const rj::Value* p;
    const rj::Value* e;
    bool is_map;
  };
  static_assert(sizeof(rj::Value::Member) == 2 * sizeof(rj::Value), "a Member is {name, value}");
  static int enter(Ref v, Iter& it, TreeSink* h, std::string&) {
    switch (v->GetType()) {
      case rj::kNullType: sb_hasher_emit(h, sb_hash_null()); return 0;
      case rj::kFalseType: sb_hasher_emit(h, sb_hash_bool(0)); return 0;
      case rj::kTrueType: sb_hasher_emit(h, sb_hash_bool(1)); return 0;
      case rj::kStringType: sb_hasher_emit(h, sb_hash_str(v->GetString(), v->GetStringLength())); return 0;
      case rj::kNumberType:
        sb_hasher_emit(h, v->IsDouble()   ? sb_hash_double(v->GetDouble())
                          : v->IsUint64() ? sb_hash_uint(v->GetUint64())
                                          : sb_hash_int(v->GetInt64()));
        return 0;
      case rj::kArrayType:
        sb_hasher_open(h, 0);
        it.is_map = false;
        it.p = v->Begin();
        it.e = v->End();
        return 1;
      case rj::kObjectType:
        sb_hasher_open(h, 1);
        it.is_map = true;
        it.p = reinterpret_cast<const rj::Value*>(v->MemberBegin().operator->());  // no dereference: may be empty
        it.e = it.p + 2 * v->MemberCount();
        return 1;
    }
    return 0;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.p == it.e) return 0;
    if (it.is_map) {
      sb_hasher_key(h, it.p->GetString(), it.p->GetStringLength());
      c = it.p + 1;
      it.p += 2;
      return 1;
    }
    c = it.p++;
    return 1;
  }
};

#if SB_VARIANT == 1
// Builds the library's input (a Document) from the reference object, outside the timed loop:
// iteratively (DocWalker), each open container waiting on a stack with its map's pending key.
struct Build {
  rj::Document::AllocatorType& al;
  rj::Value root;
  std::vector<std::pair<rj::Value, rj::Value>> open;  // (container, pending key)

  void attach(rj::Value& v) {
    if (open.empty()) {
      root = v;  // RapidJSON's assignment moves
      return;
    }
    auto& top = open.back();
    if (top.first.IsArray())
      top.first.PushBack(v, al);
    else
      top.first.AddMember(top.second, v, al);
  }
  bool scalar(const Node& n) {
    rj::Value v;
    switch (n.type) {
      case T::Null: break;
      case T::False: v.SetBool(false); break;
      case T::True: v.SetBool(true); break;
      case T::Uint: v.SetUint64(n.u); break;
      case T::Neg: v.SetInt64(n.i); break;
      case T::Double: v.SetDouble(n.d); break;
      case T::Str: v.SetString(d->str(n), n.count, al); break;
      default: throw std::runtime_error("JSON has no binary");
    }
    attach(v);
    return true;
  }
  bool key(const Node& k) {
    open.back().second.SetString(d->str(k), k.count, al);
    return true;
  }
  bool begin(const Node& n) {
    open.emplace_back();
    if (n.type == T::Array) {
      open.back().first.SetArray();
      open.back().first.Reserve(n.count, al);
    } else {
      open.back().first.SetObject();
    }
    return true;
  }
  bool end(const Node&) {
    rj::Value v(std::move(open.back().first));
    open.pop_back();
    attach(v);
    return true;
  }
  const Doc* d;
};

// Every op builds a Document from the harness's object and writes it with Accept (spec/fairness.md
// rule 10); the Document and its pool are freed at the end of the op.
class Writer : public Adapter {
  const Doc d_;
  DocWalker walk_;  // its stack is reused across ops
  bool pretty_;
  std::unique_ptr<rj::StringBuffer> out_;

 public:
  Writer(const Doc& d, bool pretty) : d_(d), pretty_(pretty) {}
  bool encode(const char*& out, size_t& len, std::string& err) override {
    rj::Document doc_;
    Build b{doc_.GetAllocator(), rj::Value(), {}, &d_};
    walk_(d_, b);
    static_cast<rj::Value&>(doc_) = b.root;       // moves the tree into the document
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
  TreeHasher<RjWalk> hash_;

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
    return hash_(&d, hash, err);
  }
};
#else
// SAX handler feeding the streaming hash.
struct Handler {
  Hasher h;
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
  Handler handler_;  // its hasher's stack is reused across ops

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
      if (handler_.h.error) err += std::string(" (") + sb_hasher_error(&handler_.h) + ")";
      return false;
    }
    if (!sb_hasher_done(&handler_.h, &hash)) {
      err = sb_hasher_error(&handler_.h);
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
    i.notes =
        "build a Document from the harness's object + Accept(Writer (json) / PrettyWriter (json-pretty)) every op, "
        "fresh StringBuffer per op";
#elif SB_VARIANT == 2
    i.id = "rapidjson-dom-insitu";
    i.tests = {"tree"};
    i.notes = "in-situ: Document::ParseInsitu, kParseFullPrecisionFlag | kParseValidateEncodingFlag";
#elif SB_VARIANT == 3
    i.id = "rapidjson-dom";
    i.tests = {"tree"};
    i.notes = "copying: Document::Parse, kParseFullPrecisionFlag | kParseValidateEncodingFlag";
#elif SB_VARIANT == 4
    i.id = "rapidjson-sax";
    i.tests = {"incremental"};
    i.notes = "copying: Reader (SAX) over a StringStream, kParseFullPrecisionFlag | kParseValidateEncodingFlag";
#else
    i.id = "rapidjson-sax-insitu";
    i.tests = {"incremental"};
    i.notes =
        "in-situ: Reader (SAX) over an InsituStringStream, kParseInsituFlag | kParseFullPrecisionFlag | "
        "kParseValidateEncodingFlag";
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
