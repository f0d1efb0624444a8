#pragma once
// The host twin of parity's RMSNorm kernel: rms_norm_arith.cuh's arithmetic, in its documented
// order, on the CPU. `Policy` (CUTLASS style) lets the mismatch probes (rms_norm_op.cpp) be
// real alternative implementations of single steps; Standard is the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/rms_norm/rms_norm_arith.cuh>

namespace parity::ops::rms_norm {

struct Standard {
  // The row's sum of squares; `row` holds its D values, T is the batch's row count.
  static float row_sum(const float* row, std::int64_t D, std::int64_t /*T*/) {
    const auto load = [row](std::int64_t i) { return row[i]; };
    return kernels::host_lane_sum(Square<decltype(load)>{load}, D);
  }
  static float inv(float sum, std::int64_t D, std::int64_t /*T*/, float eps) { return inv_rms(sum, D, eps); }
  static std::uint16_t to_bf16(float v) { return bf16_from_float_rne(v); }
};

template <class Policy>
class RmsNormHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return {.reduction_lanes = kLanes, .rsqrt_ulps = 1.0 + 0x1p-20}; }

  OpOutputs run(const OpCall& call) override {
    const Tensor& x = call.input("x");
    const Tensor& w = call.input("w");
    const std::int64_t T = x.dim(0), D = x.dim(1);
    const auto eps = static_cast<float>(call.param("eps"));
    const DType out = call.output_dtype("y");
    const std::vector<double> xd = x.values(), wd = w.values();
    std::vector<float> xv(xd.begin(), xd.end()), wv(wd.begin(), wd.end());
    Tensor y = Tensor::zeros(out, {T, D});
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv.data() + t * D;
      const float inv = Policy::inv(Policy::row_sum(row, D, T), D, T, eps);
      for (std::int64_t i = 0; i < D; ++i) {
        const float v = normalise(row[i], inv, wv[static_cast<std::size_t>(i)]);
        if (out == DType::bf16) y.set_bits(t * D + i, Policy::to_bf16(v));
        else y.set_value(t * D + i, v);
      }
    }
    return {{"y", std::move(y)}};
  }
};

}  // namespace parity::ops::rms_norm
