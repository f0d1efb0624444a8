// The transition oracle: running-error bounds and Sum2 on known cases; Sum2 and the float64
// log-prob mean within their stated errors of exact MPFR sums on generated rows, well
// conditioned, cancelling and long. (The op transition_step's oracle, which judges accuracy, has
// its own self-check: transition_step_oracle_test.)
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <parity/oracles/running_error.hpp>
#include <parity/oracles/sum2.hpp>
#include <parity/oracles/transition.hpp>

namespace parity {
namespace {

namespace re = oracles::running_error;
using T = oracles::Tracked<double>;

TEST(RunningError, BoundsAFloat32EvaluationAndNothingLess) {
  // (a + b) * c in float32 against the exact value: inside the bound, which is tight to a few u.
  const float a = 0.1f, b = 0.7f, c = 3.3f;
  const float f32 = (a + b) * c;
  const T exact = re::mul(re::add(T::exact(a), T::exact(b)), T::exact(c));
  EXPECT_LE(std::fabs(f32 - exact.value), exact.err);
  EXPECT_LT(exact.err, 4 * re::kUnit * std::fabs(exact.value) + 1e-30);
  // Division by something that may be zero has no bound.
  EXPECT_TRUE(std::isinf(re::div(T::exact(1.0), T{0.0, 1e-3}).err));
  // Past the float32 range the float result may be Inf: the bound is infinite.
  EXPECT_TRUE(std::isinf(re::mul(T::exact(1e30), T::exact(1e30)).err));
}

TEST(Sum2, IsAccurateWhereNaiveSummationIsNot) {
  // 1 + 1e-16 * 1e6 - 1: naive double summation loses every small term.
  std::vector<double> v{1.0};
  for (int i = 0; i < 1000000; ++i) v.push_back(1e-16);
  v.push_back(-1.0);
  const auto r = oracles::sum2<double>(v.size(), [&](std::size_t i) { return v[i]; });
  const double s = r.sum;
  double naive = 0;
  for (double x : v) naive += x;
  EXPECT_EQ(naive, 0.0);  // every 1e-16 is lost against the 1
  // Sum2's bound: u |s| + gamma_{n-1}^2 sum |p_i|.
  const double u = 0x1p-53, g = (v.size() - 1) * u / (1 - (v.size() - 1) * u);
  const double exact = 1e6 * 1e-16;
  EXPECT_LE(std::fabs(s - exact), u * std::fabs(exact) + g * g * (2.0 + 1e-10));
  EXPECT_NEAR(s, exact, 1e-3 * exact);
  EXPECT_LE(r.err, u * std::fabs(exact) * 1.01 + g * g * 2.01);  // the stated error is that bound
  const auto inf = oracles::sum2<double>(2, [](std::size_t i) { return i ? -INFINITY : 1.0; });
  EXPECT_TRUE(std::isinf(inf.sum));
  EXPECT_TRUE(std::isinf(inf.err));
}

// Exact for sums of up to 2^20 doubles spanning 2^-200 .. 2^200 (and far more).
using Exact =
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<1100>, boost::multiprecision::et_off>;

enum class Kind { well_conditioned, cancelling };

// A row of n terms: well conditioned (magnitudes over 2^-20 .. 2^20, one sign) or cancelling
// (pairs x, -x(1 + tiny) and a few exponent-spread terms; the sum is ~1e-12 of sum |x_i|).
std::vector<double> row_terms(Kind kind, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-20, 20);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::ldexp(unit(rng), expo(rng));
  if (kind == Kind::cancelling)
    for (std::size_t i = 1; i < n; i += 2) v[i] = -v[i - 1] * (1 + std::ldexp(unit(rng), -40));
  return v;
}

Exact exact_sum(const std::vector<double>& v) {
  Exact s = 0;
  for (double x : v) s += Exact(x);
  return s;
}

RC_GTEST_PROP(Sum2, WithinItsStatedErrorOfTheExactSum, ()) {
  const Kind kind = *rc::gen::element(Kind::well_conditioned, Kind::cancelling);
  const std::size_t n =
      *rc::gen::oneOf(rc::gen::inRange<std::size_t>(1, 300), rc::gen::inRange<std::size_t>(1 << 16, 1 << 18));
  const std::vector<double> v = row_terms(kind, n, *rc::gen::arbitrary<std::uint64_t>());
  const auto r = oracles::sum2<double>(n, [&](std::size_t i) { return v[i]; });
  const Exact exact = exact_sum(v);
  RC_ASSERT(static_cast<double>(abs(Exact(r.sum) - exact)) <= r.err);
  // The stated error is Sum2's: about u |sum| plus n^2 u^2 sum |x_i|, far below a float's ulp.
  RC_ASSERT(r.err <= 0x1p-52 * std::fabs(r.sum) + 1e-20 * static_cast<double>(r.abs));
}

// A transition row (sde with normaliser, or cps) of n elements and a prev row: scattered
// around the mean, or, for `cancelling` (sde only), at the distance where each log-prob term
// nearly vanishes: the first half of the terms positive, the second negative, so that a
// running sum grows before it cancels and, over an even n, the mean is tiny against
// sum |term| / n.
struct Row {
  oracles::TransitionRow<double> row;
  std::vector<double> x, v, prev;
};

Row transition_case(Kind kind, bool cps, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> sym(-1.0, 1.0);
  oracles::TransitionRowParams p;
  p.sigma = static_cast<float>(0.3 + 0.5 * (sym(rng) + 1) / 2);
  p.sigma_prev = static_cast<float>(p.sigma - 0.01);
  p.sin_a = static_cast<float>(std::sin(0.7 * 3.14159265358979323846 / 2));
  p.cps = cps && kind != Kind::cancelling;
  Row r{oracles::transition_row<double>(p, 0.5), {}, {}, {}};
  const double noise = r.row.noise.value;
  // For the sde with normaliser, -d^2 / (2 noise^2) - log(noise) - log(sqrt(2 pi)) = 0 at d0.
  const double zero_at = noise * std::sqrt(2 * (-r.row.log_noise.value - r.row.log_norm.value));
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<float>(sym(rng)), v = static_cast<float>(sym(rng));
    const double mean = oracles::transition_mean(r.row, x, v).value;
    const double d = kind == Kind::cancelling ? zero_at * (1 + (2 * i < n ? -1e-3 : 1e-3) * (1 + 1e-4 * sym(rng)))
                                              : noise * 2 * sym(rng);
    r.x.push_back(x);
    r.v.push_back(v);
    r.prev.push_back(static_cast<float>(mean + d));
  }
  return r;
}

