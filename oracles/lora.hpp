#pragma once
// Reference LoRA forward and backward (MATH.md "LoRA linear"), as a pure template over the
// real type (double, Boost.Multiprecision). Evaluable per output element, so a
// multiprecision check can sample elements of a large shape; construction precomputes the
// per-row low-rank quantities (T x r values), which every element shares.
//
//   y[t,n]  = sum_k x[t,k] W[n,k] + s sum_j B[n,j] h[t,j],   h[t,j] = sum_k x[t,k] A[j,k]
//   dh[t,j] = s sum_n G[t,n] B[n,j]
//   dx[t,k] = sum_n G[t,n] W[n,k] + sum_j dh[t,j] A[j,k]
//   dA[j,k] = sum_t dh[t,j] x[t,k]
//   dB[n,j] = s sum_t G[t,n] h[t,j]
//
// Inputs are the exact values of the subject's operands, as doubles (bf16 and float32 are
// exact in double), row-major. Sums run in ascending index order in Real; the abs_sum of each
// Estimate is the sum of |term| over the fully expanded products, as the error bounds need;
// its peak covers the intermediates h, dh and the partial chains; its underflow weight counts
// the kernel's roundings (lora_arith.cuh's chains) weighted by what multiplies them later.
// Its oracle_err is the standard bound of a depth-d evaluation in Real, gamma_d abs_sum with
// Real's unit roundoff (Higham, Lemma 3.1; d counts the chains h or dh feed into), valid for
// operands whose products stay normal in Real (float32 and bf16 values do).
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "oracles/estimate.hpp"

namespace parity::oracles {

struct LoraOperands {
  std::int64_t T = 0, N = 0, K = 0, r = 0;
  std::span<const double> x;  // [T][K]
  std::span<const double> W;  // [N][K]
  std::span<const double> A;  // [r][K]
  std::span<const double> B;  // [N][r]
  std::span<const double> G;  // [T][N], dL/dy; may be empty (forward only)
  double scale = 1.0;
};

template <class Real>
class LoraOracle {
 public:
  explicit LoraOracle(const LoraOperands& op) : op_(op) {
    const auto rows = static_cast<std::size_t>(op.T * op.r);
    h_.resize(rows);
    habs_.resize(rows);
    for (std::int64_t t = 0; t < op.T; ++t)
      for (std::int64_t j = 0; j < op.r; ++j) {
        Real v = 0, a = 0;
        for (std::int64_t k = 0; k < op.K; ++k) {
          const Real p = Real(op.x[t * op.K + k]) * Real(op.A[j * op.K + k]);
          v += p;
          a += abs_of(p);
        }
        h_[t * op.r + j] = v;
        habs_[t * op.r + j] = a;
      }
    if (op.G.empty()) return;
    dh_.resize(rows);
    dhabs_.resize(rows);
    dhraw_.resize(rows);
    for (std::int64_t t = 0; t < op.T; ++t)
      for (std::int64_t j = 0; j < op.r; ++j) {
        Real v = 0, a = 0;
        for (std::int64_t n = 0; n < op.N; ++n) {
          const Real p = Real(op.G[t * op.N + n]) * Real(op.B[n * op.r + j]);
          v += p;
          a += abs_of(p);
        }
        dh_[t * op.r + j] = Real(op.scale) * v;
        dhabs_[t * op.r + j] = abs_of(Real(op.scale)) * a;
        dhraw_[t * op.r + j] = a;
      }
  }

  Estimate<Real> y(std::int64_t t, std::int64_t n) const {
    Estimate<Real> e;
    for (std::int64_t k = 0; k < op_.K; ++k) {
      const Real p = Real(op_.x[t * op_.K + k]) * Real(op_.W[n * op_.K + k]);
      e.value += p;
      e.abs_sum += abs_of(p);
    }
    Real low = 0, lowabs = 0;
    double babs = 0;
    for (std::int64_t j = 0; j < op_.r; ++j) {
      const Real b = Real(op_.B[n * op_.r + j]);
      low += b * h_[t * op_.r + j];
      lowabs += abs_of(b) * habs_[t * op_.r + j];
      babs += std::fabs(op_.B[n * op_.r + j]);
    }
    const double s = std::fabs(op_.scale);
    e.underflow = static_cast<double>(op_.K) * (1 + s * babs) + static_cast<double>(op_.r) * s + 1;
    e.peak = max_of(max_of(e.abs_sum, lowabs), row_max(habs_, t));
    e.value += Real(op_.scale) * low;
    e.abs_sum += abs_of(Real(op_.scale)) * lowabs;
    e.peak = max_of(e.peak, e.abs_sum);
    e.oracle_err = evaluation_err(e.abs_sum, op_.K + op_.r + 3);
    return e;
  }

