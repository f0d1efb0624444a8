#pragma once
// The host twin of parity's SwiGLU backward kernel: swiglu_arith.cuh's arithmetic on the CPU.
// `Policy` (as swiglu_host.hpp's) lets the mismatch probes (swiglu_op.cpp) be real
// alternative implementations of single steps; BackwardStandard is the kernel's own.
#include <cstdint>
#include <memory>

#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/swiglu/swiglu_arith.cuh>

namespace parity::ops::swiglu {

struct BackwardStandard {
  static Gradients gradients(float a, float b, float dy) { return swiglu::gradients(a, b, dy); }
  // The columns of dx that receive da and db of column i.
  static std::int64_t da_column(std::int64_t i, std::int64_t /*F*/) { return i; }
  static std::int64_t db_column(std::int64_t i, std::int64_t F) { return F + i; }
  // How many leading columns of each row of dy are differentiated (the rest of dx stays 0), in a
  // batch of T rows.
  static std::int64_t written(std::int64_t /*T*/, std::int64_t F) { return F; }
};

template <class Policy>
class SwigluBackwardHost : public OpSubject {
 public:
  Arithmetic arithmetic() const override { return declared_arithmetic(); }

  OpOutputs run(const OpCall& call) override {
    const std::int64_t T = call.extent("T"), F = call.extent("F");
    const std::vector<float> x = kernels::host_floats(call.input("x")), dy = kernels::host_floats(call.input("dy"));
    Tensor dx = Tensor::zeros(call.output_dtype("dx"), {T, 2 * F});
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = x.data() + t * 2 * F;
      for (std::int64_t i = 0; i < Policy::written(T, F); ++i) {
        const Gradients g = Policy::gradients(row[i], row[F + i], dy[t * F + i]);
        kernels::store(dx, t * 2 * F + Policy::da_column(i, F), g.da);
        kernels::store(dx, t * 2 * F + Policy::db_column(i, F), g.db);
      }
    }
    return {{"dx", std::move(dx)}};
  }
};

}  // namespace parity::ops::swiglu
