#include <parity/core/thread_pool.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <parity/core/thread_count.hpp>

namespace parity {
namespace {

// How long a worker that helped with a job, and a caller waiting for its helpers, poll before they
// sleep on a condition variable: a kernel makes several short parallel calls in a row (the host
// twin's forward two, microseconds apart), and a sleeping thread's wake-up on a virtual machine
// costs tens of microseconds, more than such a call's share of work. The poll pauses on each turn
// and yields the core to any other runnable thread on every 16th, so a busy machine loses little
// to it.
constexpr std::chrono::microseconds kPoll{200};

// Polls `ready` until it holds or kPoll has passed; returns whether it holds.
template <class Ready>
bool poll(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kPoll;
  for (unsigned turn = 0;; ++turn) {
    if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();  // leaves the core's resources to a sibling hardware thread
#endif
    if (turn % 16 == 15) {
      if (std::chrono::steady_clock::now() > until) return ready();
      std::this_thread::yield();
    }
  }
}

// Workers started once and kept for the process (starting threads on every call cost two
// thread creations per oracle construction, one per host twin call). One job at a time: `job_` serialises callers; a
// call from inside a job's body (this thread or a worker) runs its chunks inline instead.
// A job is published under m_ (generation_, with its mirror `published_` for the workers' poll);
// each helper counts itself off `active_` and the caller returns once it is 0.
class Pool {
 public:
  ~Pool() {
    {
      const std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  // Runs body on chunks [0, chunks) with `helpers` workers besides the calling thread, and
  // returns true; returns false at once, running nothing, while another call holds the pool
  // (the caller then runs its chunks itself: waiting could deadlock a body that waits on a
  // thread which calls parallel_chunks).
  bool try_run(std::size_t chunks, std::size_t helpers, const std::function<void(std::size_t)>& body) {
    const std::unique_lock<std::mutex> job(job_, std::try_to_lock);
    if (!job.owns_lock()) return false;
    {
      const std::lock_guard<std::mutex> lock(m_);
      while (workers_.size() < helpers) workers_.emplace_back([this, w = workers_.size()] { serve(w); });
      body_ = &body;
      chunks_ = chunks;
      helpers_ = helpers;
      active_ = helpers;
      next_ = 0;
      failure_ = nullptr;
      ++generation_;
      published_.store(generation_, std::memory_order_release);
    }
    wake_.notify_all();
    work();
    if (!poll([this] { return active_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lock(m_);
      done_.wait(lock, [this] { return active_.load(std::memory_order_acquire) == 0; });
    }
    body_ = nullptr;
    if (failure_) std::rethrow_exception(failure_);
    return true;
  }

  static bool inside() { return inside_; }

 private:
  void serve(std::size_t w) {
    std::uint64_t seen = 0;
    bool helped = false;  // whether this worker helped with the last job: only then it polls
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      if (helped && !stop_ && generation_ == seen) {
        lock.unlock();
        poll([&] { return published_.load(std::memory_order_acquire) != seen; });
        lock.lock();
      }
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      helped = w < helpers_;
      if (!helped) continue;
      lock.unlock();
      work();
      lock.lock();
      // Under m_: a caller that found active_ above 0 is waiting on done_ by now.
      if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify_one();
    }
  }

  // Takes chunks until none is left; the first exception is kept for run to rethrow.
  void work() {
    inside_ = true;
    for (std::size_t c = next_++; c < chunks_; c = next_++) {
      try {
        (*body_)(c);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex_);
        if (!failure_) failure_ = std::current_exception();
      }
    }
    inside_ = false;
  }

  static thread_local bool inside_;
  std::mutex job_, m_, failure_mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  std::uint64_t generation_ = 0;
  std::atomic<std::uint64_t> published_{0};
  bool stop_ = false;
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t chunks_ = 0, helpers_ = 0;
  std::atomic<std::size_t> active_{0};
  std::atomic<std::size_t> next_{0};
  std::exception_ptr failure_;
};

thread_local bool Pool::inside_ = false;

}  // namespace

void parallel_chunks(std::size_t chunks, const std::function<void(std::size_t)>& body) {
  const std::size_t threads = std::min<std::size_t>(static_cast<std::size_t>(thread_count()), chunks);
  static Pool pool;
  if (threads > 1 && !Pool::inside() && pool.try_run(chunks, threads - 1, body)) return;
  // On this thread: every chunk runs, the first exception rethrown after them, as on the pool.
  std::exception_ptr failure;
  for (std::size_t c = 0; c < chunks; ++c) {
    try {
      body(c);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

void parallel_rows(std::int64_t rows, std::int64_t cols, const std::function<void(std::int64_t)>& row) {
  constexpr std::int64_t kElementsPerChunk = std::int64_t{1} << 12;
  const std::int64_t per_chunk = std::max<std::int64_t>(1, kElementsPerChunk / std::max<std::int64_t>(cols, 1));
  if (rows <= per_chunk) {
    for (std::int64_t i = 0; i < rows; ++i) row(i);
    return;
  }
  parallel_chunks(static_cast<std::size_t>((rows + per_chunk - 1) / per_chunk), [&](std::size_t chunk) {
    const std::int64_t first = static_cast<std::int64_t>(chunk) * per_chunk;
    for (std::int64_t i = first; i < std::min(rows, first + per_chunk); ++i) row(i);
  });
}

}  // namespace parity