  // Backward elements; require G.
  Estimate<Real> dx(std::int64_t t, std::int64_t k) const {
    Estimate<Real> e;
    for (std::int64_t n = 0; n < op_.N; ++n) {
      const Real p = Real(op_.G[t * op_.N + n]) * Real(op_.W[n * op_.K + k]);
      e.value += p;
      e.abs_sum += abs_of(p);
    }
    double aabs = 0;
    for (std::int64_t j = 0; j < op_.r; ++j) {
      const Real a = Real(op_.A[j * op_.K + k]);
      e.value += dh_[t * op_.r + j] * a;
      e.abs_sum += dhabs_[t * op_.r + j] * abs_of(a);
      aabs += std::fabs(op_.A[j * op_.K + k]);
    }
    e.underflow = static_cast<double>(op_.N + op_.r) + (static_cast<double>(op_.N) * std::fabs(op_.scale) + 1) * aabs;
    e.peak = max_of(e.abs_sum, max_of(row_max(dhabs_, t), row_max(dhraw_, t)));
    e.oracle_err = evaluation_err(e.abs_sum, op_.N + op_.r + 3);
    return e;
  }

  Estimate<Real> dA(std::int64_t j, std::int64_t k) const {
    Estimate<Real> e;
    double xabs = 0;
    for (std::int64_t t = 0; t < op_.T; ++t) {
      xabs += std::fabs(op_.x[t * op_.K + k]);
      const Real x = Real(op_.x[t * op_.K + k]);
      e.value += dh_[t * op_.r + j] * x;
      e.abs_sum += dhabs_[t * op_.r + j] * abs_of(x);
      e.peak = max_of(e.peak, max_of(dhabs_[t * op_.r + j], dhraw_[t * op_.r + j]));
    }
    e.peak = max_of(e.peak, e.abs_sum);
    e.underflow = static_cast<double>(op_.T) + (static_cast<double>(op_.N) * std::fabs(op_.scale) + 1) * xabs;
    e.oracle_err = evaluation_err(e.abs_sum, op_.N + op_.T + 3);
    return e;
  }

  Estimate<Real> dB(std::int64_t n, std::int64_t j) const {
    Estimate<Real> e;
    Real v = 0, a = 0;
    double gabs = 0;
    for (std::int64_t t = 0; t < op_.T; ++t) {
      gabs += std::fabs(op_.G[t * op_.N + n]);
      const Real g = Real(op_.G[t * op_.N + n]);
      v += g * h_[t * op_.r + j];
      a += abs_of(g) * habs_[t * op_.r + j];
      e.peak = max_of(e.peak, habs_[t * op_.r + j]);
    }
    e.value = Real(op_.scale) * v;
    e.abs_sum = abs_of(Real(op_.scale)) * a;
    e.peak = max_of(e.peak, max_of(a, e.abs_sum));
    const double s = std::fabs(op_.scale);
    e.underflow = s * static_cast<double>(op_.K) * gabs + static_cast<double>(op_.T) * s + 1;
    e.oracle_err = evaluation_err(e.abs_sum, op_.K + op_.T + 3);
    return e;
  }

  const LoraOperands& operands() const { return op_; }

 private:
  static double evaluation_err(const Real& abs_sum, std::int64_t depth) {
    const double mu = static_cast<double>(depth) * static_cast<double>(std::numeric_limits<Real>::epsilon()) / 2;
    return mu / (1 - mu) * static_cast<double>(abs_sum) * (1 + 0x1p-40);
  }
  static Real abs_of(const Real& v) { return v < 0 ? Real(-v) : v; }
  static Real max_of(const Real& a, const Real& b) { return a < b ? b : a; }
  Real row_max(const std::vector<Real>& v, std::int64_t t) const {
    Real m = 0;
    for (std::int64_t j = 0; j < op_.r; ++j) m = max_of(m, v[t * op_.r + j]);
    return m;
  }

  LoraOperands op_;
  // Per (t, j): h and its abs sum; dh, its abs sum, and the abs sum of its unscaled chain.
  std::vector<Real> h_, habs_, dh_, dhabs_, dhraw_;
};

}  // namespace parity::oracles
