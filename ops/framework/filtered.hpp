#pragma once
// Filtered: the scalar type of an op reference's cheap evaluation, a filter in front of Bounded
// (bounded.hpp), as CGAL's filtered predicates put a fast interval evaluation in front of exact
// arithmetic: forward_accuracy asks it first, and only where it cannot decide an element's
// verdict does the case go to Bounded's evaluation.
//
// Each value carries three doubles:
//   v   a double evaluation of the expression, its sums in any order (a BLAS's, Eval::matmul);
//   d   an upper bound on |w - x*| for every double evaluation w of the expression, whatever
//       order its sums take: Bounded's rules at double's unit and underflow, every sum of n terms
//       at depth n - 1. Bounded's own value v_B is one such w (the same expression: Eval::covering's
//       first way, Eval::parts a sum), so |v - v_B| <= 2d;
//   lo  a lower bound on Bounded's E under the subject's Arithmetic: Bounded's rules, each
//       non-decreasing in its operands' E and M = |v_B| + 2E, fed lower bounds of both
//       (|v_B| >= max(|v| - 2d, 0)); a product's sum of products X = sum |a||b| from a GEMM (of
//       some of its terms, matmul.hpp), and the operands' propagated errors Y from GEMMs of their
//       lo; a covering's ways' lo summed, as Bounded sums their E (covering()).
// lo is 0 where d is not finite (Bounded's ascending sum may overflow where the BLAS's order does
// not, its value be non-finite and its E 0): nothing there is decided.
// x* is the exact value. An element whose subject value `got` satisfies
//     |got - v| + 2d <= lo     therefore satisfies     |got - v_B| <= E_B,
// Bounded's verdict "within the bound" (the output's rounding applied to both sides alike).
// Nothing here decides a failure: an element the inequality does not hold for is undecided.
//
// The rules are those of + - *, sums, maxima, matrix products, division, sqrt, rsqrt, exp and log.
// A division, sqrt, rsqrt or log needs its operand (the divisor) bounded away from 0: where
// |v| - 2d, a lower bound on |x*| and on every evaluation's, is not positive (and for sqrt, rsqrt and log
// where v is not positive: a negative operand) d is infinite; a quotient or exp that may overflow
// double (above 2^1023) gets d infinite too. An exact Inf operand (d 0) keeps d finite where every
// evaluation gives the same value: rsqrt(+Inf) and x / Inf are 0, exp(-Inf) is 0. The double
// evaluation of a function is core/detmath.hpp's (exp and log within 1 ulp of double: 2^-52
// relative, 2^-1074 absolute in the subnormal range; rsqrt as 1 / sqrt, two correct roundings). An
// operand whose d is not finite leaves its results' d infinite; forward_accuracy decides no element
// whose v or subject value is not finite. A maximum may drop an exact -Inf term and stay decided
// (Bounded's does too).
// Each rule's own roundings in double, and Bounded's in its rules (which carry no margin), are
// covered by lo's factor 1 - 2^-46 (a rule is a few operations on non-negative terms, each within
// 2^-53 relative, on either side) and d's 1 + 2^-50; a sum's by a further 1 -+ n 2^-52. The
// functions' rules (division to log) take 1 -+ 2^-40: a few dozen roundings, the detmath functions'
// ulp, and exp's argument rounded within 2^-53 |a| with |a| < 746 where exp is neither 0 nor Inf,
// which moves exp by a relative 2^-43.4, on either side; and an absolute 2^-1070 too: in double's
// subnormal range a rounding errs by up to 2^-1075 absolute, not relative, and the rule's and
// Bounded's have fewer than 32 of them. Each function rule's lo takes Bounded's
// L = max(|v_B| - 2E, 0), where Bounded's E falls as L grows, at its upper bound |v| + 2d (>= |v_B|), and Bounded's E,
// M and the exp's argument v_B + 2E at their lower bounds.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include <parity/core/detmath.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops {

