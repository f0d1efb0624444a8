#pragma once
// The arithmetic of parity's deterministic softmax kernel, shared bit for bit by the CUDA kernel
// (softmax.cu) and its host twin (softmax_host.hpp). All float32, one rounding per operation, no
// contraction:
//   m = the row's maximum, in ascending order (a NaN makes it NaN; of equal values, zeros of
//       either sign among them, the first is kept);
//   s = the sum of exp(x[i] - m) in ops/kernels/lane_sum.cuh's fixed order;
//   y[i] = exp(x[i] - m) / s;   log_y[i] = (x[i] - m) - log(s);
// exp and log are core/detmath.hpp's, rounded once to float32 (0.5 ulp and a double's error),
// each output rounded once to its dtype (bf16, f16: round to nearest even). The order depends
// on N alone, never on T, the grid or the device. Declared arithmetic: reduction_lanes = kLanes,
// exp_ulps = log_ulps = 0.5 + 2^-20.
#include <cstdint>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::softmax {

inline Arithmetic declared_arithmetic() {
  return {.reduction_lanes = kernels::kLanes, .exp_ulps = 0.5 + 0x1p-20, .log_ulps = 0.5 + 0x1p-20};
}

template <class Load>
PARITY_HD float row_max(const Load& load, std::int64_t n) {
  float m = load(0);
  for (std::int64_t i = 1; i < n && m == m; ++i) {
    const float v = load(i);
    if (v != v || v > m) m = v;
  }
  return m;
}

PARITY_HD float shifted_exp(float x, float m) { return detmath::exp_f32(x - m); }
PARITY_HD float prob(float x, float m, float s) { return shifted_exp(x, m) / s; }
PARITY_HD float log_prob(float x, float m, float log_s) { return (x - m) - log_s; }

}  // namespace parity::ops::softmax
