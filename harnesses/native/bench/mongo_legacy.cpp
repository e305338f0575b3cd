// MongoDB legacy C++ driver (mongo-cxx-driver legacy-1.1.3, libmongoclient.a), the classic C
// suite's "MongoDB Legacy" rows:
//   1 mongo-legacy-builder  write: BSONObjBuilder / BSONArrayBuilder calls driven by the harness's
//                           object, a fresh root builder every op (int32 where it fits, else int64)
//   2 mongo-legacy-iter     tree and incremental: validateBSON over the input, then BSONObj over the
//                           bytes and BSONObjIterator walks. A BSONObj *is* the BSON bytes (no
//                           separate DOM; BSONElement is a pointer into them), so, as for
//                           libbson-iter, both tests run this one code path. Unchecked text:
//                           validateBSON checks structure only, and the driver's public API has
//                           no UTF-8 check (isValidUTF8 is in the archive but in no installed
//                           header): it accepts a string or key that is not UTF-8. With no check in
//                           the library to skip, the loop keeps the decode contract
//                           (spec/fairness.md rule 12); robustness reports what it accepts.
// The driver reports errors by throwing (uassert/massert: DBException); the harness turns a
// library's exception into a failed cell (exit 3) with its message.
#include <mongo/bson/bson.h>
#include <mongo/bson/bson_validate.h>

#include <algorithm>
#include <new>
#include <optional>
#include <type_traits>

#include "sb.h"

namespace sb {
namespace {

using mongo::StringData;

#if SB_VARIANT == 1
// Drives the builders from the reference object (DocWalker: iterative, any depth). A nested
// document or array is a sub-builder over its parent's BufBuilder (subobjStart/subarrayStart, the
// documented way to nest without copying); sub-builders are neither copyable nor movable, so they
// are constructed in place in slots sized once to the Doc's depth.
class Builder : public Adapter {
  union Slot {  // the open container at one depth: a document or an array builder
    Slot() {}
    ~Slot() {}
    mongo::BSONObjBuilder obj;
    mongo::BSONArrayBuilder arr;
  };
  struct Frame {
    Slot* s;
    bool is_array;
    const Node* key;  // the pending map key
  };
  const Doc doc_;
  std::optional<mongo::BSONObjBuilder> root_;
  std::vector<Slot> kids_;  // kids_[i]: the open container at depth i + 1 (the root is root_)
  std::vector<Frame> st_;   // st_[0] is the root (s == nullptr)
  DocWalker walk_;          // stacks reused across ops
  std::string* err_ = nullptr;

  StringData key_of(const Frame& f) const { return StringData(doc_.str(*f.key), f.key->count); }
  // Destroys the sub-builders still open (after a failure or an exception: never in a normal op).
  void unwind() {
    while (st_.size() > 1) {
      Frame& f = st_.back();
      if (f.is_array) {
        f.s->arr.~BSONArrayBuilder();
      } else {
        f.s->obj.~BSONObjBuilder();
      }
      st_.pop_back();
    }
    st_.clear();
  }
  template <class B>
  bool put_scalar(B& b, const Node& n, const StringData* k) {
    // BSONArrayBuilder numbers its own keys; BSONObjBuilder takes the map's key.
    auto add = [&](auto... v) {
      if constexpr (std::is_same_v<B, mongo::BSONArrayBuilder>) {
        b.append(v...);
      } else {
        b.append(*k, v...);
      }
    };
    switch (n.type) {
      case T::Null:
        if constexpr (std::is_same_v<B, mongo::BSONArrayBuilder>) {
          b.appendNull();
        } else {
          b.appendNull(*k);
        }
        return true;
      case T::False: add(false); return true;
      case T::True: add(true); return true;
      case T::Uint:
        if (n.u > static_cast<uint64_t>(INT64_MAX)) {
          *err_ = "BSON has no uint64";
          return false;
        }
        [[fallthrough]];
      case T::Neg:  // int32 where it fits, else int64 (as the corpus does)
        if (n.i >= INT32_MIN && n.i <= INT32_MAX) {
          add(static_cast<int>(n.i));
        } else {
          add(static_cast<long long>(n.i));
        }
        return true;
      case T::Double: add(n.d); return true;
      case T::Str: add(StringData(doc_.str(n), n.count)); return true;
      default:
        if (n.count > INT32_MAX) {
          *err_ = "binary too long for BSON";
          return false;
        }
        if constexpr (std::is_same_v<B, mongo::BSONArrayBuilder>) {
          b.appendBinData(static_cast<int>(n.count), mongo::BinDataGeneral, doc_.str(n));
        } else {
          b.appendBinData(*k, static_cast<int>(n.count), mongo::BinDataGeneral, doc_.str(n));
        }
        return true;
    }
  }

