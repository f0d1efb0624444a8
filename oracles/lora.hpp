#pragma once
// Reference LoRA forward and backward (docs/math.md, "LoRA linear"), as a pure template over the
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
//
// The kernel-side fields cover every evaluation order the LoRA interface permits a subject
// (subjects/lora_family.hpp), not parity's alone:
//   - the products associated as written above (h = x A^T before B, dh = G B before A or x,
//     G^T h for dB; a subject that forms B A or G^T x first is outside this contract);
//   - each output's terms summed in any order and tree, with or without fma (x W^T and the
//     low-rank part of y, G W and dh A of dx, as two sums then added or as one chain);
//   - the scale s applied once, as one float32 multiplication, anywhere on its terms' path:
//     to a factor (s x, s A, s B, s G: "s·dy" in the backward, as autograd does), to h, dh
//     or any partial or finished sum, or fused into an fma.
// The peak is then the largest magnitude any intermediate of any such order can reach:
// parity's chains', the unscaled sums (h B^T, G^T h, dh A and dh^T x before s), s times h,
// and s times each operand element that feeds the output (LoraOrders); peak_at names it. The
// underflow weight adds, for every place the scale may be applied, that multiplication's own
// underflow times what multiplies it later (LoraOrders, bounded by the maxima of the operand
// elements that feed the output: a non-finite operand that does not leaves it finite), and
// weights every other rounding by max(1, |s|), since s may or may not follow it.
// Its oracle_err is the standard bound of a depth-d evaluation in Real, gamma_d abs_sum with
// Real's unit roundoff (Higham, Lemma 3.1; d counts the chains h or dh feed into), valid for
// operands whose products stay normal in Real (float32 and bf16 values do).
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <vector>

#include <parity/oracles/estimate.hpp>

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

// The order-dependent parts of every LoRA oracle's kernel-side fields that depend on the
// operands alone (doubles), shared by LoraOracle<Real> and LoraFastOracle so both give the same
// values: |s| times the largest operand element that some permitted order scales, with its
// name, and the underflow weights of the scale's possible places (see above).
class LoraOrders {
 public:
  struct Scaled {
    double value = 0;
    const char* at = "";
  };

  explicit LoraOrders(const LoraOperands& op)
      : s_(std::fabs(op.scale)),
        big_s_(s_ > 1 ? s_ : 1.0),
        T_(static_cast<double>(op.T)),
        N_(static_cast<double>(op.N)),
        K_(static_cast<double>(op.K)),
        r_(static_cast<double>(op.r)),
        x_(op.x, op.T, op.K),
        A_(op.A, op.r, op.K),
        B_(op.B, op.N, op.r),
        G_(op.G, op.G.empty() ? 0 : op.T, op.N) {}

  // max(1, |s|): the weight of a rounding that s may or may not follow.
  double big_scale() const { return big_s_; }
  Scaled y(std::int64_t t, std::int64_t n) const {
    return largest({{s_ * x_.row[t], "s·x"}, {s_ * A_.all, "s·A"}, {s_ * B_.row[n], "s·B"}});
  }
  Scaled dx(std::int64_t t, std::int64_t k) const {
    return largest({{s_ * G_.row[t], "s·dy"}, {s_ * B_.all, "s·B"}, {s_ * A_.col[k], "s·A"}});
  }
  Scaled dA(std::int64_t j, std::int64_t k) const {
    return largest({{s_ * G_.all, "s·dy"}, {s_ * B_.col[j], "s·B"}, {s_ * x_.col[k], "s·x"}});
  }
  Scaled dB(std::int64_t n, std::int64_t j) const {
    return largest({{s_ * G_.col[n], "s·dy"}, {s_ * x_.all, "s·x"}, {s_ * A_.row[j], "s·A"}});
  }
  // The underflow weights of the scale's possible places for one output element. Each uses
  // the maxima of only the operand elements that element's exact value depends on (y[t,n]: x's
  // row t, all of A, B's row n; dx[t,k]: dy's row t, all of B, A's column k; dA[j,k]: all of dy,
  // B's column j, x's column k; dB[n,j]: dy's column n, all of x, A's row j), so a non-finite
  // operand elsewhere leaves it finite; bounds on |h| and |dy B| are K |x| |A| and N |dy| |B|.
  double underflow_y(std::int64_t t, std::int64_t n) const {
    const double x = x_.row[t], A = A_.all, B = B_.row[n];
    return r_ * (K_ * B * (A + x) + B + K_ * x * A + 1);
  }
  double underflow_dx(std::int64_t t, std::int64_t k) const {
    const double G = G_.row[t], B = B_.all, A = A_.col[k];
    return r_ * (N_ * A * (B + G + 1) + N_ * G * B + 1);
  }
  double underflow_dA(std::int64_t j, std::int64_t k) const {
    const double G = G_.all, B = B_.col[j], x = x_.col[k];
    return T_ * (N_ * x * (B + G + 1) + N_ * G * B + 1);
  }
  double underflow_dB(std::int64_t n, std::int64_t j) const {
    const double G = G_.col[n], x = x_.all, A = A_.row[j];
    return T_ * (K_ * x * A + K_ * G * (A + x + 1) + G + 1);
  }

