#include "oracles/lora_fast.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "oracles/dot2_kernels.hpp"
#include "oracles/parallel.hpp"

namespace parity::oracles {
namespace {

// An error bound that came out NaN (0 * inf where a non-finite input met a zero) means the
// oracle cannot bound this element: +inf, which verdicts read as "the oracle is not sure".
double unsure_if_nan(double err) { return std::isnan(err) ? HUGE_VAL : err; }

using Index = std::int64_t;
constexpr double kU = 0x1p-53;           // double's unit roundoff
constexpr double kTiny = 0x1p-1074;      // one subnormal spacing, for underflow
constexpr double kSumSlack = 1 + 0x1p-40;  // covers the roundings of a short float sum of bounds

std::size_t at(Index i) { return static_cast<std::size_t>(i); }

// s times a double-double (hi, lo) with error err_dd, as two doubles p + l within `err` of the
// exact product: p + e = s hi exactly (TwoProduct), l = fl(e + fl(s lo)). Bound: with
// ls = fl(s lo), |ls - s lo| <= u |ls| + kTiny (round to nearest, an underflow at most half a
// subnormal spacing), |l - (e + ls)| <= u |l| (an addition's error is at most half an ulp of
// its result; exact if it is subnormal), e is exact but for at most kTiny under underflow
// (oracles/eft.hpp), and |s (hi + lo) - s x| <= |s| err_dd, so
// |p + l - s x| <= |s| err_dd + u |ls| + u |l| + 2 kTiny; the slack covers this sum's roundings.
struct Scaled {
  std::vector<double> p, l, err;
  explicit Scaled(std::size_t n) : p(n), l(n), err(n) {}
  void set(std::size_t i, double s, const Dot2Result& r) {
    const TwoProductResult<double> t = two_product(s, r.hi);
    const double ls = s * r.lo;
    p[i] = t.product;
    l[i] = t.error + ls;
    err[i] = std::isfinite(r.err_dd)
                 ? (std::fabs(s) * r.err_dd + kU * std::fabs(ls) + kU * std::fabs(l[i]) + 2 * kTiny) * kSumSlack
                 : std::numeric_limits<double>::infinity();
  }
};

// The transposes [cols][rows] of a row-major [rows][cols] matrix's rows, as row pointers.
std::vector<double> transpose(const double* m, Index rows, Index cols) {
  std::vector<double> t(at(rows * cols));
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) t[at(j * rows + i)] = m[i * cols + j];
  return t;
}

std::vector<const double*> row_pointers(const double* m, Index rows, Index cols) {
  std::vector<const double*> p(at(rows));
  for (Index i = 0; i < rows; ++i) p[at(i)] = m + i * cols;
  return p;
}

double row_max(const std::vector<double>& v, Index row, Index cols) {
  double m = 0;
  for (Index j = 0; j < cols; ++j) m = std::max(m, v[at(row * cols + j)]);
  return m;
}

// The rows of a TN sum over several parts of one quantity, each part paired with the same
// `other` rows: for each part in order, for i < other.size(), (part + i * stride, other[i]).
struct PartRows {
  std::vector<const double*> parts, other;
};

PartRows part_rows(std::initializer_list<const std::vector<double>*> parts, Index stride,
                   const std::vector<const double*>& other) {
  PartRows rows;
  for (const std::vector<double>* part : parts)
    for (std::size_t i = 0; i < other.size(); ++i) {
      rows.parts.push_back(part->data() + static_cast<Index>(i) * stride);
      rows.other.push_back(other[i]);
    }
  return rows;
}

std::vector<Dot2Result> finish_all(const std::vector<Dot2State>& st) {
  std::vector<Dot2Result> r(st.size());
  for (std::size_t i = 0; i < st.size(); ++i) r[i] = dot2_finish(st[i]);
  return r;
}

}  // namespace

