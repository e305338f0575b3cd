// The reference decoder: the harness's own strict decoders of every corpus format, which build the
// flat Doc directly, and the object hash of a Doc. All of it is iterative (explicit stacks), so no
// nesting depth can overflow the harness's stack, and a Doc is freed without recursion.
//
// Why not a library: the reference decoder decides what a corpus file or a user's file means (write
// tests encode what it read, baselines walk it, and it judges every write row's output), so it must
// refuse anything outside spec/data-model.md and must survive any input. nlohmann::ordered_json,
// used before, recursed (SIGSEGV at 100,000 levels, in every row that decodes with it) and accepted
// malformed BSON, such as a document whose length field says 2^32-1.
//
// Rules common to every format; breaking one is a rejection with a reason and a byte offset:
//  - exactly one value, a map at the root (data model), and nothing after it;
//  - every length and count is checked against the bytes left before it is used; nothing is ever
//    allocated from a count (the Doc grows as values are actually read);
//  - strings and keys are valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF)
//    and hold no NUL (U+0000 is outside the data model);
//  - map keys are strings, unique within their map;
//  - integers fit int64 or uint64; floats are finite (NaN and infinity are outside the data model);
//  - nothing outside the data model: MessagePack ext, CBOR tags, undefined and simple values, BSON
//    types other than double, string, document, array, binary, bool, null, int32, int64; a UBJSON
//    high-precision number (H) is read as the JSON number it holds (an integer that fits, or a
//    finite double), anything else there is rejected.
// The differences from the Python reference codec (orchestrator/src/serbench/corpus/formats.py) are
// listed in docs/libraries.md ("The native reference decoder").
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <unordered_set>

#include "sb.h"

namespace sb {
namespace {

// UBJSON containers typed $Z, $T or $F imply values that take no input byte, so their count cannot
// be checked against the bytes left; instead a document may imply at most this many in total (each
// costs a 24-byte Node: about 100 MB). A limit of the harness (exit 6), far above any real document.
constexpr uint64_t kMaxImpliedValues = uint64_t(1) << 22;

struct Reject {
  size_t at;
  std::string msg;
};

[[noreturn]] void fail(size_t at, std::string msg) { throw Reject{at, std::move(msg)}; }

std::string hex_byte(uint8_t c) {
  char b[8];
  snprintf(b, sizeof b, "0x%02x", c);
  return b;
}

// Index of the first byte of s[0..n) that makes it invalid UTF-8 or is a NUL, or n when valid
// (Unicode 15, table 3-7: well-formed byte sequences).
size_t utf8_invalid_at(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    const uint8_t c = s[i];
    if (c < 0x80) {
      if (c == 0) return i;
      i++;
      continue;
    }
    size_t k;
    uint8_t lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      k = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      k = 2;
      if (c == 0xe0) lo = 0xa0;
      if (c == 0xed) hi = 0x9f;  // no UTF-16 surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      k = 3;
      if (c == 0xf0) lo = 0x90;
      if (c == 0xf4) hi = 0x8f;  // nothing past U+10FFFF
    } else {
      return i;
    }
    if (n - i <= k) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (size_t j = 2; j <= k; j++)
      if (s[i + j] < 0x80 || s[i + j] > 0xbf) return i;
    i += k + 1;
  }
  return n;
}

// Appends to a Doc in pre-order; containers are opened, then closed with their count once their
// children are in. Checks what is the same in every format: UTF-8, NUL, finite floats, unique keys,
// the limits of Node's 32-bit counts.
class Builder {
 public:
  explicit Builder(Doc& d) : d_(d) {}

  void null() { add(T::Null).u = 0; }
  void boolean(bool b) { add(b ? T::True : T::False).u = 0; }
  void uint(uint64_t v) { add(T::Uint).u = v; }
  void sint(int64_t v) { add(v >= 0 ? T::Uint : T::Neg).i = v; }
  void dbl(double v, size_t at) {
    if (!std::isfinite(v))
      fail(at, std::isnan(v) ? "NaN is outside the data model" : "infinity is outside the data model");
    add(T::Double).d = v;
  }
  // A string (validated) or binary value whose bytes are in the input.
  void bytes(T t, const uint8_t* s, uint64_t n, size_t at) {
    const size_t off = d_.bytes.size();
    d_.bytes.append(reinterpret_cast<const char*>(s), n);
    finish_bytes(t, off, at);
  }
  // For decoders that write the bytes themselves (JSON escapes, CBOR chunks): pool() gets them, and
  // finish_bytes turns the bytes since `off` into one value.
  std::string& pool() { return d_.bytes; }
  void finish_bytes(T t, size_t off, size_t at) {
    const uint64_t n = d_.bytes.size() - off;
    if (n > UINT32_MAX) fail(at, "a string or binary value longer than 4 GiB is beyond the harness's limit");
    if (t == T::Str) check_text(reinterpret_cast<const uint8_t*>(d_.bytes.data()) + off, n, at);
    Node& x = add(t);
    x.count = static_cast<uint32_t>(n);
    x.off = off;
  }
  // UTF-8 without NUL: what every string and key must be.
  static void check_text(const uint8_t* s, size_t n, size_t at) {
    const size_t bad = utf8_invalid_at(s, n);
    if (bad == n) return;
    if (s[bad] == 0) fail(at, "string holds NUL (U+0000), which is outside the data model");
    fail(at, "string is not valid UTF-8 (byte " + hex_byte(s[bad]) + " at offset " + std::to_string(bad) +
                 " of the string)");
  }

  void open(T t) {
    open_.push_back(d_.nodes.size());
    add(t);
    if (open_.size() > d_.max_depth) d_.max_depth = open_.size();
  }
  // Closes the innermost open container, which has `count` children (array) or entries (map).
  void close(uint64_t count, size_t at) {
    const size_t idx = open_.back();
    open_.pop_back();
    if (count > UINT32_MAX) fail(at, "a container of more than 2^32-1 values is beyond the harness's limit");
    Node& x = d_.nodes[idx];
    x.count = static_cast<uint32_t>(count);
    x.size = d_.nodes.size() - idx;
    if (x.type == T::Map && count > 1) check_unique_keys(idx, at);
  }
  size_t depth() const { return open_.size(); }

