#pragma once
// The arithmetic of parity's deterministic AdaLN kernel, shared bit for bit by the CUDA kernel
// (adaln.cu) and its host twin (adaln_host.hpp). All float32, one rounding per operation, no
// contraction; per token, both sums in ops/kernels/lane_sum.cuh's fixed order:
//   mean = (sum of x[i]) / float(D);   d[i] = x[i] - mean;
//   inv = 1.0f / sqrtf((sum of d[i] * d[i]) / float(D) + eps);
//   y[i] = ((x[i] - mean) * inv) * (1.0f + scale[i]) + shift[i], rounded once to the output
//   dtype (bf16: round to nearest even).
// The order depends on D alone, never on B, S, the grid or the device. Declared arithmetic:
// reduction_lanes = kLanes; rsqrt as 1 / sqrt, two correct roundings: rsqrt_ulps 1 + 2^-20
// (rms_norm_arith.cuh has the argument).
#include <cmath>
#include <cstdint>

#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::adaln {

using kernels::kLanes;

inline Arithmetic declared_arithmetic() { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

// (x[i] - mean)^2 of the element `load(i)` gives.
template <class Load>
struct CentredSquare {
  Load load;
  float mean;
  PARITY_HD float operator()(std::int64_t i) const {
    const float d = load(i) - mean;
    return d * d;
  }
};

PARITY_HD float mean_of(float sum, std::int64_t D) { return sum / static_cast<float>(D); }
PARITY_HD float inv_std(float squares, std::int64_t D, float eps) {
  return 1.0f / sqrtf(squares / static_cast<float>(D) + eps);
}
PARITY_HD float normalised(float x, float mean, float inv) { return (x - mean) * inv; }
PARITY_HD float modulated(float n, float scale, float shift) { return n * (1.0f + scale) + shift; }

}  // namespace parity::ops::adaln
