#pragma once
// The one definition of parity's oracle values where operands hold special values: the exact
// result, extended to +-Inf and NaN operation by operation as IEEE 754 defines each operation.
// For every operation of an oracle's formula (oracles/lora.hpp, as written there: h = x A^T,
// y = x W^T + s (h B^T), dh = s (G B), dx = G W + dh A, dA = dh^T x, dB = s (G^T h)):
//   - a product with a NaN factor is NaN; an infinity times zero is NaN; an infinity times any
//     other value is the infinity, signed by the product of the signs;
//   - a sum with a NaN term is NaN; a sum with both +Inf and -Inf is NaN; a sum with
//     infinities of one sign is that infinity; a sum of finite terms is their exact sum;
//   - finite values are exact reals: they never overflow and never round, so a finite element
//     whose float evaluation would overflow is still finite here, and a finite intermediate is
//     zero (for Inf * 0) exactly when its exact value is.
// IEEE addition and multiplication with round to nearest follow the same rules for the special
// classes, so any order of a sum gives this class. ExtendedReal is that arithmetic, exactly
// (Boost.Multiprecision rationals): LoraOracle<ExtendedReal> evaluates the definition, slowly,
// on small problems; the LoRA oracles are tested against it (fast_oracle_special_values_test).
// The multiprecision oracle follows it by MPFR's IEEE semantics; the fast one as
// oracles/lora_fast.hpp says.
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>

namespace parity::oracles {

class ExtendedReal {
 public:
  enum class Kind { finite, pos_inf, neg_inf, nan };

  ExtendedReal() = default;
  ExtendedReal(int v) : value_(v) {}  // NOLINT: a Real must convert from 0
  // The exact value of a double (every finite double is a dyadic rational).
  explicit ExtendedReal(double v);

  Kind kind() const { return kind_; }
  // The double nearest the exact value (ties to even); the class as a double otherwise.
  explicit operator double() const;

  friend ExtendedReal operator+(const ExtendedReal& a, const ExtendedReal& b);
  friend ExtendedReal operator*(const ExtendedReal& a, const ExtendedReal& b);
  friend ExtendedReal operator-(const ExtendedReal& a) {
    ExtendedReal r = a;
    r.value_ = -r.value_;
    r.kind_ = a.kind_ == Kind::pos_inf ? Kind::neg_inf : a.kind_ == Kind::neg_inf ? Kind::pos_inf : a.kind_;
    return r;
  }
  ExtendedReal& operator+=(const ExtendedReal& b) { return *this = *this + b; }
  // IEEE ordering: false whenever a NaN is involved.
  friend bool operator<(const ExtendedReal& a, const ExtendedReal& b);

 private:
  using Rational = boost::multiprecision::cpp_rational;
  static ExtendedReal special(Kind k) {
    ExtendedReal r;
    r.kind_ = k;
    return r;
  }
  // -1, 0 or 1 for finite values and infinities.
  int sign() const { return kind_ == Kind::pos_inf ? 1 : kind_ == Kind::neg_inf ? -1 : value_.sign(); }

  Kind kind_ = Kind::finite;
  Rational value_ = 0;
};

inline ExtendedReal::ExtendedReal(double v) {
  if (std::isnan(v)) kind_ = Kind::nan;
  else if (std::isinf(v)) kind_ = v > 0 ? Kind::pos_inf : Kind::neg_inf;
  else {
    int e = 0;
    const double m = std::frexp(v, &e);  // v = m 2^e, |m| in [0.5, 1): m 2^53 is an integer
    value_ = Rational(static_cast<long long>(std::ldexp(m, 53)));
    e -= 53;
    const Rational p = Rational(boost::multiprecision::cpp_int(1) << (e < 0 ? -e : e));
    if (e < 0) value_ /= p;
    else value_ *= p;
  }
}

inline ExtendedReal::operator double() const {
  switch (kind_) {
    case Kind::nan:
      return std::numeric_limits<double>::quiet_NaN();
    case Kind::pos_inf:
      return HUGE_VAL;
    case Kind::neg_inf:
      return -HUGE_VAL;
    case Kind::finite:
      break;
  }
  return value_.convert_to<double>();
}

inline ExtendedReal operator+(const ExtendedReal& a, const ExtendedReal& b) {
  using K = ExtendedReal::Kind;
  if (a.kind_ == K::nan || b.kind_ == K::nan) return ExtendedReal::special(K::nan);
  if (a.kind_ != K::finite && b.kind_ != K::finite && a.kind_ != b.kind_) return ExtendedReal::special(K::nan);
  if (a.kind_ != K::finite) return a;
  if (b.kind_ != K::finite) return b;
  ExtendedReal r;
  r.value_ = a.value_ + b.value_;
  return r;
}

inline ExtendedReal operator*(const ExtendedReal& a, const ExtendedReal& b) {
  using K = ExtendedReal::Kind;
  if (a.kind_ == K::nan || b.kind_ == K::nan) return ExtendedReal::special(K::nan);
  if (a.kind_ != K::finite || b.kind_ != K::finite) {
    const int s = a.sign() * b.sign();
    return ExtendedReal::special(s == 0 ? K::nan : s > 0 ? K::pos_inf : K::neg_inf);
  }
  ExtendedReal r;
  r.value_ = a.value_ * b.value_;
  return r;
}

inline bool operator<(const ExtendedReal& a, const ExtendedReal& b) {
  using K = ExtendedReal::Kind;
  if (a.kind_ == K::nan || b.kind_ == K::nan) return false;
  if (a.kind_ == K::finite && b.kind_ == K::finite) return a.value_ < b.value_;
  return a.kind_ != b.kind_ && (a.kind_ == K::neg_inf || b.kind_ == K::pos_inf);
}

}  // namespace parity::oracles

// Exact: no rounding (LoraOracle's oracle_err is then 0).
template <>
class std::numeric_limits<parity::oracles::ExtendedReal> {
 public:
  static constexpr bool is_specialized = true;
  static parity::oracles::ExtendedReal epsilon() { return parity::oracles::ExtendedReal(0); }
};