class Filtered {
 public:
  // Value-initialised (Filtered{}, a std::vector's elements) it is the constant 0: trivial, so
  // a vector of them is zeroed as memory is.
  Filtered() = default;
  // An exact constant, representable in the subject's precision (Bounded's E is 0 there).
  Filtered(double exact)
      : v_(exact), d_(0), lo_(0), a_(nullptr) {}  // NOLINT: implicit, as a literal is in any real type
  // A NaN d is infinite; lo is 0 where v is not finite (Bounded's E is 0 there: a non-finite value
  // is a class, not a bound), where d is not (nothing is decided there, and Bounded's value may be
  // a non-finite one, of E 0, where v is finite) or where lo is not finite (an infinite gamma, an
  // overflowed product).
  Filtered(double v, double d, double lo, const Arithmetic* a)
      : v_(v),
        d_(std::isnan(d) ? kInf : d),
        lo_(std::isfinite(v) && std::isfinite(d) && std::isfinite(lo) && lo >= 0 ? lo : 0.0),
        a_(a) {}

  double value() const { return v_; }
  // The bound on any double evaluation's distance from the exact value (the header).
  double dev() const { return d_; }
  // The lower bound on Bounded's E (the header).
  double lo() const { return lo_; }

  // A lower bound on |v_B|, Bounded's value, and on every double evaluation's magnitude.
  double lower_abs() const { return positive_part(std::fabs(v_) - 2 * d_); }

