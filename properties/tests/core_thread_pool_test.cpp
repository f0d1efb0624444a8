// parity's thread pool (core/thread_pool.hpp): every chunk runs exactly once, whatever the thread
// count of each call (it is read on every call: jobs in a row with more and fewer helpers), on
// more than one thread where it may, after the workers have gone to sleep, with a throwing body
// (on the pool and inline), from inside a body and from two threads at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
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

// Whether a call with `threads` threads runs its chunks on more than one thread: each of 8 chunks
// waits (up to 2 s) until two threads have run chunks.
bool runs_on_two_threads() {
  std::mutex m;
  std::set<std::thread::id> seen;
  parallel_chunks(8, [&](std::size_t) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    {
      const std::lock_guard<std::mutex> lock(m);
      seen.insert(std::this_thread::get_id());
    }
    for (;;) {
      {
        const std::lock_guard<std::mutex> lock(m);
        if (seen.size() >= 2) return;
      }
      if (std::chrono::steady_clock::now() > until) return;
      std::this_thread::yield();
    }
  });
  return seen.size() >= 2;
}

TEST(ThreadPool, AWorkerRunsChunks) {
  const Threads scope(2);
  EXPECT_TRUE(runs_on_two_threads());
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
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(runs_on_two_threads()) << "round " << round;
  }
}

// A call whose chunks 3 and 7 throw: both thrown, every chunk run, the first (chunk 3's, or
// chunk 7's where another thread got there first) rethrown.
void expect_rethrown_after_every_chunk(const std::string& where) {
  std::vector<std::atomic<int>> count(40);
  try {
    parallel_chunks(count.size(), [&](std::size_t c) {
      ++count[c];
      if (c == 3 || c == 7) throw std::runtime_error("chunk " + std::to_string(c));
    });
    ADD_FAILURE() << where << ": nothing rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(std::string(e.what()) == "chunk 3" || std::string(e.what()) == "chunk 7") << where << ": " << e.what();
  }
  for (std::size_t c = 0; c < count.size(); ++c) EXPECT_EQ(count[c].load(), 1) << where << ": chunk " << c;
}

TEST(ThreadPool, TheFirstExceptionIsRethrownAfterEveryChunkRan) {
  {
    const Threads scope(2);
    expect_rethrown_after_every_chunk("on the pool");
    for (int n : runs(10)) EXPECT_EQ(n, 1);  // the pool serves the next call
  }
  {
    const Threads scope(1);
    expect_rethrown_after_every_chunk("one thread");
  }
  const Threads scope(2);
  parallel_chunks(2, [](std::size_t) { expect_rethrown_after_every_chunk("inside a body"); });
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
    for (int round = 0; round < 50; ++round)
      parallel_chunks(count.size() / 50,
                      [&](std::size_t c) { ++count[static_cast<std::size_t>(round) * (count.size() / 50) + c]; });
  };
  std::thread other([&] { call(b); });
  call(a);
  other.join();
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].load(), 1) << i;
    ASSERT_EQ(b[i].load(), 1) << i;
  }
}

// Rows of one chunk (2^12 elements) and of many, rows narrower and wider than a chunk, none.
TEST(ThreadPool, ParallelRowsRunsEveryRowOnce) {
  for (const auto& [rows, cols] : std::vector<std::pair<std::int64_t, std::int64_t>>{
           {0, 10}, {1, 1}, {40, 100}, {41, 100}, {1000, 7}, {3, 100000}, {257, 2048}}) {
    std::vector<std::atomic<int>> runs(static_cast<std::size_t>(rows));
    ::setenv("PARITY_THREADS", "3", 1);
    parallel_rows(rows, cols, [&](std::int64_t i) { ++runs[static_cast<std::size_t>(i)]; });
    ::unsetenv("PARITY_THREADS");
    for (std::size_t i = 0; i < runs.size(); ++i)
      EXPECT_EQ(runs[i].load(), 1) << rows << " x " << cols << ", row " << i;
  }
}

}  // namespace
}  // namespace parity
