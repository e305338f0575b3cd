// Reference decoder (nlohmann::ordered_json, outside every timed loop) and the Doc object.
//
// ordered_json keeps the document's map order, so write benchmarks emit maps in file order; it is a
// different template instantiation from the nlohmann::json used by the nlohmann benchmarks.
#include <nlohmann/json.hpp>

#include "sb.h"

namespace sb {

using RefJson = nlohmann::ordered_json;

static void build(const RefJson& j, Doc& d) {
  const size_t idx = d.nodes.size();
  d.nodes.push_back(Node{});
  Node n{};
  switch (j.type()) {
    case RefJson::value_t::null: n.type = T::Null; break;
    case RefJson::value_t::boolean: n.type = j.get<bool>() ? T::True : T::False; break;
    case RefJson::value_t::number_unsigned:
      n.type = T::Uint;
      n.u = j.get<uint64_t>();
      break;
    case RefJson::value_t::number_integer: {
      int64_t v = j.get<int64_t>();
      n.type = v >= 0 ? T::Uint : T::Neg;
      n.i = v;
      break;
    }
    case RefJson::value_t::number_float:
      n.type = T::Double;
      n.d = j.get<double>();
      break;
    case RefJson::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      n.type = T::Str;
      n.count = static_cast<uint32_t>(s.size());
      n.off = d.bytes.size();
      d.bytes += s;
      break;
    }
    case RefJson::value_t::binary: {
      const auto& b = j.get_binary();
      n.type = T::Bin;
      n.count = static_cast<uint32_t>(b.size());
      n.off = d.bytes.size();
      d.bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
      break;
    }
    case RefJson::value_t::array:
      n.type = T::Array;
      n.count = static_cast<uint32_t>(j.size());
      d.nodes[idx] = n;  // children are pushed after it
      for (const auto& e : j) build(e, d);
      break;
    case RefJson::value_t::object:
      n.type = T::Map;
      n.count = static_cast<uint32_t>(j.size());
      d.nodes[idx] = n;
      for (const auto& kv : j.items()) {
        build(RefJson(kv.key()), d);
        build(kv.value(), d);
      }
      break;
    default: throw std::runtime_error("value outside the serbench data model");
  }
  n.size = d.nodes.size() - idx;
  d.nodes[idx] = n;
}

bool ref_decode(const std::string& fmt, const char* data, size_t len, Doc& out, std::string& err) {
  out.nodes.clear();
  out.bytes.clear();
  try {
    const auto* b = reinterpret_cast<const uint8_t*>(data);
    RefJson j;
    if (fmt == "json" || fmt == "json-pretty")
      j = RefJson::parse(data, data + len);
    else if (fmt == "msgpack")
      j = RefJson::from_msgpack(b, b + len);
    else if (fmt == "cbor")
      j = RefJson::from_cbor(b, b + len);
    else if (fmt == "bson")
      j = RefJson::from_bson(b, b + len);
    else if (fmt == "ubjson" || fmt == "ubjson-plain")
      j = RefJson::from_ubjson(b, b + len);
    else {
      err = "reference decoder: unknown format " + fmt;
      return false;
    }
    out.nodes.reserve(1024);
    build(j, out);
  } catch (const std::exception& e) {
    err = std::string("reference decoder: ") + e.what();
    return false;
  }
  return true;
}

static uint64_t hash_at(const Doc& d, size_t& i) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return sb_hash_null();
    case T::False: return sb_hash_bool(0);
    case T::True: return sb_hash_bool(1);
    case T::Uint: return sb_hash_uint(n.u);
    case T::Neg: return sb_hash_int(n.i);
    case T::Double: return sb_hash_double(n.d);
    case T::Str: return sb_hash_str(d.str(n), n.count);
    case T::Bin: return sb_hash_bin(d.str(n), n.count);
    case T::Array: {
      uint64_t a = sb_array_start();
      for (uint32_t c = 0; c < n.count; c++) a = sb_array_add(a, hash_at(d, i));
      return sb_array_end(a, n.count);
    }
    case T::Map: {
      uint64_t s = 0;
      for (uint32_t c = 0; c < n.count; c++) {
        uint64_t k = hash_at(d, i);
        s += sb_map_entry(k, hash_at(d, i));
      }
      return sb_map_end(s, n.count);
    }
  }
  return 0;
}

uint64_t hash_doc(const Doc& d, size_t i) { return hash_at(d, i); }

}  // namespace sb
