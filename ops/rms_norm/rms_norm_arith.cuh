#pragma once
// The arithmetic of parity's deterministic RMSNorm kernel, shared bit for bit by the CUDA kernel
// (rms_norm.cu) and its host twin (rms_norm_host.cpp). All float32, one rounding per operation,
// no contraction:
//   lane l of kLanes sums x[l]^2, x[l + kLanes]^2, ... in ascending order from 0.0f;
//   the lane sums are folded pairwise (stride kLanes / 2, ..., 1: lane j += lane j + stride);
//   inv = 1.0f / sqrtf(sum / float(D) + eps);   y[i] = (x[i] * inv) * w[i], rounded once to
//   the output dtype (bf16: round to nearest even).
// The order depends on D alone, never on T, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes; rsqrt as 1 / sqrt is two correct
// roundings, a relative error of at most 2u / (1 - u) < 2 (1 + 2^-20) u, i.e. rsqrt_ulps 1 + 2^-20.
#include <cmath>
#include <cstdint>

#include "core/hd.hpp"

namespace parity::ops::rms_norm {

inline constexpr int kLanes = 256;

// Lane `lane`'s sum of squares of the row, `load(i)` giving x[i] as float.
template <class Load>
PARITY_HD float lane_sum(const Load& load, std::int64_t D, int lane) {
  float s = 0.0f;
  for (std::int64_t i = lane; i < D; i += kLanes) {
    const float v = load(i);
    s = s + v * v;
  }
  return s;
}

// One level of the pairwise fold: lanes[j] += lanes[j + stride] for j < stride.
PARITY_HD void fold_level(float* lanes, int stride, int j) { lanes[j] = lanes[j] + lanes[j + stride]; }

PARITY_HD float inv_rms(float sum, std::int64_t D, float eps) {
  return 1.0f / sqrtf(sum / static_cast<float>(D) + eps);
}

PARITY_HD float normalise(float x, float inv, float w) { return (x * inv) * w; }

}  // namespace parity::ops::rms_norm
