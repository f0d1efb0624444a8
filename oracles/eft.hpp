#pragma once
// Error-free transformations (docs/math.md, "Accurate oracles"; Ogita, Rump, Oishi, "Accurate sum
// and dot product", SIAM J. Sci. Comput. 26(6), 2005, Algorithms 3.1, 3.2 and 3.5). Each
// returns a rounded result and its exact rounding error, in binary floating point with
// round-to-nearest, as long as nothing overflows. TwoSum and FastTwoSum stay exact under
// underflow (sums of subnormals are exact); TwoProduct does not: where |a b| falls below
// 2^-969 its error term may itself be rounded, by at most half the subnormal spacing.
// Pure templates; for double, std::fma is explicit (the project compiles with
// -ffp-contract=off), so every caller gets the same bits on every machine.
#include <cmath>

namespace parity::oracles {

template <class Real>
struct TwoSumResult {
  Real sum, error;  // sum + error == a + b exactly
};

// Knuth's TwoSum: s = fl(a + b) and the exact error e, with a + b = s + e, for any a, b.
template <class Real>
TwoSumResult<Real> two_sum(const Real& a, const Real& b) {
  const Real s = a + b;
  const Real z = s - a;
  const Real e = (a - (s - z)) + (b - z);
  return {s, e};
}

// Dekker's FastTwoSum: the same as two_sum when |a| >= |b| (or a == 0), in three operations.
template <class Real>
TwoSumResult<Real> fast_two_sum(const Real& a, const Real& b) {
  const Real s = a + b;
  return {s, b - (s - a)};
}

template <class Real>
struct TwoProductResult {
  Real product, error;  // product + error == a * b exactly, unless a * b underflows
};

// TwoProduct with a fused multiply-add: p = fl(a b), e = fl(a b - p), exact when
// |a b| >= 2^-969 (double); otherwise |p + e - a b| <= 2^-1075.
inline TwoProductResult<double> two_product(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

}  // namespace parity::oracles
