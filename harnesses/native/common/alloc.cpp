// Counting allocator: the executable defines malloc & co. (glibc supports replacing malloc this way),
// so calls from the benchmark, from static archives AND from shared libraries (libsimdjson,
// libstdc++'s operator new, ...) all land here. Counting is off except in the `--alloc` pass, and
// the wrappers forward to glibc's own allocator, so timed runs see the stock allocator.
#include "alloc.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace sb {
AllocCounter g_alloc;
}

static inline void count(size_t n) {
  if (sb::g_alloc.enabled) {
    sb::g_alloc.calls++;
    sb::g_alloc.bytes += n;
  }
}

extern "C" {
void* malloc(size_t n) {
  count(n);
  return __libc_malloc(n);
}
void* calloc(size_t a, size_t b) {
  count(a * b);
  return __libc_calloc(a, b);
}
void* realloc(void* p, size_t n) {
  count(n);
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
void* memalign(size_t al, size_t n) {
  count(n);
  return __libc_memalign(al, n);
}
void* aligned_alloc(size_t al, size_t n) {
  count(n);
  return __libc_memalign(al, n);
}
int posix_memalign(void** out, size_t al, size_t n) {
  count(n);
  void* p = __libc_memalign(al, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}
