#pragma once
// The error-free transformation of a sum (docs/math.md, "Accurate oracles"; Ogita, Rump, Oishi,
// "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005, Algorithm 3.1): a rounded
// sum and its exact rounding error, in binary floating point with round-to-nearest, as long as
// nothing overflows; exact under underflow too (sums of subnormals are exact). A pure template
// (the project compiles with -ffp-contract=off), so every caller gets the same bits on every
// machine.

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

}  // namespace parity::oracles
