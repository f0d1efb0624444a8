// parity's thread pool (core/thread_pool.hpp): every chunk runs exactly once, whatever the thread
// count of each call (it is read on every call: jobs in a row with more and fewer helpers), after
// the workers have gone to sleep, with a throwing body, from inside a body and from two threads
// at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <parity/core/thread_pool.hpp>

namespace parity {
namespace {

// PARITY_THREADS set for the scope, restored after it.
class Threads {
 public:
  explicit Threads(int n) {
    if (const char* v = std::getenv("PARITY_THREADS")) old_ = v;
    setenv("PARITY_THREADS", std::to_string(n).c_str(), 1);
  }
  ~Threads() {
    if (old_.empty()) unsetenv("PARITY_THREADS");
    else setenv("PARITY_THREADS", old_.c_str(), 1);
  }
  Threads(const Threads&) = delete;
  Threads& operator=(const Threads&) = delete;

 private:
  std::string old_;
};

// How many times each of `chunks` chunks ran in one call.
std::vector<int> runs(std::size_t chunks) {
  std::vector<std::atomic<int>> count(chunks);
  parallel_chunks(chunks, [&](std::size_t c) { ++count[c]; });
  return {count.begin(), count.end()};
}

TEST(ThreadPool, EveryChunkRunsOnceWhateverTheThreadCountOfEachCall) {
  for (int threads : {1, 2, 4, 3, 2, 1, 4}) {
    const Threads scope(threads);
    for (std::size_t chunks : {0, 1, 2, 3, 7, 64, 1000}) {
      const std::vector<int> count = runs(chunks);
      for (std::size_t c = 0; c < chunks; ++c)
        ASSERT_EQ(count[c], 1) << "chunk " << c << " of " << chunks << ", " << threads << " threads";
    }
  }
}

TEST(ThreadPool, WorkersAsleepAreWokenForTheNextCall) {
  const Threads scope(3);
  for (int round = 0; round < 3; ++round) {
    // Longer than the workers poll before they sleep on the condition variable.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::vector<std::atomic<int>> count(50);
    parallel_chunks(count.size(), [&](std::size_t c) {
      ++count[c];
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    });
    for (std::size_t c = 0; c < count.size(); ++c) ASSERT_EQ(count[c].load(), 1) << "round " << round;
  }
}

TEST(ThreadPool, TheFirstExceptionIsRethrownAfterEveryChunkRan) {
  const Threads scope(2);
  std::vector<std::atomic<int>> count(40);
  EXPECT_THROW(parallel_chunks(count.size(),
                               [&](std::size_t c) {
                                 ++count[c];
                                 if (c == 3) throw std::runtime_error("chunk 3");
                               }),
               std::runtime_error);
  for (std::size_t c = 0; c < count.size(); ++c) EXPECT_EQ(count[c].load(), 1) << c;
  // The pool serves the next call.
  for (int n : runs(10)) EXPECT_EQ(n, 1);
}

TEST(ThreadPool, ACallFromInsideABodyRunsItsChunksInline) {
  const Threads scope(2);
  std::vector<std::atomic<int>> inner(8 * 16);
  parallel_chunks(8, [&](std::size_t outer) {
    const std::thread::id self = std::this_thread::get_id();
    parallel_chunks(16, [&](std::size_t c) {
      EXPECT_EQ(std::this_thread::get_id(), self);
      ++inner[outer * 16 + c];
    });
  });
  for (std::size_t i = 0; i < inner.size(); ++i) EXPECT_EQ(inner[i].load(), 1) << i;
}

TEST(ThreadPool, TwoCallersAtOnceEachGetEveryChunk) {
  const Threads scope(2);
  std::vector<std::atomic<int>> a(500), b(500);
  const auto call = [](std::vector<std::atomic<int>>& count) {
    for (int round = 0; round < 50; ++round) parallel_chunks(count.size() / 50, [&](std::size_t c) {
        ++count[static_cast<std::size_t>(round) * (count.size() / 50) + c];
      });
  };
  std::thread other([&] { call(b); });
  call(a);
  other.join();
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].load(), 1) << i;
    ASSERT_EQ(b[i].load(), 1) << i;
  }
}

}  // namespace
}  // namespace parity
