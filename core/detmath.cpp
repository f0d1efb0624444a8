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
  double ps = 1.0 / 355687428096000.0;            // 1/17!
  ps = std::fma(ps, -r2, 1.0 / 1307674368000.0);  // 1/15!
  ps = std::fma(ps, -r2, 1.0 / 6227020800.0);     // 1/13!
  ps = std::fma(ps, -r2, 1.0 / 39916800.0);
  ps = std::fma(ps, -r2, 1.0 / 362880.0);
  ps = std::fma(ps, -r2, 1.0 / 5040.0);
  ps = std::fma(ps, -r2, 1.0 / 120.0);
  ps = std::fma(ps, -r2, 1.0 / 6.0);
  *s = std::fma(-r * r2, ps, r);
  double pc = 1.0 / 6402373705728000.0;            // 1/18!
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
