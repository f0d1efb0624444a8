#pragma once
// The arithmetic of parity's deterministic LayerNorm kernel, shared bit for bit by the CUDA
// kernel (layer_norm.cu) and its host twin (layer_norm_host.hpp). All float32, one rounding per
// operation, no contraction; two passes over the row, each sum in ops/kernels/lane_sum.cuh's
// fixed order:
//   mean = (sum of x[i]) / float(D);   var = (sum of (x[i] - mean) * (x[i] - mean)) / float(D);
//   inv = 1.0f / sqrtf(var + eps);     y[i] = (x[i] - mean) * inv, then * w[i] + b[i] with the
//   affine; rounded once to the output dtype (bf16: round to nearest even).
// The order depends on D alone, never on T, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes; rsqrt as 1 / sqrt is two correct
// roundings, a relative error of at most 2u / (1 - u) < 2 (1 + 2^-20) u, i.e. rsqrt_ulps 1 + 2^-20.
#include <cmath>
#include <cstdint>

#include <parity/core/hd.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::layer_norm {

using kernels::kLanes;

// The squared deviation (x[i] - mean)^2 of the element `load(i)` gives.
template <class Load>
struct Deviation2 {
  Load load;
  float mean;
  PARITY_HD float operator()(std::int64_t i) const {
    const float d = load(i) - mean;
    return d * d;
  }
};

PARITY_HD float row_mean(float sum, std::int64_t D) { return sum / static_cast<float>(D); }
PARITY_HD float row_var(float squares, std::int64_t D) { return squares / static_cast<float>(D); }
PARITY_HD float inv_std(float var, float eps) { return 1.0f / sqrtf(var + eps); }

PARITY_HD float normalise(float x, float mean, float inv, bool affine, float w, float b) {
  const float normed = (x - mean) * inv;
  return affine ? normed * w + b : normed;
}

}  // namespace parity::ops::layer_norm
