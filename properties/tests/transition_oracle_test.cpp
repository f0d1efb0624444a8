// The transition oracle: running-error bounds and Sum2 on known cases, and the float64 oracle
// against the 133-bit one on generated cases.
#include <gtest/gtest.h>

#include <cmath>

#include "oracles/running_error.hpp"
#include "oracles/sum2.hpp"
#include "oracles/transition.hpp"
#include "properties/gen/transition_runs.hpp"

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
  const double s = oracles::sum2<double>(v.size(), [&](std::size_t i) { return v[i]; });
  double naive = 0;
  for (double x : v) naive += x;
  EXPECT_EQ(naive, 0.0);  // every 1e-16 is lost against the 1
  // Sum2's bound: u |s| + gamma_{n-1}^2 sum |p_i|.
  const double u = 0x1p-53, g = (v.size() - 1) * u / (1 - (v.size() - 1) * u);
  const double exact = 1e6 * 1e-16;
  EXPECT_LE(std::fabs(s - exact), u * std::fabs(exact) + g * g * (2.0 + 1e-10));
  EXPECT_NEAR(s, exact, 1e-3 * exact);
  EXPECT_TRUE(std::isinf(oracles::sum2<double>(2, [](std::size_t i) { return i ? -INFINITY : 1.0; })));
}

TEST(TransitionOracle, Float64AgreesWithMultiprecision) {
  const auto& prop = properties::transition::find_transition_property("oracle_agreement");
  gen::TransitionCaps caps;
  caps.max_elements = 1 << 16;  // the 133-bit oracle costs ~300x a double per element
  const auto result = gen::run_transition_property(subjects::find_transition_subject("rlkernels-host"), prop, {}, caps);
  EXPECT_TRUE(result.passed) << result.message;
  if (result.passed) std::cout << result.message << "\n";
}

}  // namespace
}  // namespace parity
