#pragma once
// What a subject of an op declares about its own arithmetic, for the derived bounds
// (bounded.hpp): the precision it computes in, how its reductions may be ordered, and how
// accurate its exp, log and rsqrt are. The default promises nothing beyond IEEE float32
// arithmetic: reductions in any order, exp/log/rsqrt within 2 ulps (CUDA's documented maxima
// for expf and rsqrtf; logf's is 1). IEEE's round to nearest is assumed throughout: an overflow
// gives +-Inf, and +, -, *, fma, sqrt, log and conversions keep an Inf or NaN non-finite
// (bounded.hpp checks a finite value where some order may overflow on that ground); a kernel that
// saturates (a satfinite conversion, a clamp to the largest finite) or rounds toward zero is
// outside it. A subject that promises more gets a tighter bound; one that breaks its promise is
// what the accuracy property catches.
#include <algorithm>
#include <cstdint>

namespace parity::ops {

struct Arithmetic {
  // The unit roundoff of the precision the subject computes in (float32: 2^-24; double, to
  // bound parity's own double oracle: 2^-53), the absolute error one rounding into its
  // subnormal range can add (half the smallest subnormal; for double the smallest, as half of
  // it is no double), and its largest finite.
  double unit = 0x1p-24;
  double underflow = 0x1p-150;
  double max_finite = 3.4028234663852886e38;
  // 0: reductions in any order, each term through at most n - 1 roundings (gamma_{n-1}).
  // L > 0: L lanes, lane l summing terms l, l + L, ... in order from 0, then the lanes folded
  // in a pairwise tree: each term goes through at most ceil(n / L) - 1 + ceil(log2 L) roundings.
  std::int64_t reduction_lanes = 0;

  // The most roundings a term of an n-term reduction goes through under this arithmetic.
  std::int64_t reduction_depth(std::int64_t n) const {
    if (n <= 1) return 0;
    if (reduction_lanes <= 0) return n - 1;
    std::int64_t levels = 0;
    while ((std::int64_t{1} << levels) < reduction_lanes) ++levels;
    return std::min(n - 1, (n + reduction_lanes - 1) / reduction_lanes - 1 + levels);
  }
  // Accuracy of exp, log and rsqrt in ulps of their result. k ulps of x is at most
  // 2 k unit |x| + 2 k underflow (an ulp is at most 2 unit |x| where x is normal, the subnormal
  // spacing 2 underflow where it is not).
  double exp_ulps = 2.0, log_ulps = 2.0, rsqrt_ulps = 2.0;

  // The arithmetic of double evaluated with parity's own functions (core/detmath.hpp: exp and
  // log within 1 ulp of double; rsqrt as 1 / sqrt, two correct roundings): what the oracle's
  // self-check bounds.
  static Arithmetic float64() {
    return {.unit = 0x1p-53,
            .underflow = 0x1p-1074,
            .max_finite = 1.7976931348623157e308,
            .reduction_lanes = 0,
            .exp_ulps = 1.0,
            .log_ulps = 1.0,
            .rsqrt_ulps = 1.0 + 0x1p-40};
  }
};

// rsqrt_ulps of a float32 rsqrt computed as 1.0f / sqrtf(x): two correct roundings, a relative
// error of at most 2u / (1 - u) < 2 (1 + 2^-20) u.
inline constexpr double kRsqrtAsDivSqrtUlps = 1.0 + 0x1p-20;

}  // namespace parity::ops