 private:
  Node& add(T t) {
    d_.nodes.push_back(Node{});
    Node& x = d_.nodes.back();
    x.type = t;
    x.size = 1;
    return x;
  }

  // Keys are unique within a map (data model). Checked when the map closes, over its entries.
  void check_unique_keys(size_t idx, size_t at) {
    const Node& m = d_.nodes[idx];
    keys_.clear();
    size_t j = idx + 1;
    for (uint32_t e = 0; e < m.count; e++) {
      const Node& k = d_.nodes[j];
      std::string_view key(d_.str(k), k.count);
      if (!keys_.insert(key).second) {
        std::string shown(key.substr(0, 60));
        fail(at, "duplicate key \"" + shown + (key.size() > 60 ? "...\"" : "\"") +
                     " in a map (keys are unique in the data model)");
      }
      j += 1;                 // the key
      j += d_.nodes[j].size;  // its value
    }
  }

  Doc& d_;
  std::vector<size_t> open_;                   // node indices of the open containers
  std::unordered_set<std::string_view> keys_;  // scratch of check_unique_keys
};

// Bytes of the input, read with bounds checks; every read past the end is a truncation.
class Input {
 public:
  Input(const char* data, size_t len) : p_(reinterpret_cast<const uint8_t*>(data)), len_(len) {}
  size_t pos() const { return pos_; }
  size_t left() const { return len_ - pos_; }
  bool at_end() const { return pos_ == len_; }
  const uint8_t* here() const { return p_ + pos_; }
  uint8_t byte(const char* what) {
    if (pos_ >= len_) fail(pos_, std::string("truncated: expected ") + what);
    return p_[pos_++];
  }
  const uint8_t* take(uint64_t n, const char* what) {
    if (n > left())
      fail(pos_, std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " +
                     std::to_string(left()) + " left");
    const uint8_t* s = p_ + pos_;
    pos_ += n;
    return s;
  }
  uint64_t be(int n, const char* what) {  // big-endian unsigned
    const uint8_t* s = take(n, what);
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | s[i];
    return v;
  }
  uint64_t le(int n, const char* what) {  // little-endian unsigned
    const uint8_t* s = take(n, what);
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | s[i];
    return v;
  }
  void expect_end() {
    if (pos_ != len_) fail(pos_, "trailing bytes after the document (" + std::to_string(left()) + ")");
  }

 protected:
  const uint8_t* p_;
  size_t len_;
  size_t pos_ = 0;
};

