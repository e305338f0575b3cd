/* The serbench object hash, spec/hash.md version 1, for C and C++.
 *
 * Header-only and static inline so that every benchmark's hashing inlines into its own loop: the
 * hash is part of what the timed loop does (and of the baseline that is subtracted), so it must cost
 * the same few ns per value everywhere. */
#ifndef SERBENCH_OBJHASH_H
#define SERBENCH_OBJHASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  SB_NULL = 1,
  SB_BOOL = 2,
  SB_UINT = 3,
  SB_NEGINT = 4,
  SB_FLOAT = 5,
  SB_STRING = 6,
  SB_BINARY = 7,
  SB_ARRAY = 8,
  SB_MAP = 9,
  SB_ENTRY = 10
};

static inline uint64_t sb_step(uint64_t a, uint64_t x) {
  uint64_t z = a * 0x9E3779B97F4A7C15ULL + x;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static inline uint64_t sb_hash_bytes(uint64_t tag, const void *data, size_t n) {
  const unsigned char *b = (const unsigned char *)data;
  uint64_t a = sb_step(tag, n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8); /* little-endian hosts only (x86-64, aarch64) */
    a = sb_step(a, w);
  }
  if (i < n) {
    uint64_t w = 0;
    memcpy(&w, b + i, n - i); /* bytes past n count as 0 */
    a = sb_step(a, w);
  }
  return a;
}

static inline uint64_t sb_hash_null(void) { return sb_step(SB_NULL, 0); }
static inline uint64_t sb_hash_bool(int v) { return sb_step(SB_BOOL, v ? 1 : 0); }
static inline uint64_t sb_hash_uint(uint64_t v) { return sb_step(SB_UINT, v); }
static inline uint64_t sb_hash_int(int64_t v) {
  return v >= 0 ? sb_step(SB_UINT, (uint64_t)v) : sb_step(SB_NEGINT, (uint64_t)v);
}
static inline uint64_t sb_hash_double(double d) {
  uint64_t bits;
  memcpy(&bits, &d, 8);
  return sb_step(SB_FLOAT, bits);
}
static inline uint64_t sb_hash_str(const void *s, size_t n) { return sb_hash_bytes(SB_STRING, s, n); }
static inline uint64_t sb_hash_bin(const void *s, size_t n) { return sb_hash_bytes(SB_BINARY, s, n); }

/* Tree form: arrays fold in order, maps sum their entries (order-independent). */
static inline uint64_t sb_array_start(void) { return SB_ARRAY; }
static inline uint64_t sb_array_add(uint64_t acc, uint64_t h) { return sb_step(acc, h); }
static inline uint64_t sb_array_end(uint64_t acc, uint64_t n) { return sb_step(acc, n); }
static inline uint64_t sb_map_entry(uint64_t key_hash, uint64_t value_hash) {
  return sb_step(sb_step(SB_ENTRY, key_hash), value_hash);
}
static inline uint64_t sb_map_end(uint64_t sum, uint64_t n) { return sb_step(sb_step(SB_MAP, sum), n); }

/* Streaming form (spec/hash.md "Streaming form") for SAX/pull parsers and for the iterative walks
 * over library trees: a stack of frames that grows on demand (realloc, doubling) and is kept across
 * documents, so nesting depth is bounded only by memory, never by the harness (spec/protocol.md:
 * the harness's own code never limits or overflows on its input), and a hasher reused across the
 * iterations of a timed loop allocates only while it first grows.
 *
 * A hasher must start zeroed (`sb_hasher h = SB_HASHER_ZERO;`, or sb::Hasher in C++), then
 * sb_hasher_init before each document; sb_hasher_free releases the stack. */
typedef struct {
  uint64_t acc, n, key;
  int is_map;
} sb_frame;

typedef struct {
  sb_frame *stack; /* cap frames, of which depth are open */
  size_t cap;
  size_t depth;
  int has_result; /* a root value has been closed */
  int error;      /* SB_HASHER_UNBALANCED or SB_HASHER_NOMEM */
  uint64_t result;
} sb_hasher;

enum { SB_HASHER_UNBALANCED = 1, SB_HASHER_NOMEM = 2 };
#define SB_HASHER_ZERO \
  { NULL, 0, 0, 0, 0, 0 }

static inline void sb_hasher_init(sb_hasher *h) {
  h->depth = 0;
  h->has_result = 0;
  h->error = 0;
  h->result = 0;
}

static inline void sb_hasher_free(sb_hasher *h) {
  free(h->stack);
  h->stack = NULL;
  h->cap = h->depth = 0;
}

/* Cold path of sb_hasher_open, out of line so the hot path stays small. */
#if defined(__GNUC__)
#define SB_COLD __attribute__((noinline, cold))
#else
#define SB_COLD
#endif
SB_COLD static inline int sb_hasher_grow(sb_hasher *h) {
  if (h->cap > SIZE_MAX / 2 / sizeof(sb_frame)) {
    h->error = SB_HASHER_NOMEM;
    return 0;
  }
  const size_t cap = h->cap ? 2 * h->cap : 64;
  sb_frame *s = (sb_frame *)realloc(h->stack, cap * sizeof(sb_frame));
  if (!s) {
    h->error = SB_HASHER_NOMEM;
    return 0;
  }
  h->stack = s;
  h->cap = cap;
  return 1;
}

static inline void sb_hasher_emit(sb_hasher *h, uint64_t v) {
  if (h->depth == 0) {
    if (h->has_result) h->error = SB_HASHER_UNBALANCED;
    h->result = v;
    h->has_result = 1;
    return;
  }
  sb_frame *f = &h->stack[h->depth - 1];
  if (f->is_map)
    f->acc += sb_map_entry(f->key, v);
  else
    f->acc = sb_step(f->acc, v);
  f->n++;
}

static inline void sb_hasher_open(sb_hasher *h, int is_map) {
  if (h->depth == h->cap && !sb_hasher_grow(h)) return;
  sb_frame *f = &h->stack[h->depth++];
  f->acc = is_map ? 0 : SB_ARRAY;
  f->n = 0;
  f->key = 0;
  f->is_map = is_map;
}

static inline void sb_hasher_key(sb_hasher *h, const void *k, size_t n) {
  if (h->depth > 0) h->stack[h->depth - 1].key = sb_hash_str(k, n);
}

/* The key's hash, for walks that already have it. */
static inline void sb_hasher_key_hash(sb_hasher *h, uint64_t kh) {
  if (h->depth > 0) h->stack[h->depth - 1].key = kh;
}

static inline void sb_hasher_close(sb_hasher *h) {
  if (h->depth == 0) {
    h->error = SB_HASHER_UNBALANCED;
    return;
  }
  sb_frame *f = &h->stack[--h->depth];
  sb_hasher_emit(h, f->is_map ? sb_map_end(f->acc, f->n) : sb_array_end(f->acc, f->n));
}

/* Why the events did not give one value (for error messages). */
static inline const char *sb_hasher_error(const sb_hasher *h) {
  if (h->error == SB_HASHER_NOMEM) return "out of memory for the hasher's stack";
  return "unbalanced events";
}

/* 1 and the root hash in *out when the events formed exactly one complete value. */
static inline int sb_hasher_done(const sb_hasher *h, uint64_t *out) {
  if (h->error || h->depth != 0 || !h->has_result) return 0;
  *out = h->result;
  return 1;
}

#ifdef __cplusplus
}
#endif
#endif
