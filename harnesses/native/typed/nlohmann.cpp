// nlohmann/json typed rows (spec/typed.md): the records through the library's own type mapping,
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE (to_json / from_json per struct), NLOHMANN_JSON_SERIALIZE_ENUM for
// Side, and an adl_serializer for std::optional (nlohmann 3.11.2 has none), as its README shows for
// boost::optional. Encode builds a json from the records and dumps it (`json j = records; j.dump()`);
// decode parses and converts (`json::parse(...).get<std::vector<R>>()`): what users of the library write.
// The wire is a JSON array of record objects, as serde_json-typed writes.
#include <nlohmann/json.hpp>
#include <optional>

#include "typed_bench.h"

namespace nlohmann {
template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& v) {
    if (v)
      j = *v;
    else
      j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& v) {
    if (j.is_null())
      v.reset();
    else
      v = j.get<T>();
  }
};
}  // namespace nlohmann

namespace sb::typed {

NLOHMANN_JSON_SERIALIZE_ENUM(Side, {{Side::Buy, "Buy"}, {Side::Sell, "Sell"}})
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Product, id, name, price, in_stock, tags)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Trade, price, flag, text, side, small_int, long_int)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Point, x, y, z)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Inner, label, point)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Nested, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, flag, name, u8s, u16s, u32s,
                                   u64s, i8s, i16s, i32s, i64s, f32s, f64s, flags, names, counts, note, inner, children)

namespace {

using json = nlohmann::json;

template <class R>
class NlohmannCodec : public Codec {
  const std::vector<R>& records_;
  std::string out_;

  static const char* end(const uint8_t* data, size_t len) { return reinterpret_cast<const char*>(data) + len; }

 public:
  explicit NlohmannCodec(const std::vector<R>& r) : records_(r) {}

  bool encode(const uint8_t*& out, size_t& len, std::string&) override {
    const json j = records_;
    out_ = j.dump();
    out = reinterpret_cast<const uint8_t*>(out_.data());
    len = out_.size();
    return true;
  }
  bool decode(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    const auto v = json::parse(reinterpret_cast<const char*>(data), end(data, len)).get<std::vector<R>>();
    hash = hash_document(v);
    return true;
  }
  bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string&) override {
    const json j = records_[i];
    out_ = j.dump();
    out = reinterpret_cast<const uint8_t*>(out_.data());
    len = out_.size();
    return true;
  }
  bool decode_one(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    hash = thash(json::parse(reinterpret_cast<const char*>(data), end(data, len)).get<R>());
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records& records, std::string&) {
  return make_for<NlohmannCodec>(records);
}

}  // namespace sb::typed

namespace sb {
const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.id = "nlohmann-typed";
    i.library = "nlohmann-json";
    i.version = SB_VERSION;
    i.formats = {"json"};
    i.tests = {"typed-encode", "typed-decode"};
    i.notes =
        "NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE to_json/from_json: json j = records; j.dump() / "
        "json::parse(...).get<std::vector<R>>() (through a json tree, std::map objects)";
    return i;
  }();
  return b;
}
}  // namespace sb
