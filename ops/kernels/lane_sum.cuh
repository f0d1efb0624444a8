#pragma once
// The fixed reduction order of parity's op kernels, shared by each CUDA kernel and its host
// twin: lane l of kLanes sums term(l), term(l + kLanes), ... in ascending order from 0.0f; the
// lane sums are then folded pairwise (stride kLanes / 2, ..., 1: lane j += lane j + stride).
// The order depends on the reduced extent alone, never on the batch, the grid or the device.
// Declared to the bounds as Arithmetic::reduction_lanes = kLanes.
#include <cstdint>

#include <parity/core/hd.hpp>

namespace parity::ops::kernels {

inline constexpr int kLanes = 256;

template <class Term>
PARITY_HD float lane_sum(const Term& term, std::int64_t n, int lane) {
  float s = 0.0f;
  for (std::int64_t i = lane; i < n; i += kLanes) s = s + term(i);
  return s;
}

// One level of the pairwise fold: lanes[j] += lanes[j + stride] for j < stride.
PARITY_HD void fold_level(float* lanes, int stride, int j) { lanes[j] = lanes[j] + lanes[j + stride]; }

// The whole reduction on one thread (the host twins'): the lanes, then the fold. Only the
// `used` = min(n, kLanes) lanes that hold a term are computed and folded: a lane without one is
// +0.0f, and no lane sum is -0.0f (each starts at +0.0f, and a sum rounded to nearest is -0.0f
// only when both addends are), so folding an empty lane into another is x + (+0.0f) = x, bit for
// bit (NaN and infinities included). The bits are the full fold's (lane_sum_test checks). This
// holds in IEEE arithmetic, the default floating-point environment; with flush-to-zero on (which
// the host twins never set) an underflowing sum could be -0.0f.
template <class Term>
inline float host_lane_sum(const Term& term, std::int64_t n) {
  float lanes[kLanes];
  const int used = n < kLanes ? static_cast<int>(n) : kLanes;
  if (used == 0) return 0.0f;
  for (int l = 0; l < used; ++l) lanes[l] = lane_sum(term, n, l);
  for (int stride = kLanes / 2; stride >= 1; stride /= 2)
    for (int j = 0; j < stride && j + stride < used; ++j) fold_level(lanes, stride, j);
  return lanes[0];
}

}  // namespace parity::ops::kernels
