// simdjson (libsimdjson.so; Debian ships no static archive):
//   1 simdjson-dom       tree: dom::parser::parse into its tape, then walk the dom::element tree
//   2 simdjson-ondemand  incremental: ondemand::parser::iterate, walking every value once
// Both reuse one parser across ops, the library's documented usage (its buffers are sized once);
// the input copy carries the SIMDJSON_PADDING zero bytes it needs.
#include <simdjson.h>

#include "sb.h"

static_assert(sb::kPadding >= simdjson::SIMDJSON_PADDING, "input copies need simdjson's padding");

namespace sb {
namespace {

#if SB_VARIANT == 1
using namespace simdjson;

// The tree walk (TreeHasher: iterative, any depth).
struct DomWalk {
  using Ref = dom::element;
  struct Iter {
    bool is_map;
    dom::array::iterator a, ae;
    dom::object::iterator o, oe;
  };
  static int enter(Ref e, Iter& it, TreeSink* h, std::string& err) {
    switch (e.type()) {
      case dom::element_type::ARRAY: {
        dom::array a(e);
        sb_hasher_open(h, 0);
        it.is_map = false;
        it.a = a.begin();
        it.ae = a.end();
        return 1;
      }
      case dom::element_type::OBJECT: {
        dom::object o(e);
        sb_hasher_open(h, 1);
        it.is_map = true;
        it.o = o.begin();
        it.oe = o.end();
        return 1;
      }
      case dom::element_type::INT64: sb_hasher_emit(h, sb_hash_int(int64_t(e))); return 0;
      case dom::element_type::UINT64: sb_hasher_emit(h, sb_hash_uint(uint64_t(e))); return 0;
      case dom::element_type::DOUBLE: sb_hasher_emit(h, sb_hash_double(double(e))); return 0;
      case dom::element_type::STRING: {
        std::string_view s(e);
        sb_hasher_emit(h, sb_hash_str(s.data(), s.size()));
        return 0;
      }
      case dom::element_type::BOOL: sb_hasher_emit(h, sb_hash_bool(bool(e))); return 0;
      case dom::element_type::NULL_VALUE: sb_hasher_emit(h, sb_hash_null()); return 0;
    }
    err = "unknown element type";
    return -1;
  }
  static int next(Iter& it, Ref& c, TreeSink* h, std::string&) {
    if (it.is_map) {
      if (!(it.o != it.oe)) return 0;
      const std::string_view k = it.o.key();
      sb_hasher_key(h, k.data(), k.size());
      c = it.o.value();
      ++it.o;
      return 1;
    }
    if (!(it.a != it.ae)) return 0;
    c = *it.a;
    ++it.a;
    return 1;
  }
};

class Dom : public Adapter {
  dom::parser parser_;
  TreeHasher<DomWalk> hash_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    dom::element root;
    auto e = parser_.parse(buf, len, false).get(root);  // false: the buffer is already padded
    if (e) {
      err = error_message(e);
      return false;
    }
    return hash_(root, hash, err);
  }
};
#else
using namespace simdjson;

// Walks every value once, in document order, without recursion: a stack of open arrays and objects.
// On-demand iterators must advance only after the child they point at has been consumed (advancing
// first would skip it), so a frame advances when it is asked for its next child, not before.
class OdWalk {
  struct Frame {
    bool is_map, started;
    ondemand::array_iterator a, ae;
    ondemand::object_iterator o, oe;
  };
  Hasher h_;
  std::vector<Frame> st_;  // reused across ops

