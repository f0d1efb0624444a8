// Mismatch probes of rms_norm_backward: the backward kernel with one realistic step changed, each
// of which the generic properties must catch (parity probes rms_norm_backward). They inherit the
// kernel's declared arithmetic: a probe that breaks that promise is exactly what must be caught.
#include <algorithm>
#include <cmath>

#include <parity/core/bf16.hpp>
#include <parity/ops/rms_norm/rms_norm_backward_host.hpp>
#include <parity/ops/rms_norm/rms_norm_subjects.hpp>

namespace parity::ops::rms_norm {
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

}  // namespace

void register_backward_probes() {
  const HostProbes<RmsNormBackwardHost> probes{"rms_norm_backward"};
  probes.add<SplitDot>("probe-split-dot",
                       "T < 32 rows of D >= 1024: each row's dot sum_i g[i] xh[i] split in 4 partial sums");
  probes.add<DyInMean>("probe-dy-in-mean", "the mean term sum_i dy[i] xh[i] / D, without the weight w");
  probes.add<Bf16G>("probe-bf16-g", "g = dy * w rounded to bf16 before the mean and the difference");
  probes.add<EpsDropped>("probe-eps-dropped", "inv recomputed as 1 / sqrt(mean(x^2)), eps dropped");
}

}  // namespace parity::ops::rms_norm
