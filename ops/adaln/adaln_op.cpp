// The adaln op as parity ships it: its declaration (adaln_op.hpp) with parity's kernel (the host twin and
// the CUDA factory, adaln_kernel.cuh), LibTorch's reference and the mismatch probes below.
#include <algorithm>

#include <parity/ops/adaln/adaln_kernel.cuh>
#include <parity/ops/adaln/adaln_op.hpp>
#include <parity/ops/framework/builtin_subjects.hpp>

namespace parity::ops::adaln {

// Mismatch probes of adaln (HostProbes, framework/op_subject.hpp).
namespace {

// The modulation as n * scale + shift: adaLN-Zero's "1 +" forgotten.
struct ScaleNotOnePlus : Standard {
  static float modulate(float n, float scale, float shift) { return n * scale + shift; }
};

// For B > 8 the launcher runs chunks of 8 samples and passes the modulation's base pointer
// unadvanced: sample b reads the scale and shift of sample b % 8.
struct WrongSample : Standard {
  static std::int64_t modulation_row(std::int64_t b, std::int64_t B) { return B > 8 ? b % 8 : b; }
};

// The norm over the tokens (axis S, per channel) instead of over the channels of a token.
struct WrongAxis : Standard {
  static void normalise(const float* x, std::int64_t S, std::int64_t D, float eps, float* n) {
    for (std::int64_t i = 0; i < D; ++i) {
      const auto load = [x, i, D](std::int64_t s) { return x[s * D + i]; };
      const float mean = mean_of(kernels::host_lane_sum(load, S), S);
      const float inv = inv_std(kernels::host_lane_sum(CentredSquare<decltype(load)>{load, mean}, S), S, eps);
      for (std::int64_t s = 0; s < S; ++s) n[s * D + i] = normalised(x[s * D + i], mean, inv);
    }
  }
};

// The one-pass variance mean(x^2) - mean^2 (clamped at 0, as fused kernels that keep one pass
// over the data do): it cancels where the mean is large against the spread.
struct OnePassVariance : Standard {
  static void normalise(const float* x, std::int64_t S, std::int64_t D, float eps, float* n) {
    for (std::int64_t s = 0; s < S; ++s) {
      const float* row = x + s * D;
      const float mean = mean_of(kernels::host_lane_sum([row](std::int64_t i) { return row[i]; }, D), D);
      const float squares = mean_of(kernels::host_lane_sum([row](std::int64_t i) { return row[i] * row[i]; }, D), D);
      const float inv = 1.0f / sqrtf(std::max(squares - mean * mean, 0.0f) + eps);
      for (std::int64_t i = 0; i < D; ++i) n[s * D + i] = normalised(row[i], mean, inv);
    }
  }
};

void register_probes() {
  const HostProbes<AdaLNHost> probes{"adaln"};
  probes.add<ScaleNotOnePlus>("probe-scale-not-one-plus",
                              "y = norm(x) * scale + shift: the 1 + of the modulation forgotten");
  probes.add<WrongSample>("probe-wrong-sample", "for B > 8, sample b modulated by the scale and shift of sample b % 8");
  probes.add<WrongAxis>("probe-wrong-axis",
                        "the norm over the S tokens of each channel instead of the D channels of each token");
  probes.add<OnePassVariance>("probe-one-pass-variance", "var = mean(x^2) - mean^2, which cancels for an offset mean");
}

}  // namespace

const gen::Family& family() {
  return shipped_op_family<AdaLN>(
      {.kernel = "parity's deterministic AdaLN kernel",
       .make_host = &make_op_subject<AdaLNHost<Standard>>,
       .make_cuda = PARITY_OP_CUDA_KERNEL(&make_cuda_kernel),
       .torch = PARITY_OP_TORCH(
           torch_subject("LibTorch's at::layer_norm(x) * (1 + scale) + shift on the CPU", &make_torch_cpu)),
       .register_probes = &register_probes});
}

}  // namespace parity::ops::adaln
