// The host twins' ranges (host_parallel.hpp) run on parity's one thread pool
// (core/thread_pool.hpp) and read the project's one PARITY_THREADS parser: every index is
// covered once, the workers are the pool's own, and a bad PARITY_THREADS is refused by name.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/thread_pool.hpp>
#include <parity/subjects/rlkernels/host_parallel.hpp>

namespace parity::subjects::rlkernels {
namespace {

class Threads {
 public:
  explicit Threads(const char* n) { setenv("PARITY_THREADS", n, 1); }
  ~Threads() { unsetenv("PARITY_THREADS"); }
};

TEST(HostParallel, CoversEveryIndexOnceInContiguousRanges) {
  const Threads three("3");
  std::vector<int> seen(1001, 0);
  parallel_ranges(static_cast<std::int64_t>(seen.size()), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) ++seen[static_cast<std::size_t>(i)];
  });
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "index " << i;
}

TEST(HostParallel, RunsOnThePoolsWorkers) {
  const Threads two("2");
  const std::thread::id caller = std::this_thread::get_id();
  std::mutex m;
  std::set<std::thread::id> pool, ranges;
  // The pool's workers live for the process: collect them over a few calls.
  for (int i = 0; i < 20; ++i)
    parallel_chunks(64, [&](std::size_t) {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      const std::lock_guard<std::mutex> lock(m);
      if (std::this_thread::get_id() != caller) pool.insert(std::this_thread::get_id());
    });
  ASSERT_FALSE(pool.empty()) << "the pool never used a worker with PARITY_THREADS=2";
  for (int i = 0; i < 20; ++i)
    parallel_ranges(2, [&](std::int64_t, std::int64_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const std::lock_guard<std::mutex> lock(m);
      if (std::this_thread::get_id() != caller) ranges.insert(std::this_thread::get_id());
    });
  ASSERT_FALSE(ranges.empty()) << "parallel_ranges never left the calling thread";
  for (const auto& id : ranges) EXPECT_EQ(pool.count(id), 1u) << "a range ran on a thread outside the pool";
}

TEST(HostParallel, RefusesABadThreadCountByName) {
  const Threads bad("2x");
  try {
    parallel_ranges(4, [](std::int64_t, std::int64_t) {});
    FAIL() << "PARITY_THREADS=2x was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("PARITY_THREADS"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parity::subjects::rlkernels
