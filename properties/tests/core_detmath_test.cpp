// core/detmath.hpp's exp against long double expl: within one ulp over the whole double range, its
// special values and thresholds (overflow, subnormals, underflow to 0), and exp_f32 within one
// float ulp. Every deterministic kernel that calls exp (softmax, swiglu, sdpa, the transition step)
// relies on these.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>
#include <parity/core/detmath.hpp>
#include <parity/core/random_fill.hpp>

namespace parity {
namespace {

// The distance in ulps of two non-negative doubles: their bit distance.
std::uint64_t ulps(double a, double b) {
  std::uint64_t ua, ub;
  std::memcpy(&ua, &a, sizeof ua);
  std::memcpy(&ub, &b, sizeof ub);
  return ua > ub ? ua - ub : ub - ua;
}

// The correctly rounded double of e^x (long double expl carries 11 extra bits).
double exp_ref(double x) { return static_cast<double>(std::exp(static_cast<long double>(x))); }

TEST(DetmathExp, WithinOneUlpOfExplOverTheWholeRange) {
  std::vector<double> xs = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            0x1p-60,
                            -0x1p-60,
                            0.5 * M_LN2,
                            -0.5 * M_LN2,
                            709.782712893383973096,
                            709.78,
                            -708.39641853226410622,
                            -708.4,
                            -720.0,
                            -740.0,
                            -744.44007192138126231,
                            -745.0,
                            -745.13321910194110842};
  for (int i = 0; i <= 400000; ++i) xs.push_back(-745.1 + 1455.0 * i / 400000.0);
  for (int i = 0; i < 100000; ++i) xs.push_back(-746.0 + 1456.0 * philox_uniform(23, 0, i));
  for (int i = 0; i < 100000; ++i) xs.push_back((philox_uniform(23, 1, i) - 0.5) * 1e-3);
  std::uint64_t worst = 0;
  double worst_x = 0.0;
  for (const double x : xs) {
    const std::uint64_t d = ulps(detmath::exp(x), exp_ref(x));
    if (d > worst) worst = d, worst_x = x;
  }
  EXPECT_LE(worst, 1u) << "worst at x = " << number_text(worst_x);
  EXPECT_GT(detmath::exp(-740.0), 0.0);
  EXPECT_LT(detmath::exp(-740.0), DBL_MIN) << "-740 must give a subnormal";
}

TEST(DetmathExp, SpecialValuesAndThresholds) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(detmath::exp(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(detmath::exp(inf), inf);
  EXPECT_EQ(detmath::exp(-inf), 0.0);
  EXPECT_FALSE(std::signbit(detmath::exp(-inf)));
  EXPECT_EQ(detmath::exp(0.0), 1.0);
  EXPECT_EQ(detmath::exp(-0.0), 1.0);
  EXPECT_EQ(detmath::exp(709.79), inf);  // just above log(DBL_MAX) = 709.7827...
  EXPECT_EQ(detmath::exp(709.782712893383973096), exp_ref(709.782712893383973096));
  EXPECT_EQ(detmath::exp(1000.0), inf);
  EXPECT_EQ(detmath::exp(-746.0), 0.0);
  EXPECT_EQ(detmath::exp(-745.13321910194110842),
            0x1p-1074);  // just above ln(denorm_min / 2)
  EXPECT_EQ(detmath::exp(-745.2), 0.0);
}

// exp_f32 = exp in double rounded once to float: within 1 float ulp of the exact value (the double
// is within 1 double ulp), including float overflow and subnormals.
TEST(DetmathExp, Float32WithinOneUlp) {
  std::uint64_t worst = 0;
  for (int i = 0; i <= 200000; ++i) {
    const float x = static_cast<float>(-104.0 + 193.0 * i / 200000.0);
    const float got = detmath::exp_f32(x);
    const float ref = static_cast<float>(std::exp(static_cast<long double>(x)));
    if (std::isinf(ref)) {
      EXPECT_EQ(got, ref) << "x = " << x;
      continue;
    }
    worst = std::max(worst, ulp_distance_f32(float_bits(got), float_bits(ref)));
  }
  EXPECT_LE(worst, 1u);
  EXPECT_EQ(detmath::exp_f32(89.0f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(detmath::exp_f32(-104.0f), 0.0f);
  EXPECT_GT(detmath::exp_f32(-100.0f), 0.0f);  // a float subnormal
}

}  // namespace
}  // namespace parity
