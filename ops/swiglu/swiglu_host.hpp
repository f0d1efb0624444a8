#pragma once
// The host twin of parity's SwiGLU kernel: swiglu_arith.cuh's arithmetic on the CPU. `Policy`
// (CUTLASS style) lets the mismatch probes (swiglu_op.cpp) be real alternative
// implementations of single steps; Standard is the kernel's own.
#include <cstdint>
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/swiglu/swiglu_arith.cuh>

namespace parity::ops::swiglu {

struct Standard {
  static float silu(float a) { return swiglu::silu(a); }
  // The silu as the multiply reads it (a kernel that stores it first rounds it here).
  static float stored(float s) { return s; }
  // The column of x holding the gate and the value of output column i.
  static std::int64_t gate(std::int64_t i, std::int64_t /*F*/) { return i; }
  static std::int64_t value(std::int64_t i, std::int64_t F) { return F + i; }
  // How many leading columns of each row are written (the rest stay 0).
  static std::int64_t written(std::int64_t F) { return F; }
};

template <class Policy>
class SwigluHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), F = call.extent("F");
    const std::vector<float> x = kernels::host_floats(call.input("x"));
    Tensor y = Tensor::zeros(call.output_dtype("y"), {T, F});
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = x.data() + t * 2 * F;
      for (std::int64_t i = 0; i < Policy::written(F); ++i)
        kernels::store(y, t * F + i,
                       gated(Policy::stored(Policy::silu(row[Policy::gate(i, F)])), row[Policy::value(i, F)]));
    }
    return {{"y", std::move(y)}};
  }
};

}  // namespace parity::ops::swiglu
