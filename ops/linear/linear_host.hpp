#pragma once
// The host twin of parity's linear kernel: linear_arith.cuh's arithmetic, in its documented
// order, on the CPU. `Policy` lets the mismatch probes (linear_op.cpp) be real alternative
// implementations of single steps; Standard is the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/linear/linear_arith.cuh>

namespace parity::ops::linear {

struct Standard {
  // The dot product of a row of x and a row of W, K long; T is the batch's row count.
  static float dot(const float* x, const float* w, std::int64_t K, std::int64_t /*T*/) {
    const auto lx = [x](std::int64_t k) { return x[k]; };
    const auto lw = [w](std::int64_t k) { return w[k]; };
    return kernels::host_lane_sum(Product<decltype(lx), decltype(lw)>{lx, lw}, K);
  }
  static float epilogue(float acc, bool has_bias, float b) { return add_bias(acc, has_bias, b); }
};

template <class Policy>
class LinearHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("W");
    const std::int64_t T = x.dim(0), K = x.dim(1), N = w.dim(0);
    const bool has_bias = call.has_input("b");
    const DType out = call.output_dtype("y");
    const std::vector<float> xv = kernels::host_floats(x), wv = kernels::host_floats(w),
                             bv = has_bias ? kernels::host_floats(call.input("b")) : std::vector<float>{};
    Tensor y = Tensor::zeros(out, {T, N});
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t n = 0; n < N; ++n) {
        const float acc = Policy::dot(xv.data() + t * K, wv.data() + n * K, K, T);
        const float v = Policy::epilogue(acc, has_bias, has_bias ? bv[static_cast<std::size_t>(n)] : 0.0f);
        kernels::store(y, t * N + n, v);
      }
    return {{"y", std::move(y)}};
  }
};

}  // namespace parity::ops::linear
