// Apache Avro C (libavro-dev 1.11.1, C API; schema spec/schemas/typed.avsc, embedded as
// typed/gen/typed_avsc.h by regen-schemas.sh). Avro C has no code generator: records are generic
// values (avro_generic_class_from_schema), set and read field by field through the avro_value_t
// interface:
//   avro (typed-encode, typed-decode): encode builds a fresh generic value from the native records
//       (inside the loop: there are no generated types to prepare), sizes it (avro_value_sizeof) and
//       writes the binary encoding into a buffer of that size (avro_writer_memory + avro_value_write);
//       decode reads the bytes into a fresh generic value (avro_reader_memory + avro_value_read) and
//       the typed hash walks it field by field. Avro has no unsigned integers (typed.avsc): u8, u16
//       travel as int, u32 as long (the same numbers, so the same hash), u64 as the same 64 bits in a
//       long, hashed as the uint64 it holds.
#include <avro.h>

#include <climits>

#include "typed_avsc.h"
#include "typed_bench.h"

namespace sb::typed {
namespace {

const Keys& K = kKeys;

// The generic class of one list record of typed.avsc (a union of ProductList, TradeList,
// NestedList), made once: parsing the schema is set-up, not the measured work.
struct Classes {
  avro_schema_t schema = nullptr;
  avro_value_iface_t* list[3] = {};  // by Schema
  avro_value_iface_t* rec[3] = {};   // the record type alone (one record at a time)
  std::string err;
  Classes() {
    if (avro_schema_from_json_length(kTypedAvsc, sizeof(kTypedAvsc) - 1, &schema) != 0) {
      err = std::string("typed.avsc: ") + avro_strerror();
      return;
    }
    const char* names[3] = {"ProductList", "TradeList", "NestedList"};  // the short names, as the union keeps them
    for (int i = 0; i < 3; i++) {
      int index;
      avro_schema_t s = avro_schema_union_branch_by_name(schema, &index, names[i]);
      if (!s) {
        err = std::string("typed.avsc has no ") + names[i];
        return;
      }
      list[i] = avro_generic_class_from_schema(s);
      // records: {"type": "array", "items": <record>}
      rec[i] = avro_generic_class_from_schema(avro_schema_array_items(avro_schema_record_field_get_by_index(s, 0)));
      if (!list[i] || !rec[i]) {
        err = std::string("avro_generic_class_from_schema: ") + avro_strerror();
        return;
      }
    }
  }
};

const Classes& classes() {
  static const Classes c;
  return c;
}

// A generic value, released on scope exit.
struct Value {
  avro_value_t v{};
  bool ok = false;
  explicit Value(avro_value_iface_t* iface) { ok = avro_generic_value_new(iface, &v) == 0; }
  ~Value() {
    if (ok) avro_value_decref(&v);
  }
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;
};

// --- build: native records -> a generic value ---------------------------------------------------------
// Every avro_value_* call returns 0 or an errno; rc collects them, so one check at the end reports
// any failure (with avro_strerror) instead of a check after every field.

struct Build {
  int rc = 0;
  avro_value_t field(avro_value_t rec, size_t i) {
    avro_value_t f{};
    rc |= avro_value_get_by_index(&rec, i, &f, nullptr);
    return f;
  }
  avro_value_t append(avro_value_t arr) {
    avro_value_t e{};
    rc |= avro_value_append(&arr, &e, nullptr);
    return e;
  }
  void set(avro_value_t v, int32_t x) { rc |= avro_value_set_int(&v, x); }
  void set(avro_value_t v, int64_t x) { rc |= avro_value_set_long(&v, x); }
  void set(avro_value_t v, float x) { rc |= avro_value_set_float(&v, x); }
  void set(avro_value_t v, double x) { rc |= avro_value_set_double(&v, x); }
  void set(avro_value_t v, bool x) { rc |= avro_value_set_boolean(&v, x); }
  // the size Avro C takes includes the NUL terminator (std::string has one)
  void set(avro_value_t v, const std::string& s) { rc |= avro_value_set_string_len(&v, s.c_str(), s.size() + 1); }
  template <class Wire, class T>
  void list(avro_value_t arr, const std::vector<T>& v) {
    for (const T x : v) set(append(arr), static_cast<Wire>(x));
  }
  void strings(avro_value_t arr, const std::vector<std::string>& v) {
    for (const std::string& s : v) set(append(arr), s);
  }

  void put(avro_value_t r, const Product& p) {
    set(field(r, 0), static_cast<int64_t>(p.id));  // the same 64 bits
    set(field(r, 1), p.name);
    set(field(r, 2), p.price);
    set(field(r, 3), p.in_stock);
    strings(field(r, 4), p.tags);
  }

