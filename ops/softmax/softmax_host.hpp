#pragma once
// The host twin of parity's softmax kernel: softmax_arith.cuh's arithmetic in its documented
// order. `Policy` lets the mismatch probes (softmax_op.cpp) change single steps; Standard is
// the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/softmax/softmax_arith.cuh>

namespace parity::ops::softmax {

struct Standard {
  static float max(const float* row, std::int64_t N) {
    return row_max([row](std::int64_t i) { return row[i]; }, N);
  }
  // The row's sum of exp(x - m); T is the batch's row count.
  static float sum(const float* row, std::int64_t N, std::int64_t /*T*/, float m) {
    return kernels::host_lane_sum([row, m](std::int64_t i) { return shifted_exp(row[i], m); }, N);
  }
  static float y(float x, float m, float s) { return prob(x, m, s); }
  static float log_y(float x, float m, float s) { return log_prob(x, m, detmath::log_f32(s)); }
};

template <class Policy>
class SoftmaxHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const std::int64_t T = x.dim(0), N = x.dim(1);
    const DType out = call.output_dtype("y");
    const std::vector<float> xv = kernels::host_floats(x);
    Tensor y = Tensor::zeros(out, {T, N}), log_y = Tensor::zeros(out, {T, N});
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv.data() + t * N;
      const float m = Policy::max(row, N);
      const float s = Policy::sum(row, N, T, m);
      for (std::int64_t i = 0; i < N; ++i) {
        kernels::store(y, t * N + i, Policy::y(row[i], m, s));
        kernels::store(log_y, t * N + i, Policy::log_y(row[i], m, s));
      }
    }
    return {{"y", std::move(y)}, {"log_y", std::move(log_y)}};
  }
};

}  // namespace parity::ops::softmax
