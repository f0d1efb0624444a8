#pragma once
// Per-thread float32 scratch buffers for the host twins, kept across calls: a fresh allocation
// above glibc's mmap threshold (128 KiB) costs a page fault per 4 KiB on every call, which at
// the reference shapes was a third of a forward.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace parity::subjects::builtin {

// Buffer `slot` (0 <= slot < kScratchSlots) of this thread, resized to n floats and zeroed.
// Valid until the next call with the same slot on this thread.
inline constexpr int kScratchSlots = 6;
inline float* zeroed_scratch(int slot, std::size_t n) {
  thread_local std::vector<float> buffers[kScratchSlots];
  std::vector<float>& b = buffers[slot];
  if (b.size() < n) b.resize(n);
  std::fill(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n), 0.0f);
  return b.data();
}

}  // namespace parity::subjects::builtin