  void put(avro_value_t r, const Trade& t) {
    set(field(r, 0), t.price);
    set(field(r, 1), t.flag);
    set(field(r, 2), t.text);
    avro_value_t side = field(r, 3);
    rc |= avro_value_set_enum(&side, t.side == Side::Buy ? 0 : 1);  // symbols ["Buy", "Sell"]
    set(field(r, 4), t.small_int);
    set(field(r, 5), t.long_int);
  }

  void put(avro_value_t r, const Nested& n) {
    set(field(r, 0), static_cast<int32_t>(n.u8));
    set(field(r, 1), static_cast<int32_t>(n.u16));
    set(field(r, 2), static_cast<int64_t>(n.u32));
    set(field(r, 3), static_cast<int64_t>(n.u64));
    set(field(r, 4), static_cast<int32_t>(n.i8));
    set(field(r, 5), static_cast<int32_t>(n.i16));
    set(field(r, 6), n.i32);
    set(field(r, 7), n.i64);
    set(field(r, 8), n.f32);
    set(field(r, 9), n.f64);
    set(field(r, 10), n.flag);
    set(field(r, 11), n.name);
    list<int32_t>(field(r, 12), n.u8s);
    list<int32_t>(field(r, 13), n.u16s);
    list<int64_t>(field(r, 14), n.u32s);
    list<int64_t>(field(r, 15), n.u64s);
    list<int32_t>(field(r, 16), n.i8s);
    list<int32_t>(field(r, 17), n.i16s);
    list<int32_t>(field(r, 18), n.i32s);
    list<int64_t>(field(r, 19), n.i64s);
    list<float>(field(r, 20), n.f32s);
    list<double>(field(r, 21), n.f64s);
    for (const bool b : n.flags) set(append(field(r, 22)), b);
    strings(field(r, 23), n.names);
    avro_value_t counts = field(r, 24);
    for (const auto& [k, v] : n.counts) {
      avro_value_t e{};
      rc |= avro_value_add(&counts, k.c_str(), &e, nullptr, nullptr);
      set(e, v);
    }
    avro_value_t note = field(r, 25), branch{};  // ["null", "string"]
    rc |= avro_value_set_branch(&note, n.note ? 1 : 0, &branch);
    if (n.note)
      set(branch, *n.note);
    else
      rc |= avro_value_set_null(&branch);
    avro_value_t inner = field(r, 26);
    set(field(inner, 0), n.inner.label);
    avro_value_t point = field(inner, 1);
    set(field(point, 0), n.inner.point.x);
    set(field(point, 1), n.inner.point.y);
    set(field(point, 2), n.inner.point.z);
    avro_value_t children = field(r, 27);
    for (const Nested& c : n.children) put(append(children), c);
  }
};

// --- the typed hash over a generic value ---------------------------------------------------------------
// Reads by field index, in typed.avsc's order; any failed call (a value of another type) sets rc.

struct Walk {
  int rc = 0;
  avro_value_t field(const avro_value_t& rec, size_t i) {
    avro_value_t f{};
    rc |= avro_value_get_by_index(&rec, i, &f, nullptr);
    return f;
  }
  size_t size(const avro_value_t& v) {
    size_t n = 0;
    rc |= avro_value_get_size(&v, &n);
    return n;
  }
  uint64_t i32(const avro_value_t& v) {
    int32_t x = 0;
    rc |= avro_value_get_int(&v, &x);
    return thash(x);
  }
  uint64_t i64(const avro_value_t& v) {
    int64_t x = 0;
    rc |= avro_value_get_long(&v, &x);
    return thash(x);
  }
  uint64_t u64(const avro_value_t& v) {  // a long holding a uint64's bits
    int64_t x = 0;
    rc |= avro_value_get_long(&v, &x);
    return thash(static_cast<uint64_t>(x));
  }
  uint64_t f32(const avro_value_t& v) {
    float x = 0;
    rc |= avro_value_get_float(&v, &x);
    return thash(x);
  }
  uint64_t f64(const avro_value_t& v) {
    double x = 0;
    rc |= avro_value_get_double(&v, &x);
    return thash(x);
  }
  uint64_t boolean(const avro_value_t& v) {
    int x = 0;
    rc |= avro_value_get_boolean(&v, &x);
    return thash(x != 0);
  }
  uint64_t str(const avro_value_t& v) {
    const char* s = nullptr;
    size_t n = 0;
    rc |= avro_value_get_string(&v, &s, &n);
    return s && n ? sb_hash_str(s, n - 1) : sb_hash_str("", 0);  // n counts the NUL terminator
  }
  template <uint64_t (Walk::*Elem)(const avro_value_t&)>
  uint64_t list(const avro_value_t& arr) {
    ArrayHash a;
    const size_t n = size(arr);
    for (size_t i = 0; i < n; i++) a.add((this->*Elem)(field(arr, i)));
    return a.done();
  }

