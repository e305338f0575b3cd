// The canary (common/canary.h) against spec/protocol.md, `run` step 4: on a fresh table, R = 1
// returns 0x10bbdc9709c21044 and then 0x90a439f3bbe304e7, R = 300 (Canary::kRounds, the compiled
// harnesses' R) returns 0x722b95da6743ec00 and then 0x2e4d829ed1573db4. Two calls on one table, so
// that the table's change at the end of each round is checked too.
#include "canary.h"

#include <cinttypes>
#include <cstdio>

namespace {

int failures = 0;

void check(uint64_t got, uint64_t want, const char* what) {
  if (got == want) return;
  failures++;
  std::fprintf(stderr, "FAIL %s: 0x%016" PRIx64 " != 0x%016" PRIx64 "\n", what, got, want);
}

}  // namespace

int main() {
  {
    sb::Canary c;
    check(c.run(1), 0x10bbdc9709c21044ULL, "R = 1, first call");
    check(c.run(1), 0x90a439f3bbe304e7ULL, "R = 1, second call");
  }
  {
    sb::Canary c;
    check(c.run(sb::Canary::kRounds), 0x722b95da6743ec00ULL, "R = 300, first call");
    check(c.run(sb::Canary::kRounds), 0x2e4d829ed1573db4ULL, "R = 300, second call");
  }
  check(sb::Canary::kRounds, 300, "compiled harnesses' R");
  // the process-wide instance starts from the same table, and canary() runs it at kRounds
  const uint64_t before = sb::g_canary_sink;
  sb::canary();
  check(sb::g_canary_sink ^ before, 0x722b95da6743ec00ULL, "canary() on the process's fresh table");
  std::printf("canary: %d of 6 checks failed\n", failures);
  return failures ? 1 : 0;
}
