#pragma once
// Deterministic elementary functions built from IEEE basic operations and fma only, so that
// generated inputs, and the kernels that share them with their host twins, get the same bits
// on every machine and on both sides of a kernel (no libm). Accuracy: within a few units in
// the last place of double.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <parity/core/hd.hpp>

namespace parity::detmath {

// Natural logarithm in double: log(0) = -inf, log(+inf) = +inf, NaN for x < 0 or NaN.
// PARITY_HD: the CUDA kernels and their host twins share it.
PARITY_HD double log(double x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // fdlibm's split of ln 2
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : (x - x) / (x - x);
  if (x > 1.79769313486231570815e308) return x;
  int e = 0;
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u >> 52) == 0) {        // subnormal: scale into the normal range exactly
    x *= 18014398509481984.0;  // 2^54
    std::memcpy(&u, &x, sizeof u);
    e = -54;
  }
  e += static_cast<int>(u >> 52) - 1023;
  const std::uint64_t mbits = (u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;  // [1, 2)
  double m;
  std::memcpy(&m, &mbits, sizeof m);
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e += 1;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 3; k -= 2) p = fma(p, s2, 1.0 / k);
  const double log_m = 2.0 * fma(s * s2, p, s);
  const double de = static_cast<double>(e);
  return fma(de, kLn2Hi, fma(de, kLn2Lo, log_m));
}

// log of a positive finite float32, rounded to float32.
PARITY_HD float log_f32(float x) { return static_cast<float>(log(static_cast<double>(x))); }

namespace detail {
// 2^e for e in [-1022, 1023], exactly.
PARITY_HD double pow2(int e) {
  const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}
}  // namespace detail

// e^x in double, within 1 ulp: exp(NaN) = NaN, exp(+inf) = +inf, exp(-inf) = +0; +inf past
// the overflow threshold (x > 709.78...); subnormal results (x < -708.4) are rounded once,
// down to 0 below about -745.13. PARITY_HD: shared by the CUDA kernels and their host twins.
// Cody-Waite: x = k ln2 + r with ln 2 split in two (fdlibm's split: k ln2_hi is exact for
// |k| < 2^20), |r| <= ln2 / 2, then Taylor to r^13 by Horner in fma (truncation below 2^-57
// relative) and an exact scaling by 2^k.
PARITY_HD double exp(double x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kLog2e = 1.44269504088896338700e+00;
  constexpr double kRoundMagic = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to integer
  if (x != x) return x + x;
  if (x > 710.0) return HUGE_VAL;
  if (x < -746.0) return 0.0;
  const double kd = (x * kLog2e + kRoundMagic) - kRoundMagic;  // nearest integer, ties even
  const double r = (x - kd * kLn2Hi) - kd * kLn2Lo;
  // 1/n! for n = 13 down to 2 (each constant correctly rounded).
  constexpr double kInvFact[] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                                 1.0 / 362880.0,     1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,
                                 1.0 / 120.0,        1.0 / 24.0,        1.0 / 6.0,        0.5};
  double p = kInvFact[0];
  for (int i = 1; i < 12; ++i) p = fma(p, r, kInvFact[i]);
  p = fma(fma(p, r, 1.0), r, 1.0);
  // 2^k with k in [-1076, 1024], applied in two exact steps so that a subnormal result is
  // rounded once, in the last multiplication.
  const int k = static_cast<int>(kd);
  if (k > 1023) return p * detail::pow2(k - 1) * 2.0;
  if (k < -1021) return (p * detail::pow2(k + 1000)) * detail::pow2(-1000);
  return p * detail::pow2(k);
}

// e^x for a float32 x: exp in double, rounded once to float32 (overflow -> +inf).
PARITY_HD float exp_f32(float x) { return static_cast<float>(exp(static_cast<double>(x))); }

// sin and cos of 2*pi*t for t in [0, 1). Host only.
void sincos_2pi(double t, double* s, double* c);

namespace detail {
// 1 / n! for n in [0, 18], n! exact in double: sincos_2pi's Taylor coefficients, which its
// AVX-512 twin (random_fill_avx512.cpp) shares.
inline constexpr std::array<double, 19> kInverseFactorial = [] {
  std::array<double, 19> t{};
  double factorial = 1.0;
  for (int n = 0; n < 19; ++n) t[n] = 1.0 / (factorial *= n > 0 ? n : 1);
  return t;
}();
}  // namespace detail

}  // namespace parity::detmath
