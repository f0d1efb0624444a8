#include <parity/core/thread_count.hpp>

#include <algorithm>
#include <thread>

#include <parity/core/decimal.hpp>

namespace parity {

int thread_count() {
  if (const auto n = env_decimal("PARITY_THREADS", 1, kMaxThreads)) return static_cast<int>(*n);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace parity
