// msgpack-cxx typed rows (spec/typed.md): the records through MSGPACK_DEFINE class adaptors (the
// macro inside each struct, through records.h's SB_RECORD_FIELDS hook) and MSGPACK_ADD_ENUM for Side,
// as the library's documentation writes them. MSGPACK_DEFINE packs a struct as an array of its fields
// in order (positional, as rmp-serde's default), std::optional as nil or its value (cpp17 adaptor),
// floats as float32, and std::vector<uint8_t> as bin (msgpack-cxx's adaptor for unsigned char vectors).
// Encode: msgpack::pack into a fresh sbuffer; decode: msgpack::unpack into an object (zone) + convert
// to the records (`oh.get().as<std::vector<R>>()`). MSGPACK_NO_BOOST, as the schemaless rows.
#include <msgpack.hpp>
#define SB_RECORD_FIELDS(...) MSGPACK_DEFINE(__VA_ARGS__)

#include "typed_bench.h"

MSGPACK_ADD_ENUM(sb::typed::Side);

namespace sb::typed {
namespace {

template <class R>
class MsgpackCodec : public Codec {
  const std::vector<R>& records_;
  std::unique_ptr<msgpack::sbuffer> out_;

  template <class T>
  bool pack(const T& v, const uint8_t*& out, size_t& len) {
    out_ = std::make_unique<msgpack::sbuffer>();  // a fresh output buffer every op
    msgpack::pack(*out_, v);
    out = reinterpret_cast<const uint8_t*>(out_->data());
    len = out_->size();
    return true;
  }
  template <class T>
  static T unpack(const uint8_t* data, size_t len) {
    const msgpack::object_handle oh = msgpack::unpack(reinterpret_cast<const char*>(data), len);
    return oh.get().as<T>();
  }

 public:
  explicit MsgpackCodec(const std::vector<R>& r) : records_(r) {}

  bool encode(const uint8_t*& out, size_t& len, std::string&) override { return pack(records_, out, len); }
  bool decode(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    hash = hash_document(unpack<std::vector<R>>(data, len));
    return true;
  }
  bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string&) override {
    return pack(records_[i], out, len);
  }
  bool decode_one(uint8_t* data, size_t len, uint64_t& hash, std::string&) override {
    hash = thash(unpack<R>(data, len));
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records& records, std::string&) {
  return make_for<MsgpackCodec>(records);
}

}  // namespace sb::typed

namespace sb {
const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.id = "msgpack-cxx-typed";
    i.library = "msgpack-cxx";
    i.version = SB_VERSION;
    i.formats = {"msgpack"};
    i.tests = {"typed-encode", "typed-decode"};
    i.notes =
        "MSGPACK_DEFINE class adaptors (structs as arrays) + MSGPACK_ADD_ENUM: msgpack::pack into a fresh sbuffer / "
        "msgpack::unpack + object.as<std::vector<R>>()";
    return i;
  }();
  return b;
}
}  // namespace sb
