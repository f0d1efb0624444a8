#include <parity/core/keep_freed_memory.hpp>

#include <cstdlib>  // a C library header first: it defines __GLIBC__ where the library is glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace parity {

bool keep_freed_memory() {
#if defined(__GLIBC__)
  const bool mmap_set = mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1;
  return mmap_set && trim_set;
#else
  return false;
#endif
}

}  // namespace parity
