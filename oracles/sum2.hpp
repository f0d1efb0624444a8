#pragma once
// Accurate summation (MATH.md "Accurate oracles"): Sum2 of Ogita, Rump and Oishi (SIAM J.
// Sci. Comput. 26(6), 2005), over oracles/eft.hpp's TwoSum. Sum2 is as accurate as if the sum
// were computed in twice the working precision and then rounded:
// |Sum2 - s| <= u |s| + gamma_{n-1}^2 sum |p_i|.
// Pure templates; for a multiprecision Real the compensation is simply negligible.
#include <cmath>
#include <cstddef>

#include "oracles/eft.hpp"

namespace parity::oracles {

// Sum2 over values produced by `at(i)`, i in [0, n). With an infinite or NaN term the
// compensation is meaningless (inf - inf), and the plain IEEE sum is returned.
template <class Real, class At>
Real sum2(std::size_t n, At&& at) {
  using std::isfinite;
  Real s = 0, c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const TwoSumResult<Real> t = two_sum<Real>(s, at(i));
    s = t.sum;
    c += t.error;
  }
  return isfinite(s) ? Real(s + c) : s;
}

}  // namespace parity::oracles
