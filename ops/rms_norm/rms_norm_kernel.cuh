#pragma once
// parity's deterministic RMSNorm kernels, forward and backward (ops/kernels/host_call.hpp). All
// float32, one rounding per operation, no contraction:
//   the row's sum of squares x[i] * x[i] in ops/kernels/lane_sum.cuh's fixed order;
//   inv = 1.0f / sqrtf(sum / float(D) + eps);   y[i] = (x[i] * inv) * w[i], rounded once to
//   the output dtype (bf16, f16: round to nearest even).
// The backward (rms_norm_backward_op.hpp) recomputes inv exactly so, then
//   g[i] = dy[i] * w[i];   xh[i] = x[i] * inv;
//   dot = the row's sum of g[i] * xh[i] in the same lane order;   mu = dot / float(D);
//   dx[i] = inv * (g[i] - xh[i] * mu), rounded once to the output dtype.
// The order depends on D alone, never on T, the grid or the device. Declared arithmetic
// (ops/framework/arithmetic.hpp): reduction_lanes = kLanes; rsqrt as 1 / sqrt, kRsqrtAsDivSqrtUlps.
#include <cmath>
#include <cstdint>
#include <memory>

#include <parity/core/hd.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_op.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>
#endif

namespace parity::ops::rms_norm {

using kernels::kLanes;

// What the kernels and their twins declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.reduction_lanes = kLanes, .rsqrt_ulps = kRsqrtAsDivSqrtUlps}; }

// The square x[i] * x[i] of the element `load(i)` gives, as float.
template <class Load>
struct Square {
  Load load;
  PARITY_HD float operator()(std::int64_t i) const {
    const float v = load(i);
    return v * v;
  }
};

PARITY_HD float inv_rms(float sum, std::int64_t D, float eps) {
  return 1.0f / sqrtf(sum / static_cast<float>(D) + eps);
}

PARITY_HD float normalise(float x, float inv, float w) { return (x * inv) * w; }

// The backward's g[i] = dy[i] * w[i].
PARITY_HD float scaled_gradient(float dy, float w) { return dy * w; }

// The term g[i] * (x[i] * inv) of the backward's dot, g(i) and x(i) as the loads give them.
template <class G, class X>
struct GradientDot {
  G g;
  X x;
  float inv;
  PARITY_HD float operator()(std::int64_t i) const { return g(i) * (x(i) * inv); }
};

PARITY_HD float gradient_mean(float dot, std::int64_t D) { return dot / static_cast<float>(D); }

PARITY_HD float input_gradient(float x, float g, float inv, float mu) { return inv * (g - (x * inv) * mu); }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (rms_norm_op.cpp) be real alternative implementations of single steps; Standard is
// the kernel's own.
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
class RmsNormHost : public kernels::HostTwin<RmsNorm, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), D = c.extent("D");
    const float eps = c.param("eps");
    const std::vector<float>&xv = c.in("x"), &wv = c.in("w");
    Tensor& y = c.out("y");
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv.data() + t * D;
      const float inv = Policy::inv(Policy::row_sum(row, D, T), D, T, eps);
      for (std::int64_t i = 0; i < D; ++i) {
        const float v = normalise(row[i], inv, wv[static_cast<std::size_t>(i)]);
        if (y.dtype() == DType::bf16) y.set_bits(t * D + i, Policy::to_bf16(v));
        else y.set_value(t * D + i, v);
      }
    }
  }
};

// The backward's host twin: the arithmetic above in the CUDA kernel's order (rms_norm.cu), on the
// CPU: per row, inv as the forward's, g, the dot and mu, then dx. `Policy` lets the mismatch probes
// (rms_norm_op.cpp) change single steps; BackwardStandard is the kernel's own.
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
class RmsNormBackwardHost : public kernels::HostTwin<RmsNormBackward, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), D = c.extent("D");
    const float eps = c.param("eps");
    const std::vector<float>&xv = c.in("x"), &wv = c.in("w"), &dyv = c.in("dy");
    Tensor& dx = c.out("dx");
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
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (RmsNormHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per row, thread l summing its lane in ascending
// order, the lanes folded in the twin's pairwise order, every operation this file's.
// x and w may have any strides and offset; y is contiguous. Runs synchronously on the current
// device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();
// The backward's: dx equals RmsNormBackwardHost<BackwardStandard>'s bit for
// bit, the same way (one block per row, the sum of squares and then the dot in
// the twin's lane order); x, w and dy may have any strides and offset, dx is
// contiguous.
std::unique_ptr<OpSubject> make_cuda_backward_kernel();

}  // namespace parity::ops::rms_norm
