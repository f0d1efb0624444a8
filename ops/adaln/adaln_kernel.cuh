#pragma once
// parity's deterministic AdaLN kernel (ops/kernels/host_call.hpp). All float32, one rounding per
// operation, no contraction; per token, both sums in ops/kernels/lane_sum.cuh's fixed order:
//   mean = (sum of x[i]) / float(D);   d[i] = x[i] - mean;
//   inv = 1.0f / sqrtf((sum of d[i] * d[i]) / float(D) + eps);
//   y[i] = ((x[i] - mean) * inv) * (1.0f + scale[i]) + shift[i], rounded once to the output
//   dtype (bf16: round to nearest even).
// The order depends on D alone, never on B, S, the grid or the device. Declared arithmetic:
// reduction_lanes = kLanes; rsqrt as 1 / sqrt (kRsqrtAsDivSqrtUlps).
#include <cmath>
#include <cstdint>
#include <memory>

#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>
#include <parity/ops/framework/op_subject.hpp>
#include <parity/ops/kernels/lane_sum.cuh>

#if !defined(__CUDACC__)  // the host twins' own includes (host_call.hpp)
#include <vector>

#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/kernels/host_call.hpp>
#endif

namespace parity::ops::adaln {

using kernels::kLanes;

inline Arithmetic declared_arithmetic() { return {.reduction_lanes = kLanes, .rsqrt_ulps = kRsqrtAsDivSqrtUlps}; }

// (x[i] - mean)^2 of the element `load(i)` gives.
template <class Load>
struct CentredSquare {
  Load load;
  float mean;
  PARITY_HD float operator()(std::int64_t i) const {
    const float d = load(i) - mean;
    return d * d;
  }
};

PARITY_HD float mean_of(float sum, std::int64_t D) { return sum / static_cast<float>(D); }
PARITY_HD float inv_std(float squares, std::int64_t D, float eps) {
  return 1.0f / sqrtf(squares / static_cast<float>(D) + eps);
}
PARITY_HD float normalised(float x, float mean, float inv) { return (x - mean) * inv; }
PARITY_HD float modulated(float n, float scale, float shift) { return n * (1.0f + scale) + shift; }

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (adaln_op.cpp) be real alternative implementations of single steps; Standard is
// the kernel's own.
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
class AdaLNHost : public kernels::HostTwin<AdaLN, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t B = c.extent("B"), S = c.extent("S"), D = c.extent("D");
    const float eps = c.param("eps");
    const float *x = c.in("x").data(), *scale = c.in("scale").data(), *shift = c.in("shift").data();
    Tensor& y = c.out("y");
    std::vector<float> n(static_cast<std::size_t>(S * D));
    for (std::int64_t b = 0; b < B; ++b) {
      Policy::normalise(x + b * S * D, S, D, eps, n.data());
      const std::int64_t m = Policy::modulation_row(b, B) * D;
      for (std::int64_t k = 0; k < S * D; ++k)
        kernels::store(y, b * S * D + k, Policy::modulate(n[k], scale[m + k % D], shift[m + k % D]));
    }
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (AdaLNHost<Standard>) bit for bit for every input,
// layout and shape: one block of kLanes threads per token, thread l summing its lane in
// ascending order, the lanes folded in the twin's pairwise order, every operation
// this file's. x, scale and shift may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the CUDA call that failed.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::adaln
