#pragma once
// The arithmetic of parity's deterministic attention kernels, shared bit for bit by the CUDA
// kernels (sdpa.cu) and their host twins (sdpa_host.hpp, sdpa_backward_host.hpp). All float32,
// one rounding per operation, no contraction, every sum in ascending index order from 0.0f,
// each expression the tree of the references (sdpa_op.hpp, sdpa_backward_op.hpp):
//   score     (sum_d q[d] k[d]) * scale
//   attend    m = the scores' maximum (ascending, a NaN makes it NaN), p[j] = exp(s[j] - m),
//             l = sum_j p[j], acc[d] = sum_j p[j] v[j, d]; then o[d] = acc[d] / l, lse = m + log(l)
//   backward  P = p / l, Dl = sum_d do[d] o[d], dP = sum_d do[d] v[j, d], dS = P (dP - Dl),
//             dq = (sum_j dS k[j]) * scale, dk = (sum_i dS q[i]) * scale, dv = sum_i P do[i];
//             grouped-query heads: dk and dv of a key/value head sum over its query heads g
//             ascending, each one's queries i ascending, in one accumulator (group_column_sum)
// exp and log are core/detmath.hpp's rounded once to float32 (0.5 ulp and a double's error).
// The order depends on S, D and G alone, never on B, Hkv, the layout, the grid or the device.
// Declared arithmetic (kernel_arithmetic): any reduction order (the sequential one is one), exp_ulps = log_ulps =
// 0.5 + 2^-20. Loaders are callables (s, d) -> float over one head of one batch element.
#include <cstdint>

#include <parity/core/detmath.hpp>
#include <parity/core/hd.hpp>
#include <parity/ops/framework/arithmetic.hpp>

namespace parity::ops::sdpa {

inline Arithmetic kernel_arithmetic() { return {.exp_ulps = 0.5 + 0x1p-20, .log_ulps = 0.5 + 0x1p-20}; }

template <class Q, class K>
PARITY_HD float score(const Q& q, const K& k, std::int64_t i, std::int64_t j, std::int64_t D, float scale) {
  float s = 0.0f;
  for (std::int64_t d = 0; d < D; ++d) s = s + q(i, d) * k(j, d);
  return s * scale;
}

// The largest of x[0..n), n >= 1, NaN if any is NaN (the references' max).
PARITY_HD float row_max(const float* x, std::int64_t n) {
  float m = x[0];
  for (std::int64_t j = 1; j < n && m == m; ++j)
    if (x[j] != x[j] || x[j] > m) m = x[j];
  return m;
}

// Replaces the scores x[0..n) by exp(x[j] - m) and returns their sum.
PARITY_HD float exp_sum(float* x, std::int64_t n, float m) {
  float l = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) {
    x[j] = detmath::exp_f32(x[j] - m);
    l = l + x[j];
  }
  return l;
}

// sum_j p[j] v(j0 + j, d) over j in [0, n).
template <class V>
PARITY_HD float weighted(const float* p, const V& v, std::int64_t j0, std::int64_t n, std::int64_t d) {
  float s = 0.0f;
  for (std::int64_t j = 0; j < n; ++j) s = s + p[j] * v(j0 + j, d);
  return s;
}

struct Partial {
  float m, l;
};

// Query i over keys [j0, j0 + n): p[0..n) the unnormalised probabilities, acc[0..D) the
// weighted values, and m and l. The whole row is j0 = 0, n = visible_keys.
template <class Q, class K, class V>
PARITY_HD Partial attend(const Q& q, const K& k, const V& v, std::int64_t i, std::int64_t j0, std::int64_t n,
                         std::int64_t D, float scale, float* p, float* acc) {
  for (std::int64_t j = 0; j < n; ++j) p[j] = score(q, k, i, j0 + j, D, scale);
  const float m = row_max(p, n);
  const float l = exp_sum(p, n, m);
  for (std::int64_t d = 0; d < D; ++d) acc[d] = weighted(p, v, j0, n, d);
  return {m, l};
}

PARITY_HD float logsumexp(Partial r) { return r.m + detmath::log_f32(r.l); }

// o[d] = acc[d] / l, in place.
PARITY_HD void normalise(float* acc, std::int64_t D, float l) {
  for (std::int64_t d = 0; d < D; ++d) acc[d] = acc[d] / l;
}

// dS = P (dP - Dl), FlashAttention-2's softmax gradient.
struct SoftmaxGradient {
  PARITY_HD float operator()(float P, float dp, float dl) const { return P * (dp - dl); }
};

// One query row's backward terms, after attend: o[d] = acc[d] / l in place, Dl, then
// P[j] = p[j] / l in place and ds[j] = grad(P[j], dP[j], Dl) over its n visible keys.
template <class V, class G, class Grad = SoftmaxGradient>
PARITY_HD void softmax_grad(const V& v, const G& dout, std::int64_t i, std::int64_t n, std::int64_t D, Partial r,
                            float* p, float* acc, float* ds, Grad grad = {}) {
  normalise(acc, D, r.l);
  float dl = 0.0f;
  for (std::int64_t d = 0; d < D; ++d) dl = dl + dout(i, d) * acc[d];
  for (std::int64_t j = 0; j < n; ++j) {
    p[j] = p[j] / r.l;
    float dp = 0.0f;
    for (std::int64_t d = 0; d < D; ++d) dp = dp + dout(i, d) * v(j, d);
    ds[j] = grad(p[j], dp, dl);
  }
}

// A row (step 1) or column (step S) of an S x S matrix (P, dS) as column_sum's weight w(t).
struct Strip {
  const float* at;
  std::int64_t step;
  PARITY_HD float operator()(std::int64_t t) const { return at[t * step]; }
};

// s + the sum over t in [0, n) of w(t) x(t0 + t, d), added in ascending t: dq's sum over keys
// (w = dS's row), dk's and dv's over queries (w = a column of dS or P).
template <class W, class X>
PARITY_HD float column_sum(const W& w, const X& x, std::int64_t t0, std::int64_t n, std::int64_t d, float s = 0.0f) {
  for (std::int64_t t = 0; t < n; ++t) s = s + w(t) * x(t0 + t, d);
  return s;
}

// dk's or dv's sum for one key of a key/value head: over its G query heads g ascending, each
// one's column_sum(w(g), x(g), t0, n, d) continuing the same accumulator from 0.0f.
template <class WG, class XG>
PARITY_HD float group_column_sum(std::int64_t G, const WG& w, const XG& x, std::int64_t t0, std::int64_t n,
                                 std::int64_t d) {
  float s = 0.0f;
  for (std::int64_t g = 0; g < G; ++g) s = column_sum(w(g), x(g), t0, n, d, s);
  return s;
}

}  // namespace parity::ops::sdpa
