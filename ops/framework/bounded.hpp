#pragma once
// Bounded: the scalar type an op's reference is instantiated in to derive, per output element,
// a rigorous bound on how far any evaluation that the subject's declared Arithmetic allows can
// be from the exact result. Running error analysis (Wilkinson; Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., SIAM 2002, section 3.3), operation by operation.
//
// Each value carries v, the double evaluation of the expression (parity's oracle), and E with
//     |x_hat - x*| <= E   and   |v - x*| <= E,
// x* the exact value of the expression on the exact inputs, x_hat the subject's evaluation.
// M = |v| + 2E bounds |x*|, |x_hat| and |v| from above; L = max(|v| - 2E, 0) from below.
//
// The rules, u the unit roundoff of the subject's precision, eta half its smallest subnormal
// (the standard model with underflow, Higham (2.4) and section 2.3:
// fl(a op b) = (a op b)(1 + d) + e, |d| <= u, |e| <= eta):
//   a +- b   E = Ea + Eb + u (|v| + 2 (Ea + Eb)) + eta
//   a * b    E = Ma Eb + Mb Ea + u Ma Mb + eta
//   a / b    E = Ea / Lb + Ma Eb / Lb^2 + u Ma / Lb + eta               (Lb > 0, else infinite)
//   sqrt a   E = min(Ea / (2 sqrt La), sqrt Ea) + u sqrt Ma + eta        (|sqrt x - sqrt y| <= sqrt|x - y|)
//   rsqrt a  E = Ea / (2 La^1.5) + 2 k u / sqrt La + 2 k eta             (mean value theorem; La > 0)
//   exp a    E = e^(va + 2Ea) Ea + 2 k u e^(va + 2Ea) + 2 k eta
//   log a    E = Ea / La + 2 k u max(|log La|, |log Ma|) + 2 k eta       (La > 0)
//   -a       exact;  max of n terms: exact, E = max Ei.
// k is the declared accuracy of the function in ulps; an ulp of x is at most 2u|x| where x is
// normal and the subnormal spacing 2 eta where it is not, so k ulps is at most 2ku|x| + 2k eta.
//   sum of n terms (sum()): E = sum Ei + gamma_g sum Mi + (n - 1) eta, gamma_g = g u / (1 - g u)
// with g = n - 1 for any order and any summation built of n - 1 additions (each term goes
// through at most n - 1 roundings: Higham Lemma 3.1 and (4.4)), or g = the depth of a declared
// lane-and-tree order (Arithmetic::reduction_depth; pairwise summation: Higham (4.6)).
// The double value v is itself one such evaluation, at 2^-53 <= u, so every rule covers it too:
// its exp and log are core/detmath.hpp's, within 1 ulp of double, far inside 2ku at float32's u;
// Arithmetic::float64() declares them (k = 1) where the oracle's self-check bounds double itself.
//
// Where the float evaluation may leave the finite range (M, or a partial sum, at or above the
// precision's largest finite), the value is marked may_overflow, and E bounds every evaluation
// whose value is finite: check_bound accepts a non-finite value at such an element and checks a
// finite one. Overflow gives an Inf, and +, -, *, fma, sqrt, log, a division's dividend and a
// rounding keep a non-finite operand non-finite, so through those a finite result had finite
// operands, each within its E, and the rules above apply (an operation that overflows itself
// gives an Inf). An operation that can turn an Inf finite widens E to cover that finite result
// too: a divisor b (a / Inf = 0, |a* / b*| <= Ma / Lb), rsqrt (rsqrt(Inf) = 0, at most 1 / sqrt La
// exactly), exp (exp(-Inf) = 0, at most e^(va + Ea) exactly), a maximum (a finite maximum is some
// term's finite evaluation, whichever terms an Inf or a NaN (maxNum, a ternary) dropped: it and the
// exact maximum lie within twice the largest M of the terms that may be finite): E becomes the
// larger of the rule above and that bound, and the result may still overflow (an Inf or NaN
// operand may stay one). Where E itself is not finite in double the element is exempt
// (check_bound accepts any value where the reference is finite), and counted; so is an element
// whose E admits every finite value of its dtype (forward_accuracy). Where exp(v) leaves double's
// range while the float evaluation may be finite, the class is unknown (below). A non-finite v
// (an Inf or NaN input) gets
// E = 0: the subject must give the same class, IEEE's extension of the exact result. A NaN E
// becomes infinite. Where that class is not determined — an Inf times an operand that may round
// to 0 (an underflowed probability) or may be anything (it may overflow, or E is infinite), an
// Inf combined with an operand that may overflow, or a division by (an rsqrt or log of) an
// operand whose double value is 0 but whose evaluation may not be (a variance exactly 0 in
// double, positive in float) — the value's class is unknown: E is infinite whatever v is
// (check_bound then accepts any non-finite value where v is not finite), and every value
// computed from it inherits that.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include <parity/core/detmath.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops {

