// Allocation counter fed by the malloc replacement in alloc.cpp (the `--alloc` pass).
#pragma once
#include <cstdint>

namespace sb {
struct AllocCounter {
  volatile bool enabled = false;
  uint64_t calls = 0;
  uint64_t bytes = 0;
};
extern AllocCounter g_alloc;
}  // namespace sb
