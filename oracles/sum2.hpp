#pragma once
// Accurate summation (docs/math.md, "Accurate oracles"): Sum2 of Ogita, Rump and Oishi (SIAM J.
// Sci. Comput. 26(6), 2005, Algorithm 4.4), over oracles/eft.hpp's TwoSum, with its error
// stated. Sum2 is as accurate as if the sum were computed in twice the working precision and
// then rounded (ORO Proposition 4.5): with u = Real's unit roundoff,
//     |Sum2 - s| <= u |s| + gamma_{n-1}^2 sum |p_i|,   gamma_k = k u / (1 - k u).
// TwoSum is exact even under underflow, so the bound needs no underflow term.
// Pure templates; for a multiprecision Real the compensation is simply negligible.
#include <cmath>
#include <cstddef>
#include <limits>

#include <parity/oracles/eft.hpp>

namespace parity::oracles {

template <class Real>
struct Sum2Result {
  Real sum{};      // fl(s + c)
  double err = 0;  // |sum - exact sum of the terms| <= err; infinite where not known
  Real abs{};      // float sum of |p_i|
};

// Sum2 over values produced by `at(i)`, i in [0, n), and its a-posteriori bound: the bound
// above with sum |p_i| <= abs / (1 - gamma_{n-1}) and |s| <= |sum| + err, inflated by 2^-40
// relative for its own roundings in double. With an infinite or NaN term the compensation is
// meaningless (inf - inf): the plain IEEE sum is returned, with an infinite bound.
template <class Real, class At>
Sum2Result<Real> sum2(std::size_t n, At&& at) {
  using std::fabs;
  using std::isfinite;
  Real s = 0, c = 0, abs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Real p = at(i);
    const TwoSumResult<Real> t = two_sum<Real>(s, p);
    s = t.sum;
    c += t.error;
    abs += fabs(p);
  }
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (!isfinite(s) || !isfinite(abs)) return {s, kInf, abs};
  const Real sum = s + c;
  const double u = static_cast<double>(std::numeric_limits<Real>::epsilon()) / 2;
  const double mu = static_cast<double>(n > 0 ? n - 1 : 0) * u;
  if (!(mu <= 0.0625)) return {sum, kInf, abs};
  const double g = mu / (1 - mu);
  const double tail = g * g * static_cast<double>(abs) / (1 - g);
  // E <= u (|sum| + E) + tail, so E <= (u |sum| + tail) / (1 - u).
  const double err = (u * static_cast<double>(fabs(sum)) + tail) / (1 - u) * (1 + 0x1p-40);
  return {sum, std::isfinite(err) ? err : kInf, abs};
}

}  // namespace parity::oracles