double f32(uint32_t bits) {
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
double f64(uint64_t bits) {
  double d;
  memcpy(&d, &bits, 8);
  return d;
}
// IEEE 754 binary16 (RFC 8949, appendix D).
double f16(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v;
  if (e == 0)
    v = std::ldexp(m, -24);
  else if (e != 31)
    v = std::ldexp(m + 1024, e - 25);
  else
    v = m == 0 ? INFINITY : NAN;
  return h & 0x8000 ? -v : v;
}

// --- JSON (RFC 8259) ------------------------------------------------------------------------------
// Numbers follow the Python codec: an integer literal (no fraction, no exponent) is an integer and
// must fit int64 or uint64 ("-0" is the integer 0); any other number is a double, correctly rounded
// by strtod (C locale: the harness never calls setlocale), and must be finite (1e400 is rejected;
// an underflow to 0 or a subnormal is kept, as Python keeps it).

// Reads the JSON number that starts at s[pos] (s holds n bytes; `base` is s's offset in the input,
// for the messages) into b, and returns the offset just after it. UBJSON's high-precision numbers
// (H) are JSON numbers too, and are read by the same rules.
size_t json_number(const uint8_t* s, size_t n, size_t pos, size_t base, Builder& b) {
  const size_t start = pos;
  const auto digit = [&](size_t i) { return i < n && s[i] >= '0' && s[i] <= '9'; };
  const bool neg = pos < n && s[pos] == '-';
  if (neg) pos++;
  const size_t digits = pos;
  if (pos >= n) fail(base + pos, "truncated: expected a digit");
  if (s[pos] == '0') {
    pos++;  // a leading zero stands alone: "01" fails at the '1' (expected ',' ..., or not a number)
  } else if (digit(pos)) {
    while (digit(pos)) pos++;
  } else {
    const uint8_t c = s[pos];
    fail(base + pos, "expected a digit, found " +
                         (c >= 0x20 && c < 0x7f ? std::string("'") + static_cast<char>(c) + "'" : "byte " + hex_byte(c)));
  }
  const size_t int_end = pos;
  bool is_float = false;
  if (pos < n && s[pos] == '.') {
    pos++;
    if (!digit(pos)) fail(base + pos, "expected a digit after '.'");
    while (digit(pos)) pos++;
    is_float = true;
  }
  if (pos < n && (s[pos] == 'e' || s[pos] == 'E')) {
    pos++;
    if (pos < n && (s[pos] == '+' || s[pos] == '-')) pos++;
    if (!digit(pos)) fail(base + pos, "expected a digit in the exponent");
    while (digit(pos)) pos++;
    is_float = true;
  }
  const std::string text(reinterpret_cast<const char*>(s + start), pos - start);
  if (!is_float) {
    uint64_t mag = 0;
    bool over = false;
    for (size_t i = digits; i < int_end; i++) {
      const uint64_t d = s[i] - '0';
      if (mag > (UINT64_MAX - d) / 10) over = true;
      mag = mag * 10 + d;
    }
    if (!neg && !over) {
      b.uint(mag);
      return pos;
    }
    if (neg && !over && mag <= (uint64_t(1) << 63)) {
      b.sint(static_cast<int64_t>(0 - mag));
      return pos;
    }
    fail(base + start, "integer " + text.substr(0, 40) + " does not fit int64 or uint64");
  }
  const double v = strtod(text.c_str(), nullptr);
  if (std::isinf(v))
    fail(base + start, "number " + text.substr(0, 40) + " overflows a double (infinity is outside the data model)");
  b.dbl(v, base + start);
  return pos;
}

class JsonReader : Input {
 public:
  JsonReader(const char* d, size_t n, Builder& b) : Input(d, n), b_(b) {}

  void run() {
    if (len_ >= 3 && memcmp(p_, "\xef\xbb\xbf", 3) == 0)
      fail(0, "starts with a UTF-8 byte order mark, which is not part of JSON text (RFC 8259 section 8.1)");
    ws();
    if (at_end()) fail(pos_, "empty input: no JSON value");
    if (p_[pos_] != '{') fail(pos_, "the root must be a map (data model), not " + what(p_[pos_]));
    enum { kValue, kKey, kAfter } state = kValue;
    for (;;) {
      if (state == kValue) {
        ws();
        const uint8_t c = peek("a value");
        if (c == '{' || c == '[') {
          pos_++;
          const bool is_map = c == '{';
          b_.open(is_map ? T::Map : T::Array);
          st_.push_back(Frame{is_map, 0});
          ws();
          if (peek(is_map ? "a key or '}'" : "a value or ']'") == (is_map ? '}' : ']')) {
            pos_++;
            close();
            state = kAfter;
          } else {
            state = is_map ? kKey : kValue;
          }
          continue;
        }
        if (c == '"')
          string();
        else if (c == 't')
          literal("true"), b_.boolean(true);
        else if (c == 'f')
          literal("false"), b_.boolean(false);
        else if (c == 'n')
          literal("null"), b_.null();
        else if (c == '-' || (c >= '0' && c <= '9'))
          number();
        else
          fail(pos_, "expected a value, found " + what(c));
        state = kAfter;
        continue;
      }
      if (state == kKey) {
        ws();
        if (peek("a key") != '"') fail(pos_, "expected a string key, found " + what(p_[pos_]));
        string();
        ws();
        if (peek("':'") != ':') fail(pos_, "expected ':' after a key, found " + what(p_[pos_]));
        pos_++;
        state = kValue;
        continue;
      }
      // kAfter: a value is complete.
      if (st_.empty()) {
        ws();
        expect_end();
        return;
      }
      Frame& f = st_.back();
      f.count++;
      ws();
      const uint8_t c = peek(f.is_map ? "',' or '}'" : "',' or ']'");
      if (c == ',') {
        pos_++;
        state = f.is_map ? kKey : kValue;  // a ']' or '}' next is a trailing comma: rejected there
      } else if (c == (f.is_map ? '}' : ']')) {
        pos_++;
        close();
      } else {
        fail(pos_, std::string("expected ',' or '") + (f.is_map ? '}' : ']') + "', found " + what(c));
      }
    }
  }

 private:
  struct Frame {
    bool is_map;
    uint64_t count;
  };

  static std::string what(uint8_t c) {
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    return "byte " + hex_byte(c);
  }
  void ws() {
    while (pos_ < len_ && (p_[pos_] == ' ' || p_[pos_] == '\t' || p_[pos_] == '\n' || p_[pos_] == '\r')) pos_++;
  }
  uint8_t peek(const char* expected) {
    if (pos_ >= len_) fail(pos_, std::string("truncated: expected ") + expected);
    return p_[pos_];
  }
  void close() {
    b_.close(st_.back().count, pos_);
    st_.pop_back();
  }
  void literal(const char* word) {
    const size_t n = strlen(word);
    if (left() < n || memcmp(p_ + pos_, word, n) != 0) {
      if (left() < n && memcmp(p_ + pos_, word, left()) == 0) fail(pos_, std::string("truncated: expected ") + word);
      fail(pos_, std::string("invalid literal (expected ") + word + ")");
    }
    pos_ += n;
  }

  uint32_t hex4() {
    const uint8_t* s = take(4, "a \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
      const uint8_t c = s[i];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) fail(pos_ - 4 + i, "invalid hex digit in a \\u escape");
      v = v << 4 | static_cast<uint32_t>(d);
    }
    return v;
  }

  static void put_utf8(std::string& o, uint32_t cp) {
    if (cp < 0x80) {
      o += static_cast<char>(cp);
    } else if (cp < 0x800) {
      o += static_cast<char>(0xc0 | cp >> 6);
      o += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      o += static_cast<char>(0xe0 | cp >> 12);
      o += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      o += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      o += static_cast<char>(0xf0 | cp >> 18);
      o += static_cast<char>(0x80 | (cp >> 12 & 0x3f));
      o += static_cast<char>(0x80 | (cp >> 6 & 0x3f));
      o += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  void string() {
    const size_t at = pos_++;
    std::string& out = b_.pool();
    const size_t off = out.size();
    for (;;) {
      const size_t s = pos_;
      while (pos_ < len_ && p_[pos_] != '"' && p_[pos_] != '\\' && p_[pos_] >= 0x20) pos_++;
      out.append(reinterpret_cast<const char*>(p_ + s), pos_ - s);
      if (pos_ >= len_) fail(at, "truncated: string not closed");
      const uint8_t c = p_[pos_];
      if (c == '"') {
        pos_++;
        break;
      }
      if (c < 0x20) fail(pos_, "control character " + hex_byte(c) + " in a string must be escaped (RFC 8259)");
      pos_++;  // the backslash
      const uint8_t e = byte("an escape");
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const size_t esc = pos_ - 2;
          uint32_t cp = hex4();
          if (cp >= 0xdc00 && cp <= 0xdfff)
            fail(esc, "lone low surrogate in a \\u escape (not a Unicode scalar value)");
          if (cp >= 0xd800 && cp <= 0xdbff) {
            if (left() < 2 || p_[pos_] != '\\' || p_[pos_ + 1] != 'u')
              fail(esc, "lone high surrogate in a \\u escape (not a Unicode scalar value)");
            pos_ += 2;
            const uint32_t lo = hex4();
            if (lo < 0xdc00 || lo > 0xdfff) fail(esc, "high surrogate not followed by a low surrogate in \\u escapes");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          }
          put_utf8(out, cp);
          break;
        }
        default: fail(pos_ - 1, "invalid escape \\" + what(e));
      }
    }
    b_.finish_bytes(T::Str, off, at);
  }

  void number() { pos_ = json_number(p_, len_, pos_, 0, b_); }

  Builder& b_;
  std::vector<Frame> st_;
};