 public:
  // DocWalker visitor.
  bool scalar(const Node& n) {
    Frame& f = st_.back();
    if (f.is_array) return put_scalar(f.s->arr, n, nullptr);
    const StringData k = key_of(f);
    return put_scalar(f.s ? f.s->obj : *root_, n, &k);
  }
  bool key(const Node& k) {
    st_.back().key = &k;
    return true;
  }
  bool begin(const Node& n) {
    if (st_.empty()) {  // the root: its elements go straight into root_
      if (n.type != T::Map) {
        *err_ = "BSON needs a map at the root";
        return false;
      }
      st_.push_back(Frame{nullptr, false, nullptr});
      return true;
    }
    const Frame& f = st_.back();
    const bool is_map = n.type == T::Map;
    mongo::BufBuilder* bb;
    if (f.is_array) {
      bb = is_map ? &f.s->arr.subobjStart() : &f.s->arr.subarrayStart();
    } else {
      mongo::BSONObjBuilder& p = f.s ? f.s->obj : *root_;
      bb = is_map ? &p.subobjStart(key_of(f)) : &p.subarrayStart(key_of(f));
    }
    Slot* s = &kids_[st_.size() - 1];
    if (is_map) {
      new (&s->obj) mongo::BSONObjBuilder(*bb);
    } else {
      new (&s->arr) mongo::BSONArrayBuilder(*bb);
    }
    st_.push_back(Frame{s, !is_map, nullptr});
    return true;
  }
  bool end(const Node&) {
    Frame& f = st_.back();
    if (!f.s) return true;  // the root: encode() finishes it
    if (f.is_array) {
      f.s->arr.doneFast();
      f.s->arr.~BSONArrayBuilder();
    } else {
      f.s->obj.doneFast();
      f.s->obj.~BSONObjBuilder();
    }
    st_.pop_back();
    return true;
  }

  explicit Builder(const Doc& d) : doc_(d), kids_(std::max<size_t>(d.max_depth, 1)) {}
  ~Builder() override { unwind(); }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    unwind();
    root_.reset();
    root_.emplace();  // a fresh document every iteration (default initial size, 512 bytes)
    err_ = &err;
    if (!walk_(doc_, *this)) {
      unwind();
      return false;
    }
    st_.clear();
    // done() finishes the root and checks its size (at most BSONObjMaxInternalSize); the object
    // stays valid until the builder goes, at the next op.
    const mongo::BSONObj o = root_->done();
    out = o.objdata();
    len = static_cast<size_t>(o.objsize());
    return true;
  }
};
#else
// Hashes the document and its embedded documents and arrays with an explicit stack of iterators
// (any depth): embeddedObject() is a BSONObj over the same bytes.
class Iter : public Adapter {
  struct Frame {
    mongo::BSONObjIterator it;
    bool is_map;
  };
  Hasher h_;
  std::vector<Frame> st_;  // reused across ops

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    // BSONObj and its iterator trust the length fields (BSONObj(const char*) checks only that the
    // size is positive and below the maximum): untrusted bytes are checked first with validateBSON,
    // as the driver documents. It checks that every length stays inside maxLength.
    const mongo::Status s = mongo::validateBSON(buf, len);
    if (!s.isOK()) {
      err = "validateBSON: " + s.toString();
      return false;
    }
    const mongo::BSONObj root(buf);
    if (static_cast<size_t>(root.objsize()) != len) {
      err = "trailing bytes after the document (" + std::to_string(len - root.objsize()) + ")";
      return false;
    }
    sb_hasher_init(&h_);
    st_.clear();
    st_.push_back(Frame{mongo::BSONObjIterator(root), true});
    sb_hasher_open(&h_, 1);
    while (!st_.empty()) {
      mongo::BSONObjIterator& it = st_.back().it;
      if (!it.more()) {
        sb_hasher_close(&h_);
        st_.pop_back();
        continue;
      }
      const mongo::BSONElement e = it.next();
      if (st_.back().is_map) sb_hasher_key(&h_, e.fieldName(), e.fieldNameSize() - 1);
      switch (e.type()) {
        case mongo::NumberDouble: sb_hasher_emit(&h_, sb_hash_double(e._numberDouble())); break;
        case mongo::String: sb_hasher_emit(&h_, sb_hash_str(e.valuestr(), e.valuestrsize() - 1)); break;
        case mongo::Object:
        case mongo::Array: {
          const bool is_map = e.type() == mongo::Object;
          sb_hasher_open(&h_, is_map);
          st_.push_back(Frame{mongo::BSONObjIterator(e.embeddedObject()), is_map});  // `it` is not used after this
          break;
        }
        case mongo::BinData: {
          int l;
          const char* p = e.binData(l);
          sb_hasher_emit(&h_, sb_hash_bin(p, l));
          break;
        }
        case mongo::Bool: sb_hasher_emit(&h_, sb_hash_bool(e.boolean())); break;
        case mongo::jstNULL: sb_hasher_emit(&h_, sb_hash_null()); break;
        case mongo::NumberInt: sb_hasher_emit(&h_, sb_hash_int(e._numberInt())); break;
        case mongo::NumberLong: sb_hasher_emit(&h_, sb_hash_int(e._numberLong())); break;
        default: err = "BSON type " + std::to_string(e.type()) + " is outside the data model"; return false;
      }
    }
    if (!sb_hasher_done(&h_, &hash)) {
      err = sb_hasher_error(&h_);
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
    i.library = "mongo-cxx-driver-legacy";
    i.version = SB_VERSION;
    i.formats = {"bson"};
#if SB_VARIANT == 1
    i.id = "mongo-legacy-builder";
    i.tests = {"write"};
    i.notes =
        "BSONObjBuilder, nested through subobjStart/subarrayStart + BSONArrayBuilder, fresh root builder per op "
        "(int32 where it fits, else int64); BSON has no uint64";
#else
    i.id = "mongo-legacy-iter";
    i.tests = {"tree", "incremental"};
    i.notes =
        "no UTF-8 check: validateBSON checks structure only and the driver's API has no "
        "UTF-8 check; then BSONObjIterator over the bytes (BSONObj is a view: no separate DOM); tree and "
        "incremental are the same code";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc& input, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Builder>(input);
#else
  (void)input;
  return std::make_unique<Iter>();
#endif
}

}  // namespace sb
