// keep_freed_memory (core/keep_freed_memory.hpp): a block of 16 MB, freed and allocated again,
// comes back on pages the process already touched (no page fault for the second touch), where
// glibc by default gives it fresh pages and the second touch faults on every page (4,095 of
// 4,096 here with the call left out). Transparent huge pages are off for this process, so that
// a page is 4 KB whatever the machine's setting. Its own program: the settings are the process's.
#include <gtest/gtest.h>

#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

#include <parity/core/keep_freed_memory.hpp>

#if defined(__SANITIZE_ADDRESS__)
#define PARITY_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARITY_TEST_ASAN 1
#endif
#endif

namespace parity {
namespace {

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// The minor faults of writing every byte of a fresh block of `bytes`, freed after.
long faults_of_touching(std::size_t bytes) {
  char* p = static_cast<char*>(std::malloc(bytes));
  const long before = minor_faults();
  std::memset(p, 1, bytes);
  asm volatile("" : : "r"(p) : "memory");  // the writes are kept: the compiler may drop a block never read
  const long faults = minor_faults() - before;
  std::free(p);
  return faults;
}

TEST(KeepFreedMemory, ABlockAllocatedAgainIsTouchedWithoutFaults) {
#if defined(PARITY_TEST_ASAN)
  GTEST_SKIP() << "AddressSanitizer's allocator ignores mallopt (keep_freed_memory returns false there)";
#elif !defined(__GLIBC__)
  GTEST_SKIP() << "keep_freed_memory does nothing without glibc";
#else
  ASSERT_EQ(prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0), 0);
  constexpr std::size_t kBytes = std::size_t{16} << 20;
  constexpr long kPages = static_cast<long>(kBytes / 4096);
  ASSERT_TRUE(keep_freed_memory());
  faults_of_touching(kBytes);  // a fresh block: faults on its pages, then freed
  const long second = faults_of_touching(kBytes);
  EXPECT_LT(second, kPages / 16) << "the freed block came back on fresh pages: " << second << " faults";
#endif
}

}  // namespace
}  // namespace parity
