#pragma once
// Deterministic elementary functions built from IEEE basic operations and fma only, so that
// generated inputs, and the kernels that share them with their host twins, get the same bits
// on every machine and on both sides of a kernel (no libm). Accuracy: within a few units in
// the last place of double.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/hd.hpp"

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
  if ((u >> 52) == 0) {  // subnormal: scale into the normal range exactly
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

// sin and cos of 2*pi*t for t in [0, 1). Host only.
void sincos_2pi(double t, double* s, double* c);

}  // namespace parity::detmath
