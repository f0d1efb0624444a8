// parity's thread pool (core/thread_pool.hpp): every chunk runs once, exceptions come back,
// and a call made while the pool is busy — from a thread that a body waits on — runs on its
// own thread instead of deadlocking (ctest's timeout would catch a hang).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

#include <parity/core/thread_pool.hpp>

namespace parity::oracles {
namespace {

struct TwoThreads {
  TwoThreads() { setenv("PARITY_THREADS", "2", 1); }
  ~TwoThreads() { unsetenv("PARITY_THREADS"); }
};

TEST(ParallelChunks, RunsEveryChunkOnceAndRethrows) {
  const TwoThreads two;
  std::vector<std::atomic<int>> runs(64);
  parallel_chunks(runs.size(), [&](std::size_t c) { ++runs[c]; });
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  EXPECT_THROW(parallel_chunks(8,
                               [](std::size_t c) {
                                 if (c == 5) throw std::runtime_error("chunk 5");
                               }),
               std::runtime_error);
}

TEST(ParallelChunks, ABodyMayWaitOnAThreadThatCallsIt) {
  const TwoThreads two;
  std::atomic<int> inner{0};
  parallel_chunks(2, [&](std::size_t c) {
    if (c != 0) return;
    std::thread t([&] { parallel_chunks(4, [&](std::size_t) { ++inner; }); });
    t.join();
  });
  EXPECT_EQ(inner.load(), 4);
}

}  // namespace
}  // namespace parity::oracles
