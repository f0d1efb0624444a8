#pragma once
// The arithmetic of parity's deterministic linear kernel, shared bit for bit by the CUDA kernel
// (linear.cu) and its host twin (linear_host.hpp). All float32, one rounding per operation, no
// contraction:
//   acc = the sum of x[t, k] * W[n, k] over k in ops/kernels/lane_sum.cuh's fixed order;
//   y[t, n] = acc + b[n] (acc alone without a bias), rounded once to the output dtype (bf16:
//   round to nearest even).
// The order depends on K alone, never on T, N, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes.
#include <cstdint>

#include <parity/core/hd.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

namespace parity::ops::linear {

using kernels::kLanes;

// The product x[k] * W[k] of one row of x and one row of W, as loaded by `lx` and `lw`.
template <class LoadX, class LoadW>
struct Product {
  LoadX lx;
  LoadW lw;
  PARITY_HD float operator()(std::int64_t k) const { return lx(k) * lw(k); }
};

PARITY_HD float add_bias(float acc, bool has_bias, float b) { return has_bias ? acc + b : acc; }

}  // namespace parity::ops::linear
