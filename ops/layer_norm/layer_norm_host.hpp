#pragma once
// The host twin of parity's LayerNorm kernel: layer_norm_arith.cuh's arithmetic, in its
// documented order, on the CPU. `Policy` lets the mismatch probes (layer_norm_op.cpp) be real
// alternative implementations of single steps; Standard is the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/layer_norm/layer_norm_arith.cuh>

namespace parity::ops::layer_norm {

struct Standard {
  // The mean of a row of D values; T is the batch's row count.
  static float mean(const float* row, std::int64_t D, std::int64_t /*T*/) {
    return row_mean(kernels::host_lane_sum([row](std::int64_t i) { return row[i]; }, D), D);
  }
  // The sum of the row's squared deviations about `mean`, and its variance.
  static float deviations(const float* row, std::int64_t D, float mean) {
    const auto load = [row](std::int64_t i) { return row[i]; };
    return kernels::host_lane_sum(Deviation2<decltype(load)>{load, mean}, D);
  }
  static float var(const float* row, std::int64_t D, float mean) { return row_var(deviations(row, D, mean), D); }
  static float inv(float var, float eps) { return inv_std(var, eps); }
};

template <class Policy>
class LayerNormHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    const auto eps = static_cast<float>(call.param("eps"));
    const bool affine = call.has_input("w");
    const DType out = call.output_dtype("y");
    const std::vector<float> xv = kernels::host_floats(x),
                             wv = affine ? kernels::host_floats(call.input("w")) : std::vector<float>{},
                             bv = affine ? kernels::host_floats(call.input("b")) : std::vector<float>{};
    Tensor y = Tensor::zeros(out, {T, D});
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv.data() + t * D;
      const float mean = Policy::mean(row, D, T);
      const float inv = Policy::inv(Policy::var(row, D, mean), eps);
      for (std::int64_t i = 0; i < D; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const float v = normalise(row[i], mean, inv, affine, affine ? wv[k] : 0.0f, affine ? bv[k] : 0.0f);
        kernels::store(y, t * D + i, v);
      }
    }
    return {{"y", std::move(y)}};
  }
};

}  // namespace parity::ops::layer_norm
