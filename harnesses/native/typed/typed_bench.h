// The interface a typed bench implements (spec/typed.md: typed-encode, typed-decode, typed-access).
//
// A typed bench is one source file (typed/<lib>.cpp), registered with one line in typed/typed.cmake
// (or typed/codegen.cmake for rows with generated code):
//
//   sb_typed_bench(<id> <source under harnesses/native> FORMATS <wire format id>...
//                  [PKG <debian -dev package>] [VERSION <v>] [VARIANT <n>] [LIBS ...] [SHARED <.so>...]
//                  [LINK <how it is linked>] [DEFS ...] [SOURCES <extra sources, e.g. generated>...]
//                  [INCLUDES <include dirs>...] [DEPENDS <targets, e.g. a codegen step>...])
//
// which builds bench-<id> from the source plus the harness (sb::main and the typed dispatch of
// typed/typed_main.cpp) and adds the row to benches.tsv, and its formats to the typed baselines'.
// The source defines, in namespace sb, exactly two functions:
//
//   const BenchInfo& bench_info();
//       id, library, version (SB_VERSION), notes; `tests` among typed-encode, typed-decode,
//       typed-access; `formats` the wire format ids (spec/typed.md's list).
//   std::unique_ptr<typed::Codec> typed::make_codec(const std::string& test, const std::string& fmt,
//                                                   const typed::Records& records, std::string& err);
//       the codec of one cell, prepared outside the timed loop (a library with its own generated
//       types may build them here from the records, for typed-encode). `records` outlive the codec:
//       it may keep a reference to them. nullptr with `err` set when
//       the library cannot carry these records (the cell fails with that reason, exit 3): a bench
//       supports every dataset unless make_codec refuses it (see `refuse` below).
//
// The harness owns everything else: loading the records (outside the loop), the check, the fresh
// 16-byte aligned copy per decode, the baselines, --alloc, --latency and --output-file. The checks:
// typed-encode's output is read back by the same codec (with decode when the row lists typed-decode,
// else with access) and its typed hash compared with the dataset's; typed-decode and typed-access
// read the codec's own encode() output (made once, outside the loop); --latency checks that every
// record's encode_one output comes back through decode_one with that record's thash. The codec of a
// cell is made once, so encode() is called both outside the loop and in it.
//
// sb_typed_bench adds to SB_MANIFEST with PARENT_SCOPE: call it at the top level of a CMake file
// (typed.cmake, or codegen.cmake which typed.cmake includes), not from inside another function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "records.h"
#include "sb.h"

namespace sb::typed {

class Codec {
 public:
  virtual ~Codec() = default;

  // typed-encode (and, outside the loop, the encoding typed-decode and typed-access read): encode all
  // the records given to make_codec in the cell's wire format. `out` stays valid until the next call
  // or the codec's destruction.
  virtual bool encode(const uint8_t*& out, size_t& len, std::string& err) {
    (void)out, (void)len;
    err = "typed-encode not implemented";
    return false;
  }

  // typed-decode: decode `data` (the library's own encoding, a fresh copy in a 16-byte aligned
  // writable buffer with kPadding zero bytes after its `len` bytes) into native records or the
  // library's generated types, and return their typed hash as a whole document
  // (hash_document / document_hash). false + err when the library fails.
  virtual bool decode(uint8_t* data, size_t len, uint64_t& hash, std::string& err) {
    (void)data, (void)len, (void)hash;
    err = "typed-decode not implemented";
    return false;
  }

  // typed-access (zero-copy formats): open the library's view of `data` (as for decode) without
  // deserialising, read every field of every record through it and return the document's typed hash.
  virtual bool access(uint8_t* data, size_t len, uint64_t& hash, std::string& err) {
    (void)data, (void)len, (void)hash;
    err = "typed-access not implemented";
    return false;
  }

  // --latency (trade): encode record `i` alone; `out` as for encode.
  virtual bool encode_one(size_t i, const uint8_t*& out, size_t& len, std::string& err) {
    (void)i, (void)out, (void)len;
    err = "one-record encode not implemented";
    return false;
  }

  // --latency: decode one record's own encoding (made by encode_one, copied as for decode) and return
  // the typed hash of that record alone (thash(record)), not a document.
  virtual bool decode_one(uint8_t* data, size_t len, uint64_t& hash, std::string& err) {
    (void)data, (void)len, (void)hash;
    err = "one-record decode not implemented";
    return false;
  }
};

// Implemented by each typed bench (see above).
std::unique_ptr<Codec> make_codec(const std::string& test, const std::string& fmt, const Records& records,
                                  std::string& err);

// For make_codec: a codec template over the record type, made for the dataset's schema:
// make_for<C>(records, args...) is C<Product>(records.product, args...), C<Trade>(...) or C<Nested>(...).
template <template <class> class C, class... A>
std::unique_ptr<Codec> make_for(const Records& r, A&&... args) {
  switch (r.schema) {
    case Schema::Product: return std::make_unique<C<Product>>(r.product, args...);
    case Schema::Trade: return std::make_unique<C<Trade>>(r.trade, args...);
    default: return std::make_unique<C<Nested>>(r.nested, args...);
  }
}

// For make_codec: refuse a dataset with the library's reason (returns nullptr).
inline std::unique_ptr<Codec> refuse(std::string& err, const std::string& reason) {
  err = reason;
  return nullptr;
}

}  // namespace sb::typed