 private:
  // Row, column and overall maxima of |m| for a row-major [rows][cols] matrix.
  struct Maxima {
    std::vector<double> row, col;
    double all = 0;
    Maxima(std::span<const double> m, std::int64_t rows, std::int64_t cols)
        : row(static_cast<std::size_t>(rows), 0.0), col(static_cast<std::size_t>(cols), 0.0) {
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
          const double a = std::fabs(m[i * cols + j]);
          row[i] = a > row[i] ? a : row[i];
          col[j] = a > col[j] ? a : col[j];
          all = a > all ? a : all;
        }
    }
  };
  static Scaled largest(std::initializer_list<Scaled> c) {
    Scaled best;
    for (const Scaled& e : c)
      if (best.value < e.value) best = e;
    return best;
  }

  double s_, big_s_, T_, N_, K_, r_;
  Maxima x_, A_, B_, G_;
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
    const double S = orders_.big_scale();
    e.underflow =
        static_cast<double>(op_.K) * (1 + S * babs) + static_cast<double>(op_.r) * S + 1 + orders_.underflow_y(t, n);
    const Real hmax = row_max(habs_, t);
    raise(e, e.abs_sum, "x W^T");
    raise(e, lowabs, "h B^T");
    raise(e, hmax, "h");
    e.value += Real(op_.scale) * low;
    e.abs_sum += abs_of(Real(op_.scale)) * lowabs;
    raise(e, e.abs_sum, "y");
    raise(e, abs_of(Real(op_.scale)) * hmax, "s·h");
    raise(e, orders_.y(t, n));
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
    Real unscaled = 0;
    for (std::int64_t j = 0; j < op_.r; ++j) {
      const Real a = Real(op_.A[j * op_.K + k]);
      e.value += dh_[t * op_.r + j] * a;
      e.abs_sum += dhabs_[t * op_.r + j] * abs_of(a);
      unscaled += dhraw_[t * op_.r + j] * abs_of(a);
      aabs += std::fabs(op_.A[j * op_.K + k]);
    }
    e.underflow = static_cast<double>(op_.N + op_.r) + (static_cast<double>(op_.N) * orders_.big_scale() + 1) * aabs +
                  orders_.underflow_dx(t, k);
    raise(e, e.abs_sum, "dx");
    raise(e, row_max(dhabs_, t), "s·(dy B)");
    raise(e, row_max(dhraw_, t), "dy B");
    raise(e, unscaled, "dh A before s");
    raise(e, orders_.dx(t, k));
    e.oracle_err = evaluation_err(e.abs_sum, op_.N + op_.r + 3);
    return e;
  }

  Estimate<Real> dA(std::int64_t j, std::int64_t k) const {
    Estimate<Real> e;
    double xabs = 0;
    Real unscaled = 0, dhmax = 0, rawmax = 0;
    for (std::int64_t t = 0; t < op_.T; ++t) {
      xabs += std::fabs(op_.x[t * op_.K + k]);
      const Real x = Real(op_.x[t * op_.K + k]);
      e.value += dh_[t * op_.r + j] * x;
      e.abs_sum += dhabs_[t * op_.r + j] * abs_of(x);
      unscaled += dhraw_[t * op_.r + j] * abs_of(x);
      dhmax = max_of(dhmax, dhabs_[t * op_.r + j]);
      rawmax = max_of(rawmax, dhraw_[t * op_.r + j]);
    }
    raise(e, dhmax, "s·(dy B)");
    raise(e, rawmax, "dy B");
    raise(e, e.abs_sum, "dA");
    raise(e, unscaled, "dh^T x before s");
    raise(e, orders_.dA(j, k));
    e.underflow = static_cast<double>(op_.T) + (static_cast<double>(op_.N) * orders_.big_scale() + 1) * xabs +
                  orders_.underflow_dA(j, k);
    e.oracle_err = evaluation_err(e.abs_sum, op_.N + op_.T + 3);
    return e;
  }

  Estimate<Real> dB(std::int64_t n, std::int64_t j) const {
    Estimate<Real> e;
    Real v = 0, a = 0, hmax = 0;
    double gabs = 0;
    for (std::int64_t t = 0; t < op_.T; ++t) {
      gabs += std::fabs(op_.G[t * op_.N + n]);
      const Real g = Real(op_.G[t * op_.N + n]);
      v += g * h_[t * op_.r + j];
      a += abs_of(g) * habs_[t * op_.r + j];
      hmax = max_of(hmax, habs_[t * op_.r + j]);
    }
    e.value = Real(op_.scale) * v;
    e.abs_sum = abs_of(Real(op_.scale)) * a;
    raise(e, hmax, "h");
    raise(e, a, "dy^T h");
    raise(e, e.abs_sum, "dB");
    raise(e, abs_of(Real(op_.scale)) * hmax, "s·h");
    raise(e, orders_.dB(n, j));
    const double S = orders_.big_scale();
    e.underflow =
        S * static_cast<double>(op_.K) * gabs + static_cast<double>(op_.T) * S + 1 + orders_.underflow_dB(n, j);
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
  // The peak raised to v, named `at`, if v is larger.
  static void raise(Estimate<Real>& e, const Real& v, const char* at) {
    if (e.peak < v) {
      e.peak = v;
      e.peak_at = at;
    }
  }
  static void raise(Estimate<Real>& e, const LoraOrders::Scaled& f) { raise(e, Real(f.value), f.at); }
  static Real max_of(const Real& a, const Real& b) { return a < b ? b : a; }
  Real row_max(const std::vector<Real>& v, std::int64_t t) const {
    Real m = 0;
    for (std::int64_t j = 0; j < op_.r; ++j) m = max_of(m, v[t * op_.r + j]);
    return m;
  }

  LoraOperands op_;
  LoraOrders orders_{op_};
  // Per (t, j): h and its abs sum; dh, its abs sum, and the abs sum of its unscaled chain.
  std::vector<Real> h_, habs_, dh_, dhabs_, dhraw_;
};

}  // namespace parity::oracles
