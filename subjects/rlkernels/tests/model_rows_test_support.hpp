#pragma once
// Inputs and float64 references for the DiT rows' tests (model_rows_test.cpp, and the inputs
// of model_rows_cuda_twin_test.cpp). The attention and SwiGLU references carry first-order
// error bounds derived from the float32 evaluation orders of model_arith.cuh, doubled for
// the neglected second-order terms; the derivation is written at each bound.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <parity/core/random_fill.hpp>
#include <parity/core/tensor.hpp>

namespace parity::subjects::rlkernels::model::test {

using std::int64_t;

inline constexpr double kUnit = 0x1p-24;  // float32 unit roundoff

// gamma_n = n u / (1 - n u), u = 2^-24.
inline double gamma(int64_t n) { return n * kUnit / (1.0 - n * kUnit); }

// A contiguous tensor of `dtype` with entries sd * N(0, 1) from Philox (seed, stream).
inline Tensor normal(DType dtype, std::vector<int64_t> shape, std::uint64_t seed,
                     std::uint32_t stream, double sd) {
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_value(i, sd * philox_normal(seed, stream, i));
  return t;
}

// Positions [begin, end) of dim 2 of a 4-D tensor, contiguous.
inline Tensor slice_dim2(const Tensor& t, int64_t begin, int64_t end) {
  const int64_t A = t.dim(0), B = t.dim(1), T = t.dim(2), D = t.dim(3);
  Tensor out = Tensor::zeros(t.dtype(), {A, B, end - begin, D});
  int64_t o = 0;
  for (int64_t ab = 0; ab < A * B; ++ab)
    for (int64_t i = begin; i < end; ++i)
      for (int64_t d = 0; d < D; ++d) out.set_bits(o++, t.bits_at((ab * T + i) * D + d));
  return out;
}

struct SdpaProblem {
  Tensor q, k, v, d_out;
  float scale;
};

// q, d_out [B,H,Tq,Dh]; k, v [B,H,Tk,Dh]; scale 1/sqrt(Dh); entries of order 1.
inline SdpaProblem sdpa_problem(int64_t B, int64_t H, int64_t Tq, int64_t Tk, int64_t Dh,
                                std::uint64_t seed) {
  return {normal(DType::f32, {B, H, Tq, Dh}, seed, 0, 1.0),
          normal(DType::f32, {B, H, Tk, Dh}, seed, 1, 1.0),
          normal(DType::f32, {B, H, Tk, Dh}, seed, 2, 1.0),
          normal(DType::f32, {B, H, Tq, Dh}, seed, 3, 1.0),
          static_cast<float>(1.0 / std::sqrt(static_cast<double>(Dh)))};
}

struct SdpaReference {
  std::vector<double> o, dq, dk, dv;
  std::vector<double> o_bound, dq_bound, dk_bound, dv_bound;
};

// Bounds, per query row i (E_i: absolute error of an exp argument S_ij - m_i, from the score
// chain of length Dh, its scaling, the subtraction and exp's own rounding):
//   E_i = 2 gamma_{Dh+1} scale max_j sum_d |q k| + u max_j |S_ij - m_i| + u,
//   rho_i = 2 E_i + gamma_{Tk+2}  relative error of P_ij (e_j and l share the errors of S);
//   o:  (rho_i + gamma_Tk) sum_j P_ij |v_jd|;
//   with A_ij = sum_d |dO_id v_jd|, Abar_i = sum_j P_ij A_ij, |dS_ij| <= P_ij (A_ij + Abar_i)
//   =: G_ij, known to relative sigma_i = rho_i + gamma_{Dh+Tk+3}:
//   dq: scale (sigma_i + gamma_{Tk+1}) sum_j G_ij |k_jd|;  dk: scale sum_i (sigma_i +
//   gamma_{Tq+1}) G_ij |q_id|;  dv: sum_i (rho_i + gamma_Tq) P_ij |dO_id|. Each doubled.
inline SdpaReference sdpa_reference(const SdpaProblem& p) {
  const int64_t B = p.q.dim(0), H = p.q.dim(1), Tq = p.q.dim(2), Tk = p.k.dim(2), Dh = p.q.dim(3);
  const std::vector<double> q = p.q.values(), k = p.k.values(), v = p.v.values(), dO = p.d_out.values();
  const double scale = p.scale;
  SdpaReference r;
  for (auto* vec : {&r.o, &r.dq, &r.o_bound, &r.dq_bound}) vec->assign(q.size(), 0.0);
  for (auto* vec : {&r.dk, &r.dv, &r.dk_bound, &r.dv_bound}) vec->assign(k.size(), 0.0);
  std::vector<double> P(Tq * Tk), dS(Tq * Tk), G(Tq * Tk), rho(Tq), sigma(Tq);
  for (int64_t bh = 0; bh < B * H; ++bh) {
    const double* qh = &q[bh * Tq * Dh];
    const double *kh = &k[bh * Tk * Dh], *vh = &v[bh * Tk * Dh], *dOh = &dO[bh * Tq * Dh];
    for (int64_t i = 0; i < Tq; ++i) {
      std::vector<double> s(Tk), mag(Tk), A(Tk), dP(Tk);
      for (int64_t j = 0; j < Tk; ++j) {
        for (int64_t d = 0; d < Dh; ++d) {
          s[j] += qh[i * Dh + d] * kh[j * Dh + d];
          mag[j] += std::fabs(qh[i * Dh + d] * kh[j * Dh + d]);
          dP[j] += dOh[i * Dh + d] * vh[j * Dh + d];
          A[j] += std::fabs(dOh[i * Dh + d] * vh[j * Dh + d]);
        }
        s[j] *= scale;
      }
      const double m = *std::max_element(s.begin(), s.end());
      double l = 0.0, spread = 0.0;
      for (int64_t j = 0; j < Tk; ++j) l += std::exp(s[j] - m), spread = std::max(spread, m - s[j]);
      const double E = 2 * gamma(Dh + 1) * scale * *std::max_element(mag.begin(), mag.end()) +
                       kUnit * spread + kUnit;
      rho[i] = 2 * E + gamma(Tk + 2);
      sigma[i] = rho[i] + gamma(Dh + Tk + 3);
      double D = 0.0, Abar = 0.0;
      for (int64_t j = 0; j < Tk; ++j) {
        P[i * Tk + j] = std::exp(s[j] - m) / l;
        D += P[i * Tk + j] * dP[j];
        Abar += P[i * Tk + j] * A[j];
      }
      for (int64_t j = 0; j < Tk; ++j) {
        dS[i * Tk + j] = P[i * Tk + j] * (dP[j] - D);
        G[i * Tk + j] = P[i * Tk + j] * (A[j] + Abar);
      }
    }
    for (int64_t i = 0; i < Tq; ++i)
      for (int64_t j = 0; j < Tk; ++j)
        for (int64_t d = 0; d < Dh; ++d) {
          const int64_t qi = bh * Tq * Dh + i * Dh + d, kj = bh * Tk * Dh + j * Dh + d;
          const double pij = P[i * Tk + j], ds = dS[i * Tk + j], g = G[i * Tk + j];
          r.o[qi] += pij * vh[j * Dh + d];
          r.o_bound[qi] += 2 * (rho[i] + gamma(Tk)) * pij * std::fabs(vh[j * Dh + d]);
          r.dq[qi] += scale * ds * kh[j * Dh + d];
          r.dq_bound[qi] += 2 * scale * (sigma[i] + gamma(Tk + 1)) * g * std::fabs(kh[j * Dh + d]);
          r.dk[kj] += scale * ds * qh[i * Dh + d];
          r.dk_bound[kj] += 2 * scale * (sigma[i] + gamma(Tq + 1)) * g * std::fabs(qh[i * Dh + d]);
          r.dv[kj] += pij * dOh[i * Dh + d];
          r.dv_bound[kj] += 2 * (rho[i] + gamma(Tq)) * pij * std::fabs(dOh[i * Dh + d]);
        }
  }
  return r;
}

struct SwigluProblem {
  Tensor h, W1, W3, W2, d_out;
};

// h, d_out [M,D] of order 1; W1, W3 [F,D] and W2 [D,F] scaled by 1/sqrt(fan-in).
inline SwigluProblem swiglu_problem(int64_t M, int64_t D, int64_t F, std::uint64_t seed) {
  const double sd = 1.0 / std::sqrt(static_cast<double>(D)), sf = 1.0 / std::sqrt(static_cast<double>(F));
  return {normal(DType::f32, {M, D}, seed, 0, 1.0), normal(DType::f32, {F, D}, seed, 1, 2 * sd),
          normal(DType::f32, {F, D}, seed, 2, sd), normal(DType::f32, {D, F}, seed, 3, sf),
          normal(DType::f32, {M, D}, seed, 4, 1.0)};
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
  const std::vector<double> h = p.h.values(), W1 = p.W1.values(), W3 = p.W3.values(),
                            W2 = p.W2.values(), dO = p.d_out.values();
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
      eu[f] = std::fabs(g) * (std::fabs(s1) * gD * A + 3 * u * std::fabs(s)) + std::fabs(s) * gD * G +
              u * std::fabs(s * g);
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

}  // namespace parity::subjects::rlkernels::model::test