// --- MessagePack ----------------------------------------------------------------------------------
// float32 is read and widened (it is a float64 value); str must be UTF-8; bin is binary; ext and the
// never-used byte 0xc1 are rejected.
class MsgpackReader : Input {
 public:
  MsgpackReader(const char* d, size_t n, Builder& b) : Input(d, n), b_(b) {}

  void run() {
    if (at_end()) fail(0, "empty input");
    const uint8_t r = p_[0];
    if (!((r >= 0x80 && r <= 0x8f) || r == 0xde || r == 0xdf)) fail(0, "the root must be a map (data model)");
    for (;;) {
      const size_t at = pos_;
      const uint8_t c = byte("a value");
      if (!st_.empty() && st_.back().key_next && !((c >= 0xa0 && c <= 0xbf) || (c >= 0xd9 && c <= 0xdb)))
        fail(at, "map key is not a string (marker " + hex_byte(c) + ")");
      if (c <= 0x7f) {
        b_.uint(c);
      } else if (c <= 0x8f) {
        if (open(true, c & 0x0f, at)) continue;
      } else if (c <= 0x9f) {
        if (open(false, c & 0x0f, at)) continue;
      } else if (c <= 0xbf) {
        str(T::Str, c & 0x1f, at);
      } else if (c >= 0xe0) {
        b_.sint(static_cast<int8_t>(c));
      } else {
        switch (c) {
          case 0xc0: b_.null(); break;
          case 0xc2: b_.boolean(false); break;
          case 0xc3: b_.boolean(true); break;
          case 0xc4: str(T::Bin, be(1, "a bin8 length"), at); break;
          case 0xc5: str(T::Bin, be(2, "a bin16 length"), at); break;
          case 0xc6: str(T::Bin, be(4, "a bin32 length"), at); break;
          case 0xca: b_.dbl(f32(static_cast<uint32_t>(be(4, "a float32"))), at); break;
          case 0xcb: b_.dbl(f64(be(8, "a float64")), at); break;
          case 0xcc: b_.uint(be(1, "a uint8")); break;
          case 0xcd: b_.uint(be(2, "a uint16")); break;
          case 0xce: b_.uint(be(4, "a uint32")); break;
          case 0xcf: b_.uint(be(8, "a uint64")); break;
          case 0xd0: b_.sint(static_cast<int8_t>(be(1, "an int8"))); break;
          case 0xd1: b_.sint(static_cast<int16_t>(be(2, "an int16"))); break;
          case 0xd2: b_.sint(static_cast<int32_t>(be(4, "an int32"))); break;
          case 0xd3: b_.sint(static_cast<int64_t>(be(8, "an int64"))); break;
          case 0xd9: str(T::Str, be(1, "a str8 length"), at); break;
          case 0xda: str(T::Str, be(2, "a str16 length"), at); break;
          case 0xdb: str(T::Str, be(4, "a str32 length"), at); break;
          case 0xdc:
            if (open(false, be(2, "an array16 count"), at)) continue;
            break;
          case 0xdd:
            if (open(false, be(4, "an array32 count"), at)) continue;
            break;
          case 0xde:
            if (open(true, be(2, "a map16 count"), at)) continue;
            break;
          case 0xdf:
            if (open(true, be(4, "a map32 count"), at)) continue;
            break;
          case 0xc1: fail(at, "byte 0xc1 is never used in MessagePack");
          default: fail(at, "MessagePack ext (marker " + hex_byte(c) + ") is outside the data model");
        }
      }
      // A value is complete (a key counts as an item of its map).
      while (!st_.empty()) {
        Frame& f = st_.back();
        if (f.is_map) f.key_next = !f.key_next;
        if (--f.left > 0) break;
        b_.close(f.count, pos_);
        st_.pop_back();
      }
      if (st_.empty()) break;
    }
    expect_end();
  }

 private:
  struct Frame {
    uint64_t left, count;  // items still to come (a map counts keys and values); declared count
    bool is_map, key_next;
  };

  void str(T t, uint64_t n, size_t at) {
    const uint8_t* s = take(n, t == T::Str ? "a string" : "a binary value");
    b_.bytes(t, s, n, at);
  }
  // true when a non-empty container was opened (its children come next).
  bool open(bool is_map, uint64_t n, size_t at) {
    const uint64_t items = is_map ? 2 * n : n;  // n < 2^32: no overflow
    if (items > left())                         // every item takes at least one byte
      fail(at, (is_map ? "map of " : "array of ") + std::to_string(n) + " entries cannot fit in the " +
                   std::to_string(left()) + " bytes left");
    b_.open(is_map ? T::Map : T::Array);
    if (n == 0) {
      b_.close(0, pos_);
      return false;
    }
    st_.push_back(Frame{items, n, is_map, is_map});
    return true;
  }

  Builder& b_;
  std::vector<Frame> st_;
};

// --- CBOR (RFC 8949) ------------------------------------------------------------------------------
// Definite and indefinite lengths; half, single and double floats (widened); non-shortest integer
// encodings are accepted (they are well-formed). Each chunk of an indefinite text string must be
// valid UTF-8 on its own (RFC 8949 section 3.2.3). Tags, undefined and simple values are rejected.
class CborReader : Input {
 public:
  CborReader(const char* d, size_t n, Builder& b) : Input(d, n), b_(b) {}

