#pragma once
// Inputs and a float64 reference for the model's SwiGLU feed-forward (feed_forward.hpp), with
// first-order error bounds doubled for the neglected second-order terms; the derivation is
// written at the bound. Its sums are bounded by gamma_n of their magnitudes, which holds for any
// summation order (the linear kernel's lanes included); silu's own rounding is taken as 3u (exp,
// add, divide), the exp's share beyond u (a double's error, 2^-20 u) left to the doubling. Valid
// where exp(-a) neither overflows nor leaves sig subnormal (|a| < 87); the problems' a stay
// within a few units.
#include <cmath>
#include <cstdint>
#include <vector>

#include <parity/core/normal_tensor.hpp>
#include <parity/core/tensor.hpp>

namespace parity::model::test {

using std::int64_t;

inline constexpr double kUnit = 0x1p-24;  // float32 unit roundoff

// gamma_n = n u / (1 - n u), u = 2^-24.
inline double gamma(int64_t n) { return n * kUnit / (1.0 - n * kUnit); }

struct SwigluProblem {
  Tensor h, W1, W3, W2, d_out;
};

// h, d_out [M,D] of order 1; W1, W3 [F,D] and W2 [D,F] scaled by 1/sqrt(fan-in).
inline SwigluProblem swiglu_problem(int64_t M, int64_t D, int64_t F, std::uint64_t seed) {
  const double sd = 1.0 / std::sqrt(static_cast<double>(D)), sf = 1.0 / std::sqrt(static_cast<double>(F));
  return {normal_tensor_nd(DType::f32, {M, D}, seed, 0, 1.0), normal_tensor_nd(DType::f32, {F, D}, seed, 1, 2 * sd),
          normal_tensor_nd(DType::f32, {F, D}, seed, 2, sd), normal_tensor_nd(DType::f32, {D, F}, seed, 3, sf),
          normal_tensor_nd(DType::f32, {M, D}, seed, 4, 1.0)};
}

struct SwigluReference {
  std::vector<double> out, out_bound, dh, dh_bound;
};

// First-order running-error bounds. With A_f = sum_d |h W1_fd| (a_f known to gamma_D A_f),
// G_f likewise for g_f, DU_f = sum_d |d_out_d W2_df|, s = silu(a), s1 = silu'(a),
// s2 = silu''(a), sig = sigmoid(a): silu's own rounding is <= 3u |s| (exp, add, divide),
// silu''s <= 10u (1 + |a|) sig (its seven operations).
//   e(u_f)  = |g| (|s1| gD A + 3u |s|) + |s| gD G + u |s g|;
//   out_d:  sum_f |W2_df| e(u_f) + gamma_F sum_f |u_f W2_df|;
//   e(da_f) = |g s1| gD DU + |du s1| gD G + |du g| (|s2| gD A + 10u (1 + |a|) sig) + 2u |du g s1|;
//   e(dg_f) = |s| gD DU + |du| (|s1| gD A + 3u |s|) + u |du s|;
//   dh_k:   sum_f (|W1_fk| e(da_f) + |W3_fk| e(dg_f)) + gamma_2F sum_f (|da W1| + |dg W3|).
// Each doubled. gD = gamma_D.
inline SwigluReference swiglu_reference(const SwigluProblem& p) {
  const int64_t M = p.h.dim(0), D = p.h.dim(1), F = p.W1.dim(0);
  const std::vector<double> h = p.h.values(), W1 = p.W1.values(), W3 = p.W3.values(), W2 = p.W2.values(),
                            dO = p.d_out.values();
  const double u = kUnit, gD = gamma(D);
  SwigluReference r;
  for (auto* vec : {&r.out, &r.out_bound, &r.dh, &r.dh_bound}) vec->assign(M * D, 0.0);
  for (int64_t m = 0; m < M; ++m) {
    std::vector<double> uf(F), eu(F), da(F), eda(F), dg(F), edg(F);
    for (int64_t f = 0; f < F; ++f) {
      double a = 0, A = 0, g = 0, G = 0, du = 0, DU = 0;
      for (int64_t d = 0; d < D; ++d) {
        a += h[m * D + d] * W1[f * D + d], A += std::fabs(h[m * D + d] * W1[f * D + d]);
        g += h[m * D + d] * W3[f * D + d], G += std::fabs(h[m * D + d] * W3[f * D + d]);
        du += dO[m * D + d] * W2[d * F + f], DU += std::fabs(dO[m * D + d] * W2[d * F + f]);
      }
      const double sig = 1.0 / (1.0 + std::exp(-a)), s = a * sig;
      const double s1 = sig * (1 + a * (1 - sig)), s2 = sig * (1 - sig) * (2 + a * (1 - 2 * sig));
      uf[f] = s * g;
      eu[f] =
          std::fabs(g) * (std::fabs(s1) * gD * A + 3 * u * std::fabs(s)) + std::fabs(s) * gD * G + u * std::fabs(s * g);
      da[f] = du * g * s1;
      eda[f] = std::fabs(g * s1) * gD * DU + std::fabs(du * s1) * gD * G +
               std::fabs(du * g) * (std::fabs(s2) * gD * A + 10 * u * (1 + std::fabs(a)) * sig) +
               2 * u * std::fabs(du * g * s1);
      dg[f] = du * s;
      edg[f] = std::fabs(s) * gD * DU + std::fabs(du) * (std::fabs(s1) * gD * A + 3 * u * std::fabs(s)) +
               u * std::fabs(du * s);
    }
    for (int64_t d = 0; d < D; ++d)
      for (int64_t f = 0; f < F; ++f) {
        const int64_t o = m * D + d;
        r.out[o] += uf[f] * W2[d * F + f];
        r.out_bound[o] += 2 * (std::fabs(W2[d * F + f]) * eu[f] + gamma(F) * std::fabs(uf[f] * W2[d * F + f]));
        r.dh[o] += da[f] * W1[f * D + d] + dg[f] * W3[f * D + d];
        r.dh_bound[o] += 2 * (std::fabs(W1[f * D + d]) * eda[f] + std::fabs(W3[f * D + d]) * edg[f] +
                              gamma(2 * F) * (std::fabs(da[f] * W1[f * D + d]) + std::fabs(dg[f] * W3[f * D + d])));
      }
  }
  return r;
}

}  // namespace parity::model::test