class Bounded {
 public:
  Bounded() = default;
  // An exact constant (err 0), representable in the subject's precision: 2, n, a parameter.
  Bounded(double exact) : v_(exact) {}  // NOLINT: implicit, as a literal is in any real type
  // `may_overflow`: some evaluation may overflow, `err` bounding those whose value is finite (the
  // header).
  Bounded(double v, double err, const Arithmetic* a, bool may_overflow = false)
      : v_(v), e_(finish(v, err)), over_(may_overflow && std::isfinite(v) && std::isfinite(e_)), a_(a) {}

  double value() const { return v_; }
  // The bound on the error of every evaluation whose value is finite; infinite where exempt.
  double err() const { return e_; }
  // Whether some permitted evaluation may overflow: its value may then be non-finite, or finite
  // within err (the header).
  bool may_overflow() const { return over_; }
  const Arithmetic* arithmetic() const { return a_; }

  friend Bounded operator+(const Bounded& a, const Bounded& b) { return add(a, b, a.v_ + b.v_); }
  friend Bounded operator-(const Bounded& a, const Bounded& b) { return add(a, b, a.v_ - b.v_); }
  friend Bounded operator-(const Bounded& a) {
    return a.class_unknown() ? unknown(-a.v_, a.a_) : Bounded{-a.v_, a.e_, a.a_, a.over_};
  }
  friend Bounded operator*(const Bounded& a, const Bounded& b) {
    const Arithmetic& ar = pick(a, b);
    const double v = a.v_ * b.v_;
    if (unknown_class(a, b, v) || (std::isinf(a.v_) && b.may_be_zero()) || (std::isinf(b.v_) && a.may_be_zero()))
      return unknown(v, &ar);
    const double ma = a.upper(), mb = b.upper();
    return rounded(v, ma * b.e_ + mb * a.e_, ma * mb, a.over_ || b.over_, ar);
  }
  friend Bounded operator/(const Bounded& a, const Bounded& b) {
    const Arithmetic& ar = pick(a, b);
    if (unknown_class(a, b, a.v_ / b.v_)) return unknown(a.v_ / b.v_, &ar);
    const double lb = b.lower(), ma = a.upper();
    // The quotient's class is the double's where the divisor is exactly 0 and the dividend's
    // sign is certain (x / 0 = +-Inf), or both are exact.
    if (!(lb > 0)) return beyond_range(a.v_ / b.v_, b.e_ > 0 || (a.e_ > 0 && a.lower() == 0), &ar);
    const Bounded q = rounded(a.v_ / b.v_, a.e_ / lb + ma / lb * (b.e_ / lb), ma / lb, a.over_, ar);
    return b.over_ ? q.or_finite_after_overflow(ma / lb) : q;  // a / Inf = 0
  }
  friend Bounded sqrt(const Bounded& a) {
    const Arithmetic& ar = pick(a, a);
    if (a.class_unknown()) return unknown(std::sqrt(a.v_), &ar);
    const double la = a.lower();
    const double prop = la > 0 ? std::min(a.e_ / (2 * std::sqrt(la)), std::sqrt(a.e_)) : std::sqrt(a.e_);
    return rounded(std::sqrt(a.v_), prop, std::sqrt(a.upper()), a.over_, ar);
  }
  friend Bounded rsqrt(const Bounded& a) {
    const Arithmetic& ar = pick(a, a);
    if (a.class_unknown()) return unknown(1.0 / std::sqrt(a.v_), &ar);
    const double la = a.lower();
    const double v = 1.0 / std::sqrt(a.v_);
    if (!(la > 0)) return beyond_range(v, a.e_ > 0, &ar);
    const Bounded r = function(v, a.e_ / la / (2 * std::sqrt(la)), 1 / std::sqrt(la), ar.rsqrt_ulps, false, ar);
    return a.over_ ? r.or_finite_after_overflow(1 / std::sqrt(la)) : r;  // rsqrt(Inf) = 0
  }
  friend Bounded exp(const Bounded& a) {
    const Arithmetic& ar = pick(a, a);
    if (a.class_unknown()) return unknown(detmath::exp(a.v_), &ar);
    const double ev = detmath::exp(a.v_);
    // Inf in double, while the float evaluation may be finite (its argument may be -Inf, or small
    // enough): no class is determined.
    if (!std::isfinite(ev) && (a.over_ || detmath::exp(a.v_ - 2 * a.e_) < ar.max_finite)) return unknown(ev, &ar);
    const double top = detmath::exp(a.v_ + 2 * a.e_);
    const Bounded r = function(ev, top * a.e_, top, ar.exp_ulps, false, ar);
    return a.over_ ? r.or_finite_after_overflow(top) : r;  // exp(-Inf) = 0
  }
  friend Bounded log(const Bounded& a) {
    const Arithmetic& ar = pick(a, a);
    if (a.class_unknown()) return unknown(detmath::log(a.v_), &ar);
    const double la = a.lower();
    const double v = detmath::log(a.v_);
    if (!(la > 0)) return a.e_ > 0 ? beyond_range(v, true, &ar) : Bounded(v, 0.0, &ar);
    const double mag = std::max(std::fabs(detmath::log(la)), std::fabs(detmath::log(a.upper())));
    return function(v, a.e_ / la, mag, ar.log_ulps, a.over_, ar);
  }