  uint64_t product(const avro_value_t& r) {
    MapHash h;
    h.add(K.id, u64(field(r, 0)));
    h.add(K.name, str(field(r, 1)));
    h.add(K.price, f64(field(r, 2)));
    h.add(K.in_stock, boolean(field(r, 3)));
    h.add(K.tags, list<&Walk::str>(field(r, 4)));
    return h.done();
  }

  uint64_t trade(const avro_value_t& r) {
    int side = 0;
    const avro_value_t s = field(r, 3);
    rc |= avro_value_get_enum(&s, &side);
    MapHash h;
    h.add(K.price, f64(field(r, 0)));
    h.add(K.flag, boolean(field(r, 1)));
    h.add(K.text, str(field(r, 2)));
    h.add(K.side, side == 0 ? K.Buy : side == 1 ? K.Sell : thash(static_cast<int32_t>(side)));
    h.add(K.small_int, i32(field(r, 4)));
    h.add(K.long_int, i64(field(r, 5)));
    return h.done();
  }

  uint64_t nested(const avro_value_t& r) {
    MapHash counts;
    const avro_value_t cs = field(r, 24);
    const size_t nc = size(cs);
    for (size_t i = 0; i < nc; i++) {
      avro_value_t v{};
      const char* key = nullptr;
      rc |= avro_value_get_by_index(&cs, i, &v, &key);
      counts.add(key ? sb_hash_str(key, strlen(key)) : 0, i64(v));  // Avro C keeps map keys as C strings
    }
    const avro_value_t note = field(r, 25);
    int disc = 0;
    rc |= avro_value_get_discriminant(&note, &disc);
    avro_value_t branch{};
    rc |= avro_value_get_current_branch(&note, &branch);
    const avro_value_t inner = field(r, 26), point = field(inner, 1);
    MapHash p;
    p.add(K.x, f64(field(point, 0)));
    p.add(K.y, f64(field(point, 1)));
    p.add(K.z, f32(field(point, 2)));
    MapHash in;
    in.add(K.label, str(field(inner, 0)));
    in.add(K.point, p.done());
    MapHash h;
    h.add(K.u8, i32(field(r, 0)));
    h.add(K.u16, i32(field(r, 1)));
    h.add(K.u32, i64(field(r, 2)));
    h.add(K.u64, u64(field(r, 3)));
    h.add(K.i8, i32(field(r, 4)));
    h.add(K.i16, i32(field(r, 5)));
    h.add(K.i32, i32(field(r, 6)));
    h.add(K.i64, i64(field(r, 7)));
    h.add(K.f32, f32(field(r, 8)));
    h.add(K.f64, f64(field(r, 9)));
    h.add(K.flag, boolean(field(r, 10)));
    h.add(K.name, str(field(r, 11)));
    h.add(K.u8s, list<&Walk::i32>(field(r, 12)));
    h.add(K.u16s, list<&Walk::i32>(field(r, 13)));
    h.add(K.u32s, list<&Walk::i64>(field(r, 14)));
    h.add(K.u64s, list<&Walk::u64>(field(r, 15)));
    h.add(K.i8s, list<&Walk::i32>(field(r, 16)));
    h.add(K.i16s, list<&Walk::i32>(field(r, 17)));
    h.add(K.i32s, list<&Walk::i32>(field(r, 18)));
    h.add(K.i64s, list<&Walk::i64>(field(r, 19)));
    h.add(K.f32s, list<&Walk::f32>(field(r, 20)));
    h.add(K.f64s, list<&Walk::f64>(field(r, 21)));
    h.add(K.flags, list<&Walk::boolean>(field(r, 22)));
    h.add(K.names, list<&Walk::str>(field(r, 23)));
    h.add(K.counts, counts.done());
    h.add(K.note, disc == 1 ? str(branch) : null_hash());
    h.add(K.inner, in.done());
    h.add(K.children, list<&Walk::nested>(field(r, 27)));
    return h.done();
  }

