#include "core/detmath.hpp"

#include <cmath>
#include <cstring>

namespace parity::detmath {
namespace {

constexpr double kLn2Hi = 6.93147180369123816490e-01;  // fdlibm split of ln 2
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kPiOver2 = 1.57079632679489661923;

double bits_to_double(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

std::uint64_t double_to_bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// sin(r), cos(r) for |r| <= pi/4 by Taylor series to r^17 / r^18 (truncation below 1e-16).
void sincos_reduced(double r, double* s, double* c) {
  const double r2 = r * r;
  double ps = 1.0 / 355687428096000.0;           // 1/17!
  ps = std::fma(ps, -r2, 1.0 / 1307674368000.0);  // 1/15!
  ps = std::fma(ps, -r2, 1.0 / 6227020800.0);     // 1/13!
  ps = std::fma(ps, -r2, 1.0 / 39916800.0);
  ps = std::fma(ps, -r2, 1.0 / 362880.0);
  ps = std::fma(ps, -r2, 1.0 / 5040.0);
  ps = std::fma(ps, -r2, 1.0 / 120.0);
  ps = std::fma(ps, -r2, 1.0 / 6.0);
  *s = std::fma(-r * r2, ps, r);
  double pc = 1.0 / 6402373705728000.0;          // 1/18!
  pc = std::fma(pc, -r2, 1.0 / 20922789888000.0);  // 1/16!
  pc = std::fma(pc, -r2, 1.0 / 87178291200.0);     // 1/14!
  pc = std::fma(pc, -r2, 1.0 / 479001600.0);
  pc = std::fma(pc, -r2, 1.0 / 3628800.0);
  pc = std::fma(pc, -r2, 1.0 / 40320.0);
  pc = std::fma(pc, -r2, 1.0 / 720.0);
  pc = std::fma(pc, -r2, 1.0 / 24.0);
  pc = std::fma(pc, -r2, 0.5);
  *c = std::fma(-r2, pc, 1.0);
}

}  // namespace

double log(double x) {
  int e = 0;
  std::uint64_t u = double_to_bits(x);
  if ((u >> 52) == 0) {  // subnormal: scale into the normal range exactly
    x *= 18014398509481984.0;  // 2^54
    u = double_to_bits(x);
    e = -54;
  }
  e += static_cast<int>(u >> 52) - 1023;
  double m = bits_to_double((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);  // [1, 2)
  if (m > 2.0 * kSqrtHalf) {
    m *= 0.5;
    e += 1;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 3; k -= 2) p = std::fma(p, s2, 1.0 / k);
  const double log_m = 2.0 * std::fma(s * s2, p, s);
  const double de = static_cast<double>(e);
  return std::fma(de, kLn2Hi, std::fma(de, kLn2Lo, log_m));
}

void sincos_2pi(double t, double* s, double* c) {
  // Quadrant from 4t, exact in binary; the remainder r in [-pi/4, pi/4].
  const double q4 = 4.0 * t;
  const double q = std::floor(q4 + 0.5);
  const double r = (q4 - q) * kPiOver2;
  double sr, cr;
  sincos_reduced(r, &sr, &cr);
  switch (static_cast<int>(q) & 3) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}

}  // namespace parity::detmath
