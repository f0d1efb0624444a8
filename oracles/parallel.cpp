#include "oracles/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace parity::oracles {

int oracle_threads() {
  if (const char* v = std::getenv("PARITY_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && n > 0) return static_cast<int>(std::min(n, 1024L));
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void parallel_chunks(std::size_t chunks, const std::function<void(std::size_t)>& body) {
  const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(oracle_threads()), chunks);
  if (threads <= 1) {
    for (std::size_t c = 0; c < chunks; ++c) body(c);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    for (std::size_t c = next++; c < chunks; c = next++) {
      try {
        body(c);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace parity::oracles
