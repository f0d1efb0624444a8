// The DiT rows' host twins (model_rows.hpp) against float64 references written here, each
// within a per-element error bound derived from its reduction lengths (stated at each
// reference), plus batch invariance, bitwise; and detmath::exp against long double expl.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>
#include <parity/core/detmath.hpp>
#include <parity/core/random_fill.hpp>
#include <parity/core/tensor.hpp>
#include <parity/subjects/rlkernels/model_rows.hpp>
#include <parity/subjects/rlkernels/tests/model_rows_test_support.hpp>

namespace parity::subjects::rlkernels::model {
namespace {

using std::int64_t;
using test::gamma;
using test::normal;

constexpr double kU = 0x1p-24;  // float32 unit roundoff

void expect_within(const Tensor& got, const std::vector<double>& ref,
                   const std::vector<double>& bound, const std::string& what) {
  const std::vector<double> a = got.values();
  const BoundCheck c = check_bound(a, ref, bound);
  EXPECT_TRUE(c.holds()) << what << ": " << c.violations << " elements outside the bound; first at "
                         << index_text(c.first_violation, got.shape()) << ": "
                         << number_text(a[c.first_violation]) << " vs "
                         << number_text(ref[c.first_violation]) << " (bound "
                         << number_text(bound[c.first_violation]) << ")";
  ::testing::Test::RecordProperty(what + "_bound_utilisation", std::to_string(c.max_utilisation));
}

void expect_bitwise(const Tensor& a, const Tensor& b, const std::string& what) {
  const BitwiseDiff d = compare_bitwise(a, b);
  EXPECT_TRUE(d.equal()) << what << ": " << d.describe(b.shape());
}

// ---- RMSNorm ---------------------------------------------------------------------------

// r's relative error is at most (C/2 + 3) u (chain over C, divide, add eps, sqrt, reciprocal),
// y adds two products: |y - ref| <= gamma_{C+8} |ref|.
TEST(ModelRowsRmsNorm, ForwardWithinGammaBound) {
  const int64_t M = 5, C = 64;
  const float eps = 1e-5f;
  const Tensor x = normal(DType::f32, {M, C}, 13, 0, 2.0), w = normal(DType::f32, {C}, 13, 1, 1.0);
  for (const Tensor* wp : {&w, static_cast<const Tensor*>(nullptr)}) {
    const Tensor y = rms_norm_forward(x, wp, eps);
    const std::vector<double> xv = x.values(), wv = w.values();
    std::vector<double> ref(M * C), bound(M * C);
    for (int64_t m = 0; m < M; ++m) {
      double ss = 0.0;
      for (int64_t c = 0; c < C; ++c) ss += xv[m * C + c] * xv[m * C + c];
      const double r = 1.0 / std::sqrt(ss / C + static_cast<double>(eps));
      for (int64_t c = 0; c < C; ++c) {
        ref[m * C + c] = xv[m * C + c] * r * (wp ? wv[c] : 1.0);
        bound[m * C + c] = gamma(C + 8) * std::fabs(ref[m * C + c]);
      }
    }
    expect_within(y, ref, bound, wp ? "rms_norm_forward" : "rms_norm_forward_no_weight");
  }
}

// dx = r (g - xh mu): r, xh carry (C/2 + 4) u relative, mu = mean(g xh) a further gamma_C
// of mean|g xh|, then a product, a difference and a product. First-order bound:
// gamma_{2C+20} r (|g| + |xh| mean|g xh|).
TEST(ModelRowsRmsNorm, BackwardInputWithinGammaBound) {
  const int64_t M = 4, C = 64;
  const float eps = 1e-5f;
  const Tensor x = normal(DType::f32, {M, C}, 14, 0, 1.5), w = normal(DType::f32, {C}, 14, 1, 1.0);
  const Tensor dy = normal(DType::f32, {M, C}, 14, 2, 1.0);
  const Tensor dx = rms_norm_backward_input(x, &w, eps, dy);
  const std::vector<double> xv = x.values(), wv = w.values(), g0 = dy.values();
  std::vector<double> ref(M * C), bound(M * C);
  for (int64_t m = 0; m < M; ++m) {
    double ss = 0.0, dot = 0.0, dot_abs = 0.0;
    for (int64_t c = 0; c < C; ++c) ss += xv[m * C + c] * xv[m * C + c];
    const double r = 1.0 / std::sqrt(ss / C + static_cast<double>(eps));
    for (int64_t c = 0; c < C; ++c) {
      const double g = g0[m * C + c] * wv[c], xh = xv[m * C + c] * r;
      dot += g * xh;
      dot_abs += std::fabs(g * xh);
    }
    for (int64_t c = 0; c < C; ++c) {
      const double g = g0[m * C + c] * wv[c], xh = xv[m * C + c] * r;
      ref[m * C + c] = r * (g - xh * dot / C);
      bound[m * C + c] = gamma(2 * C + 20) * r * (std::fabs(g) + std::fabs(xh) * dot_abs / C);
    }
  }
  expect_within(dx, ref, bound, "rms_norm_backward_input");
}

// ---- RoPE ------------------------------------------------------------------------------

// Each rotated output is two products and a sum: gamma_3 (|x0 c| + |x1 s|), resp.
// gamma_3 (|x1 c| + |x0 s|); the pass-through dims are exact. The backward is the adjoint,
// the rotation by -angle.
TEST(ModelRowsRope, ForwardAndBackwardWithinGammaBound) {
  const int64_t B = 2, T = 3, H = 2, Dh = 16;
  const int R = 12;
  const Tensor x = normal(DType::f32, {B, T, H, Dh}, 15, 0, 1.0);
  Tensor cos = Tensor::zeros(DType::f32, {T, R / 2}), sin = cos;
  for (int64_t i = 0; i < T * R / 2; ++i) {
    const double angle = 0.37 * static_cast<double>(i) + 0.1;
    cos.set_value(i, std::cos(angle));
    sin.set_value(i, std::sin(angle));
  }
  const std::vector<double> xv = x.values(), cv = cos.values(), sv = sin.values();
  for (const double sign : {1.0, -1.0}) {
    const Tensor o = sign > 0 ? rope_forward(x, cos, sin, R) : rope_backward_input(x, cos, sin, R);
    std::vector<double> ref(xv), bound(xv.size(), 0.0);
    for (int64_t bth = 0; bth < B * T * H; ++bth) {
      const int64_t t = (bth / H) % T, base = bth * Dh;
      for (int64_t i = 0; i < R / 2; ++i) {
        const double c = cv[t * R / 2 + i], s = sign * sv[t * R / 2 + i];
        const double x0 = xv[base + i], x1 = xv[base + i + R / 2];
        ref[base + i] = x0 * c - x1 * s;
        ref[base + i + R / 2] = x1 * c + x0 * s;
        bound[base + i] = gamma(3) * (std::fabs(x0 * c) + std::fabs(x1 * s));
        bound[base + i + R / 2] = gamma(3) * (std::fabs(x1 * c) + std::fabs(x0 * s));
      }
    }
    expect_within(o, ref, bound, sign > 0 ? "rope_forward" : "rope_backward_input");
  }
}

// ---- batch invariance -----------------------------------------------------------------

// Every row-local function on one batch: RMSNorm forward and dx, the SwiGLU gate's backward.
std::vector<Tensor> row_functions(const Tensor& h, const Tensor& w, const Tensor& d_out, const Tensor& ag,
                                  const Tensor& du) {
  return {rms_norm_forward(h, &w, 1e-5f), rms_norm_backward_input(h, &w, 1e-5f, d_out),
          rms_norm_backward_input(h, nullptr, 1e-5f, d_out), swiglu_gate_backward(ag, du)};
}

// Row m of a batched call equals the row computed alone, for every row-local function.
TEST(ModelRowsInvariance, RowsOfABatchEqualRowsComputedAlone) {
  const int64_t M = 13, D = 16, F = 24;
  const Tensor h = normal(DType::f32, {M, D}, 19, 0, 1.0), w = normal(DType::f32, {D}, 19, 1, 1.0);
  const Tensor d_out = normal(DType::f32, {M, D}, 19, 2, 1.0), ag = normal(DType::f32, {M, 2 * F}, 19, 3, 2.0);
  const Tensor du = normal(DType::f32, {M, F}, 19, 4, 1.0);
  const std::vector<Tensor> all = row_functions(h, w, d_out, ag, du);
  for (std::size_t f = 0; f < all.size(); ++f) ASSERT_TRUE(other_row_differs(all[f], 0)) << "function " << f;
  for (int64_t m = 0; m < M; ++m) {
    const auto one = [m](const Tensor& t) { return t.rows(m, m + 1); };
    const std::vector<Tensor> alone = row_functions(one(h), w, one(d_out), one(ag), one(du));
    for (std::size_t f = 0; f < all.size(); ++f)
      expect_bitwise(alone[f], one(all[f]), "function " + std::to_string(f) + " row " + std::to_string(m));
  }
}

// The SwiGLU gate's backward (model_arith.cuh): da = (du g) silu'(a), dg = du silu(a), against
// float64. Every operation rounds once (u; exp_f32 is exp in double rounded once, u and a
// double's error). sig = 1 / (1 + e) and silu = a / (1 + e) are within 3u relative (1 + e loses
// at most u of e's error, then the add and the divide). q = 1 + a (1 - sig) is within
// 3u |a| sig + 2u |a| (1 - sig) + u |q| <= 3u |a| + u |q| absolutely, so silu' = sig q within
// 3u sig |a| + 5u |silu'|; da = (du g) silu' adds two roundings: within 7u |du g silu'| +
// 3u |du g| sig |a|; dg = du silu within 4u |du silu|. The bound takes 9u and 10u sig (1 + |a|)
// for da and 4u for dg, doubled for the second-order terms and the double's share of exp.
TEST(ModelRowsSwigluGate, BackwardWithinDerivedBound) {
  const int64_t M = 9, F = 40;
  const Tensor ag = normal(DType::f32, {M, 2 * F}, 18, 0, 3.0), du = normal(DType::f32, {M, F}, 18, 1, 1.0);
  const Tensor out = swiglu_gate_backward(ag, du);
  const std::vector<double> agv = ag.values(), duv = du.values();
  std::vector<double> ref(M * 2 * F), bound(M * 2 * F);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t f = 0; f < F; ++f) {
      const double a = agv[m * 2 * F + f], g = agv[m * 2 * F + F + f], d = duv[m * F + f];
      const double sig = 1.0 / (1.0 + std::exp(-a)), silu = a * sig, dsilu = sig * (1.0 + a * (1.0 - sig));
      ref[m * 2 * F + f] = d * g * dsilu;
      bound[m * 2 * F + f] = 2 * (9 * kU * std::fabs(d * g * dsilu) + 10 * kU * std::fabs(d * g) * sig * (1 + std::fabs(a)));
      ref[m * 2 * F + F + f] = d * silu;
      bound[m * 2 * F + F + f] = 2 * 4 * kU * std::fabs(d * silu);
    }
  expect_within(out, ref, bound, "swiglu_gate_backward");
}

// ---- exp -------------------------------------------------------------------------------

std::uint64_t ulps(double a, double b) {
  std::uint64_t ua, ub;
  std::memcpy(&ua, &a, sizeof ua);
  std::memcpy(&ub, &b, sizeof ub);
  return ua > ub ? ua - ub : ub - ua;  // both non-negative: bit distance is ulp distance
}

// The correctly rounded double of e^x (long double expl carries 11 extra bits).
double exp_ref(double x) { return static_cast<double>(std::exp(static_cast<long double>(x))); }

TEST(ModelRowsExp, WithinOneUlpOfExplOverTheWholeRange) {
  std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, 0x1p-60, -0x1p-60, 0.5 * M_LN2, -0.5 * M_LN2,
                            709.782712893383973096, 709.78, -708.39641853226410622,
                            -708.4, -720.0, -740.0, -744.44007192138126231, -745.0,
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

TEST(ModelRowsExp, SpecialValuesAndThresholds) {
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
  EXPECT_EQ(detmath::exp(-745.13321910194110842), 0x1p-1074);  // just above ln(denorm_min / 2)
  EXPECT_EQ(detmath::exp(-745.2), 0.0);
}

// exp_f32 = exp in double rounded once to float: within 1 float ulp of the exact value
// (the double is within 1 double ulp), including float overflow and subnormals.
TEST(ModelRowsExp, Float32WithinOneUlp) {
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
}  // namespace parity::subjects::rlkernels::model
