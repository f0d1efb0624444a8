#pragma once
// The host twin of parity's AdaLN kernel: adaln_arith.cuh's arithmetic, in its documented order,
// on the CPU. `Policy` lets the mismatch probes (adaln_op.cpp) be real alternative
// implementations of single steps; Standard is the kernel's own.
#include <cstdint>
#include <memory>
#include <vector>

#include <parity/ops/adaln/adaln_arith.cuh>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>

namespace parity::ops::adaln {

struct Standard {
  // Writes n[s D + i] = the normalised x of one sample's S tokens of D channels.
  static void normalise(const float* x, std::int64_t S, std::int64_t D, float eps, float* n) {
    for (std::int64_t s = 0; s < S; ++s) {
      const float* row = x + s * D;
      const auto load = [row](std::int64_t i) { return row[i]; };
      const float mean = mean_of(kernels::host_lane_sum(load, D), D);
      const float inv = inv_std(kernels::host_lane_sum(CentredSquare<decltype(load)>{load, mean}, D), D, eps);
      for (std::int64_t i = 0; i < D; ++i) n[s * D + i] = normalised(row[i], mean, inv);
    }
  }
  // The sample whose scale and shift modulate sample b of B.
  static std::int64_t modulation_row(std::int64_t b, std::int64_t /*B*/) { return b; }
  static float modulate(float n, float scale, float shift) { return modulated(n, scale, shift); }
};

template <class Policy>
class AdaLNHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t B = call.extent("B"), S = call.extent("S"), D = call.extent("D");
    const auto eps = static_cast<float>(call.param("eps"));
    const std::vector<float> x = kernels::host_floats(call.input("x")),
                             scale = kernels::host_floats(call.input("scale")),
                             shift = kernels::host_floats(call.input("shift"));
    Tensor y = Tensor::zeros(call.output_dtype("y"), {B, S * D});
    std::vector<float> n(static_cast<std::size_t>(S * D));
    for (std::int64_t b = 0; b < B; ++b) {
      Policy::normalise(x.data() + b * S * D, S, D, eps, n.data());
      const std::int64_t m = Policy::modulation_row(b, B) * D;
      for (std::int64_t k = 0; k < S * D; ++k)
        kernels::store(y, b * S * D + k, Policy::modulate(n[k], scale[m + k % D], shift[m + k % D]));
    }
    return {{"y", std::move(y)}};
  }
};

}  // namespace parity::ops::adaln