  // The sum of f(0), ..., f(n - 1) under `ar`'s reduction rule (the header's sum rule); with
  // `terms` > n, as part of a reduction of `terms` terms (its depth; see parts()).
  template <class F>
  static Bounded sum(std::int64_t n, F f, const Arithmetic& ar, std::int64_t terms = 0) {
    double v = 0, prop = 0, mags = 0;
    bool unknown_term = false, may_be_anything = false, over = false;
    for (std::int64_t i = 0; i < n; ++i) {
      const Bounded t = f(i);
      v += t.v_;
      prop += t.e_;
      mags += t.upper();
      unknown_term = unknown_term || t.class_unknown();
      may_be_anything = may_be_anything || t.may_be_anything();
      over = over || t.over_;
    }
    if (unknown_term || (!std::isfinite(v) && may_be_anything)) return unknown(v, &ar);
    const double g = static_cast<double>(ar.reduction_depth(std::max(n, terms)));
    const double gamma = g * ar.unit < 1 ? g * ar.unit / (1 - g * ar.unit) : kInf;
    // A partial sum is at most the sum of the terms' magnitudes, each grown by its roundings.
    over = over || !(mags * (1 + gamma) < ar.max_finite);
    Bounded out{v, prop + gamma * mags + g * ar.underflow, &ar, over};
    return terms > n ? out.as_part(mags * (1 + gamma)) : out;
  }

  // The sum of two disjoint parts of one reduction of `terms` terms, each bounded with that
  // reduction's depth (sum(n, f, ar, terms), Eval::matmul's `terms`): the sum rule is a sum over
  // the terms of E_t + gamma M_t plus g eta, so the parts' errors add with no further rounding to
  // charge (each part's g eta is counted again: an overcount). v is one more double addition, so
  // its own error 2^-53 |v| + 2^-1074 is added to keep |v - x*| <= E.
  // A partial sum of the whole reduction may reach the sum of both parts' term magnitudes (as_part):
  // it may overflow where that does.
  static Bounded parts(const Bounded& a, const Bounded& b) {
    const Arithmetic& ar = pick(a, b);
    const double v = a.v_ + b.v_;
    if (unknown_class(a, b, v)) return unknown(v, &ar);
    const double mags = a.part_magnitude() + b.part_magnitude();
    const bool over = a.over_ || b.over_ || !(mags < ar.max_finite);
    return Bounded{v, a.e_ + b.e_ + 0x1p-53 * std::fabs(v) + 0x1p-1074, &ar, over}.as_part(mags);
  }
  // This value as a part of a longer reduction whose terms' magnitudes, grown by their roundings,
  // sum to at most `magnitude` (what parts() checks for overflow).
  Bounded as_part(double magnitude) const {
    Bounded b = *this;
    b.part_mag_ = magnitude;
    return b;
  }

