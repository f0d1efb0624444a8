#pragma once
// The host twin of parity's RMSNorm backward kernel: rms_norm_arith.cuh's arithmetic in the CUDA
// kernel's order (rms_norm.cu), on the CPU: per row, inv as the forward's, g, the dot and mu, then
// dx. `Policy` lets the mismatch probes (rms_norm_op.cpp) change single steps;
// BackwardStandard is the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>

namespace parity::ops::rms_norm {

struct BackwardStandard : Standard {
  static float g(float dy, float w) { return scaled_gradient(dy, w); }
  // The row's dot sum_i g[i] * (x[i] * inv) over its D values; dy is the row's output gradient
  // (which the kernel reads only through g), T the batch's row count.
  static float row_dot(const float* x, const float* g, const float* /*dy*/, float inv, std::int64_t D,
                       std::int64_t /*T*/) {
    const auto load_g = [g](std::int64_t i) { return g[i]; };
    const auto load_x = [x](std::int64_t i) { return x[i]; };
    return kernels::host_lane_sum(GradientDot<decltype(load_g), decltype(load_x)>{load_g, load_x, inv}, D);
  }
};

template <class Policy>
class RmsNormBackwardHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    const auto eps = static_cast<float>(call.param("eps"));
    const std::vector<float> xv = kernels::host_floats(x), wv = kernels::host_floats(call.input("w")),
                             dyv = kernels::host_floats(call.input("dy"));
    Tensor dx = Tensor::zeros(call.output_dtype("dx"), {T, D});
    std::vector<float> g(static_cast<std::size_t>(D));
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv.data() + t * D;
      const float* dy = dyv.data() + t * D;
      const float inv = Policy::inv(Policy::row_sum(row, D, T), D, T, eps);
      for (std::int64_t i = 0; i < D; ++i)
        g[static_cast<std::size_t>(i)] = Policy::g(dy[i], wv[static_cast<std::size_t>(i)]);
      const float mu = gradient_mean(Policy::row_dot(row, g.data(), dy, inv, D, T), D);
      for (std::int64_t i = 0; i < D; ++i)
        kernels::store(dx, t * D + i, input_gradient(row[i], g[static_cast<std::size_t>(i)], inv, mu));
    }
    return {{"dx", std::move(dx)}};
  }
};

}  // namespace parity::ops::rms_norm