  uint64_t record(const avro_value_t& r, Schema s) {
    return s == Schema::Product ? product(r) : s == Schema::Trade ? trade(r) : nested(r);
  }
};

// --- the codec ----------------------------------------------------------------------------------------

bool failed(std::string& err, const char* what) {
  err = std::string(what) + ": " + avro_strerror();
  return false;
}

template <class R>
class Avro : public Codec {
  static constexpr Schema kSchema = schema_of<R>();
  static constexpr int kIndex = static_cast<int>(kSchema);
  const std::vector<R> recs_;  // a copy: the codec owns what it encodes
  std::string out_;

  // Writes a built value into out_ (a fresh buffer of exactly its size).
  bool write(Value& v, const uint8_t*& out, size_t& len, std::string& err) {
    size_t size = 0;
    if (avro_value_sizeof(&v.v, &size) != 0) return failed(err, "avro_value_sizeof");
    out_ = std::string(size, '\0');
    avro_writer_t w = avro_writer_memory(out_.data(), static_cast<int64_t>(size));
    if (!w) return failed(err, "avro_writer_memory");
    const int rc = avro_value_write(w, &v.v);
    avro_writer_free(w);
    if (rc != 0) return failed(err, "avro_value_write");
    out = reinterpret_cast<const uint8_t*>(out_.data());
    len = out_.size();
    return true;
  }

  // Reads data into v (a fresh generic value); all bytes must be used.
  static bool read(Value& v, const uint8_t* data, size_t len, std::string& err) {
    if (!v.ok) return failed(err, "avro_generic_value_new");
    if (len > static_cast<size_t>(INT64_MAX)) {
      err = "input too large";
      return false;
    }
    avro_reader_t r = avro_reader_memory(reinterpret_cast<const char*>(data), static_cast<int64_t>(len));
    if (!r) return failed(err, "avro_reader_memory");
    const int rc = avro_value_read(r, &v.v);
    avro_reader_free(r);
    if (rc != 0) return failed(err, "avro_value_read");
    return true;
  }

 public:
  explicit Avro(const std::vector<R>& v) : recs_(v) {}

  bool encode(const uint8_t*& out, size_t& len, std::string& err) override {
    Value v(classes().list[kIndex]);
    if (!v.ok) return failed(err, "avro_generic_value_new");
    Build b;
    const avro_value_t records = b.field(v.v, 0);
    for (const R& r : recs_) b.put(b.append(records), r);
    if (b.rc != 0) return failed(err, "building the generic value");
    return write(v, out, len, err);
  }

  bool decode(uint8_t* data, size_t len, uint64_t& hash, std::string& err) override {
    Value v(classes().list[kIndex]);
    if (!read(v, data, len, err)) return false;
    Walk w;
    const avro_value_t records = w.field(v.v, 0);
    ArrayHash a;
    const size_t n = w.size(records);
    for (size_t i = 0; i < n; i++) a.add(w.record(w.field(records, i), kSchema));
    if (w.rc != 0) return failed(err, "reading the generic value");
    hash = document_hash(kSchema, a.done());
    return true;
  }

  bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string& err) override {
    Value v(classes().rec[kIndex]);
    if (!v.ok) return failed(err, "avro_generic_value_new");
    Build b;
    b.put(v.v, recs_[i]);
    if (b.rc != 0) return failed(err, "building the generic value");
    return write(v, out, len, err);
  }

  bool decode_one(uint8_t* data, size_t len, uint64_t& hash, std::string& err) override {
    Value v(classes().rec[kIndex]);
    if (!read(v, data, len, err)) return false;
    Walk w;
    hash = w.record(v.v, kSchema);
    if (w.rc != 0) return failed(err, "reading the generic value");
    return true;
  }
};

}  // namespace

std::unique_ptr<Codec> make_codec(const std::string&, const std::string&, const Records& records, std::string& err) {
  if (!classes().err.empty()) return refuse(err, classes().err);
  return visit(records, [](const auto& v) -> std::unique_ptr<Codec> {
    using R = typename std::decay_t<decltype(v)>::value_type;
    return std::make_unique<Avro<R>>(v);
  });
}

}  // namespace sb::typed

namespace sb {

const BenchInfo& bench_info() {
  static const BenchInfo b = [] {
    BenchInfo i;
    i.id = "avro-c";
    i.library = "avro-c";
    i.version = SB_VERSION;
    i.formats = {"avro"};
    i.tests = {"typed-encode", "typed-decode"};
    i.notes = "Avro C generic values (no code generator; spec/schemas/typed.avsc): encode builds a generic value "
              "from the native records per op, avro_value_sizeof + avro_value_write into a buffer of that size; "
              "decode = avro_value_read into a fresh generic value, the typed hash reads it field by field";
    return i;
  }();
  return b;
}

}  // namespace sb
