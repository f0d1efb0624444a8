#pragma once
// parity's one thread pool (the oracles and the host twins of the kernels both run on it), with
// a fixed partition: the caller cuts its work into chunks that do not depend on the thread
// count, and each chunk runs entirely on one thread. A computation whose every output is a
// function of its chunk alone thus gives the same bits with any number of threads.
#include <cstddef>
#include <cstdint>
#include <functional>

namespace parity {

// Runs body(chunk) for every chunk in [0, chunks) on up to thread_count() threads (core/thread_count.hpp:
// PARITY_THREADS, else the hardware's threads; read on every call) (the calling thread and workers kept for the
// process, started on first need; a worker that helped with a call, and the caller waiting for its helpers, poll for
// up to 200 µs, pausing on each turn and yielding the core on every 16th, before they sleep); returns when all are
// done. The first exception a body throws is rethrown here after
// the others finish. A call made while the pool is busy (from inside a body, from another thread, or from a thread a
// body waits on) runs its chunks on its own thread: the bits are the same, and it cannot deadlock.
void parallel_chunks(std::size_t chunks, const std::function<void(std::size_t)>& body);

// Runs row(i) for every i in [0, rows), rows of `cols` elements each, through parallel_chunks in
// chunks of whole rows of about 2^12 elements (a partition of rows and cols alone); on the calling
// thread where that is one chunk. An element loop whose every element is its own.
void parallel_rows(std::int64_t rows, std::int64_t cols, const std::function<void(std::int64_t)>& row);

}  // namespace parity
