// The rms_norm and rms_norm_backward ops as parity ships them: their declarations (rms_norm_op.hpp,
// rms_norm_backward_op.hpp) with parity's kernels (the host twins and the CUDA factories, rms_norm_kernel.cuh),
// LibTorch's references and the mismatch probes below.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <parity/core/bf16.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_op.hpp>
#include <parity/ops/rms_norm/rms_norm_kernel.cuh>
#include <parity/ops/rms_norm/rms_norm_op.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::rms_norm {

// Mismatch probes of rms_norm (HostProbes, framework/op_subject.hpp).
namespace {

// From 128 rows on, another plan divides by D as a multiply by float(1 / D): as launchers
// that switch rows-per-block on the row count do. Same accuracy, other bits.
struct PlanByRows : Standard {
  static float inv(float sum, std::int64_t D, std::int64_t T, float eps) {
    if (T < 128) return inv_rms(sum, D, eps);
    return 1.0f / sqrtf(sum * (1.0f / static_cast<float>(D)) + eps);
  }
};

// Few wide rows (T < 32, D >= 1024): each row split across 4 blocks, their partial sums added
// in order, to fill the device: a split-row plan chosen from the batch.
struct SplitRow : Standard {
  static float row_sum(const float* row, std::int64_t D, std::int64_t T) {
    if (T >= 32 || D < 1024) return Standard::row_sum(row, D, T);
    float total = 0.0f;
    const std::int64_t chunk = (D + 3) / 4;
    for (std::int64_t begin = 0; begin < D; begin += chunk)
      total = total + Standard::row_sum(row + begin, std::min(chunk, D - begin), T);
    return total;
  }
};

// Rows wider than 8192 in a batch of 2 rows or more: each row's sum in 2 blocks of half the row,
// added in order, as a wide-row plan that splits a row across a block pair once the batch is
// large enough to fill the device. Beyond the ordinary cases' D <= 8192: only a reach case
// (op_cases.hpp) draws such rows.
struct WideRowPlan : Standard {
  static float row_sum(const float* row, std::int64_t D, std::int64_t T) {
    if (D <= 8192 || T < 2) return Standard::row_sum(row, D, T);
    const std::int64_t half = (D + 1) / 2;
    return Standard::row_sum(row, half, T) + Standard::row_sum(row + half, D - half, T);
  }
};

// The fast inverse square root (bit trick and one Newton step, relative error up to 1.75e-3),
// far outside the 1-ulp rsqrt the kernel declares.
struct RsqrtApprox : Standard {
  static float inv(float sum, std::int64_t D, std::int64_t /*T*/, float eps) {
    const float a = sum / static_cast<float>(D) + eps;
    std::uint32_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    bits = 0x5f3759dfu - (bits >> 1);
    float r;
    std::memcpy(&r, &bits, sizeof r);
    return r * (1.5f - (0.5f * a) * (r * r));
  }
};

// eps added after the square root: 1 / (sqrt(mean) + eps), as some ports of LayerNorm code do.
struct EpsAfterSqrt : Standard {
  static float inv(float sum, std::int64_t D, std::int64_t /*T*/, float eps) {
    return 1.0f / (sqrtf(sum / static_cast<float>(D)) + eps);
  }
};

// bf16 outputs by truncation instead of round to nearest even.
struct TruncateBf16 : Standard {
  static std::uint16_t to_bf16(float v) { return bf16_from_float_truncate(v); }
};

// parity's kernel with another plan (BuiltinSubjects::other_plan): each row's sum of squares over
// the row reversed, in the same lanes; as accurate, other bits.
struct ReversedRowSum : Standard {
  static float row_sum(const float* row, std::int64_t D, std::int64_t T) {
    return Standard::row_sum(kernels::reversed(row, D).data(), D, T);
  }
};

void register_probes() {
  const HostProbes<RmsNormHost> probes{"rms_norm"};
  probes.add<PlanByRows>("probe-plan-by-rows", "from T >= 128 rows, the mean as a multiply by float(1/D)");
  probes.add<SplitRow>("probe-split-row", "T < 32 rows of D >= 1024: each row's sum split in 4 partial sums");
  probes.add<WideRowPlan>(
      "probe-wide-row-plan",
      "rows of D > 8192 in a batch of 2 or more: each row's sum in 2 halves (a reach case's width)");
  probes.add<RsqrtApprox>("probe-rsqrt-approx", "rsqrt by the bit trick and one Newton step (1.75e-3 relative)");
  probes.add<EpsAfterSqrt>("probe-eps-after-sqrt", "1 / (sqrt(mean(x^2)) + eps) instead of rsqrt(mean(x^2) + eps)");
  probes.add<TruncateBf16>("probe-bf16-truncate", "bf16 outputs truncated instead of rounded to nearest even");
}

}  // namespace