  // A scalar is hashed; an array or object is opened (pushed). V: the document or a value.
  template <class V>
  error_code enter(V& v) {
    ondemand::json_type t;
    if (auto e = v.type().get(t)) return e;
    switch (t) {
      case ondemand::json_type::array: {
        ondemand::array arr;
        Frame f{false, false, {}, {}, {}, {}};
        if (auto e = v.get_array().get(arr)) return e;
        if (auto e = arr.begin().get(f.a)) return e;
        if (auto e = arr.end().get(f.ae)) return e;
        sb_hasher_open(&h_, 0);
        st_.push_back(f);
        return SUCCESS;
      }
      case ondemand::json_type::object: {
        ondemand::object obj;
        Frame f{true, false, {}, {}, {}, {}};
        if (auto e = v.get_object().get(obj)) return e;
        if (auto e = obj.begin().get(f.o)) return e;
        if (auto e = obj.end().get(f.oe)) return e;
        sb_hasher_open(&h_, 1);
        st_.push_back(f);
        return SUCCESS;
      }
      case ondemand::json_type::number: {
        ondemand::number num;
        if (auto e = v.get_number().get(num)) return e;
        switch (num.get_number_type()) {
          case ondemand::number_type::floating_point_number:
            sb_hasher_emit(&h_, sb_hash_double(num.get_double()));
            break;
          case ondemand::number_type::signed_integer: sb_hasher_emit(&h_, sb_hash_int(num.get_int64())); break;
          case ondemand::number_type::unsigned_integer: sb_hasher_emit(&h_, sb_hash_uint(num.get_uint64())); break;
        }
        return SUCCESS;
      }
      case ondemand::json_type::string: {
        std::string_view s;
        if (auto e = v.get_string().get(s)) return e;
        sb_hasher_emit(&h_, sb_hash_str(s.data(), s.size()));
        return SUCCESS;
      }
      case ondemand::json_type::boolean: {
        bool b;
        if (auto e = v.get_bool().get(b)) return e;
        sb_hasher_emit(&h_, sb_hash_bool(b));
        return SUCCESS;
      }
      case ondemand::json_type::null: {
        bool isnull;
        if (auto e = v.is_null().get(isnull)) return e;
        if (!isnull) return INCORRECT_TYPE;
        sb_hasher_emit(&h_, sb_hash_null());
        return SUCCESS;
      }
    }
    return INCORRECT_TYPE;
  }

 public:
  error_code operator()(ondemand::document& doc, uint64_t& hash) {
    sb_hasher_init(&h_);
    st_.clear();
    if (auto e = enter(doc)) return e;
    while (!st_.empty()) {
      Frame& f = st_.back();
      ondemand::value val;
      if (f.is_map) {
        if (f.started) ++f.o;
        f.started = true;
        if (!(f.o != f.oe)) {
          sb_hasher_close(&h_);
          st_.pop_back();
          continue;
        }
        ondemand::field field;
        if (auto e = (*f.o).get(field)) return e;
        std::string_view key;
        if (auto e = field.unescaped_key().get(key)) return e;
        sb_hasher_key(&h_, key.data(), key.size());  // the key's view dies at the next string
        val = field.value();
      } else {
        if (f.started) ++f.a;
        f.started = true;
        if (!(f.a != f.ae)) {
          sb_hasher_close(&h_);
          st_.pop_back();
          continue;
        }
        if (auto e = (*f.a).get(val)) return e;
      }
      if (auto e = enter(val)) return e;  // may push: f is not used after this
    }
    if (!sb_hasher_done(&h_, &hash)) return TAPE_ERROR;
    return SUCCESS;
  }
};

class OnDemand : public Adapter {
  ondemand::parser parser_;
  OdWalk walk_;

 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    ondemand::document doc;
    error_code e = parser_.iterate(padded_string_view(buf, len, len + kPadding)).get(doc);
    if (!e) e = walk_(doc, hash);
    // On-demand stops where the walk stops: anything left after the root is trailing content
    // (3.0.1 has no document::at_end; current_location() fails once at the end).
    if (!e && !doc.current_location().error()) e = TRAILING_CONTENT;
    if (e) {
      err = error_message(e);
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
    i.library = "simdjson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "simdjson-dom";
    i.tests = {"tree"};
    i.notes = "dom::parser reused across ops (documented usage); shared library only";
#else
    i.id = "simdjson-ondemand";
    i.tests = {"incremental"};
    i.notes = "ondemand::parser reused across ops, walks every value; shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string&, const Doc&, const std::string&,
                                      std::string&) {
#if SB_VARIANT == 1
  return std::make_unique<Dom>();
#else
  return std::make_unique<OnDemand>();
#endif
}

}  // namespace sb
