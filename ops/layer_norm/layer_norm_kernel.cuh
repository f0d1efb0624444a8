#pragma once
// parity's deterministic LayerNorm kernel (ops/kernels/host_call.hpp). All float32, one rounding
// per operation, no contraction; two passes over the row, each sum in ops/kernels/lane_sum.cuh's
// fixed order:
//   mean = (sum of x[i]) / float(D);   var = (sum of (x[i] - mean) * (x[i] - mean)) / float(D);
//   inv = 1.0f / sqrtf(var + eps);     y[i] = (x[i] - mean) * inv, then * w[i] + b[i] with the
//   affine; rounded once to the output dtype (bf16: round to nearest even).
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

#include <parity/ops/kernels/host_call.hpp>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#endif

namespace parity::ops::layer_norm {

using kernels::kLanes;

// What the kernel and its twin declare (ops/framework/arithmetic.hpp).
inline Arithmetic declared_arithmetic() { return {.reduction_lanes = kLanes, .rsqrt_ulps = kRsqrtAsDivSqrtUlps}; }

// The squared deviation (x[i] - mean)^2 of the element `load(i)` gives.
template <class Load>
struct Deviation2 {
  Load load;
  float mean;
  PARITY_HD float operator()(std::int64_t i) const {
    const float d = load(i) - mean;
    return d * d;
  }
};

PARITY_HD float row_mean(float sum, std::int64_t D) { return sum / static_cast<float>(D); }
PARITY_HD float row_var(float squares, std::int64_t D) { return squares / static_cast<float>(D); }
PARITY_HD float inv_std(float var, float eps) { return 1.0f / sqrtf(var + eps); }

PARITY_HD float normalise(float x, float mean, float inv, bool affine, float w, float b) {
  const float normed = (x - mean) * inv;
  return affine ? normed * w + b : normed;
}

#if !defined(__CUDACC__)  // the host twins (host_call.hpp)

// The host twin: the arithmetic above, in its documented order, on the CPU. `Policy` lets the
// mismatch probes (layer_norm_op.cpp) be real alternative implementations of single steps; Standard is
// the kernel's own.
struct Standard {
  // The mean of a row of D values; T is the batch's row count.
  static float mean(const float* row, std::int64_t D, std::int64_t /*T*/) {
    return row_mean(kernels::host_lane_sum([row](std::int64_t i) { return row[i]; }, D), D);
  }
  // The sum of the row's squared deviations about `mean`, and its variance.
  static float deviations(const float* row, std::int64_t D, float mean) {
    const auto load = [row](std::int64_t i) { return row[i]; };
    return kernels::host_lane_sum(Deviation2<decltype(load)>{load, mean}, D);
  }
  static float var(const float* row, std::int64_t D, float mean) { return row_var(deviations(row, D, mean), D); }
  static float inv(float var, float eps) { return inv_std(var, eps); }
};

template <class Policy>
class LayerNormHost : public kernels::HostTwin<LayerNorm, &declared_arithmetic> {
 public:
  void rows(kernels::HostCall& c) const override {
    const std::int64_t T = c.extent("T"), D = c.extent("D");
    const float eps = c.param("eps");
    const bool affine = c.has("w");
    const float* xv = c.in("x").data();
    const float *wv = affine ? c.in("w").data() : nullptr, *bv = affine ? c.in("b").data() : nullptr;
    Tensor& y = c.out("y");
    for (std::int64_t t = 0; t < T; ++t) {
      const float* row = xv + t * D;
      const float mean = Policy::mean(row, D, T);
      const float inv = Policy::inv(Policy::var(row, D, mean), eps);
      for (std::int64_t i = 0; i < D; ++i)
        kernels::store(y, t * D + i,
                       normalise(row[i], mean, inv, affine, affine ? wv[i] : 0.0f, affine ? bv[i] : 0.0f));
    }
  }
};

#endif  // !__CUDACC__

// A subject whose y equals the host twin's (LayerNormHost<Standard>) bit for bit for every
// input, layout and shape: one block of kLanes threads per row, two lane sums (the mean, then
// the squared deviations) each folded in the twin's pairwise order, every operation
// this file's. x, w and b may have any strides and offset; y is contiguous. Runs
// synchronously on the current device; throws std::runtime_error naming the failed CUDA call.
std::unique_ptr<OpSubject> make_cuda_kernel();

}  // namespace parity::ops::layer_norm