LoraFastOracle::LoraFastOracle(const LoraOperands& op) : N_(op.N), K_(op.K), r_(op.r) {
  const Index T = op.T, N = op.N, K = op.K, r = op.r;
  const double s = op.scale, as = std::fabs(op.scale);
  const double* x = op.x.data();

  // h = x A^T as double-double, and s h as two parts.
  std::vector<Dot2Result> h(at(T * r));
  NtOperands h_op{x, at(K), at(T), op.A.data(), at(K), at(r), at(K)};
  h_op.exact = true;  // x bf16 or float32, A float32 (checked by dot2_nt)
  dot2_nt(h_op, [&](const NtGroup& g) {
    for (std::size_t q = 0; q < g.rows; ++q) h[g.i * at(r) + g.j + q] = {g.hi[q], g.lo[q], g.err_dd[q], g.abs[q]};
  });
  std::vector<double> habs(h.size());
  Scaled sh(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    habs[i] = h[i].abs;
    sh.set(i, s, h[i]);
  }

  // y = x W^T + sum_j B[n,j] (s h[t,j]), one Dot2 per element over K exact products, then the 2r
  // of [s h parts] . [B, B] as a second segment.
  std::vector<double> sh2(at(T * 2 * r)), B2(at(N * 2 * r));
  for (Index t = 0; t < T; ++t)
    for (Index j = 0; j < r; ++j) {
      const std::size_t tj = at(t * r + j);
      sh2[at(t * 2 * r + j)] = sh.p[tj];
      sh2[at(t * 2 * r + r + j)] = sh.l[tj];
    }
  for (Index n = 0; n < N; ++n)
    for (Index q = 0; q < 2; ++q)
      for (Index j = 0; j < r; ++j) B2[at(n * 2 * r + q * r + j)] = op.B[at(n * r + j)];
  // Each y element's fields as its group is finished; per element the r-sums run in ascending
  // j as in LoraOracle, vectorised across the group's n.
  // absB has kNtGroupRows zeros past its end: the sink reads a whole group's width from row j.
  std::vector<double> absB(at(r * N) + kNtGroupRows), babs(at(N), 0.0), hmax(at(T));
  for (Index n = 0; n < N; ++n)
    for (Index j = 0; j < r; ++j) {
      absB[at(j * N + n)] = std::fabs(op.B[at(n * r + j)]);
      babs[at(n)] = babs[at(n)] + absB[at(j * N + n)];
    }
  for (Index t = 0; t < T; ++t) hmax[at(t)] = row_max(habs, t, r);
  y_.resize(at(T * N));
  // x W^T's products exact (x, W float32 values, checked by dot2_nt); s h's parts are not.
  const NtOperands y_op{x,         at(K),     at(T),     op.W.data(), at(K), at(N), at(K), sh2.data(), at(2 * r),
                        B2.data(), at(2 * r), at(2 * r), true};
  dot2_nt(y_op, [&](const NtGroup& g) {
    double low_abs[kNtGroupRows], propagated[kNtGroupRows];  // q >= g.rows unused
    weighted_row_sums(absB.data() + g.j, at(N), at(r), habs.data() + g.i * at(r), sh.err.data() + g.i * at(r),
                      low_abs, propagated);
    for (std::size_t q = 0; q < g.rows; ++q) {
      const std::size_t n = g.j + q;
      Estimate<double>& e = y_[g.i * at(N) + n];
      e.value = g.hi[q];
      e.abs_sum = g.first_abs[q] + as * low_abs[q];
      e.peak = std::max({g.first_abs[q], low_abs[q], hmax[g.i], e.abs_sum});
      e.underflow = static_cast<double>(K) * (1 + as * babs[n]) + static_cast<double>(r) * as + 1;
      e.oracle_err = unsure_if_nan((std::fabs(g.lo[q]) + g.err_dd[q]) + propagated[q] * kSumSlack);
    }
  });
  if (op.G.empty()) return;
  const double* G = op.G.data();
  const std::vector<double> Gt = transpose(G, T, N);
  const std::vector<const double*> Gt_rows = row_pointers(Gt.data(), N, T), G_rows = row_pointers(G, T, N);
  const std::vector<const double*> W_rows = row_pointers(op.W.data(), N, K), B_rows = row_pointers(op.B.data(), N, r);
  const std::vector<const double*> A_rows = row_pointers(op.A.data(), r, K), x_rows = row_pointers(x, T, K);

  // dh = s G B: its unscaled sum as double-double, then s times it as two parts.
  std::vector<Dot2State> dhst(at(T * r));
  dot2_tn({Gt_rows, B_rows, at(T), at(r)}, dhst.data());
  const std::vector<Dot2Result> dhraw = finish_all(dhst);
  Scaled dh(dhraw.size());
  std::vector<double> dhraw_abs(dhraw.size()), dhabs(dhraw.size());
  for (std::size_t i = 0; i < dhraw.size(); ++i) {
    dh.set(i, s, dhraw[i]);
    dhraw_abs[i] = dhraw[i].abs;
    dhabs[i] = as * dhraw[i].abs;
  }

  // dx = G W + dh A: N products, then the 2r of dh's parts.
  std::vector<Dot2State> dxst(at(T * K));
  dot2_tn({Gt_rows, W_rows, at(T), at(K)}, dxst.data());
  std::vector<double> dx_main_abs(dxst.size());
  for (std::size_t i = 0; i < dxst.size(); ++i) dx_main_abs[i] = dxst[i].abs;
  const std::vector<double> p_t = transpose(dh.p.data(), T, r), l_t = transpose(dh.l.data(), T, r);
  const PartRows dh_cols = part_rows({&p_t, &l_t}, T, A_rows);
  dot2_tn({dh_cols.parts, dh_cols.other, at(T), at(K)}, dxst.data());
  dx_.resize(dxst.size());
  for (Index t = 0; t < T; ++t) {
    const double peak_dh = std::max(row_max(dhabs, t, r), row_max(dhraw_abs, t, r));
    for (Index k = 0; k < K; ++k) {
      double low_abs = 0, aabs = 0, propagated = 0;
      for (Index j = 0; j < r; ++j) {
        const double a = std::fabs(op.A[at(j * K + k)]);
        low_abs += dhabs[at(t * r + j)] * a;
        aabs += a;
        propagated += dh.err[at(t * r + j)] * a;
      }
      const std::size_t tk = at(t * K + k);
      const Dot2Result res = dot2_finish(dxst[tk]);
      Estimate<double>& e = dx_[tk];
      e.value = res.hi;
      e.abs_sum = dx_main_abs[tk] + low_abs;
      e.peak = std::max(e.abs_sum, peak_dh);
      e.underflow = static_cast<double>(N + r) + (static_cast<double>(N) * as + 1) * aabs;
      e.oracle_err = unsure_if_nan(res.err() + propagated * kSumSlack);
    }
  }

  // dA = dh^T x: the 2T terms of dh's parts.
  const PartRows dh_rows = part_rows({&dh.p, &dh.l}, r, x_rows);
  std::vector<Dot2State> dAst(at(r * K));
  dot2_tn({dh_rows.parts, dh_rows.other, at(r), at(K)}, dAst.data());
  dA_.resize(dAst.size());
  for (Index j = 0; j < r; ++j)
    for (Index k = 0; k < K; ++k) {
      double abs_sum = 0, xabs = 0, propagated = 0, peak = 0;
      for (Index t = 0; t < T; ++t) {
        const double xv = std::fabs(x[t * K + k]);
        const std::size_t tj = at(t * r + j);
        abs_sum += dhabs[tj] * xv;
        xabs += xv;
        propagated += dh.err[tj] * xv;
        peak = std::max({peak, dhabs[tj], dhraw_abs[tj]});
      }
      const Dot2Result res = dot2_finish(dAst[at(j * K + k)]);
      Estimate<double>& e = dA_[at(j * K + k)];
      e.value = res.hi;
      e.abs_sum = abs_sum;
      e.peak = std::max(peak, abs_sum);
      e.underflow = static_cast<double>(T) + (static_cast<double>(N) * as + 1) * xabs;
      e.oracle_err = unsure_if_nan(res.err() + propagated * kSumSlack);
    }

  // dB = s G^T h: the 2T terms of h's double-double, then one scaling.
  std::vector<double> hhi(h.size()), hlo(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    hhi[i] = h[i].hi;
    hlo[i] = h[i].lo;
  }
  const PartRows h_rows = part_rows({&hhi, &hlo}, r, G_rows);
  std::vector<Dot2State> dBst(at(N * r));
  dot2_tn({h_rows.other, h_rows.parts, at(N), at(r)}, dBst.data());
  dB_.resize(dBst.size());
  for (Index n = 0; n < N; ++n)
    for (Index j = 0; j < r; ++j) {
      double raw_abs = 0, gabs = 0, propagated = 0, peak = 0;
      for (Index t = 0; t < T; ++t) {
        const double g = std::fabs(G[t * N + n]);
        const std::size_t tj = at(t * r + j);
        raw_abs += g * habs[tj];
        gabs += g;
        propagated += g * h[tj].err_dd;
        peak = std::max(peak, habs[tj]);
      }
      const Dot2Result res = dot2_finish(dBst[at(n * r + j)]);
      Estimate<double>& e = dB_[at(n * r + j)];
      e.value = s * res.hi;
      e.abs_sum = as * raw_abs;
      e.peak = std::max({peak, raw_abs, e.abs_sum});
      e.underflow = as * static_cast<double>(K) * gabs + static_cast<double>(T) * as + 1;
      e.oracle_err = unsure_if_nan((as * (res.err() + propagated * kSumSlack) + kU * std::fabs(e.value) + kTiny) * kSumSlack);
    }
}

}  // namespace parity::oracles