// Empty where the row's float64 log-prob is within its stated error of the MPFR mean of the
// same terms, and the case is not degenerate: the cancelling rows do cancel, and the oracle's
// error is a negligible share of the float32 bound it is used with. Else what failed.
std::string text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string logp_check(Kind kind, bool cps, std::size_t n, std::uint64_t seed) {
  const Row r = transition_case(kind, cps, n, seed);
  const auto fast = oracles::transition_logp<double>(r.row, r.x, r.v, r.prev, 1);
  Exact sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += Exact(oracles::transition_term(r.row, r.prev[i], oracles::transition_mean(r.row, r.x[i], r.v[i])).value);
  const double diff = static_cast<double>(abs(Exact(fast.value) - sum / Exact(static_cast<double>(n))));
  const std::string at = " (n " + std::to_string(n) + ", seed " + std::to_string(seed) + ")";
  if (!(diff <= fast.oracle_err))
    return "|logp - exact| = " + text(diff) + " > oracle_err " + text(fast.oracle_err) + at;
  if (kind == Kind::cancelling && !(std::fabs(fast.value) < 1e-2 * fast.abs_mean))
    return "no cancellation: mean " + text(fast.value) + ", abs_mean " + text(fast.abs_mean) + at;
  if (!(fast.oracle_err < 0x1p-20 * fast.err))
    return "oracle_err " + text(fast.oracle_err) + " not negligible against err " + text(fast.err) + at;
  return {};
}

RC_GTEST_PROP(TransitionOracle, LogpMeanWithinItsStatedErrorOfMpfr, ()) {
  const Kind kind = *rc::gen::element(Kind::well_conditioned, Kind::cancelling);
  const bool cps = *rc::gen::arbitrary<bool>();
  std::size_t n =
      *rc::gen::oneOf(rc::gen::inRange<std::size_t>(1, 500), rc::gen::inRange<std::size_t>(1 << 14, 1 << 16));
  if (kind == Kind::cancelling) n += n % 2;
  const std::string failure = logp_check(kind, cps, n, *rc::gen::arbitrary<std::uint64_t>());
  if (!failure.empty()) RC_FAIL(failure);
}

TEST(TransitionOracle, LongCancellingRowWithinItsStatedErrorOfMpfr) {
  // 800k elements, the length of a long video latent row.
  EXPECT_EQ(logp_check(Kind::cancelling, false, 800000, 7), "");
}

}  // namespace
}  // namespace parity