  friend Filtered operator+(const Filtered& a, const Filtered& b) { return add(a, b, a.v_ + b.v_); }
  friend Filtered operator-(const Filtered& a, const Filtered& b) { return add(a, b, a.v_ - b.v_); }
  friend Filtered operator-(const Filtered& a) { return {-a.v_, a.d_, a.lo_, a.a_}; }
  // Bounded: E = Ma Eb + Mb Ea + u Ma Mb + eta, M = |v| + 2E.
  friend Filtered operator*(const Filtered& a, const Filtered& b) {
    const Arithmetic& ar = pick(a, b);
    const double ma = std::fabs(a.v_) + 2 * a.d_, mb = std::fabs(b.v_) + 2 * b.d_;
    const double d = (ma * b.d_ + mb * a.d_ + kU53 * ma * mb + kEta53) * kUp;
    const double la = a.lower_m(), lb = b.lower_m();
    const double lo = (la * b.lo_ + lb * a.lo_ + ar.unit * la * lb + ar.underflow) * kDown;
    return {a.v_ * b.v_, d, lo, &ar};
  }
  // Bounded: E = Ea / Lb + Ma Eb / Lb^2 + u Ma / Lb + eta (Lb > 0).
  friend Filtered operator/(const Filtered& a, const Filtered& b) {
    const Arithmetic& ar = pick(a, b);
    const double lb = b.lower_abs(), ma = a.upper_abs(), q = ma / lb;
    const double d = lb > 0 && q < kNoOverflow ? upper(a.d_ / lb + q * (b.d_ / lb) + kU53 * q + kEta53) : kInf;
    const double ub = b.upper_abs(), lq = a.lower_m() / ub;
    return {a.v_ / b.v_, d, lower(a.lo_ / ub + lq * (b.lo_ / ub) + ar.unit * lq + ar.underflow), &ar};
  }
  // Bounded: E = min(Ea / (2 sqrt La), sqrt Ea) + u sqrt Ma + eta (sqrt Ea alone where La = 0).
  friend Filtered sqrt(const Filtered& a) {
    const Arithmetic& ar = pick(a, a);
    const double la = a.lower_abs();
    const double d =
        a.v_ > 0 && la > 0
            ? upper(std::min(a.d_ / (2 * std::sqrt(la)), std::sqrt(a.d_)) + kU53 * std::sqrt(a.upper_abs()) + kEta53)
            : kInf;
    const double prop = std::min(a.lo_ / (2 * std::sqrt(a.upper_abs())), std::sqrt(a.lo_));
    return {std::sqrt(a.v_), d, lower(prop + ar.unit * std::sqrt(a.lower_m()) + ar.underflow), &ar};
  }
  // Bounded: E = Ea / (2 La^1.5) + 2 k u / sqrt La + 2 k eta (La > 0). The double's 1 / sqrt: two
  // roundings, a relative 2^-52 (1 + 2^-52).
  friend Filtered rsqrt(const Filtered& a) {
    const Arithmetic& ar = pick(a, a);
    const double la = a.lower_abs(), ua = a.upper_abs();
    const double d = a.v_ > 0 && la > 0 ? upper(a.d_ / la / (2 * std::sqrt(la)) + 0x1p-52 / std::sqrt(la)) : kInf;
    const double lo = a.lo_ / ua / (2 * std::sqrt(ua)) + 2 * ar.rsqrt_ulps * ar.unit / std::sqrt(ua);
    return {1.0 / std::sqrt(a.v_), d, lower(lo + function_underflow(ar.rsqrt_ulps, ar)), &ar};
  }
  // Bounded: E = T Ea + 2 k u T + 2 k eta, T = e^(va + 2Ea) (e^(v_B + 2E) >= e^(v - 2d + 2 lo)).
  friend Filtered exp(const Filtered& a) {
    const Arithmetic& ar = pick(a, a);
    const double top = detmath::exp(a.v_ + 2 * a.d_), low = detmath::exp(a.v_ - 2 * a.d_ + 2 * a.lo_);
    const double d = top < kNoOverflow ? upper(top * a.d_ + 0x1p-52 * top + 2 * kEta53) : kInf;
    const double lo = low * a.lo_ + 2 * ar.exp_ulps * ar.unit * low + function_underflow(ar.exp_ulps, ar);
    return {detmath::exp(a.v_), d, lower(lo), &ar};
  }
  // Bounded: E = Ea / La + 2 k u max(|log La|, |log Ma|) + 2 k eta (La > 0). That maximum is at least
  // log Ma >= log(lower M) and -log La >= -log(|v| + 2d), each argument taken a relative 2^-50
  // further down (log near 1 turns a rounding of its argument into an absolute 2^-53); the
  // double's own error within 2^-52 (max(|log la|, |log ua|) + 2^-50), la and ua (|v| -+ 2d)
  // computed within 2^-53 relative.
  friend Filtered log(const Filtered& a) {
    const Arithmetic& ar = pick(a, a);
    const double la = a.lower_abs(), ua = a.upper_abs();
    const double mag = std::max(std::fabs(detmath::log(la)), std::fabs(detmath::log(ua)));
    const double d = a.v_ > 0 && la > 0 ? upper(a.d_ / la + 0x1p-52 * (mag + 0x1p-50) + 2 * kEta53) : kInf;
    const double low_mag =
        positive_part(std::max(detmath::log(a.lower_m() * (1 - 0x1p-50)), -detmath::log(ua * (1 + 0x1p-50))));
    const double lo = a.lo_ / ua + 2 * ar.log_ulps * ar.unit * low_mag + function_underflow(ar.log_ulps, ar);
    return {detmath::log(a.v_), d, lower(lo), &ar};
  }

