#include <parity/oracles/lora_fast.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include <parity/core/thread_pool.hpp>
#include <parity/oracles/dot2_kernels.hpp>

namespace parity::oracles {
namespace {

// An error bound that came out NaN (0 * inf where a non-finite input met a zero) means the
// oracle cannot bound this element: +inf, which verdicts read as "the oracle is not sure".
double unsure_if_nan(double err) { return std::isnan(err) ? HUGE_VAL : err; }

using Index = std::int64_t;
constexpr double kU = 0x1p-53;             // double's unit roundoff
constexpr double kTiny = 0x1p-1074;        // one subnormal spacing, for underflow
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
    // A non-finite product is the value (extended_real.hpp); its TwoProduct error is inf - inf.
    l[i] = std::isfinite(t.product) ? t.error + ls : 0.0;
    err[i] = std::isfinite(r.err_dd) && std::isfinite(t.product)
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

// Throws unless every finite value of v is at most FLT_MAX in magnitude (lora_fast.hpp).
void require_float_range(std::span<const double> v, const char* name) {
  for (const double e : v)
    if (std::fabs(e) > std::numeric_limits<float>::max() && std::isfinite(e))
      throw std::invalid_argument(std::string("LoraFastOracle: ") + name + " holds a value beyond FLT_MAX");
}

// Non-finite elements (extended_real.hpp). Intermediates travel as two parts (hi, lo) into the
// outer sums, and an infinite operand times a zero lo part is a NaN the exact result has not; a
// non-finite s scales h before B in y, where the definition scales sum_j B h. So an element
// whose fast value is not finite is evaluated again in plain IEEE double in the definition's
// association over the intermediates' hi parts alone (hi is the intermediate when that is not
// finite, and carries its zero and sign otherwise): no finite term overflows (dot2.hpp), so the
// class is the exact one's.
struct SpecialValues {
  const LoraOperands& op;
  std::vector<double> h, dh;  // hi of h = x A^T, and s times hi of G B, [T][r]

  double y(Index t, Index n) const {
    double low = 0;
    for (Index j = 0; j < op.r; ++j) low = low + op.B[at(n * op.r + j)] * h[at(t * op.r + j)];
    return sum(op.x.data() + t * op.K, op.W.data() + n * op.K, op.K) + op.scale * low;
  }
  double dx(Index t, Index k) const {
    double v = 0;
    for (Index n = 0; n < op.N; ++n) v = v + op.G[at(t * op.N + n)] * op.W[at(n * op.K + k)];
    for (Index j = 0; j < op.r; ++j) v = v + dh[at(t * op.r + j)] * op.A[at(j * op.K + k)];
    return v;
  }
  double dA(Index j, Index k) const {
    double v = 0;
    for (Index t = 0; t < op.T; ++t) v = v + dh[at(t * op.r + j)] * op.x[at(t * op.K + k)];
    return v;
  }
  double dB(Index n, Index j) const {
    double v = 0;
    for (Index t = 0; t < op.T; ++t) v = v + op.G[at(t * op.N + n)] * h[at(t * op.r + j)];
    return op.scale * v;
  }

