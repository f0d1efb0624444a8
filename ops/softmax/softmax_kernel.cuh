#pragma once
// parity's deterministic softmax kernel (ops/kernels/host_call.hpp). All float32, one rounding per
// operation, no contraction:
//   m = the row's maximum, in ascending order (a NaN makes it NaN; of equal values, zeros of
//       either sign among them, the first is kept);
//   s = the sum of exp(x[i] - m) in ops/kernels/lane_sum.cuh's fixed order;
//   y[i] = exp(x[i] - m) / s;   log_y[i] = (x[i] - m) - log(s);
// exp and log are core/detmath.hpp's, rounded once to float32 (0.5 ulp and a double's error), each
// output rounded once to its dtype (bf16, f16: round to nearest even). The order depends on N
// alone, never on T, the grid or the device. Declared arithmetic: reduction_lanes = kLanes,
// exp_ulps = log_ulps = 0.5 + 2^-20.
#include <cstdint>
#include <memory>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <vector>

#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/softmax/softmax_op.hpp>
#endif

namespace parity::ops::softmax {

inline Arithmetic declared_arithmetic() {
  return {.reduction_lanes = kernels::kLanes, .exp_ulps = 0.5 + 0x1p-20, .log_ulps = 0.5 + 0x1p-20};
}

template <class Load>
PARITY_HD float row_max(const Load& load, std::int64_t n) {
  float m = load(0);
  for (std::int64_t i = 1; i < n && m == m; ++i) {
    const float v = load(i);
    if (v != v || v > m) m = v;
  }
  return m;
}

PARITY_HD float shifted_exp(float x, float m) { return detmath::exp_f32(x - m); }
PARITY_HD float prob(float x, float m, float s) { return shifted_exp(x, m) / s; }
PARITY_HD float log_prob(float x, float m, float log_s) { return (x - m) - log_s; }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (softmax_op.cpp) be real alternative implementations of single steps; Standard is
// the kernel's own.
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
class SoftmaxHost : public kernels::HostTwin<Softmax, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), N = c.extent("N");
    const float* xv = c.in("x").data();
    Tensor &y = c.out("y"), &log_y = c.out("log_y");
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv + t * N;
      const float m = Policy::max(row, N);
      const float s = Policy::sum(row, N, T, m);
      for (std::int64_t i = 0; i < N; ++i) {
        kernels::store(y, t * N + i, Policy::y(row[i], m, s));
        kernels::store(log_y, t * N + i, Policy::log_y(row[i], m, s));
      }
    }
  }
};

#endif  // !__CUDACC__

// A subject whose y and log_y equal the host twin's (SoftmaxHost<Standard>) bit for bit for every
// input, layout and shape: one block of kLanes threads per row, its maximum taken by one thread
// in ascending order, thread l summing its lane of exp(x - m) in ascending order, the lanes folded
// in the twin's pairwise order, every operation this file's. x may have any strides and
// offset; y and log_y are contiguous. Runs synchronously on the current device; throws
// std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::softmax
