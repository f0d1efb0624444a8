#pragma once
// How many threads parity's host code uses: its one thread pool (core/thread_pool.hpp), on which
// the oracles and the host twins of the kernels run, asks this.
namespace parity {

inline constexpr int kMaxThreads = 1024;

// PARITY_THREADS, plain decimal in [1, kMaxThreads], when set and non-empty; else
// std::thread::hardware_concurrency() (at least 1). Read on every call, so a process may
// change it between calls. Throws InputError naming PARITY_THREADS for any other value.
int thread_count();

}  // namespace parity
