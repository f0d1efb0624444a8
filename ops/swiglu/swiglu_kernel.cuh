#pragma once
// parity's deterministic SwiGLU kernels, forward and backward (ops/kernels/host_call.hpp). All
// float32, one rounding per operation, no contraction: y = (a / (1.0f + exp(-a))) * b; the
// backward's sig = 1.0f / (1.0f + exp(-a)), da = (dy * b) * (sig * (1.0f + a * (1.0f - sig))),
// db = dy * (a / (1.0f + exp(-a))); each output rounded once to its dtype (bf16: round to nearest
// even). exp is core/detmath.hpp's rounded once to float32 (0.5 ulp and a double's
// error): declared exp_ulps = 0.5 + 2^-20, as softmax's. No element depends on another.
#include <cstdint>
#include <memory>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <vector>

#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/swiglu/swiglu_backward_op.hpp>
#include <parity/ops/swiglu/swiglu_op.hpp>
#endif

namespace parity::ops::swiglu {

// What the kernels and their twins declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.exp_ulps = 0.5 + 0x1p-20}; }

PARITY_HD float silu(float a) { return a / (1.0f + detmath::exp_f32(-a)); }
PARITY_HD float gated(float silu_a, float b) { return silu_a * b; }

PARITY_HD float sigmoid(float a) { return 1.0f / (1.0f + detmath::exp_f32(-a)); }
// silu'(a) = sig (1 + a (1 - sig)), sig = sigmoid(a): the form fused gate backwards take (and the
// model's feed-forward backward, which runs this op's backward kernel).
PARITY_HD float silu_derivative(float a) {
  const float sig = sigmoid(a);
  return sig * (1.0f + a * (1.0f - sig));
}

// The gradients of one element's y = silu(a) b given dy: da = (dy b) silu'(a), db = dy silu(a).
struct Gradients {
  float da, db;
};
PARITY_HD Gradients gradients(float a, float b, float dy) { return {(dy * b) * silu_derivative(a), dy * silu(a)}; }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above on the CPU. `Policy` (CUTLASS style) lets the mismatch probes
// (swiglu_op.cpp) be real alternative implementations of single steps; Standard is the kernel's own.
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
class SwigluHost : public kernels::HostTwin<Swiglu, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), F = c.extent("F");
    const float* x = c.in("x").data();
    Tensor& y = c.out("y");
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = x + t * 2 * F;
      for (std::int64_t i = 0; i < Policy::written(F); ++i)
        kernels::store(y, t * F + i,
                       gated(Policy::stored(Policy::silu(row[Policy::gate(i, F)])), row[Policy::value(i, F)]));
    }
  }
};

// The backward's host twin, its `Policy` as the forward's; BackwardStandard is the kernel's own.
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
class SwigluBackwardHost : public kernels::HostTwin<SwigluBackward, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), F = c.extent("F");
    const float *x = c.in("x").data(), *dy = c.in("dy").data();
    Tensor& dx = c.out("dx");
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = x + t * 2 * F;
      for (std::int64_t i = 0; i < Policy::written(T, F); ++i) {
        const Gradients g = Policy::gradients(row[i], row[F + i], dy[t * F + i]);
        kernels::store(dx, t * 2 * F + Policy::da_column(i, F), g.da);
        kernels::store(dx, t * 2 * F + Policy::db_column(i, F), g.db);
      }
    }
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (SwigluHost<Standard>) bit for bit for every input,
// layout and shape: one thread per output element, every operation this file's. x may
// have any strides and offset; y is contiguous. Runs synchronously on the current device;
// throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
// The backward's: dx equals SwigluBackwardHost<BackwardStandard>'s bit for bit,
// one thread per element of dy writing its da and db; x and dy may have any
// strides and offsets.
std::unique_ptr<OpSubject> make_cuda_backward_kernel();

}  // namespace parity::ops::swiglu