  void run() {
    if (at_end()) fail(0, "empty input");
    if ((p_[0] >> 5) != 5) fail(0, "the root must be a map (data model)");
    for (;;) {
      const size_t at = pos_;
      const uint8_t ib = byte("a data item");
      if (ib == 0xff) {  // "break": ends the innermost indefinite-length container
        if (st_.empty() || !st_.back().indefinite) fail(at, "break (0xff) outside an indefinite-length container");
        if (st_.back().is_map && !st_.back().key_next) fail(at, "break (0xff) between a map key and its value");
        b_.close(st_.back().count, at);
        st_.pop_back();
      } else {
        const int major = ib >> 5, ai = ib & 31;
        if (!st_.empty() && st_.back().key_next && major != 3)
          fail(at, "map key is not a text string (major type " + std::to_string(major) + ")");
        uint64_t arg = 0;
        bool indef = false;
        if (ai < 24)
          arg = static_cast<uint64_t>(ai);
        else if (ai <= 27)
          arg = be(1 << (ai - 24), "an argument");
        else if (ai == 31 && major >= 2 && major <= 5)
          indef = true;
        else
          fail(at, "reserved or invalid additional information " + std::to_string(ai) + " for major type " +
                       std::to_string(major));
        switch (major) {
          case 0: b_.uint(arg); break;
          case 1:
            if (arg > static_cast<uint64_t>(INT64_MAX)) fail(at, "negative integer below INT64_MIN");
            b_.sint(-1 - static_cast<int64_t>(arg));
            break;
          case 2:
          case 3: {
            const T t = major == 3 ? T::Str : T::Bin;
            if (!indef) {
              b_.bytes(t, take(arg, major == 3 ? "a text string" : "a byte string"), arg, at);
              break;
            }
            std::string& pool = b_.pool();
            const size_t off = pool.size();
            for (;;) {
              const size_t cat = pos_;
              const uint8_t c = byte("a string chunk or break");
              if (c == 0xff) break;
              if ((c >> 5) != major || (c & 31) == 31)
                fail(cat, "a chunk of an indefinite-length string must be a definite string of the same type");
              const int cai = c & 31;
              if (cai >= 28) fail(cat, "reserved additional information in a string chunk");
              const uint64_t n = cai < 24 ? static_cast<uint64_t>(cai) : be(1 << (cai - 24), "a chunk length");
              const uint8_t* s = take(n, "a string chunk");
              if (t == T::Str) Builder::check_text(s, n, cat);
              pool.append(reinterpret_cast<const char*>(s), n);
            }
            b_.finish_bytes(t, off, at);
            break;
          }
          case 4:
          case 5:
            if (open(major == 5, arg, indef, at)) continue;
            break;
          case 6: fail(at, "CBOR tag " + std::to_string(arg) + " is outside the data model");
          default:  // 7
            switch (ai) {
              case 20: b_.boolean(false); break;
              case 21: b_.boolean(true); break;
              case 22: b_.null(); break;
              case 23: fail(at, "undefined is outside the data model");
              case 25: b_.dbl(f16(static_cast<uint16_t>(arg)), at); break;
              case 26: b_.dbl(f32(static_cast<uint32_t>(arg)), at); break;
              case 27: b_.dbl(f64(arg), at); break;
              default: fail(at, "simple value " + std::to_string(arg) + " is outside the data model");
            }
        }
      }
      // A value is complete (a key counts as an item of its map).
      while (!st_.empty()) {
        Frame& f = st_.back();
        if (f.is_map) {
          f.key_next = !f.key_next;
          if (f.key_next) f.count++;
        } else {
          f.count++;
        }
        if (f.indefinite || --f.left > 0) break;
        b_.close(f.count, pos_);
        st_.pop_back();
      }
      if (st_.empty()) break;
    }
    expect_end();
  }

 private:
  struct Frame {
    uint64_t left, count;  // items still to come (definite; a map counts keys and values); entries so far
    bool is_map, key_next, indefinite;
  };

  bool open(bool is_map, uint64_t n, bool indef, size_t at) {
    if (!indef && (is_map ? n > left() / 2 : n > left()))  // every item takes at least one byte
      fail(at, (is_map ? "map of " : "array of ") + std::to_string(n) + " entries cannot fit in the " +
                   std::to_string(left()) + " bytes left");
    b_.open(is_map ? T::Map : T::Array);
    if (!indef && n == 0) {
      b_.close(0, pos_);
      return false;
    }
    st_.push_back(Frame{is_map ? 2 * n : n, 0, is_map, is_map, indef});
    return true;
  }

  Builder& b_;
  std::vector<Frame> st_;
};

// --- BSON 1.1 -------------------------------------------------------------------------------------
// Every document's int32 length must be at least 5, fit in its parent (the root's must equal the
// input), and end on its 0x00 terminator, with the elements filling it exactly. Array keys must be
// "0", "1", ... in order. A binary value of any subtype is its bytes, except the old binary (0x02),
// whose bytes follow an int32 inner length that must be the binary's length minus 4; booleans are
// 0x00 or 0x01.
class BsonReader : Input {
 public:
  BsonReader(const char* d, size_t n, Builder& b) : Input(d, n), b_(b) {}