 private:
  static double sum(const double* a, const double* b, Index n) {
    double v = 0;
    for (Index k = 0; k < n; ++k) v = v + a[k] * b[k];
    return v;
  }
};

// The peak raised to v, named `at`, if v is larger (LoraOracle's order of candidates).
void raise(Estimate<double>& e, double v, const char* at) {
  if (e.peak < v) {
    e.peak = v;
    e.peak_at = at;
  }
}
void raise(Estimate<double>& e, const LoraOrders::Scaled& f) { raise(e, f.value, f.at); }

std::vector<Dot2Result> finish_all(const std::vector<Dot2State>& st) {
  std::vector<Dot2Result> r(st.size());
  for (std::size_t i = 0; i < st.size(); ++i) r[i] = dot2_finish(st[i]);
  return r;
}

}  // namespace

Estimate<double> LoraFastOracle::element(const std::vector<Estimate<double>>& v, std::int64_t i, std::int64_t j,
                                         std::int64_t cols, const char* name) {
  if (v.empty())
    throw std::logic_error(std::string("LoraFastOracle: ") + name + " read, but that output was not evaluated");
  const std::int64_t rows = static_cast<std::int64_t>(v.size()) / cols;
  if (i < 0 || i >= rows || j < 0 || j >= cols)
    throw std::logic_error(std::string("LoraFastOracle: ") + name + "(" + std::to_string(i) + ", " + std::to_string(j) +
                           ") is outside its " + std::to_string(rows) + " x " + std::to_string(cols));
  return v[static_cast<std::size_t>(i * cols + j)];
}

LoraFastOracle::LoraFastOracle(const LoraOperands& op, Outputs outputs) : N_(op.N), K_(op.K), r_(op.r) {
  const bool want_y = outputs == Outputs::all || outputs == Outputs::forward;
  const bool want_dx = outputs == Outputs::all || outputs == Outputs::backward;
  const bool want_backward = outputs != Outputs::forward;
  const Index T = op.T, N = op.N, K = op.K, r = op.r;
  const double s = op.scale, as = std::fabs(op.scale);
  const double* x = op.x.data();
  const LoraOrders orders(op);
  const double S = orders.big_scale();
  require_float_range(op.B, "B");
  require_float_range(op.G, "G");
  require_float_range({&op.scale, 1}, "scale");

  // h = x A^T as double-double, and s h as two parts.
  std::vector<Dot2Result> h(at(T * r));
  NtOperands h_op{x, at(K), at(T), op.A.data(), at(K), at(r), at(K)};
  h_op.exact = true;  // x bf16 or float32, A float32 (checked by dot2_nt)
  dot2_nt(h_op, [&](const NtGroup& g) {
    for (std::size_t q = 0; q < g.rows; ++q) h[g.i * at(r) + g.j + q] = {g.hi[q], g.lo[q], g.err_dd[q], g.abs[q]};
  });
  std::vector<double> habs(h.size());
  Scaled sh(h.size());
  SpecialValues special{op, std::vector<double>(h.size()), {}};
  for (std::size_t i = 0; i < h.size(); ++i) {
    habs[i] = h[i].abs;
    sh.set(i, s, h[i]);
    special.h[i] = h[i].hi;
  }

  if (want_y) {
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
    const NtOperands y_op{x,          at(K),     at(T),     op.W.data(), at(K),     at(N), at(K),
                          sh2.data(), at(2 * r), B2.data(), at(2 * r),   at(2 * r), true};
    dot2_nt(y_op, [&](const NtGroup& g) {
      double low_abs[kNtGroupRows], propagated[kNtGroupRows];  // q >= g.rows unused
      weighted_row_sums(absB.data() + g.j, at(N), at(r), habs.data() + g.i * at(r), sh.err.data() + g.i * at(r),
                        low_abs, propagated);
      for (std::size_t q = 0; q < g.rows; ++q) {
        const std::size_t n = g.j + q;
        Estimate<double>& e = y_[g.i * at(N) + n];
        e.value = g.hi[q];
        e.abs_sum = g.first_abs[q] + as * low_abs[q];
        raise(e, g.first_abs[q], "x W^T");
        raise(e, low_abs[q], "h B^T");
        raise(e, hmax[g.i], "h");
        raise(e, e.abs_sum, "y");
        raise(e, as * hmax[g.i], "s·h");
        raise(e, orders.y(static_cast<Index>(g.i), static_cast<Index>(n)));
        e.underflow = static_cast<double>(K) * (1 + S * babs[n]) + static_cast<double>(r) * S + 1 +
                      orders.underflow_y(static_cast<Index>(g.i), static_cast<Index>(n));
        e.oracle_err = unsure_if_nan((std::fabs(g.lo[q]) + g.err_dd[q]) + propagated[q] * kSumSlack);
        if (!std::isfinite(e.value)) e.value = special.y(static_cast<Index>(g.i), static_cast<Index>(n));
      }
    });
  }
  if (op.G.empty() || !want_backward) return;
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
  special.dh.resize(dhraw.size());
  for (std::size_t i = 0; i < dhraw.size(); ++i) {
    dh.set(i, s, dhraw[i]);
    special.dh[i] = s * dhraw[i].hi;
    dhraw_abs[i] = dhraw[i].abs;
    dhabs[i] = as * dhraw[i].abs;
  }

  if (want_dx) {
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
      const double dh_max = row_max(dhabs, t, r), raw_max = row_max(dhraw_abs, t, r);
      for (Index k = 0; k < K; ++k) {
        double low_abs = 0, aabs = 0, propagated = 0, unscaled = 0;
        for (Index j = 0; j < r; ++j) {
          const double a = std::fabs(op.A[at(j * K + k)]);
          low_abs += dhabs[at(t * r + j)] * a;
          unscaled += dhraw_abs[at(t * r + j)] * a;
          aabs += a;
          propagated += dh.err[at(t * r + j)] * a;
        }
        const std::size_t tk = at(t * K + k);
        const Dot2Result res = dot2_finish(dxst[tk]);
        Estimate<double>& e = dx_[tk];
        e.value = std::isfinite(res.hi) ? res.hi : special.dx(t, k);
        e.abs_sum = dx_main_abs[tk] + low_abs;
        raise(e, e.abs_sum, "dx");
        raise(e, dh_max, "s·(dy B)");
        raise(e, raw_max, "dy B");
        raise(e, unscaled, "dh A before s");
        raise(e, orders.dx(t, k));
        e.underflow = static_cast<double>(N + r) + (static_cast<double>(N) * S + 1) * aabs + orders.underflow_dx(t, k);
        e.oracle_err = unsure_if_nan(res.err() + propagated * kSumSlack);
      }
    }
  }

