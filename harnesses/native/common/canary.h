// The canary of protocol 1.9 (spec/protocol.md, `run` step 4; docs/methodology.md, "The canary").
//
// Why: a sample's time moves with the library and with the host. The canary is a fixed loop that
// allocates nothing and stays in registers and L1, so its time moves only with how fast the core
// runs this process at that moment (frequency, a sibling hyperthread, a noisy neighbour on the
// host). `measure` (main.cpp) runs it once, timed alone with the monotonic clock, just before each
// timed batch and writes its time as the sample row's `canary_ns`; the orchestrator divides each
// process's times by its canary's median relative to the harness's clean canary time in the run,
// which takes out the host's slowdowns of a whole process. The computation is the same in every
// harness (each in its own language); on a fresh table R = 1 returns 0x10bbdc9709c21044 and then
// 0x90a439f3bbe304e7, R = 300 returns 0x722b95da6743ec00 and then 0x2e4d829ed1573db4
// (tests/canary_test.cpp).
#pragma once

#include <cstdint>

namespace sb {

struct Canary {
  static constexpr int kRounds = 300;  // compiled harnesses: about 20 us on a clean core

  // The 256-byte table. It lives as long as its owner (the process, for g_canary): each run changes
  // one byte per round, so no run can be computed ahead from the one before. A test takes a fresh
  // Canary to check the reference values.
  unsigned char buf[256]{};

  constexpr Canary() {
    for (int i = 0; i < 256; i++) buf[i] = static_cast<unsigned char>((i * 37 + 1) & 0xff);
  }

  // R rounds; the accumulators start at 1, 2, 3, 4 on every call. Returns a ^ b ^ c ^ d.
  uint64_t run(int rounds) {
    // The empty asm with a memory clobber makes the compiler assume the table was just changed and
    // may be read afterwards, so the loop can be neither folded at compile time nor moved across the
    // clock reads around the call.
    asm volatile("" : : "r"(buf) : "memory");
    uint64_t a = 1, b = 2, c = 3, d = 4;
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < 256; i += 4) {
        a = a * 31 + buf[i];
        b = b * 37 + buf[i + 1];
        c = c * 41 + buf[i + 2];
        d = d * 43 + buf[i + 3];
      }
      buf[r & 255] ^= static_cast<unsigned char>(a & 0xff);
    }
    uint64_t x = a ^ b ^ c ^ d;
    asm volatile("" : "+r"(x) : : "memory");
    return x;
  }
};

// Where every result goes, so that no run can be dropped.
inline volatile uint64_t g_canary_sink;

// The process's canary: one table for the life of the process (constant-initialised, no guard).
inline Canary g_canary;

// One run of the process's canary at kRounds, its result XORed into the sink.
inline void canary() { g_canary_sink = g_canary_sink ^ g_canary.run(Canary::kRounds); }

}  // namespace sb