  void run() {
    if (len_ < 5) fail(0, "truncated: a BSON document takes at least 5 bytes, the input has " + std::to_string(len_));
    const int64_t n = static_cast<int32_t>(le(4, "a document length"));
    if (n < 5) fail(0, "document length " + std::to_string(n) + " (int32) is below the minimum of 5");
    if (static_cast<uint64_t>(n) > len_)
      fail(0, "document length " + std::to_string(n) + " exceeds the input's " + std::to_string(len_) + " bytes");
    if (static_cast<uint64_t>(n) < len_)
      fail(static_cast<size_t>(n), "trailing bytes after the document (" + std::to_string(len_ - n) + ")");
    if (p_[len_ - 1] != 0) fail(len_ - 1, "document does not end with its 0x00 terminator");
    b_.open(T::Map);
    st_.push_back(Frame{len_ - 1, 0, false});
    for (;;) {
      Frame& f = st_.back();
      if (pos_ == f.end) {  // the terminator (checked to be 0x00 when the document was opened)
        pos_++;
        b_.close(f.count, pos_ - 1);
        st_.pop_back();
        if (st_.empty()) break;
        st_.back().count++;
        continue;
      }
      const size_t at = pos_;
      const uint8_t type = p_[pos_++];
      if (type == 0)
        fail(at, "element list ends (0x00) at byte " + std::to_string(at) +
                     ", before the document's length says (byte " + std::to_string(f.end) + ")");
      // The key: a NUL-terminated UTF-8 string within this document.
      const uint8_t* k = p_ + pos_;
      const void* nul = memchr(k, 0, f.end - pos_);
      if (!nul) fail(pos_, "element key is not terminated within its document");
      const size_t klen = static_cast<const uint8_t*>(nul) - k;
      pos_ += klen + 1;
      if (f.is_array) {
        const std::string want = std::to_string(f.count);
        if (klen != want.size() || memcmp(k, want.data(), klen) != 0)
          fail(at + 1, "array element key \"" +
                           std::string(reinterpret_cast<const char*>(k), std::min<size_t>(klen, 20)) +
                           "\" is not its index " + want);
      } else {
        b_.bytes(T::Str, k, klen, at + 1);
      }
      const size_t room = f.end - pos_;  // bytes the value may take, up to the document's terminator
      switch (type) {
        case 0x01: {
          const size_t vat = pos_;
          b_.dbl(f64(le_in(8, room, "a double")), vat);
          break;
        }
        case 0x02: {
          const int64_t sl = static_cast<int32_t>(le_in(4, room, "a string length"));
          if (sl < 1 || static_cast<uint64_t>(sl) > room - 4)
            fail(pos_ - 4, "string length " + std::to_string(sl) + " does not fit its document (" +
                               std::to_string(room - 4) + " bytes left)");
          const uint8_t* s = take(sl, "a string");
          if (s[sl - 1] != 0) fail(pos_ - 1, "string is not terminated by 0x00 where its length says");
          b_.bytes(T::Str, s, sl - 1, s - p_);
          break;
        }
        case 0x03:
        case 0x04: {
          const int64_t dl = static_cast<int32_t>(le_in(4, room, "a document length"));
          const size_t start = pos_ - 4;
          if (dl < 5 || static_cast<uint64_t>(dl) > room)
            fail(start, "embedded document length " + std::to_string(dl) + " does not fit its parent (" +
                            std::to_string(room) + " bytes left)");
          const size_t end = start + dl - 1;
          if (p_[end] != 0) fail(end, "embedded document does not end with its 0x00 terminator");
          b_.open(type == 0x03 ? T::Map : T::Array);
          st_.push_back(Frame{end, 0, type == 0x04});
          continue;  // its elements come next
        }
        case 0x05: {
          const int64_t bl = static_cast<int32_t>(le_in(4, room, "a binary length"));
          const size_t after = room - 4;  // the subtype byte and the data must fit in it
          if (bl < 0 || after < 1 || static_cast<uint64_t>(bl) > after - 1)
            fail(pos_ - 4, "binary length " + std::to_string(bl) + " does not fit its document (" +
                               std::to_string(after) + " bytes left)");
          const uint8_t subtype = p_[pos_++];
          const size_t vat = pos_;
          const uint8_t* data = take(bl, "binary data");
          if (subtype == 0x02) {
            // The old binary subtype: an int32 inner length, the binary's length minus 4, then the
            // bytes, which are the value (bsonspec.org, "subtype 0x02"; spec/data-model.md).
            if (bl < 4)
              fail(vat, "binary subtype 0x02 of " + std::to_string(bl) + " bytes is too short for its int32 inner length");
            const int64_t inner = static_cast<int32_t>(data[0] | data[1] << 8 | data[2] << 16 | uint32_t(data[3]) << 24);
            if (inner != bl - 4)
              fail(vat, "binary subtype 0x02's inner length " + std::to_string(inner) + " is not its length minus 4 (" +
                            std::to_string(bl - 4) + ")");
            b_.bytes(T::Bin, data + 4, bl - 4, vat);
          } else {
            b_.bytes(T::Bin, data, bl, vat);  // every other subtype: its bytes
          }
          break;
        }
        case 0x08: {
          const uint8_t v = static_cast<uint8_t>(le_in(1, room, "a boolean"));
          if (v > 1) fail(pos_ - 1, "boolean byte " + hex_byte(v) + " is neither 0x00 nor 0x01");
          b_.boolean(v == 1);
          break;
        }
        case 0x0a: b_.null(); break;
        case 0x10: b_.sint(static_cast<int32_t>(le_in(4, room, "an int32"))); break;
        case 0x12: b_.sint(static_cast<int64_t>(le_in(8, room, "an int64"))); break;
        default: fail(at, "BSON element type " + hex_byte(type) + type_name(type) + " is outside the data model");
      }
      st_.back().count++;
    }
    expect_end();
  }

 private:
  struct Frame {
    size_t end;  // offset of this document's 0x00 terminator
    uint64_t count;
    bool is_array;
  };

  uint64_t le_in(int n, size_t room, const char* what) {
    if (static_cast<size_t>(n) > room)
      fail(pos_, std::string(what) + " needs " + std::to_string(n) + " bytes, its document has " +
                     std::to_string(room) + " left");
    return le(n, what);
  }
  static std::string type_name(uint8_t t) {
    switch (t) {
      case 0x06: return " (undefined)";
      case 0x07: return " (ObjectId)";
      case 0x09: return " (UTC datetime)";
      case 0x0b: return " (regular expression)";
      case 0x0c: return " (DBPointer)";
      case 0x0d: return " (JavaScript code)";
      case 0x0e: return " (symbol)";
      case 0x0f: return " (code with scope)";
      case 0x11: return " (timestamp)";
      case 0x13: return " (decimal128)";
      case 0x7f: return " (max key)";
      case 0xff: return " (min key)";
    }
    return "";
  }

  Builder& b_;
  std::vector<Frame> st_;
};

// --- UBJSON (Draft 12) ----------------------------------------------------------------------------
// Sized (#) and typed ($, always with #) containers, including types Z/T/F whose values take no
// bytes and [ { whose children's opening marker is implied. An array typed $U is an array of
// integers, as the UBJSON spec says (py-ubjson reads it as binary by its own convention, which the
// corpus never writes). N (no-op) is skipped inside a container wherever a value's marker or a key
// may start, and is never a child. C (char) must be ASCII. H (high-precision number) is read as the
// JSON number its string holds (json_number): an integer that fits, or a finite double.
class UbjsonReader : Input {
 public:
  UbjsonReader(const char* d, size_t n, Builder& b) : Input(d, n), b_(b) {}