  // The largest of f(0), ..., f(n - 1), n >= 1: exact in floating point, so its error is the
  // largest of the terms' errors (a NaN term makes it NaN, as IEEE's maximum does).
  template <class F>
  static Bounded max(std::int64_t n, F f) {
    Bounded m = f(0);
    double err = m.e_, mag = may_be_finite_maximum(m) ? m.upper() : 0.0;
    bool unknown_term = m.class_unknown(), may_be_anything = m.may_be_anything(), over = m.over_;
    for (std::int64_t i = 1; i < n; ++i) {
      const Bounded t = f(i);
      err = std::max(err, t.e_);
      if (may_be_finite_maximum(t)) mag = std::max(mag, t.upper());
      unknown_term = unknown_term || t.class_unknown();
      may_be_anything = may_be_anything || t.may_be_anything();
      over = over || t.over_;
      if (std::isnan(t.v_) || t.v_ > m.v_) m = t;
    }
    if (unknown_term || (!std::isfinite(m.v_) && may_be_anything)) return unknown(m.v_, m.a_);
    const Bounded r(m.v_, err, m.a_);
    // A finite maximum is one of the terms' finite evaluations: it and the exact maximum lie
    // within the largest M of the terms that may be finite.
    return over ? r.or_finite_after_overflow(2 * mag) : r;
  }

  // One value that a subject may evaluate in any of several ways, the reference writing out
  // `ways` (the same exact value each): the first way's double value with the sum of their
  // errors; may overflow where any way may, of an unknown class where any way's is. `ways` is not empty. Meant for a
  // scale s on a sum s * sum_i a_i, with the ways "s on a factor of every term" and "s on the finished sum" among them:
  // an evaluation with s on partial sums is covered by the two errors summed. Each of its terms passes through no more
  // roundings than in either way; its roundings of s times a partial sum cost at most u s sum |a_i|, which the first
  // way's per-term scalings charge; each of its underflow terms is one of the two ways' (s times a product's or a
  // sum's, or one of a scaling). A partial sum is no larger than the unscaled sum's terms, a scaled one than the scaled
  // terms', so where it may overflow one of the ways may. More ways only add to the error.
  static Bounded covering(std::initializer_list<Bounded> ways) {
    const Bounded& first = *ways.begin();
    double err = 0, part_mags = 0;
    bool unknown_way = false, over = false, part = false;
    for (const Bounded& w : ways) {
      err += w.e_;
      unknown_way = unknown_way || w.class_unknown();
      over = over || w.over_;
      part = part || w.part_mag_ > 0;
      part_mags += w.part_magnitude();
    }
    if (unknown_way) return unknown(first.v_, first.a_);
    // Ways that are parts of a longer reduction (as_part): a term of any of them is at most the
    // sum of the ways' term magnitudes.
    const Bounded out{first.v_, err, first.a_, over};
    return part ? out.as_part(part_mags) : out;
  }

