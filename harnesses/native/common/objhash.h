/* The serbench object hash, spec/hash.md version 2, for C and C++.
 *
 * Header-only and static inline so that every benchmark's hashing inlines into its own loop: the
 * hash is part of what the timed loop does (and of the baseline that is subtracted), so it must cost
 * the same few ns per value everywhere. The mixing step is wyhash's `mum` (Wang Yi, wyhash "final
 * version 3", github.com/wangyi-fudan/wyhash): one 64x64->128 multiply, folded. Little-endian hosts
 * only (x86-64, aarch64): words are read with memcpy in host order. */
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
  SB_MAP = 9
};

#define SB_K 0x9E3779B97F4A7C15ULL
#define SB_P0 0xA0761D6478BD642FULL
#define SB_P1 0xE7037ED1A0B428DBULL
#define SB_P2 0x8EBC6AF09C88C6E3ULL
#define SB_P3 0x589965CC75374CC3ULL
#define SB_SEED(t) ((uint64_t)(t)*SB_K) /* S(t), a compile-time constant for a constant tag */

static inline uint64_t sb_mum(uint64_t a, uint64_t b) {
  const unsigned __int128 r = (unsigned __int128)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t sb_scalar(uint64_t seed, uint64_t v) { return sb_mum(v ^ seed, SB_P0); }

static inline uint64_t sb_r8(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}
static inline uint64_t sb_r4(const unsigned char *p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;
}
/* The r (1..8) bytes at p as a zero-padded little-endian word, without reading past them: two
 * overlapping loads for 4..8 bytes, three byte loads for 1..3 (wyhash's _wyr3 trick, kept in place). */
static inline uint64_t sb_rtail(const unsigned char *p, size_t r) {
  if (r >= 4) return sb_r4(p) | ((sb_r4(p + r - 4) >> (8 * (8 - r))) << 32);
  return (uint64_t)p[0] | ((uint64_t)p[r >> 1] << (8 * (r >> 1))) | ((uint64_t)p[r - 1] << (8 * (r - 1)));
}

/* The last 1..16 bytes of a string (n of them at p) into lane a, zero-padded, without reading past
 * them: the exact path, for a string that ends within 16 bytes of a page's end. */
static inline uint64_t sb_bytes_last(uint64_t a, const unsigned char *p, size_t n) {
  if (n > 8) return sb_mum(sb_r8(p) ^ SB_P1, (sb_r8(p + n - 8) >> (8 * (16 - n))) ^ a ^ SB_P2);
  return sb_mum(sb_rtail(p, n) ^ SB_P1, a ^ SB_P2);
}

#if defined(__GNUC__)
#define SB_NOINLINE __attribute__((noinline))
#define SB_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define SB_NOINLINE
#define SB_LIKELY(x) (x)
#endif

/* c ? a : b as arithmetic, so that the compiler cannot turn it into a branch: the conditions it is
 * used for (scalar or string, a string's length class) change from one value to the next, and a
 * mispredicted branch costs more than the few instructions of the select (docs/studies/fewer-branches-per-value.md,
 * "Fewer branches per value"). */
static inline uint64_t sb_select(int c, uint64_t a, uint64_t b) { return b ^ ((a ^ b) & (0 - (uint64_t)(c != 0))); }

/* 1 when the 16 bytes at p lie in one 4 KiB page. Pages are 4 KiB or a multiple of it, so those
 * bytes are then mapped if p is: a read of up to 15 bytes past a string's end, within its page, can
 * never fault, whatever the string's buffer. (The bytes read past the end are masked off before
 * they are used, so they never change a hash.) */
static inline int sb_can_read16(const void *p) { return ((uintptr_t)p & 4095) <= 4096 - 16; }

/* The masks that keep the first n (0..16) bytes of the two little-endian words at a string's start:
 * w(0) and w(8) of spec/hash.md, with the bytes past n counted as 0. */
typedef struct {
  uint64_t lo, hi;
} sb_mask16;
#define SB_LOW(k) (~0ULL >> (64 - 8 * (k))) /* the low k (1..8) bytes */
static const sb_mask16 sb_mask16_of[17] = {
    {0, 0},          {SB_LOW(1), 0},  {SB_LOW(2), 0},  {SB_LOW(3), 0},  {SB_LOW(4), 0},         {SB_LOW(5), 0},
    {SB_LOW(6), 0},  {SB_LOW(7), 0},  {~0ULL, 0},      {~0ULL, SB_LOW(1)}, {~0ULL, SB_LOW(2)}, {~0ULL, SB_LOW(3)},
    {~0ULL, SB_LOW(4)}, {~0ULL, SB_LOW(5)}, {~0ULL, SB_LOW(6)}, {~0ULL, SB_LOW(7)}, {~0ULL, ~0ULL}};
#undef SB_LOW

/* The first n (0..16) bytes at p as spec/hash.md's w(0) and w(8), both words read whole and masked,
 * when sb_can_read16(p): every length takes the same instructions, with no branch on its class
 * (1-3, 4-8, 9-16 bytes), which on the corpus's mixed key and string lengths mispredicts. The leaf of
 * the baselines' walk (sb.h, leaf_hash) reads through it too. sb_hash_short is bytes(seed, b) from
 * them for 1 <= n <= 16 (an empty string is never read: its pointer may be null or dangling). */
static inline void sb_read16_masked(const unsigned char *p, size_t n, uint64_t *lo, uint64_t *hi) {
  *lo = sb_r8(p) & sb_mask16_of[n].lo;
  *hi = sb_r8(p + 8) & sb_mask16_of[n].hi;
}
static inline uint64_t sb_hash_short(uint64_t seed, const unsigned char *p, size_t n) {
  uint64_t lo, hi;
  sb_read16_masked(p, n, &lo, &hi);
  return sb_mum(lo ^ SB_P1, hi ^ seed ^ n ^ SB_P2);
}

/* bytes(seed, b) for more than 16 bytes: two independent lanes of 32 bytes per step, then at most
 * one whole 16-byte block and the last 0..16 bytes in lane a. The block and the last bytes are
 * taken without a branch on how many remain (selects, and the 16 bytes that end the string read as
 * one 128-bit word and shifted), so a string costs one mispredicted branch at most, its loop's exit.
 * Out of line: its loop needs more registers than the walks around it can spare, so inlined it
 * would make every caller save them. */
SB_NOINLINE static uint64_t sb_hash_bytes_long(uint64_t seed, const unsigned char *p, size_t n) {
  const unsigned char *const e = p + n;
  uint64_t a = seed ^ n, c = 0;
  for (const unsigned char *const end = p + (n & ~(size_t)31); p != end; p += 32) {
    a = sb_mum(sb_r8(p) ^ SB_P1, sb_r8(p + 8) ^ a ^ SB_P2);
    c = sb_mum(sb_r8(p + 16) ^ SB_P3, sb_r8(p + 24) ^ c ^ SB_P0);
  }
  const size_t rem = n & 31;
  const int block = rem > 16; /* a whole 16-byte block at p, then rem - 16 bytes */
  /* the block's words are read at p when it is taken, else at e - 16 (inside the string, n > 16) */
  const unsigned char *const q = (const unsigned char *)(uintptr_t)sb_select(block, (uintptr_t)p, (uintptr_t)(e - 16));
  a = sb_select(block, sb_mum(sb_r8(q) ^ SB_P1, sb_r8(q + 8) ^ a ^ SB_P2), a);
  const size_t r = rem - 16 * (size_t)block; /* 0..16 bytes left, the last r of the string */
  const unsigned __int128 last = ((unsigned __int128)sb_r8(e - 8) << 64) | sb_r8(e - 16);
  const unsigned shift = 8 * (unsigned)(16 - r); /* 0..128, in two steps so that none is 128 */
  const unsigned __int128 t = (last >> (shift / 2)) >> (shift - shift / 2);
  return sb_select(r != 0, sb_mum((uint64_t)t ^ SB_P1, (uint64_t)(t >> 64) ^ a ^ SB_P2), a) ^ c;
}

/* The exact path: more than 16 bytes, none, or a short string within 16 bytes of its page's end. */
SB_NOINLINE static uint64_t sb_hash_bytes_slow(uint64_t seed, const unsigned char *p, size_t n) {
  if (n > 16) return sb_hash_bytes_long(seed, p, n);
  return n ? sb_bytes_last(seed ^ n, p, n) : seed;
}

/* bytes(seed, b): a string of 1 to 16 bytes (most keys, half the strings of the corpus) is one
 * inlined mum with no branch on its length; longer ones, empty ones and the rare short one at a
 * page's end go out of line. */
static inline uint64_t sb_hash_bytes(uint64_t seed, const void *data, size_t n) {
  const unsigned char *p = (const unsigned char *)data;
  if (SB_LIKELY(n - 1 < 16 && sb_can_read16(p))) return sb_hash_short(seed, p, n); /* 1 <= n <= 16 */
  return sb_hash_bytes_slow(seed, p, n);
}

static inline uint64_t sb_hash_null(void) { return sb_scalar(SB_SEED(SB_NULL), 0); }
static inline uint64_t sb_hash_bool(int v) { return sb_scalar(SB_SEED(SB_BOOL), v ? 1 : 0); }
static inline uint64_t sb_hash_uint(uint64_t v) { return sb_scalar(SB_SEED(SB_UINT), v); }
static inline uint64_t sb_hash_int(int64_t v) {
  /* UINT and NEGINT differ only in the seed: one select, no branch on the sign */
  return sb_scalar(v >= 0 ? SB_SEED(SB_UINT) : SB_SEED(SB_NEGINT), (uint64_t)v);
}
static inline uint64_t sb_hash_double(double d) {
  uint64_t bits;
  memcpy(&bits, &d, 8);
  return sb_scalar(SB_SEED(SB_FLOAT), bits);
}
static inline uint64_t sb_hash_str(const void *s, size_t n) { return sb_hash_bytes(SB_SEED(SB_STRING), s, n); }
static inline uint64_t sb_hash_bin(const void *s, size_t n) { return sb_hash_bytes(SB_SEED(SB_BINARY), s, n); }

/* Tree form: an array sums index-keyed terms (order matters, yet the terms are independent of each
 * other), a map sums its entries (order-independent); both finish with their tag and count. */
static inline uint64_t sb_array_add(uint64_t acc, uint64_t i, uint64_t h) { return acc + sb_mum(h ^ SB_P1, i ^ SB_P2); }
static inline uint64_t sb_array_end(uint64_t acc, uint64_t n) { return sb_mum(acc ^ SB_SEED(SB_ARRAY), n ^ SB_P3); }
static inline uint64_t sb_map_entry(uint64_t key_hash, uint64_t value_hash) {
  return sb_mum(key_hash ^ SB_P3, value_hash ^ SB_P0);
}
static inline uint64_t sb_map_end(uint64_t sum, uint64_t n) { return sb_mum(sum ^ SB_SEED(SB_MAP), n ^ SB_P3); }

/* Streaming form (spec/hash.md "Streaming form") for SAX/pull parsers and for the iterative walks
 * over library trees: a stack of frames that grows on demand (realloc, doubling) and is kept across
 * documents, so nesting depth is bounded only by memory, never by the harness (spec/protocol.md:
 * the harness's own code never limits or overflows on its input), and a hasher reused across the
 * iterations of a timed loop allocates only while it first grows.
 *
 * The innermost open container's frame is kept in the hasher itself (`top`), its parents on the
 * stack, so emit and key touch one small struct at a fixed place instead of indexing a stack. A
 * frame holds its sum and its count so far (also the index of an array's next element). Both kinds
 * add mum(h ^ c1, other ^ c2): an array with (c1, c2, other) = (P1, P2, index), a map with
 * (P0, P3, key) (mum is symmetric). `other ^ c2` is kept as (n & amask) ^ kx, with amask all ones
 * and kx = P2 for an array, amask 0 and kx = key ^ P3 for a map, so emit never branches on the kind.
 * The parents of `top` are stack[0..depth-1) (depth counts `top` too).
 *
 * A hasher must start zeroed (`sb_hasher h = SB_HASHER_ZERO;`, or sb::Hasher in C++), then
 * sb_hasher_init before each document; sb_hasher_free releases the stack. */
typedef struct {
  uint64_t acc, n;
  uint64_t amask; /* ~0 for an array, 0 for a map */
  uint64_t kx;    /* P2 for an array; the pending key's hash ^ P3 for a map */
  uint64_t c1;    /* P1 for an array, P0 for a map */
} sb_frame;

typedef struct {
  sb_frame top;    /* the innermost open container (when depth > 0) */
  sb_frame *stack; /* cap frames: the parents of top */
  size_t cap;
  size_t depth;   /* open containers, top included */
  int has_result; /* a root value has been closed */
  int error;      /* SB_HASHER_UNBALANCED or SB_HASHER_NOMEM */
  uint64_t result;
} sb_hasher;

enum { SB_HASHER_UNBALANCED = 1, SB_HASHER_NOMEM = 2 };
#define SB_HASHER_ZERO \
  { {0, 0, 0, 0, 0}, NULL, 0, 0, 0, 0, 0 }

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
#define SB_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SB_COLD
#define SB_UNLIKELY(x) (x)
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

SB_COLD static inline void sb_hasher_root(sb_hasher *h, uint64_t v) {
  if (h->has_result) h->error = SB_HASHER_UNBALANCED;
  h->result = v;
  h->has_result = 1;
}

static inline void sb_hasher_emit(sb_hasher *h, uint64_t v) {
  if (SB_UNLIKELY(h->depth == 0)) {
    sb_hasher_root(h, v);
    return;
  }
  sb_frame *f = &h->top;
  f->acc += sb_mum(v ^ f->c1, (f->n & f->amask) ^ f->kx);
  f->n++;
}

static inline void sb_hasher_open(sb_hasher *h, int is_map) {
  if (h->depth > 0) { /* top becomes a parent */
    if (SB_UNLIKELY(h->depth > h->cap) && !sb_hasher_grow(h)) return;
    h->stack[h->depth - 1] = h->top;
  }
  h->depth++;
  h->top.acc = 0;
  h->top.n = 0;
  h->top.amask = is_map ? 0 : ~(uint64_t)0;
  h->top.kx = is_map ? SB_P3 : SB_P2; /* a map's before any key: as if the key's hash were 0 */
  h->top.c1 = is_map ? SB_P0 : SB_P1;
}

/* The key's hash, for walks that already have it (ignored outside a map, where the events are
 * unbalanced anyway). */
static inline void sb_hasher_key_hash(sb_hasher *h, uint64_t kh) {
  if (h->depth > 0 && h->top.amask == 0) h->top.kx = kh ^ SB_P3;
}

/* A map key. */
static inline void sb_hasher_key(sb_hasher *h, const void *k, size_t n) { sb_hasher_key_hash(h, sb_hash_str(k, n)); }

static inline void sb_hasher_close(sb_hasher *h) {
  if (SB_UNLIKELY(h->depth == 0)) {
    h->error = SB_HASHER_UNBALANCED;
    return;
  }
  const uint64_t v = sb_mum(h->top.acc ^ (h->top.amask ? SB_SEED(SB_ARRAY) : SB_SEED(SB_MAP)), h->top.n ^ SB_P3);
  if (--h->depth > 0) h->top = h->stack[h->depth - 1];
  sb_hasher_emit(h, v);
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