  void run() {
    if (at_end()) fail(0, "empty input");
    if (p_[0] != '{') fail(0, "the root must be a map (data model)");
    for (;;) {
      bool closed = false;  // a container ended by its marker: that is the value that completes
      if (!st_.empty() && st_.back().is_map && st_.back().key_next) {
        Frame& f = st_.back();
        while (!at_end() && p_[pos_] == 'N') pos_++;  // no-ops where a key may start are skipped too
        if (!f.sized && byte("a key or '}'") == '}') {
          b_.close(f.count, pos_ - 1);
          st_.pop_back();
          closed = true;
        } else {
          if (!f.sized) pos_--;
          const size_t at = pos_;
          const uint64_t n = length("a key length");
          b_.bytes(T::Str, take(n, "a key"), n, at);
          f.key_next = false;
          continue;
        }
      }
      if (!closed) {
        size_t at = pos_;
        uint8_t m;
        if (!st_.empty() && st_.back().type) {
          m = st_.back().type;  // typed container: the marker is implied
        } else {
          m = byte(st_.empty() ? "the root map" : "a value");
          while (m == 'N' && !st_.empty()) at = pos_, m = byte("a value");  // no-ops between values
          if (!st_.empty() && !st_.back().sized && (m == ']' || m == '}')) {
            if (m == '}' || st_.back().is_map)
              fail(at, std::string("'") + static_cast<char>(m) + "' does not close the " +
                           (st_.back().is_map ? "map (a value is expected)" : "array"));
            b_.close(st_.back().count, at);
            st_.pop_back();
            closed = true;
          }
        }
        if (!closed) {
          if (value(m, at)) continue;  // a non-empty container was opened
        }
      }
      // A value is complete.
      while (!st_.empty()) {
        Frame& f = st_.back();
        f.count++;
        if (f.is_map) f.key_next = true;
        if (!f.sized || --f.left > 0) break;
        b_.close(f.count, pos_);
        st_.pop_back();
      }
      if (st_.empty()) break;
    }
    expect_end();
  }

 private:
  struct Frame {
    uint64_t left, count;  // values still to come (sized); values so far
    bool is_map, key_next, sized;
    uint8_t type;  // strong type ($), or 0
  };

  static bool is_int(uint8_t m) { return m == 'i' || m == 'U' || m == 'I' || m == 'l' || m == 'L'; }
  int64_t integer(uint8_t m) {
    switch (m) {
      case 'i': return static_cast<int8_t>(be(1, "an int8"));
      case 'U': return static_cast<int64_t>(be(1, "a uint8"));
      case 'I': return static_cast<int16_t>(be(2, "an int16"));
      case 'l': return static_cast<int32_t>(be(4, "an int32"));
      default: return static_cast<int64_t>(be(8, "an int64"));
    }
  }
  uint64_t length(const char* what) {
    const size_t at = pos_;
    const uint8_t m = byte(what);
    if (!is_int(m)) fail(at, std::string(what) + " must be an integer (i, U, I, l or L), not marker " + hex_byte(m));
    const int64_t v = integer(m);
    if (v < 0) fail(at, std::string(what) + " is negative (" + std::to_string(v) + ")");
    return static_cast<uint64_t>(v);
  }
  // Fewest bytes a value of strong type t takes.
  static uint64_t min_bytes(uint8_t t) {
    switch (t) {
      case 'Z':
      case 'T':
      case 'F': return 0;
      case 'I': return 2;
      case 'l':
      case 'd': return 4;
      case 'L':
      case 'D': return 8;
      case 'S':
      case 'H': return 2;  // length marker and length
      default: return 1;   // i U C, and [ { (at least a closing marker or a # count)
    }
  }

  // Reads the value of marker m; true when it opened a non-empty container.
  bool value(uint8_t m, size_t at) {
    switch (m) {
      case 'Z': b_.null(); return false;
      case 'T': b_.boolean(true); return false;
      case 'F': b_.boolean(false); return false;
      case 'i':
      case 'I':
      case 'l':
      case 'L': b_.sint(integer(m)); return false;
      case 'U': b_.uint(be(1, "a uint8")); return false;
      case 'd': b_.dbl(f32(static_cast<uint32_t>(be(4, "a float32"))), at); return false;
      case 'D': b_.dbl(f64(be(8, "a float64")), at); return false;
      case 'C': {
        const uint8_t* c = take(1, "a char");
        if (*c > 0x7f) fail(at, "char (C) " + hex_byte(*c) + " is not ASCII");
        b_.bytes(T::Str, c, 1, at);
        return false;
      }
      case 'S': {
        const uint64_t n = length("a string length");
        b_.bytes(T::Str, take(n, "a string"), n, at);
        return false;
      }
      case 'H': {
        // A high-precision number: a string holding a JSON number, read by JSON's rules (json_number):
        // an integer that fits int64 or uint64, or a finite double; anything else is rejected.
        const uint64_t n = length("a high-precision number's length");
        const uint8_t* s = take(n, "a high-precision number");
        const size_t base = s - p_;
        if (n == 0) fail(base, "an empty high-precision number (H) is not a JSON number");
        const size_t end = json_number(s, n, 0, base, b_);
        if (end != n) fail(base + end, "a high-precision number (H) that is not a JSON number: bytes after the number");
        return false;
      }
      case '[':
      case '{': return open(m == '{', at);
      default: fail(at, "invalid marker " + hex_byte(m));
    }
  }