  // sum of f(0), ..., f(n - 1), ascending; lo under `ar`'s reduction depth of max(n, terms)
  // terms (Bounded::sum), d at depth n - 1 (any order).
  template <class F>
  static Filtered sum(std::int64_t n, F f, const Arithmetic& ar, std::int64_t terms = 0) {
    double v = 0, devs = 0, mags = 0, los = 0, low_mags = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const Filtered t = f(i);
      v += t.v_;
      devs += t.d_;
      mags += std::fabs(t.v_) + 2 * t.d_;
      los += t.lo_;
      low_mags += t.lower_m();
    }
    const double nd = static_cast<double>(n);
    const double gd = static_cast<double>(n > 1 ? n - 1 : 0);
    const double d = (devs + gamma(gd, kU53) * mags + gd * kEta53) * (1 + nd * 0x1p-52) * kUp;
    const double g = static_cast<double>(ar.reduction_depth(std::max(n, terms)));
    const double lo = (los + gamma(g, ar.unit) * low_mags + g * ar.underflow) * (1 - nd * 0x1p-52) * kDown;
    return {v, d, positive_part(lo), &ar};
  }

  // Two parts of one reduction (Bounded::parts: E = Ea + Eb + 2^-53 |v_B| + 2^-1074).
  static Filtered parts(const Filtered& a, const Filtered& b) {
    const Filtered s = add(a, b, a.v_ + b.v_);
    return {s.v_, s.d_, (a.lo_ + b.lo_ + kU53 * s.lower_abs() + kEta53) * kDown, s.a_};
  }

  // One value a subject may evaluate in several ways (Bounded::covering: v_B the first way's, E the
  // sum of every way's, or infinite where a way's class is unknown): v and d the first way's, lo
  // the sum of the ways' lo, each a lower bound on its way's E.
  static Filtered covering(std::initializer_list<Filtered> ways) {
    const Filtered& first = *ways.begin();
    double los = 0;
    for (const Filtered& w : ways) los += w.lo_;
    return {first.v_, first.d_, los * (1 - static_cast<double>(ways.size()) * 0x1p-52), first.a_};
  }

  // The largest of f(0), ..., f(n - 1), n >= 1 (Bounded::max: E = max Ei; the exact maximum is
  // within max di of any evaluation's).
  template <class F>
  static Filtered max(std::int64_t n, F f) {
    Filtered m = f(0);
    double d = m.d_, lo = m.lo_;
    for (std::int64_t i = 1; i < n; ++i) {
      const Filtered t = f(i);
      d = std::isnan(t.d_) || t.d_ > d ? t.d_ : d;
      lo = t.lo_ > lo ? t.lo_ : lo;  // never NaN (the constructor)
      if (std::isnan(t.v_) || t.v_ > m.v_) m = t;
    }
    return {m.v_, d, lo, m.a_};
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr double kU53 = 0x1p-53, kEta53 = 0x1p-1074;
  static constexpr double kUp = 1 + 0x1p-50, kDown = 1 - 0x1p-46;
  static constexpr double kUpFn = 1 + 0x1p-40, kDownFn = 1 - 0x1p-40;
  // A quotient or exp at most this far from 2^1024 leaves no double evaluation's rounding Inf.
  static constexpr double kNoOverflow = 0x1p1023;

  // max(x, 0), and 0 for a NaN x, as std::fmax(x, 0.0) (which GCC calls out of line: the filter's
  // per-element rules run it a few times an element).
  static double positive_part(double x) { return x > 0 ? x : 0.0; }
  // A lower bound on Bounded's M = |v_B| + 2E.
  double lower_m() const { return lower_abs() + 2 * lo_; }
  // An upper bound on |v_B| and on every double evaluation's magnitude.
  double upper_abs() const { return std::fabs(v_) + 2 * d_; }
  // A function rule's d and lo, their roundings' margins added and taken off (the header).
  static double upper(double d) { return d * kUpFn + 0x1p-1070; }
  static double lower(double lo) { return positive_part(lo * kDownFn - 0x1p-1070); }
  // Bounded's absolute term of a function accurate to `ulps` (Bounded::function).
  static double function_underflow(double ulps, const Arithmetic& ar) { return 2 * ulps * ar.underflow; }
  static double gamma(double g, double u) { return g * u < 1 ? g * u / (1 - g * u) : kInf; }
  static const Arithmetic& pick(const Filtered& a, const Filtered& b) {
    static const Arithmetic fallback;
    return a.a_ ? *a.a_ : b.a_ ? *b.a_ : fallback;
  }
  // Bounded: E = Ea + Eb + u (|v_B| (1 + 2^-52) + 2 (Ea + Eb)) + eta.
  static Filtered add(const Filtered& a, const Filtered& b, double v) {
    const Arithmetic& ar = pick(a, b);
    const double devs = a.d_ + b.d_;
    const double d = (devs + kU53 * (std::fabs(v) * (1 + 0x1p-52) + 2 * devs) + kEta53) * kUp;
    const double los = a.lo_ + b.lo_;
    const double lo = (los + ar.unit * (positive_part(std::fabs(v) - 2 * d) + 2 * los) + ar.underflow) * kDown;
    return {v, d, lo, &ar};
  }
  double v_, d_, lo_;
  const Arithmetic* a_;
};

}  // namespace parity::ops
