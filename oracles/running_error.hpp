#pragma once
// Running error analysis (Wilkinson; Higham, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., section 3.3): evaluate an expression exactly (in Real) while carrying a rigorous
// bound on how far a float32 evaluation of the same expression, operation for operation,
// can be from it. A kernel whose float32 result lies outside value +- err has not evaluated
// that expression.
//
// Every rounded operation r = fl(a op b) satisfies |r - (a op b)| <= u |a op b| + eta, with
// u = 2^-24 and eta = 2^-150 (half the float32 subnormal spacing, for underflow). Inputs carry
// their own bound, propagated first-order-free (the products of bounds are kept). When Real
// is double, its own rounding (2^-53 per operation) is absorbed by an extra 2^-50 |value|.
// A result that may leave the float32 range gets an infinite bound: the float evaluation may
// legitimately be +-Inf there, and the element is exempt (check_bound accepts it).
#include <cmath>
#include <limits>

namespace parity::oracles {

template <class Real>
struct Tracked {
  Real value{};    // the exact value of the expression (in Real)
  double err = 0;  // |float32 evaluation - value| <= err

  static Tracked exact(double v) { return {Real(v), 0.0}; }
};

namespace running_error {

inline constexpr double kUnit = 0x1p-24;
inline constexpr double kUnderflow = 0x1p-150;
inline constexpr double kRealSlack = 0x1p-50;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kFloatMax = 3.4028234663852886e38;

template <class Real>
double mag(const Real& v) {
  using std::fabs;
  return static_cast<double>(fabs(v));
}

// The float32 rounding of a result whose float evaluation already deviates by `propagated`.
// Where the float result may exceed the float32 range, it may be +-Inf: the bound is infinite.
template <class Real>
Tracked<Real> rounded(const Real& value, double propagated) {
  const double m = mag(value);
  if (!(m + propagated < kFloatMax)) return {value, kInf};
  return {value, propagated + kUnit * (m + propagated) + kUnderflow + kRealSlack * m};
}

template <class Real>
Tracked<Real> add(const Tracked<Real>& a, const Tracked<Real>& b) {
  return rounded<Real>(a.value + b.value, a.err + b.err);
}

template <class Real>
Tracked<Real> sub(const Tracked<Real>& a, const Tracked<Real>& b) {
  return rounded<Real>(a.value - b.value, a.err + b.err);
}

template <class Real>
Tracked<Real> mul(const Tracked<Real>& a, const Tracked<Real>& b) {
  return rounded<Real>(a.value * b.value, mag(a.value) * b.err + mag(b.value) * a.err + a.err * b.err);
}

template <class Real>
Tracked<Real> div(const Tracked<Real>& a, const Tracked<Real>& b) {
  const Real q = a.value / b.value;
  const double room = mag(b.value) - b.err;
  return rounded<Real>(q, room > 0 ? (a.err + mag(q) * b.err) / room : kInf);
}

template <class Real>
Tracked<Real> sqrt(const Tracked<Real>& a) {
  using std::sqrt;
  const Real r = sqrt(a.value);
  const double m = mag(a.value);
  const double prop = m > 0 ? std::min(a.err / std::sqrt(m), std::sqrt(a.err)) : std::sqrt(a.err);
  return rounded<Real>(r, prop);
}

// log evaluated to within `ulps` float32 units in the last place of its result (0.5 for a
// correctly rounded log; parity's own log_f32 is a double log rounded to float: 0.5 + tiny).
template <class Real>
Tracked<Real> log(const Tracked<Real>& a, double ulps) {
  using std::log;
  const Real l = log(a.value);
  const double m = mag(a.value);
  const double prop = m > a.err ? a.err / (m - a.err) : kInf;
  const double lm = mag(l);
  return {l, prop + 2.0 * ulps * kUnit * (lm + prop) + kUnderflow + kRealSlack * lm};
}

// Operations that are exact in binary floating point: negation and scaling by two.
template <class Real>
Tracked<Real> neg(const Tracked<Real>& a) {
  return {-a.value, a.err};
}

template <class Real>
Tracked<Real> twice(const Tracked<Real>& a) {
  return {Real(2) * a.value, 2.0 * a.err};
}

}  // namespace running_error
}  // namespace parity::oracles
