// cJSON (libcjson.so; Debian ships no static archive):
//   1 cjson-print  write: cJSON_PrintUnformatted / cJSON_Print of a cJSON tree built from the
//                  reference object
//   2 cjson-parse  tree: cJSON_ParseWithLengthOpts
// cJSON keeps every number as a double. The adapter reads an integral number within +-2^53 as an
// integer (what a caller checking valuedouble would do), so integral floats (1.0, -0.0) and
// integers beyond 2^53 hash differently and the hash check reports them: that is cJSON's model.
#include <cjson/cJSON.h>

#include <cmath>

#include "sb.h"

namespace sb {
namespace {

#if SB_VARIANT == 1
cJSON* build(const Doc& d, size_t& i, std::string& err) {
  const Node& n = d.nodes[i++];
  switch (n.type) {
    case T::Null: return cJSON_CreateNull();
    case T::False: return cJSON_CreateFalse();
    case T::True: return cJSON_CreateTrue();
    case T::Uint: return cJSON_CreateNumber(static_cast<double>(n.u));
    case T::Neg: return cJSON_CreateNumber(static_cast<double>(n.i));
    case T::Double: return cJSON_CreateNumber(n.d);
    case T::Str: return cJSON_CreateString(std::string(d.str(n), n.count).c_str());  // C strings only
    case T::Bin: err = "JSON has no binary"; return nullptr;
    case T::Array: {
      cJSON* a = cJSON_CreateArray();
      for (uint32_t c = 0; c < n.count; c++) {
        cJSON* e = build(d, i, err);
        if (!e) return cJSON_Delete(a), nullptr;
        cJSON_AddItemToArray(a, e);
      }
      return a;
    }
    case T::Map: {
      cJSON* o = cJSON_CreateObject();
      for (uint32_t c = 0; c < n.count; c++) {
        const Node& k = d.nodes[i++];
        cJSON* v = build(d, i, err);
        if (!v) return cJSON_Delete(o), nullptr;
        cJSON_AddItemToObject(o, std::string(d.str(k), k.count).c_str(), v);
      }
      return o;
    }
  }
  return nullptr;
}

class Print : public Adapter {
  cJSON* root_;
  const bool pretty_;
  char* out_ = nullptr;

 public:
  Print(cJSON* root, bool pretty) : root_(root), pretty_(pretty) {}
  ~Print() override {
    cJSON_free(out_);
    cJSON_Delete(root_);
  }
  bool encode(const char*& out, size_t& len, std::string& err) override {
    cJSON_free(out_);
    out_ = pretty_ ? cJSON_Print(root_) : cJSON_PrintUnformatted(root_);  // fresh string per op
    if (!out_) {
      err = "cJSON_Print failed";
      return false;
    }
    out = out_;
    len = strlen(out_);
    return true;
  }
};
#else
uint64_t hash_val(const cJSON* v) {
  if (cJSON_IsNumber(v)) {
    const double d = v->valuedouble;
    if (std::nearbyint(d) == d && std::fabs(d) <= 9007199254740992.0) return sb_hash_int(static_cast<int64_t>(d));
    return sb_hash_double(d);
  }
  if (cJSON_IsString(v)) return sb_hash_str(v->valuestring, strlen(v->valuestring));
  if (cJSON_IsObject(v)) {
    uint64_t s = 0, n = 0;
    for (const cJSON* c = v->child; c; c = c->next, n++)
      s += sb_map_entry(sb_hash_str(c->string, strlen(c->string)), hash_val(c));
    return sb_map_end(s, n);
  }
  if (cJSON_IsArray(v)) {
    uint64_t a = sb_array_start(), n = 0;
    for (const cJSON* c = v->child; c; c = c->next, n++) a = sb_array_add(a, hash_val(c));
    return sb_array_end(a, n);
  }
  if (cJSON_IsTrue(v)) return sb_hash_bool(1);
  if (cJSON_IsFalse(v)) return sb_hash_bool(0);
  return sb_hash_null();
}

class Parse : public Adapter {
 public:
  bool decode(char* buf, size_t len, uint64_t& hash, std::string& err) override {
    const char* end = nullptr;
    cJSON* v = cJSON_ParseWithLengthOpts(buf, len, &end, false);
    if (!v) {
      err = "cJSON_Parse failed at offset " + std::to_string(end ? end - buf : -1);
      return false;
    }
    while (end < buf + len && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t')) end++;
    if (end != buf + len) {
      cJSON_Delete(v);
      err = "trailing content at offset " + std::to_string(end - buf);
      return false;
    }
    hash = hash_val(v);
    cJSON_Delete(v);
    return true;
  }
};
#endif

}  // namespace

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.library = "cjson";
    i.version = SB_VERSION;
    i.formats = {"json", "json-pretty"};
#if SB_VARIANT == 1
    i.id = "cjson-print";
    i.tests = {"write"};
    i.notes = "cJSON_PrintUnformatted / cJSON_Print; numbers are doubles; shared library only";
#else
    i.id = "cjson-parse";
    i.tests = {"tree"};
    i.notes = "cJSON_ParseWithLengthOpts; numbers are doubles (integral within 2^53 read as ints); shared library only";
#endif
    return i;
  }();
  return b;
}

std::unique_ptr<Adapter> make_adapter(const std::string&, const std::string& fmt, const Doc& input, const std::string&,
                                      std::string& err) {
#if SB_VARIANT == 1
  size_t i = 0;
  cJSON* root = build(input, i, err);
  if (!root) return nullptr;
  return std::make_unique<Print>(root, fmt == "json-pretty");
#else
  (void)fmt, (void)input, (void)err;
  return std::make_unique<Parse>();
#endif
}

}  // namespace sb
