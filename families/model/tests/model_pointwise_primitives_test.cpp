// The model's row-local primitives on parity's host kernels (primitives.hpp: the ops rms_norm,
// rms_norm_backward, rope and swiglu_backward), as the model calls them, against float64 references
// written here, each within an error bound derived at the test (valid for any summation order, the
// kernels' lanes included):
//   - RMSNorm forward and dx, with the model's weight and without one (a weight of ones);
//   - RoPE on the first rope_dims of a head, the rest passed through, and its adjoint (the
//     rotation by the opposite angle), as the attention's backward calls it;
//   - the SwiGLU gate's backward;
// and each primitive's rows of a batched call equal to the rows computed alone, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <parity/core/compare.hpp>
#include <parity/core/normal_tensor.hpp>
#include <parity/families/model/routines/primitives.hpp>
#include <parity/families/model/routines/tensor_ops.hpp>
#include <parity/families/model/tests/feed_forward_reference.hpp>
#include <parity/families/model/tests/primitive_test_helpers.hpp>

namespace parity::model {
namespace {

using std::int64_t;
using test::expect_within;
using test::gamma;
using test::host;
using test::kUnit;

// ---- RMSNorm ---------------------------------------------------------------------------

// The sum of C squares carries gamma_C relative error in any order, the mean and eps a rounding
// each, sqrt halves the relative error and rounds, the reciprocal rounds: r within (C/2 + 3) u
// relative; y adds two products: |y - ref| <= gamma_{C+8} |ref|.
TEST(ModelPrimitivesRmsNorm, ForwardWithinGammaBound) {
  const int64_t M = 5,
                C = 300;  // C > 256: several terms in a lane of the kernel's order
  const float eps = 1e-5f;
  const Tensor x = normal_tensor_nd(DType::f32, {M, C}, 13, 0, 2.0), w = normal_tensor_nd(DType::f32, {C}, 13, 1, 1.0);
  for (const Tensor* wp : {&w, static_cast<const Tensor*>(nullptr)}) {
    const Tensor y = host().rms_norm_forward(x, wp, eps);
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

// dx = r (g - xh mu): r and xh carry (C/2 + 4) u relative, mu = mean(g xh) a further gamma_C of
// mean|g xh| in any order, then a product, a difference and a product. First-order bound:
// gamma_{2C+20} r (|g| + |xh| mean|g xh|).
TEST(ModelPrimitivesRmsNorm, BackwardInputWithinGammaBound) {
  const int64_t M = 4, C = 300;
  const float eps = 1e-5f;
  const Tensor x = normal_tensor_nd(DType::f32, {M, C}, 14, 0, 1.5), w = normal_tensor_nd(DType::f32, {C}, 14, 1, 1.0);
  const Tensor dy = normal_tensor_nd(DType::f32, {M, C}, 14, 2, 1.0);
  for (const Tensor* wp : {&w, static_cast<const Tensor*>(nullptr)}) {
    const Tensor dx = host().rms_norm_backward_input(x, wp, eps, dy);
    const std::vector<double> xv = x.values(), wv = w.values(), g0 = dy.values();
    std::vector<double> ref(M * C), bound(M * C);
    for (int64_t m = 0; m < M; ++m) {
      double ss = 0.0, dot = 0.0, dot_abs = 0.0;
      for (int64_t c = 0; c < C; ++c) ss += xv[m * C + c] * xv[m * C + c];
      const double r = 1.0 / std::sqrt(ss / C + static_cast<double>(eps));
      const auto g = [&](int64_t c) { return g0[m * C + c] * (wp ? wv[c] : 1.0); };
      for (int64_t c = 0; c < C; ++c) {
        dot += g(c) * xv[m * C + c] * r;
        dot_abs += std::fabs(g(c) * xv[m * C + c] * r);
      }
      for (int64_t c = 0; c < C; ++c) {
        const double xh = xv[m * C + c] * r;
        ref[m * C + c] = r * (g(c) - xh * dot / C);
        bound[m * C + c] = gamma(2 * C + 20) * r * (std::fabs(g(c)) + std::fabs(xh) * dot_abs / C);
      }
    }
    expect_within(dx, ref, bound, wp ? "rms_norm_backward_input" : "rms_norm_backward_input_no_weight");
  }
}

// ---- RoPE ------------------------------------------------------------------------------

// cos and sin [T, R/2] of angles 0.37 i + 0.1.
std::pair<Tensor, Tensor> rope_tables(int64_t T, int R) {
  Tensor cos = Tensor::zeros(DType::f32, {T, R / 2}), sin = cos;
  for (int64_t i = 0; i < T * R / 2; ++i) {
    const double angle = 0.37 * static_cast<double>(i) + 0.1;
    cos.set_value(i, std::cos(angle));
    sin.set_value(i, std::sin(angle));
  }
  return {cos, sin};
}

// Each rotated output is two products and a sum: gamma_3 (|x0 c| + |x1 s|), resp. gamma_3 (|x1 c| +
// |x0 s|); the pass-through dims (R and on) are exact. The backward is the adjoint, the rotation by
// -angle.
TEST(ModelPrimitivesRope, PartialRotationAndItsAdjointWithinGammaBound) {
  const int64_t B = 2, T = 3, H = 2, Dh = 16;
  const int R = 12;
  const Tensor x = normal_tensor_nd(DType::f32, {B, T, H, Dh}, 15, 0, 1.0);
  const auto [cos, sin] = rope_tables(T, R);
  const std::vector<double> xv = x.values(), cv = cos.values(), sv = sin.values();
  for (const double sign : {1.0, -1.0}) {
    const Tensor o = sign > 0 ? host().rope_forward(x, cos, sin, R) : host().rope_backward_input(x, cos, sin, R);
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
  EXPECT_TRUE(compare_bitwise(
                  host().rope_forward(x, Tensor::zeros(DType::f32, {T, 0}), Tensor::zeros(DType::f32, {T, 0}), 0), x)
                  .equal())
      << "rope_dims 0 rotates nothing";
}

// ---- the SwiGLU gate's backward --------------------------------------------------------

// da = (du g) silu'(a), dg = du silu(a), against float64. Every operation rounds once (u; exp_f32
// is exp in double rounded once, u and a double's error). sig = 1 / (1 + e) and silu = a / (1 + e)
// are within 3u relative (1 + e loses at most u of e's error, then the add and the divide). q = 1 +
// a (1 - sig) is within 3u |a| sig + 2u |a| (1 - sig) + u |q| <= 3u |a| + u |q| absolutely, so
// silu' = sig q within 3u sig |a| + 5u |silu'|; da = (du g) silu' adds two roundings: within 7u |du
// g silu'| + 3u |du g| sig |a|; dg = du silu within 4u |du silu|. The bound takes 9u and 10u sig (1
// + |a|) for da and 4u for dg, doubled for the second-order terms and the double's share of exp.
TEST(ModelPrimitivesSwigluGate, BackwardWithinDerivedBound) {
  const int64_t M = 9, F = 40;
  const Tensor ag = normal_tensor_nd(DType::f32, {M, 2 * F}, 18, 0, 3.0),
               du = normal_tensor_nd(DType::f32, {M, F}, 18, 1, 1.0);
  const Tensor out = host().swiglu_gate_backward(ag, du);
  const std::vector<double> agv = ag.values(), duv = du.values();
  std::vector<double> ref(M * 2 * F), bound(M * 2 * F);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t f = 0; f < F; ++f) {
      const double a = agv[m * 2 * F + f], g = agv[m * 2 * F + F + f], d = duv[m * F + f];
      const double sig = 1.0 / (1.0 + std::exp(-a)), silu = a * sig, dsilu = sig * (1.0 + a * (1.0 - sig));
      ref[m * 2 * F + f] = d * g * dsilu;
      bound[m * 2 * F + f] =
          2 * (9 * kUnit * std::fabs(d * g * dsilu) + 10 * kUnit * std::fabs(d * g) * sig * (1 + std::fabs(a)));
      ref[m * 2 * F + F + f] = d * silu;
      bound[m * 2 * F + F + f] = 2 * 4 * kUnit * std::fabs(d * silu);
    }
  expect_within(out, ref, bound, "swiglu_gate_backward");
}

// ---- batch invariance ------------------------------------------------------------------

// Every row-local primitive on one batch of M rows (RoPE's rows are its B samples).
std::vector<Tensor> row_functions(const Tensor& h, const Tensor& w, const Tensor& d_out, const Tensor& ag,
                                  const Tensor& du, const Tensor& heads, const Tensor& cos, const Tensor& sin) {
  return {host().rms_norm_forward(h, &w, 1e-5f),
          host().rms_norm_backward_input(h, &w, 1e-5f, d_out),
          host().rms_norm_backward_input(h, nullptr, 1e-5f, d_out),
          host().swiglu_gate_backward(ag, du),
          host().rope_forward(heads, cos, sin, 6),
          host().rope_backward_input(heads, cos, sin, 6)};
}

TEST(ModelPrimitivesPointwiseInvariance, RowsOfABatchEqualRowsComputedAlone) {
  const int64_t M = 13, D = 300, F = 24;
  const Tensor h = normal_tensor_nd(DType::f32, {M, D}, 19, 0, 1.0), w = normal_tensor_nd(DType::f32, {D}, 19, 1, 1.0);
  const Tensor d_out = normal_tensor_nd(DType::f32, {M, D}, 19, 2, 1.0),
               ag = normal_tensor_nd(DType::f32, {M, 2 * F}, 19, 3, 2.0);
  const Tensor du = normal_tensor_nd(DType::f32, {M, F}, 19, 4, 1.0),
               heads = normal_tensor_nd(DType::f32, {M, 4, 2, 10}, 19, 5, 1.0);
  const auto [cos, sin] = rope_tables(4, 6);
  const std::vector<Tensor> all = row_functions(h, w, d_out, ag, du, heads, cos, sin);
  for (std::size_t f = 0; f < all.size(); ++f)
    ASSERT_TRUE(other_row_differs(reshaped(all[f], {M, all[f].numel() / M}), 0)) << "function " << f << ": degenerate";
  for (int64_t m = 0; m < M; ++m) {
    const auto one = [m](const Tensor& t) { return t.rows(m, m + 1); };
    const std::vector<Tensor> alone = row_functions(one(h), w, one(d_out), one(ag), one(du), one(heads), cos, sin);
    for (std::size_t f = 0; f < all.size(); ++f) {
      const BitwiseDiff d = compare_bitwise(alone[f], one(all[f]));
      EXPECT_TRUE(d.equal()) << "function " << f << " row " << m << ": " << d.describe(alone[f].shape());
    }
  }
}

}  // namespace
}  // namespace parity::model