  // dA = dh^T x: the 2T terms of dh's parts.
  const PartRows dh_rows = part_rows({&dh.p, &dh.l}, r, x_rows);
  std::vector<Dot2State> dAst(at(r * K));
  dot2_tn({dh_rows.parts, dh_rows.other, at(r), at(K)}, dAst.data());
  dA_.resize(dAst.size());
  // The fields' sums over t, t outermost (x and dh read row by row); each element's terms still
  // come in ascending t, as one loop per element adds them.
  std::vector<double> dA_abs(dAst.size()), dA_unscaled(dAst.size()), dA_propagated(dAst.size()), xabs(at(K));
  std::vector<double> dh_max(at(r)), raw_max(at(r));
  for (Index t = 0; t < T; ++t) {
    for (Index k = 0; k < K; ++k) xabs[at(k)] += std::fabs(x[t * K + k]);
    for (Index j = 0; j < r; ++j) {
      const std::size_t tj = at(t * r + j);
      dh_max[at(j)] = std::max(dh_max[at(j)], dhabs[tj]);
      raw_max[at(j)] = std::max(raw_max[at(j)], dhraw_abs[tj]);
      for (Index k = 0; k < K; ++k) {
        const double xv = std::fabs(x[t * K + k]);
        const std::size_t jk = at(j * K + k);
        dA_abs[jk] += dhabs[tj] * xv;
        dA_unscaled[jk] += dhraw_abs[tj] * xv;
        dA_propagated[jk] += dh.err[tj] * xv;
      }
    }
  }
  for (Index j = 0; j < r; ++j)
    for (Index k = 0; k < K; ++k) {
      const std::size_t jk = at(j * K + k);
      const double abs_sum = dA_abs[jk], unscaled = dA_unscaled[jk], propagated = dA_propagated[jk];
      const double xabs_k = xabs[at(k)];
      const Dot2Result res = dot2_finish(dAst[at(j * K + k)]);
      Estimate<double>& e = dA_[at(j * K + k)];
      e.value = std::isfinite(res.hi) ? res.hi : special.dA(j, k);
      e.abs_sum = abs_sum;
      raise(e, dh_max[at(j)], "s·(dy B)");
      raise(e, raw_max[at(j)], "dy B");
      raise(e, abs_sum, "dA");
      raise(e, unscaled, "dh^T x before s");
      raise(e, orders.dA(j, k));
      e.underflow = static_cast<double>(T) + (static_cast<double>(N) * S + 1) * xabs_k + orders.underflow_dA(j, k);
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
  // As for dA: t outermost, each element's terms in ascending t.
  std::vector<double> dB_raw_abs(dBst.size()), dB_propagated(dBst.size()), gabs(at(N)), hmax(at(r));
  for (Index t = 0; t < T; ++t) {
    for (Index j = 0; j < r; ++j) hmax[at(j)] = std::max(hmax[at(j)], habs[at(t * r + j)]);
    for (Index n = 0; n < N; ++n) {
      const double g = std::fabs(G[t * N + n]);
      gabs[at(n)] += g;
      for (Index j = 0; j < r; ++j) {
        const std::size_t tj = at(t * r + j), nj = at(n * r + j);
        dB_raw_abs[nj] += g * habs[tj];
        dB_propagated[nj] += g * h[tj].err_dd;
      }
    }
  }
  for (Index n = 0; n < N; ++n)
    for (Index j = 0; j < r; ++j) {
      const std::size_t nj = at(n * r + j);
      const double raw_abs = dB_raw_abs[nj], propagated = dB_propagated[nj], hmax_j = hmax[at(j)];
      const Dot2Result res = dot2_finish(dBst[at(n * r + j)]);
      Estimate<double>& e = dB_[at(n * r + j)];
      e.value = s * res.hi;
      if (!std::isfinite(e.value)) e.value = special.dB(n, j);
      e.abs_sum = as * raw_abs;
      raise(e, hmax_j, "h");
      raise(e, raw_abs, "dy^T h");
      raise(e, e.abs_sum, "dB");
      raise(e, as * hmax_j, "s·h");
      raise(e, orders.dB(n, j));
      e.underflow =
          S * static_cast<double>(K) * gabs[at(n)] + static_cast<double>(T) * S + 1 + orders.underflow_dB(n, j);
      e.oracle_err =
          unsure_if_nan((as * (res.err() + propagated * kSumSlack) + kU * std::fabs(e.value) + kTiny) * kSumSlack);
    }
}

}  // namespace parity::oracles