  // This value rounded once more, into a narrower output dtype of unit `unit` (bf16: 2^-8),
  // half-smallest-subnormal `eta` and largest finite `max_finite`.
  Bounded rounded_to(double unit, double eta, double max_finite) const {
    if (class_unknown()) return *this;
    return {v_, e_ + unit * upper() + eta, a_, over_ || !(upper() < max_finite)};
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  double upper() const { return std::fabs(v_) + 2 * e_; }
  double part_magnitude() const { return std::max(part_mag_, upper()); }
  double lower() const { return std::max(std::fabs(v_) - 2 * e_, 0.0); }
  // A non-finite value whose class a subject's evaluation may not share (the header).
  bool class_unknown() const { return !std::isfinite(v_) && std::isinf(e_); }
  // A finite value whose evaluation may be non-finite or anything: it may overflow, or is exempt.
  bool may_be_anything() const { return std::isfinite(v_) && (std::isinf(e_) || over_); }
  // A finite value whose evaluation may be 0 where v is not, or not where v is.
  bool may_be_zero() const { return std::isfinite(v_) && lower() == 0 && (v_ != 0 || e_ > 0); }
  // This result of an operation that turns an Inf operand finite (the header), where an operand
  // may overflow: its bound widened to `reach`, which bounds |x_hat - x*| for the finite value
  // an overflowed operand gives; it may still overflow (an operand may stay Inf or NaN).
  Bounded or_finite_after_overflow(double reach) const {
    if (class_unknown()) return *this;
    if (!std::isfinite(v_)) return unknown(v_, a_);  // the double's Inf, a finite evaluation
    return {v_, std::max(e_, reach), a_, true};
  }
  // Whether a term's evaluation may be a finite maximum: all but an exact -Inf (a masked logit).
  static bool may_be_finite_maximum(const Bounded& t) { return !(t.v_ == -kInf && t.e_ == 0); }
  static Bounded unknown(double v, const Arithmetic* a) {
    Bounded b(v, kInf, a);
    b.e_ = kInf;
    return b;
  }
  // A result whose operand may reach 0 or below (L = 0: a divisor, rsqrt's or log's argument):
  // finite v is exempt (E infinite); a non-finite v (the double's operand exactly 0 or
  // negative) has a determined class only where the operand is exact (`operand_may_differ`
  // false: the subject's operand is that very value), else an unknown one (the subject's
  // operand may be positive and its result finite).
  static Bounded beyond_range(double v, bool operand_may_differ, const Arithmetic* a) {
    if (std::isfinite(v) || operand_may_differ) return unknown(v, a);
    return {v, 0.0, a};
  }
  // Whether a binary operation's result v has an unknown class: an operand's is, or v is not
  // finite and an operand may be anything.
  static bool unknown_class(const Bounded& a, const Bounded& b, double v) {
    return a.class_unknown() || b.class_unknown() ||
           (!std::isfinite(v) && (a.may_be_anything() || b.may_be_anything()));
  }

  static double finish(double v, double err) {
    if (!std::isfinite(v)) return 0.0;
    return std::isnan(err) ? kInf : err;
  }
  // The arithmetic of whichever operand carries one (constants carry none).
  static const Arithmetic& pick(const Bounded& a, const Bounded& b) {
    static const Arithmetic fallback;
    return a.a_ ? *a.a_ : b.a_ ? *b.a_ : fallback;
  }
  static Bounded add(const Bounded& a, const Bounded& b, double v) {
    const Arithmetic& ar = pick(a, b);
    if (unknown_class(a, b, v)) return unknown(v, &ar);
    const double prop = a.e_ + b.e_;
    return rounded(v, prop, std::fabs(v) * (1 + 0x1p-52) + 2 * prop, a.over_ || b.over_, ar);
  }
  // A result of magnitude at most `mag` whose inputs' errors propagate to `prop`, rounded once;
  // it may overflow where an operand may (`over`) or where `mag` reaches the largest finite.
  static Bounded rounded(double v, double prop, double mag, bool over, const Arithmetic& ar) {
    return {v, prop + ar.unit * mag + ar.underflow, &ar, over || !(mag + prop < ar.max_finite)};
  }
  // A function result of magnitude at most `mag`, accurate to `ulps` (the header: 2 k u mag + 2 k eta).
  static Bounded function(double v, double prop, double mag, double ulps, bool over, const Arithmetic& ar) {
    return {v, prop + 2 * ulps * (ar.unit * mag + ar.underflow), &ar, over || !(mag + prop < ar.max_finite)};
  }

  double v_ = 0, e_ = 0;
  double part_mag_ = 0;  // as_part's; 0 for a value that is not a part of a longer reduction
  bool over_ = false;
  const Arithmetic* a_ = nullptr;
};

using std::sqrt;

// rsqrt for the other reals the references are instantiated in (double, MPFR).
template <class R>
R rsqrt(const R& x) {
  using std::sqrt;
  return R(1) / sqrt(x);
}
inline double exp(double x) { return detmath::exp(x); }
inline double log(double x) { return detmath::log(x); }

}  // namespace parity::ops
