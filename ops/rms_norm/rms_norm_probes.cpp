// Mismatch probes of rms_norm: the kernel with one realistic step changed, each of which the
// generic properties must catch (parity probes rms_norm). They inherit the kernel's declared
// arithmetic: a probe that breaks that promise is exactly what must be caught.
#include <cstring>

#include <parity/core/bf16.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>
#include <parity/ops/rms_norm/rms_norm_subjects.hpp>

namespace parity::ops::rms_norm {
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

}  // namespace

void register_probes() {
  const HostProbes<RmsNormHost> probes{"rms_norm"};
  probes.add<PlanByRows>("probe-plan-by-rows", "from T >= 128 rows, the mean as a multiply by float(1/D)");
  probes.add<SplitRow>("probe-split-row", "T < 32 rows of D >= 1024: each row's sum split in 4 partial sums");
  probes.add<RsqrtApprox>("probe-rsqrt-approx", "rsqrt by the bit trick and one Newton step (1.75e-3 relative)");
  probes.add<EpsAfterSqrt>("probe-eps-after-sqrt", "1 / (sqrt(mean(x^2)) + eps) instead of rsqrt(mean(x^2) + eps)");
  probes.add<TruncateBf16>("probe-bf16-truncate", "bf16 outputs truncated instead of rounded to nearest even");
}

}  // namespace parity::ops::rms_norm