// Mismatch probes of rms_norm_backward (HostProbes, framework/op_subject.hpp).
namespace {

// Few wide rows (T < 32, D >= 1024): the dot split across 4 blocks, their partial sums added in
// order, to fill the device: a split-row plan chosen from the batch.
struct SplitDot : BackwardStandard {
  static float row_dot(const float* x, const float* g, const float* dy, float inv, std::int64_t D, std::int64_t T) {
    if (T >= 32 || D < 1024) return BackwardStandard::row_dot(x, g, dy, inv, D, T);
    float total = 0.0f;
    const std::int64_t chunk = (D + 3) / 4;
    for (std::int64_t begin = 0; begin < D; begin += chunk)
      total = total + BackwardStandard::row_dot(x + begin, g + begin, dy + begin, inv, std::min(chunk, D - begin), T);
    return total;
  }
};

// The mean term from dy instead of g = dy * w: sum_i dy[i] xh[i], the weight forgotten there.
struct DyInMean : BackwardStandard {
  static float row_dot(const float* x, const float* /*g*/, const float* dy, float inv, std::int64_t D, std::int64_t T) {
    return BackwardStandard::row_dot(x, dy, dy, inv, D, T);
  }
};

// g = dy * w stored as bf16 before the dot and the difference, as an unfused backward that
// materialises the gradient of the normalised x in bf16 does.
struct Bf16G : BackwardStandard {
  static float g(float dy, float w) { return round_through_bf16(scaled_gradient(dy, w)); }
};

// inv recomputed without eps: 1 / sqrt(mean(x^2)), where the forward had rsqrt(mean(x^2) + eps).
struct EpsDropped : BackwardStandard {
  static float inv(float sum, std::int64_t D, std::int64_t /*T*/, float /*eps*/) {
    return 1.0f / sqrtf(sum / static_cast<float>(D));
  }
};

// The backward kernel with another plan: each row's dot over the row reversed, in the same lanes.
struct ReversedRowDot : BackwardStandard {
  static float row_dot(const float* x, const float* g, const float* dy, float inv, std::int64_t D, std::int64_t T) {
    return BackwardStandard::row_dot(kernels::reversed(x, D).data(), kernels::reversed(g, D).data(),
                                     kernels::reversed(dy, D).data(), inv, D, T);
  }
};

void register_backward_probes() {
  const HostProbes<RmsNormBackwardHost> probes{"rms_norm_backward"};
  probes.add<SplitDot>("probe-split-dot",
                       "T < 32 rows of D >= 1024: each row's dot sum_i g[i] xh[i] split in 4 partial sums");
  probes.add<DyInMean>("probe-dy-in-mean", "the mean term sum_i dy[i] xh[i] / D, without the weight w");
  probes.add<Bf16G>("probe-bf16-g", "g = dy * w rounded to bf16 before the mean and the difference");
  probes.add<EpsDropped>("probe-eps-dropped", "inv recomputed as 1 / sqrt(mean(x^2)), eps dropped");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<RmsNorm>(
      {.kernel = "parity's deterministic RMSNorm kernel",
       .make_host = &make_op_subject<RmsNormHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(torch_op_reference(
           RmsNorm::declaration(),
           {.schema = "aten::rms_norm", .args = {{"x", "input"}, {"w", "weight"}, {"normalized_shape", "[D]"}}},
           "LibTorch's aten::rms_norm on the CPU, by schema name")),
       .register_probes = &register_probes,
       .other_plan = &make_op_subject<RmsNormHost<ReversedRowSum>>});
}

const gen::Family& backward_family() {
  return shipped_op_family<RmsNormBackward>(
      {.kernel = "parity's deterministic RMSNorm backward kernel",
       .make_host = &make_op_subject<RmsNormBackwardHost<BackwardStandard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_backward_kernel),
       .torch = PARITY_OP_TORCH(torch_subject("LibTorch's autograd through at::rms_norm on the CPU",
                                              &make_torch_cpu_backward, &torch_unavailable_reason)),
       .register_probes = &register_backward_probes,
       .other_plan = &make_op_subject<RmsNormBackwardHost<ReversedRowDot>>});
}

}  // namespace parity::ops::rms_norm
