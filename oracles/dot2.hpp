#pragma once
// Dot2 (Ogita, Rump, Oishi, SIAM J. Sci. Comput. 26(6), 2005, Algorithm 5.3) as an
// accumulator, with a rigorous a-posteriori error bound on its result. The accumulator holds
// the running float sum s of the products, the float sum c of every rounding error made on
// the way (TwoProduct's and TwoSum's, which are exact), and the float sum of |products|.
// The exact dot product equals s + (exact sum of the errors), so |s + c - x^T y| is the
// error of summing the errors, whatever the order or the tree in which the terms were added.
//
// Bound (Dot2Result::err_dd, ORO 2005 proof of Theorem 4.2 / Lemma 2.2, order-free form):
// with m = 2 (terms + merges + 1) summands in c and gamma_m = m u / (1 - m u), u = 2^-53,
//     sum |errors| <= gamma_m sum |p_i|     and     |c - sum errors| <= gamma_m sum |errors|,
// so |(hi + lo) - x^T y| <= gamma_m^2 sum |p_i| + terms 2^-1074, the last term for
// TwoProduct under underflow (oracles/eft.hpp). sum |p_i| is known only as the float sum
// `abs`, itself within gamma_m of the exact one: the bound divides by (1 - gamma_m) and then
// inflates by 2^-40 relative to cover its own few roundings. hi = fl(s + c) is faithful-plus:
// |hi - x^T y| <= |lo| + err_dd (<= u |x^T y| + gamma_m^2 sum|p_i|, ORO's Theorem 5.3).
// Where s, c or abs is not finite the bound is infinite: the oracle does not know.
//
// Special values (oracles/extended_real.hpp): where some product is an infinity or NaN, hi is
// s, the plain IEEE sum of the products, and lo is 0. No finite product or partial sum
// overflows double when the operands are float32-sized (|a|, |b| <= FLT_MAX, and the callers'
// longer chains stay below 2^600), so s is non-finite exactly when a product is, and its class
// is the exact extended sum's: NaN with a NaN term or with both infinities, else the
// infinity. (s + c would be NaN: the compensation computes inf - inf.)
#include <cmath>
#include <cstdint>
#include <limits>

#include <parity/oracles/eft.hpp>

namespace parity::oracles {

struct Dot2State {
  double s = 0;             // float sum of the products
  double c = 0;             // float sum of the exact rounding errors
  double abs = 0;           // float sum of |products|
  std::int64_t terms = 0;   // products added
  std::int64_t merges = 0;  // partial accumulators merged in (each adds one TwoSum)
};

struct Dot2Result {
  double hi = 0, lo = 0;                                 // double-double value: hi = fl(hi + lo)
  double err_dd = 0;                                     // |hi + lo - exact| <= err_dd
  double abs = 0;                                        // float sum of |products|
  double err() const { return std::fabs(lo) + err_dd; }  // |hi - exact| <= err()
};

// One Dot2 step: the product a b enters the accumulator.
inline void dot2_add(Dot2State& st, double a, double b) {
  const TwoProductResult<double> p = two_product(a, b);
  const TwoSumResult<double> t = two_sum(st.s, p.product);
  st.s = t.sum;
  st.c = st.c + (t.error + p.error);
  st.abs = st.abs + std::fabs(p.product);
  ++st.terms;
}

// dot2_add for an exact product, without TwoProduct. Requires a and b to be float32 values
// (bf16 values are): then a b is exactly a double whatever the exponents (at most 24 + 24
// significant bits, a multiple of 2^-298 below 2^256: no rounding, no underflow, no
// overflow), so dot2_add's p.error = fma(a, b, -p) is exactly 0 and its c + (t.error + 0) is
// c + t.error (up to the sign of a zero c). This step thus computes the values dot2_add
// would (Sum2, ORO Algorithm 4.4, on the exact products), and dot2_finish's bound holds
// unchanged; its underflow term is merely unused.
inline void dot2_add_exact(Dot2State& st, double a, double b) {
  const double p = a * b;
  const TwoSumResult<double> t = two_sum(st.s, p);
  st.s = t.sum;
  st.c = st.c + t.error;
  st.abs = st.abs + std::fabs(p);
  ++st.terms;
}

// True when v is a float32 value (dot2_add_exact's requirement), or not finite (whose products
// make the bound infinite anyway).
inline bool is_float32(double v) {
  if (!std::isfinite(v)) return true;
  return std::fabs(v) <= std::numeric_limits<float>::max() && static_cast<double>(static_cast<float>(v)) == v;
}

// Merges a partial accumulator into `st` (one TwoSum of the float sums).
inline void dot2_merge(Dot2State& st, const Dot2State& part) {
  const TwoSumResult<double> t = two_sum(st.s, part.s);
  st.s = t.sum;
  st.c = st.c + (t.error + part.c);
  st.abs = st.abs + part.abs;
  st.terms += part.terms;
  st.merges += part.merges + 1;
}

// The double-double value of the accumulated dot product and its bound (see above).
inline Dot2Result dot2_finish(const Dot2State& st) {
  const TwoSumResult<double> v = two_sum(st.s, st.c);
  Dot2Result r{std::isfinite(st.s) ? v.sum : st.s, v.error, 0, st.abs};
  if (!std::isfinite(st.s) || !std::isfinite(st.c) || !std::isfinite(st.abs) || !std::isfinite(v.sum)) {
    r.lo = 0;
    r.err_dd = std::numeric_limits<double>::infinity();
    return r;
  }
  // gamma_m^2 abs / (1 - gamma_m) = mu^2 abs / ((1 - mu)(1 - 2 mu)) <= mu^2 abs (1 + 4 mu) for
  // mu = m u <= 1/16, without a division (the finishing of every element pays for one); the
  // extra 4 subnormal spacings cover this expression's own roundings should it underflow.
  const double mu = static_cast<double>(2 * (st.terms + st.merges + 1)) * 0x1p-53;
  if (!(mu <= 0.0625)) {
    r.err_dd = std::numeric_limits<double>::infinity();
    return r;
  }
  r.err_dd = (mu * mu * st.abs * (1 + 4 * mu) + (static_cast<double>(st.terms) + 4) * 0x1p-1074) * (1 + 0x1p-40);
  return r;
}

}  // namespace parity::oracles
