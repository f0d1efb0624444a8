#pragma once
// Per-thread float32 scratch buffers for the host twins, kept across calls: a fresh allocation
// above glibc's mmap threshold (128 KiB) costs a page fault per 4 KiB on every call, which at
// the reference shapes was a third of a forward.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace parity::subjects::builtin {

// Buffer `slot` (0 <= slot < kScratchSlots) of this thread, at least n floats, its contents
// those a former call left (for a buffer the caller writes whole). Valid until the next call
// with the same slot on this thread.
inline constexpr int kScratchSlots = 6;
inline float* scratch(int slot, std::size_t n) {
  thread_local std::vector<float> buffers[kScratchSlots];
  std::vector<float>& b = buffers[slot];
  if (b.size() < n) b.resize(n);
  return b.data();
}

// scratch(slot, n) with its first n floats zeroed.
inline float* zeroed_scratch(int slot, std::size_t n) {
  float* b = scratch(slot, n);
  std::fill(b, b + n, 0.0f);
  return b;
}

}  // namespace parity::subjects::builtin
