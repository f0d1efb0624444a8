#pragma once
// Host twins' threads: independent outputs split into contiguous ranges, one per thread.
// Each output is computed by one thread in its own fixed order, so results never depend on
// the thread count.
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/thread_count.hpp"

namespace parity::subjects::rlkernels {

// parity::thread_count() (core/thread_count.hpp): PARITY_THREADS, else the hardware's threads.
// Read at every call, so a process may change it between calls.
inline int host_threads() { return thread_count(); }

// Calls f(begin, end) on disjoint contiguous ranges covering [0, n), in parallel on up to
// host_threads() threads (the calling thread takes the first range). f must not throw.
template <class F>
void parallel_ranges(std::int64_t n, const F& f) {
  const std::int64_t parts = std::min<std::int64_t>(host_threads(), n);
  if (parts <= 1) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
  std::vector<std::thread> workers;
  const auto bound = [&](std::int64_t p) { return n * p / parts; };
  for (std::int64_t p = 1; p < parts; ++p) workers.emplace_back(f, bound(p), bound(p + 1));
  f(std::int64_t{0}, bound(1));
  for (std::thread& t : workers) t.join();
}

}  // namespace parity::subjects::rlkernels
