#include <parity/core/keep_freed_memory.hpp>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parity {

void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace parity
