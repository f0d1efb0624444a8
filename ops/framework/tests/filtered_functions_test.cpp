// Filtered's rules for division, sqrt, rsqrt, exp and log (filtered.hpp) at their corners, against
// MPFR and Bounded: logarithms of operands within a few ulps of 1 (where a rounding of the argument
// is an absolute error, not a relative one), exp near double's overflow and into its subnormal
// range, divisors near 2^+-511 and beyond under Arithmetic::float64(), rsqrt of subnormal and huge
// operands, sqrt of a difference within a few ulps of its own error. Each expression reads two exact
// inputs through one rounded operation, so its operand carries a d and a lo; and exact infinite
// operands (x / Inf, rsqrt(Inf), exp(-Inf): 0 whatever the evaluation). Where d is finite the
// value is within d of MPFR's and 2d of Bounded's; lo is never above Bounded's E; and d is finite
// exactly where the rules are meant to decide. And Bounded's bound of a function covers its
// declared ulps in the subnormal range.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/oracles/multiprecision.hpp>

namespace parity::ops {
namespace {

using oracles::mp_real;

struct Corner {
  std::string what;
  double x, y;
  bool decided;  // the rules give a finite d here
};

// Checks expr(x, y) in Filtered against MPFR and Bounded under `ar` for every corner.
template <class Expr>
void check(const char* name, Expr expr, const std::vector<Corner>& corners, const Arithmetic& ar) {
  for (const Corner& c : corners) {
    const std::string where = std::string(name) + ", " + c.what + " (unit " + std::to_string(ar.unit) + ")";
    const Filtered f = expr(Filtered(c.x, 0.0, 0.0, &ar), Filtered(c.y, 0.0, 0.0, &ar));
    const Bounded b = expr(Bounded(c.x, 0.0, &ar), Bounded(c.y, 0.0, &ar));
    const auto exact = static_cast<double>(expr(mp_real(c.x), mp_real(c.y)));
    EXPECT_GE(f.lo(), 0.0) << where;
    EXPECT_TRUE(b.err() >= f.lo()) << where << ": lo " << f.lo() << " above Bounded's " << b.err();
    EXPECT_EQ(std::isfinite(f.dev()), c.decided) << where << ": d " << f.dev();
    if (!std::isfinite(f.dev())) continue;
    EXPECT_LE(std::fabs(f.value() - exact), f.dev() + 0x1p-52 * std::fabs(exact))
        << where << ": " << f.value() << " vs MPFR " << exact << ", d " << f.dev();
    EXPECT_LE(std::fabs(f.value() - b.value()), 2 * f.dev())
        << where << ": " << f.value() << " vs Bounded's " << b.value() << ", d " << f.dev();
  }
}

void check_every_rule(const Arithmetic& ar) {
  check(
      "log(x y)", [](const auto& x, const auto& y) { return log(x * y); },
      {{"x y just above 1", 1 + 0x1p-52, 1 + 3 * 0x1p-52, true},
       {"x y just below 1", 1 - 0x1p-53, 1 - 0x1p-52, true},
       {"x y a rounding from 1", 1 + 0x1p-30, 1 - 0x1p-30, true},
       {"x y tiny", 0x1p-500, 0x1.8p-520, true},
       {"x y huge", 0x1p500, 0x1.8p520, true},
       {"x y 0", 0.0, 3.0, false},
       {"x y negative", -2.0, 3.0, false}},
      ar);
  check(
      "exp(x + y)", [](const auto& x, const auto& y) { return exp(x + y); },
      {{"near overflow", 709.0, 0.78, false},
       {"below overflow", 700.0, 0.5, true},
       {"a subnormal result", -740.0, 0.3, true},
       {"at the subnormal boundary", -708.0, -0.4, true},
       {"0", -745.0, -1.5, true},
       {"about 1", 0x1p-30, -0x1p-31, true},
       {"-Inf + finite", -INFINITY, 1.0, false}},
      ar);
  check(
      "(x y) / (x + y)", [](const auto& x, const auto& y) { return (x * y) / (x + y); },
      {{"divisor near 2^511", 0x1.3p511, 0x1.1p511, true},
       {"divisor near 2^-511", 0x1.3p-511, 0x1.1p-511, true},
       {"divisor 2^600", 0x1p600, 0x1p-10, true},
       {"divisor 2^-600", 0x1p-600, 0x1.8p-600, true},
       {"a dividend past double's range", 0x1p600, 0x1.8p600, false},
       {"a subnormal dividend", 0x1p-540, 0x1p-530, true},
       {"a subnormal quotient", 0x1p-1030, 1.0, true},
       {"divisor 0", 2.0, -2.0, false}},
      ar);
  check(
      "rsqrt(x y)", [](const auto& x, const auto& y) { return rsqrt(x * y); },
      {{"a subnormal operand", 0x1p-540, 0x1.8p-530, true},
       {"a huge operand", 0x1p600, 0x1.8p400, true},
       {"about 1", 1 + 0x1p-52, 1 - 0x1p-40, true},
       {"a negative operand", -1.0, 2.0, false}},
      ar);
  check(
      "sqrt(x - y y)", [](const auto& x, const auto& y) { return sqrt(x - y * y); },
      {{"a difference of a few ulps", 1.0, 1 - 0x1p-52, true},
       {"a difference of 2^-29", 1.0, 1 - 0x1p-30, true},
       {"exactly 0", 1.0, 1.0, false},
       {"negative", 1.0, 1 + 0x1p-20, false}},
      ar);
  // Exact infinite operands, whose every evaluation gives the same value.
  check(
      "y / x", [](const auto& x, const auto& y) { return y / x; }, {{"x Inf", INFINITY, 3.0, true}}, ar);
  check(
      "rsqrt(x) + y", [](const auto& x, const auto& y) { return rsqrt(x) + y; }, {{"x Inf", INFINITY, 3.0, true}}, ar);
  check(
      "exp(x) + y", [](const auto& x, const auto& y) { return exp(x) + y; }, {{"x -Inf", -INFINITY, 3.0, true}}, ar);
}

TEST(FilteredFunctions, CornersHoldAgainstMpfrAndBoundedUnderFloat32) { check_every_rule(Arithmetic{}); }

TEST(FilteredFunctions, CornersHoldAgainstMpfrAndBoundedUnderFloat64) { check_every_rule(Arithmetic::float64()); }

// A float32 exp within its 2 ulps may be 2 subnormal spacings (2^-149 each) off where its result
// is below float32's smallest normal, even from an exact argument: e^-104 is about 2^-150.
TEST(BoundedFunctions, BoundASubnormalResultByItsUlpsOfTheSubnormalSpacing) {
  const Arithmetic ar{};
  const Bounded e = exp(Bounded(-104.0, 0.0, &ar));
  EXPECT_GE(e.err(), ar.exp_ulps * 0x1p-149);
}

}  // namespace
}  // namespace parity::ops
