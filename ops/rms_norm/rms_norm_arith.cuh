#pragma once
// The arithmetic of parity's deterministic RMSNorm kernel, shared bit for bit by the CUDA kernel
// (rms_norm.cu) and its host twin (rms_norm_host.hpp). All float32, one rounding per operation, no
// contraction:
//   the row's sum of squares x[i] * x[i] in ops/kernels/lane_sum.cuh's fixed order;
//   inv = 1.0f / sqrtf(sum / float(D) + eps);   y[i] = (x[i] * inv) * w[i], rounded once to
//   the output dtype (bf16, f16: round to nearest even).
// The backward (rms_norm_backward_op.hpp) recomputes inv exactly so, then
//   g[i] = dy[i] * w[i];   xh[i] = x[i] * inv;
//   dot = the row's sum of g[i] * xh[i] in the same lane order;   mu = dot / float(D);
//   dx[i] = inv * (g[i] - xh[i] * mu), rounded once to the output dtype.
// The order depends on D alone, never on T, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes; rsqrt as 1 / sqrt is two correct
// roundings, a relative error of at most 2u / (1 - u) < 2 (1 + 2^-20) u, i.e. rsqrt_ulps 1 + 2^-20.
#include <cmath>
#include <cstdint>

#include <parity/core/hd.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::rms_norm {

using kernels::kLanes;

// The square x[i] * x[i] of the element `load(i)` gives, as float.
template <class Load>
struct Square {
  Load load;
  PARITY_HD float operator()(std::int64_t i) const {
    const float v = load(i);
    return v * v;
  }
};

PARITY_HD float inv_rms(float sum, std::int64_t D, float eps) {
  return 1.0f / sqrtf(sum / static_cast<float>(D) + eps);
}

PARITY_HD float normalise(float x, float inv, float w) { return (x * inv) * w; }

// The backward's g[i] = dy[i] * w[i].
PARITY_HD float scaled_gradient(float dy, float w) { return dy * w; }

// The term g[i] * (x[i] * inv) of the backward's dot, g(i) and x(i) as the loads give them.
template <class G, class X>
struct GradientDot {
  G g;
  X x;
  float inv;
  PARITY_HD float operator()(std::int64_t i) const { return g(i) * (x(i) * inv); }
};

PARITY_HD float gradient_mean(float dot, std::int64_t D) { return dot / static_cast<float>(D); }

PARITY_HD float input_gradient(float x, float g, float inv, float mu) { return inv * (g - (x * inv) * mu); }

}  // namespace parity::ops::rms_norm
