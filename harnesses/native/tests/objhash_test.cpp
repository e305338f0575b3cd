// The hash's fast paths against spec/hash.md's definition: sb_hash_bytes (a short string read as
// two masked words, up to 15 bytes past its end within its page; a long one's tail without a
// branch) and leaf_hash (a scalar through the same masked words) must give, for every length and
// every placement, what the byte-by-byte definition gives, and must never read across a page: each
// string is also placed so that it ends exactly at a page followed by an inaccessible one.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "sb.h"

namespace {

int failures = 0;

void check(bool ok, const char* what, size_t n, size_t at) {
  if (ok) return;
  if (++failures <= 20) std::fprintf(stderr, "FAIL %s: length %zu at offset %zu\n", what, n, at);
}

// w(j) of spec/hash.md: the little-endian word at byte j, bytes past n counted as 0.
uint64_t word(const unsigned char* b, size_t n, size_t j) {
  uint64_t w = 0;
  for (size_t k = 0; k < 8 && j + k < n; k++) w |= static_cast<uint64_t>(b[j + k]) << (8 * k);
  return w;
}

// bytes(s, b), transcribed from spec/hash.md ("Bytes").
uint64_t spec_bytes(uint64_t s, const unsigned char* b, size_t n) {
  uint64_t a = s ^ n, c = 0;
  size_t i = 0;
  for (; n - i >= 32; i += 32) {
    a = sb_mum(word(b, n, i) ^ SB_P1, word(b, n, i + 8) ^ a ^ SB_P2);
    c = sb_mum(word(b, n, i + 16) ^ SB_P3, word(b, n, i + 24) ^ c ^ SB_P0);
  }
  for (; i < n; i += 16) a = sb_mum(word(b, n, i) ^ SB_P1, word(b, n, i + 8) ^ a ^ SB_P2);
  return a ^ c;
}

}  // namespace

int main() {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // two pages, the second inaccessible: a read past the first faults
  auto* mem = static_cast<unsigned char*>(
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (mem == MAP_FAILED || mprotect(mem + page, page, PROT_NONE) != 0) {
    std::perror("mmap");
    return 1;
  }
  std::mt19937_64 rng(2026);
  for (size_t i = 0; i < page; i++) mem[i] = static_cast<unsigned char>(rng());
  const uint64_t seed = SB_SEED(SB_STRING);
  size_t checked = 0;
  for (size_t n = 0; n <= 300; n++) {
    // every start within 40 bytes of the page's end (ending at it, and crossing the 16-byte check's
    // boundary from both sides), then starts across the page
    for (size_t end_gap = 0; end_gap <= 40 && n + end_gap <= page; end_gap++) {
      const size_t at = page - n - end_gap;
      check(sb_hash_bytes(seed, mem + at, n) == spec_bytes(seed, mem + at, n), "sb_hash_bytes near the page end", n,
            at);
      checked++;
    }
    for (size_t at = 0; at + n <= page; at += 61) {
      check(sb_hash_bytes(seed, mem + at, n) == spec_bytes(seed, mem + at, n), "sb_hash_bytes", n, at);
      checked++;
    }
  }
  // leaf_hash: a string node (its bytes ending at the page's end) and scalar nodes placed so that the
  // 16 bytes from their payload run into the inaccessible page, and so that they do not
  for (size_t n = 0; n <= 40; n++) {
    sb::Node x{};
    x.type = sb::T::Str;
    x.count = static_cast<uint32_t>(n);
    x.off = page - n;
    const auto* pool = reinterpret_cast<const char*>(mem);
    check(sb::leaf_hash(x, pool) == spec_bytes(seed, mem + page - n, n), "leaf_hash Str", n, x.off);
    checked++;
  }
  const uint64_t payloads[] = {0, 1, 0x8000000000000000ULL, ~0ULL, 0x3ff8000000000000ULL};
  for (size_t slot = page - sizeof(sb::Node); slot >= page - 3 * sizeof(sb::Node); slot -= 8) {
    for (int t = 0; t <= static_cast<int>(sb::T::Double); t++) {
      for (uint64_t u : payloads) {
        if (t <= static_cast<int>(sb::T::True) && u != 0) continue;  // null, false and true carry 0
        sb::Node x{};
        x.type = static_cast<sb::T>(t);
        x.u = u;
        auto* placed = reinterpret_cast<sb::Node*>(mem + slot);
        std::memcpy(static_cast<void*>(placed), &x, sizeof x);
        check(sb::leaf_hash(*placed, nullptr) == sb_scalar(sb::kLeafSeed[t], u), "leaf_hash scalar", 8, slot);
        checked++;
      }
    }
  }
  // an empty string whose pointer is null, as some libraries give one: never read
  check(sb_hash_bytes(seed, nullptr, 0) == seed, "sb_hash_bytes of an empty string at null", 0, 0);
  // the spec's worked example, so that the transcription above is pinned too
  const auto* abc = reinterpret_cast<const unsigned char*>("abc");
  check(spec_bytes(seed, abc, 3) == 0xfffe66391ebe87c4ULL, "spec example abc", 3, 0);
  std::printf("%zu placements checked, %d failed\n", checked, failures);
  return failures ? 1 : 0;
}
