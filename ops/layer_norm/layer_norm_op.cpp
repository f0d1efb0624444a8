// The layer_norm op as parity ships it: its declaration (layer_norm_op.hpp) with parity's kernel (the host twin and
// the CUDA factory, layer_norm_kernel.cuh), LibTorch's reference and the mismatch probes below.
#include <algorithm>
#include <cmath>

#include <parity/ops/framework/builtin_subjects.hpp>
#include <parity/ops/kernels/host_io.hpp>
#include <parity/ops/layer_norm/layer_norm_kernel.cuh>
#include <parity/ops/layer_norm/layer_norm_op.hpp>
#include <parity/ops/torch_op/torch_op.hpp>

namespace parity::ops::layer_norm {

// Mismatch probes of layer_norm (HostProbes, framework/op_subject.hpp).
namespace {

// One pass over the row, var = E[x^2] - E[x]^2 (clamped at 0), as Welford-less fused kernels do:
// it cancels catastrophically where the mean is large against the spread.
struct OnePassVariance : Standard {
  static float var(const float* row, std::int64_t D, float mean) {
    const float squares = kernels::host_lane_sum([row](std::int64_t i) { return row[i] * row[i]; }, D);
    return std::max(row_var(squares, D) - mean * mean, 0.0f);
  }
};

// From 128 rows on, another plan takes the mean as a multiply by float(1 / D): as launchers that
// switch rows-per-block on the row count do. Same accuracy, other bits.
struct PlanByRows : Standard {
  static float mean(const float* row, std::int64_t D, std::int64_t T) {
    if (T < 128) return Standard::mean(row, D, T);
    return kernels::host_lane_sum([row](std::int64_t i) { return row[i]; }, D) * (1.0f / static_cast<float>(D));
  }
};

// eps added after the square root: 1 / (sqrt(var) + eps).
struct EpsAfterSqrt : Standard {
  static float inv(float var, float eps) { return 1.0f / (sqrtf(var) + eps); }
};

// The unbiased variance (sum / (D - 1), torch.var's default) where LayerNorm's is biased.
struct UnbiasedVariance : Standard {
  static float var(const float* row, std::int64_t D, float mean) {
    return deviations(row, D, mean) / static_cast<float>(D - 1);
  }
};

// parity's kernel with another plan (BuiltinSubjects::other_plan): each row's mean and squared
// deviations over the row reversed, in the same lanes; as accurate, other bits.
struct ReversedRow : Standard {
  static float mean(const float* row, std::int64_t D, std::int64_t T) {
    return Standard::mean(kernels::reversed(row, D).data(), D, T);
  }
  static float var(const float* row, std::int64_t D, float mean) {
    return row_var(Standard::deviations(kernels::reversed(row, D).data(), D, mean), D);
  }
};

void register_probes() {
  const HostProbes<LayerNormHost> probes{"layer_norm"};
  probes.add<OnePassVariance>("probe-one-pass-variance",
                              "var = E[x^2] - E[x]^2 in one pass (cancels for a large mean)");
  probes.add<PlanByRows>("probe-plan-by-rows", "from T >= 128 rows, the mean as a multiply by float(1/D)");
  probes.add<EpsAfterSqrt>("probe-eps-after-sqrt", "1 / (sqrt(var) + eps) instead of rsqrt(var + eps)");
  probes.add<UnbiasedVariance>("probe-unbiased-variance", "the variance divided by D - 1 instead of D");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<LayerNorm>(
      {.kernel = "parity's deterministic LayerNorm kernel",
       .make_host = &make_op_subject<LayerNormHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(
           torch_op_reference(LayerNorm::declaration(),
                              {.schema = "aten::layer_norm",
                               .args = {{"x", "input"}, {"w", "weight"}, {"b", "bias"}, {"normalized_shape", "[D]"}}},
                              "LibTorch's aten::layer_norm on the CPU, by schema name")),
       .register_probes = &register_probes,
       .other_plan = &make_op_subject<LayerNormHost<ReversedRow>>});
}

}  // namespace parity::ops::layer_norm
