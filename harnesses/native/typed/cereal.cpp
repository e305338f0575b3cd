// cereal typed rows (spec/typed.md), one executable per archive (SB_VARIANT):
//   1 cereal-binary  BinaryOutputArchive / BinaryInputArchive: cereal's own compact binary layout
//                    (wire format id `cereal-binary`: positional fields, 64-bit sizes, host byte order;
//                    contiguous arithmetic vectors as one block), which no other library reads
//   2 cereal-json    JSONOutputArchive (Options::NoIndent: cereal always writes through RapidJSON's
//                    PrettyWriter, so this keeps one value per line but no indentation)
//                    / JSONInputArchive: cereal's JSON shape, not the other JSON rows' (the document is
//                    {"records": [...]}, enums are integers, a std::map is an array of {"key", "value"}
//                    objects, a std::optional is {"nullopt": bool[, "data": value]}), read back by cereal only
// The records are bound the way cereal's documentation shows, with non-intrusive serialize functions
// naming every field (cereal::make_nvp: the JSON archive writes the names, the binary one skips them).
// The archives work on std::ostream / std::istream: output goes through a streambuf appending to a
// fresh std::string per op, and input is read in place through a streambuf over the aligned copy
// (std::istringstream would copy the bytes once more).
#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <istream>
#include <ostream>
#include <streambuf>

#include "typed_bench.h"

namespace sb::typed {

template <class A>
void serialize(A& ar, Product& r) {
  ar(cereal::make_nvp("id", r.id), cereal::make_nvp("name", r.name), cereal::make_nvp("price", r.price),
     cereal::make_nvp("in_stock", r.in_stock), cereal::make_nvp("tags", r.tags));
}
template <class A>
void serialize(A& ar, Trade& r) {
  ar(cereal::make_nvp("price", r.price), cereal::make_nvp("flag", r.flag), cereal::make_nvp("text", r.text),
     cereal::make_nvp("side", r.side), cereal::make_nvp("small_int", r.small_int),
     cereal::make_nvp("long_int", r.long_int));
}
template <class A>
void serialize(A& ar, Point& r) {
  ar(cereal::make_nvp("x", r.x), cereal::make_nvp("y", r.y), cereal::make_nvp("z", r.z));
}
template <class A>
void serialize(A& ar, Inner& r) {
  ar(cereal::make_nvp("label", r.label), cereal::make_nvp("point", r.point));
}
template <class A>
void serialize(A& ar, Nested& r) {
  ar(cereal::make_nvp("u8", r.u8), cereal::make_nvp("u16", r.u16), cereal::make_nvp("u32", r.u32),
     cereal::make_nvp("u64", r.u64), cereal::make_nvp("i8", r.i8), cereal::make_nvp("i16", r.i16),
     cereal::make_nvp("i32", r.i32), cereal::make_nvp("i64", r.i64), cereal::make_nvp("f32", r.f32),
     cereal::make_nvp("f64", r.f64), cereal::make_nvp("flag", r.flag), cereal::make_nvp("name", r.name),
     cereal::make_nvp("u8s", r.u8s), cereal::make_nvp("u16s", r.u16s), cereal::make_nvp("u32s", r.u32s),
     cereal::make_nvp("u64s", r.u64s), cereal::make_nvp("i8s", r.i8s), cereal::make_nvp("i16s", r.i16s),
     cereal::make_nvp("i32s", r.i32s), cereal::make_nvp("i64s", r.i64s), cereal::make_nvp("f32s", r.f32s),
     cereal::make_nvp("f64s", r.f64s), cereal::make_nvp("flags", r.flags), cereal::make_nvp("names", r.names),
     cereal::make_nvp("counts", r.counts), cereal::make_nvp("note", r.note), cereal::make_nvp("inner", r.inner),
     cereal::make_nvp("children", r.children));
}

namespace {

// Appends whatever the archive writes to a string.
class StringOut : public std::streambuf {
  std::string& s_;

 public:
  explicit StringOut(std::string& s) : s_(s) {}

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) s_.push_back(static_cast<char>(c));
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* p, std::streamsize n) override {
    s_.append(p, static_cast<size_t>(n));
    return n;
  }
};

// Reads the bytes in place.
class MemIn : public std::streambuf {
 public:
  MemIn(uint8_t* p, size_t n) {
    char* c = reinterpret_cast<char*>(p);
    setg(c, c, c + n);
  }
};

#if SB_VARIANT == 1
using OutArchive = cereal::BinaryOutputArchive;
using InArchive = cereal::BinaryInputArchive;
OutArchive out_archive(std::ostream& os) { return OutArchive(os); }
#else
using OutArchive = cereal::JSONOutputArchive;
using InArchive = cereal::JSONInputArchive;
OutArchive out_archive(std::ostream& os) { return OutArchive(os, OutArchive::Options::NoIndent()); }
#endif

template <class R>
class CerealCodec : public Codec {
  const std::vector<R>& records_;
  std::string out_;

  template <class T>
  bool write(const T& v, const char* name, const uint8_t*& out, size_t& len) {
    std::string().swap(out_);  // a fresh output every op (`out_ = std::string()` would keep the capacity)
    StringOut buf(out_);
    std::ostream os(&buf);
    {
      OutArchive ar = out_archive(os);
      ar(cereal::make_nvp(name, v));
    }  // the JSON archive closes its document when it is destroyed
    out = reinterpret_cast<const uint8_t*>(out_.data());
    len = out_.size();
    return true;
  }
  template <class T>
  static void read(uint8_t* data, size_t len, const char* name, T& v) {
    MemIn buf(data, len);
    std::istream is(&buf);
    InArchive ar(is);
    ar(cereal::make_nvp(name, v));
  }

 public:
  explicit CerealCodec(const std::vector<R>& r) : records_(r) {}

  bool encode(const uint8_t*& out, size_t& len, std::string&) override { return write(records_, "records", out, len); }
  bool decode(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    std::vector<R> v;
    read(data, len, "records", v);
    hash = hash_document(v);
    return true;
  }
  bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string&) override {
    return write(records_[i], "record", out, len);
  }
  bool decode_one(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    R r;
    read(data, len, "record", r);
    hash = thash(r);
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records& records, std::string&) {
  return make_for<CerealCodec>(records);
}

}  // namespace sb::typed

namespace sb {
const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "cereal";
    i.version = SB_VERSION;
    i.tests = {"typed-encode", "typed-decode"};
#if SB_VARIANT == 1
    i.id = "cereal-binary";
    i.formats = {"cereal-binary"};
    i.notes =
        "BinaryOutputArchive / BinaryInputArchive with non-intrusive serialize(); output appended to a fresh "
        "std::string through a streambuf, input read in place";
#else
    i.id = "cereal-json";
    i.formats = {"json"};
    i.notes =
        "JSONOutputArchive (Options::NoIndent: newlines, no indentation) / JSONInputArchive (a RapidJSON document "
        "inside) with "
        "non-intrusive serialize(); cereal's JSON shape ({\"records\": [...]}, enums as integers, maps as "
        "key/value arrays)";
#endif
    return i;
  }();
  return b;
}
}  // namespace sb
