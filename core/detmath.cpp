#include <parity/core/detmath.hpp>

#include <cmath>
#include <cstring>

#include <parity/core/isa.hpp>

namespace parity::detmath {
namespace {

constexpr double kPiOver2 = 1.57079632679489661923;

// sin(r), cos(r) for |r| <= pi/4 by Taylor series to r^17 / r^18 (truncation below 1e-16).
void sincos_reduced(double r, double* s, double* c) {
  const double r2 = r * r;
  double ps = detail::kInverseFactorial[17];
  for (int n = 15; n >= 3; n -= 2) ps = std::fma(ps, -r2, detail::kInverseFactorial[n]);
  *s = std::fma(-r * r2, ps, r);
  double pc = detail::kInverseFactorial[18];
  for (int n = 16; n >= 2; n -= 2) pc = std::fma(pc, -r2, detail::kInverseFactorial[n]);
  *c = std::fma(-r2, pc, 1.0);
}

}  // namespace

PARITY_FMA_CLONES void sincos_2pi(double t, double* s, double* c) {
  // Quadrant from 4t, exact in binary; the remainder r in [-pi/4, pi/4].
  const double q4 = 4.0 * t;
  const double q = std::floor(q4 + 0.5);
  const double r = (q4 - q) * kPiOver2;
  double sr, cr;
  sincos_reduced(r, &sr, &cr);
  switch (static_cast<int>(q) & 3) {
    case 0:
      *s = sr;
      *c = cr;
      break;
    case 1:
      *s = cr;
      *c = -sr;
      break;
    case 2:
      *s = -sr;
      *c = -cr;
      break;
    default:
      *s = -cr;
      *c = sr;
      break;
  }
}

}  // namespace parity::detmath
