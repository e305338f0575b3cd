/* The serbench object hash, spec/hash.md version 1, for C and C++.
 *
 * Header-only and static inline so that every benchmark's hashing inlines into its own loop: the
 * hash is part of what the timed loop does (and of the baseline that is subtracted), so it must cost
 * the same few ns per value everywhere. */
#ifndef SERBENCH_OBJHASH_H
#define SERBENCH_OBJHASH_H

#include <stddef.h>
#include <stdint.h>
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

/* Streaming form (spec/hash.md "Streaming form") for SAX/pull parsers: a fixed stack of frames, so
 * the hasher never allocates inside a timed loop. */
#define SB_MAX_DEPTH 1024

typedef struct {
  uint64_t acc, n, key;
  int is_map;
} sb_frame;

typedef struct {
  sb_frame stack[SB_MAX_DEPTH];
  int depth;      /* number of open frames */
  int has_result; /* a root value has been closed */
  int error;      /* depth overflow, unbalanced events or two roots */
  uint64_t result;
} sb_hasher;

static inline void sb_hasher_init(sb_hasher *h) {
  h->depth = 0;
  h->has_result = 0;
  h->error = 0;
  h->result = 0;
}

static inline void sb_hasher_emit(sb_hasher *h, uint64_t v) {
  if (h->depth == 0) {
    if (h->has_result) h->error = 1;
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
  if (h->depth >= SB_MAX_DEPTH) {
    h->error = 1;
    return;
  }
  sb_frame *f = &h->stack[h->depth++];
  f->acc = is_map ? 0 : SB_ARRAY;
  f->n = 0;
  f->key = 0;
  f->is_map = is_map;
}

static inline void sb_hasher_key(sb_hasher *h, const void *k, size_t n) {
  if (h->depth > 0) h->stack[h->depth - 1].key = sb_hash_str(k, n);
}

static inline void sb_hasher_close(sb_hasher *h) {
  if (h->depth <= 0 || h->depth > SB_MAX_DEPTH) {
    h->error = 1;
    return;
  }
  sb_frame *f = &h->stack[--h->depth];
  sb_hasher_emit(h, f->is_map ? sb_map_end(f->acc, f->n) : sb_array_end(f->acc, f->n));
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
