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

// The whole reduction on one thread (the host twins'): the lanes, then the fold.
template <class Term>
inline float host_lane_sum(const Term& term, std::int64_t n) {
  float lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = lane_sum(term, n, l);
  for (int stride = kLanes / 2; stride >= 1; stride /= 2)
    for (int j = 0; j < stride; ++j) fold_level(lanes, stride, j);
  return lanes[0];
}

}  // namespace parity::ops::kernels
