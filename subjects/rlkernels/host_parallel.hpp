#pragma once
// Host twins' threads: independent outputs split into contiguous ranges, run on parity's one
// thread pool (core/thread_pool.hpp). Each output is computed by one thread in its own fixed
// order, so results never depend on the thread count.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <parity/core/thread_count.hpp>
#include <parity/core/thread_pool.hpp>

namespace parity::subjects::rlkernels {

// Calls f(begin, end) on disjoint contiguous ranges covering [0, n): min(thread_count(), n)
// ranges (PARITY_THREADS, else the hardware's threads, read at every call), run on the pool.
// The first exception f throws is rethrown after every range has run.
template <class F>
void parallel_ranges(std::int64_t n, const F& f) {
  const std::int64_t parts = std::min<std::int64_t>(thread_count(), n);
  if (parts <= 1) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
  const auto bound = [&](std::int64_t p) { return n * p / parts; };
  parallel_chunks(static_cast<std::size_t>(parts), [&](std::size_t p) {
    const auto i = static_cast<std::int64_t>(p);
    f(bound(i), bound(i + 1));
  });
}

}  // namespace parity::subjects::rlkernels
