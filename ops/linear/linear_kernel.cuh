#pragma once
// parity's deterministic linear kernel (ops/kernels/host_call.hpp). All float32, one rounding per
// operation, no contraction:
//   acc = the sum of x[t, k] * W[n, k] over k in ops/kernels/lane_sum.cuh's fixed order;
//   y[t, n] = acc + b[n] (acc alone without a bias), rounded once to the output dtype (bf16:
//   round to nearest even).
// The order depends on K alone, never on T, N, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes. Plain C++ for its callers.
#include <cstdint>
#include <memory>

#include <parity/core/hd.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <vector>

#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/linear/linear_op.hpp>
#endif

namespace parity::ops::linear {

using kernels::kLanes;

// What the kernels and their twins declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.reduction_lanes = kLanes}; }

// The product x[k] * W[k] of one row of x and one row of W, as loaded by `lx` and `lw`.
template <class LoadX, class LoadW>
struct Product {
  LoadX lx;
  LoadW lw;
  PARITY_HD float operator()(std::int64_t k) const { return lx(k) * lw(k); }
};

PARITY_HD float add_bias(float acc, bool has_bias, float b) { return has_bias ? acc + b : acc; }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (linear_op.cpp) be real alternative implementations of single steps; Standard
// is the kernel's own.
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
class LinearHost : public kernels::HostTwin<Linear, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), K = c.extent("K"), N = c.extent("N");
    const bool has_bias = c.has("b");
    const float *x = c.in("x").data(), *w = c.in("W").data(), *b = has_bias ? c.in("b").data() : nullptr;
    Tensor& y = c.out("y");
    for (std::int64_t t = 0; t < T; ++t)
      for (std::int64_t n = 0; n < N; ++n) {
        const float acc = Policy::dot(x + t * K, w + n * K, K, T);
        kernels::store(y, t * N + n, Policy::epilogue(acc, has_bias, has_bias ? b[n] : 0.0f));
      }
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (LinearHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per output element, thread l summing its lane of
// the K products in ascending order, the lanes folded in the twin's pairwise order, every
// operation this file's. x, W and b may have any strides and offset; y is contiguous.
// Runs synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::linear