  bool open(bool is_map, size_t at) {
    uint8_t type = 0;
    bool sized = false;
    uint64_t n = 0;
    if (!at_end() && p_[pos_] == '$') {
      pos_++;
      const size_t tat = pos_;
      type = byte("a container type");
      if (!strchr("ZTFiUIlLdDCSH[{", type) || type == 0) fail(tat, "invalid container type " + hex_byte(type));
      if (at_end() || p_[pos_] != '#') fail(pos_, "a container type ($) must be followed by a count (#)");
    }
    if (!at_end() && p_[pos_] == '#') {
      pos_++;
      n = length("a container count");
      sized = true;
      // Every value (a map entry also has its key: 2 bytes at least) must fit in the bytes left;
      // typed values that take no byte are counted against a document-wide limit instead.
      const uint64_t per = (type ? min_bytes(type) : 1) + (is_map ? 2 : 0);
      if (per == 0) {
        implied_ += n;
        if (n > kMaxImpliedValues || implied_ > kMaxImpliedValues)
          fail(at, "more than " + std::to_string(kMaxImpliedValues) +
                       " values without a payload ($Z, $T, $F) is beyond the harness's limit");
      } else if (n > left() / per) {
        fail(at, std::string(is_map ? "map" : "array") + " count " + std::to_string(n) + " cannot fit in the " +
                     std::to_string(left()) + " bytes left");
      }
    }
    b_.open(is_map ? T::Map : T::Array);
    if (sized && n == 0) {
      b_.close(0, pos_);
      return false;
    }
    st_.push_back(Frame{n, 0, is_map, is_map, sized, type});
    return true;
  }

  Builder& b_;
  std::vector<Frame> st_;
  uint64_t implied_ = 0;
};

}  // namespace

bool ref_decode(const std::string& fmt, const char* data, size_t len, Doc& out, std::string& err) {
  out.nodes.clear();
  out.bytes.clear();
  out.max_depth = 0;
  Builder b(out);
  try {
    if (fmt == "json" || fmt == "json-pretty")
      JsonReader(data, len, b).run();
    else if (fmt == "msgpack")
      MsgpackReader(data, len, b).run();
    else if (fmt == "cbor")
      CborReader(data, len, b).run();
    else if (fmt == "bson")
      BsonReader(data, len, b).run();
    else if (fmt == "ubjson" || fmt == "ubjson-plain")
      UbjsonReader(data, len, b).run();
    else {
      err = "reference decoder: unknown format " + fmt;
      return false;
    }
  } catch (const Reject& r) {
    err = "reference decoder: invalid " + fmt + ": " + r.msg + " (byte " + std::to_string(r.at) + ")";
    out = Doc{};
    return false;
  } catch (const std::bad_alloc&) {
    err = "reference decoder: out of memory decoding " + std::to_string(len) + " bytes of " + fmt;
    out = Doc{};
    return false;
  }
  return true;
}

namespace {
inline uint64_t empty_container(const Node& x) { return x.type == T::Map ? sb_map_end(0, 0) : sb_array_end(0, 0); }
}  // namespace

uint64_t leaf_hash_slow(const Node& x, const char* pool) {
  const uint8_t t = static_cast<uint8_t>(x.type);
  if (t <= static_cast<uint8_t>(T::Double)) return sb_scalar(kLeafSeed[t], x.u);
  return sb_hash_bytes(kLeafSeed[t], pool + x.off, x.count);
}

// The flat pre-order walk: the current container's frame lives in locals, and arrays and maps each
// have their own loop, so the only per-node decisions are the node's type and whether its container
// is finished. A map's loop takes its entries as (key, value) node pairs, since a key is always the
// Str node just before its value. Parents wait on `st`, reused across calls.
uint64_t hash_doc(const Doc& d, std::vector<HashFrame>& st) {
  const Node* x = d.nodes.data();
  const char* const pool = d.bytes.data();
  if (d.nodes.empty()) return 0;  // not a document; the reference decoder never returns one
  if (is_leaf(*x)) return leaf_hash(*x, pool);
  if (x->count == 0) return empty_container(*x);
  st.clear();
  if (st.capacity() < d.max_depth) st.reserve(d.max_depth);
  HashFrame f;
  uint64_t h;
open:  // x is a non-empty container: its frame becomes the current one
  f = HashFrame{0, x->count, 0, 0, x->type == T::Map};
  x++;
  if (f.is_map) goto map_loop;
array_loop:
  while (f.i < f.n) {
    if (is_leaf(*x)) {
      h = leaf_hash(*x, pool);
    } else if (x->count != 0) {
      st.push_back(f);
      goto open;
    } else {
      h = empty_container(*x);
    }
    x++;
    f.acc = sb_array_add(f.acc, f.i++, h);
  }
  h = sb_array_end(f.acc, f.n);
  goto close;
map_loop:
  while (f.i < f.n) {
    f.key = sb_hash_str(pool + x->off, x->count);
    x++;
    if (is_leaf(*x)) {
      h = leaf_hash(*x, pool);
    } else if (x->count != 0) {
      st.push_back(f);
      goto open;
    } else {
      h = empty_container(*x);
    }
    x++;
    f.acc += sb_map_entry(f.key, h);
    f.i++;
  }
  h = sb_map_end(f.acc, f.n);
close:  // h is the finished container's hash: add it to its parent
  if (st.empty()) return h;
  f = st.back();
  st.pop_back();
  f.i++;
  if (f.is_map) {
    f.acc += sb_map_entry(f.key, h);
    goto map_loop;
  }
  f.acc = sb_array_add(f.acc, f.i - 1, h);
  goto array_loop;
}

// Pre-order over the node array: a map's entries are (key, value) node pairs; the open container's
// count of values still to come is a local, its parents wait on `st`. The root is the value of a
// pseudo-container of one value, which has no close.
void hash_doc_events(const Doc& d, sb_hasher* h, std::vector<EventFrame>& st) {
  const Node* x = d.nodes.data();
  const char* const pool = d.bytes.data();
  st.clear();
  if (st.capacity() < d.max_depth) st.reserve(d.max_depth);
  EventFrame f{d.nodes.empty() ? 0u : 1u, false};
  for (;;) {
    while (f.left == 0) {
      if (st.empty()) return;
      sb_hasher_close(h);
      f = st.back();
      st.pop_back();
    }
    f.left--;
    if (f.is_map) {
      sb_hasher_key(h, pool + x->off, x->count);
      x++;
    }
    if (is_leaf(*x)) {
      sb_hasher_emit(h, leaf_hash(*x, pool));
    } else {
      sb_hasher_open(h, x->type == T::Map);
      st.push_back(f);
      f = EventFrame{x->count, x->type == T::Map};
    }
    x++;
  }
}

}  // namespace sb
