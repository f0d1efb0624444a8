#include <parity/ops/framework/matmul.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <parity/core/thread_pool.hpp>
#include <parity/oracles/blas.hpp>

namespace parity::ops {
namespace {

constexpr double kU53 = 0x1p-53, kEta53 = 0x1p-1074;

template <class R>
oracles::GemmOperand<double> view_of(const MatrixOperand<R>& x, const double* stored) {
  return {stored, x.ld(), x.transposed()};
}

void check_shapes(std::int64_t a_cols, std::int64_t b_rows) {
  if (a_cols != b_rows)
    throw std::invalid_argument("matmul: " + std::to_string(a_cols) + " columns times " + std::to_string(b_rows) +
                                " rows");
}

// One Bounded operand as the GEMMs read it, in its stored layout: values, M = |v| + 2E and E
// (empty where every E is 0), the elements that send their outputs to the element rules zeroed;
// `bad[i]`: whether the operand's logical row (`by_row`) or column i holds such an element.
struct Arrays {
  std::vector<double> v, m, e;
  std::vector<std::uint8_t> bad;
  const double* values = nullptr;
};

Arrays arrays_of(const MatrixOperand<Bounded>& x, bool by_row) {
  Arrays out;
  const std::int64_t stored_rows = x.transposed() ? x.cols() : x.rows(), ld = x.ld();
  const std::size_t n = static_cast<std::size_t>(stored_rows * ld);
  out.bad.assign(static_cast<std::size_t>(by_row ? x.rows() : x.cols()), 0);
  // Stored (r, c) is logical (r, c), or (c, r) where transposed.
  const auto mark = [&](std::int64_t r, std::int64_t c) {
    const bool logical_row_is_r = !x.transposed();
    out.bad[static_cast<std::size_t>(by_row == logical_row_is_r ? r : c)] = 1;
  };
  out.m.resize(n);
  if (const double* p = x.exact()) {
    out.values = p;
    for (std::int64_t r = 0; r < stored_rows; ++r)
      for (std::int64_t c = 0; c < ld; ++c) {
        const double a = p[r * ld + c];
        if (!std::isfinite(a)) mark(r, c);
        out.m[static_cast<std::size_t>(r * ld + c)] = std::isfinite(a) ? std::fabs(a) : 0.0;
      }
    return out;
  }
  const auto& data = x.matrix()->data();
  out.v.resize(n);
  bool any_err = false;
  for (std::size_t i = 0; i < n; ++i) any_err = any_err || data[i].err() != 0;
  if (any_err) out.e.resize(n);
  for (std::int64_t r = 0; r < stored_rows; ++r)
    for (std::int64_t c = 0; c < ld; ++c) {
      const auto i = static_cast<std::size_t>(r * ld + c);
      const Bounded& b = data[i];
      const bool ok = std::isfinite(b.value()) && std::isfinite(b.err()) && !b.may_overflow();
      if (!ok) mark(r, c);
      out.v[i] = ok ? b.value() : 0.0;
      out.m[i] = ok ? std::fabs(b.value()) + 2 * b.err() : 0.0;
      if (any_err) out.e[i] = ok ? b.err() : 0.0;
    }
  out.values = out.v.data();
  return out;
}

// sum_l a(i, l) b(l, j) in double, ascending from 0: Eval::sum's order, bit for bit (the build
// contracts no a * b + s into an fma: -ffp-contract=off). Each element is its own sequential chain;
// the loop runs kBlock of them side by side (independent chains, so the additions pipeline) and
// rows on parity's pool: neither changes an element's operations, so its bits are the same on
// any machine and thread count.
template <bool kTransA, bool kTransB>
void ascending_rows(std::int64_t first, std::int64_t last, std::int64_t n, std::int64_t k,
                    const oracles::GemmOperand<double>& a, const oracles::GemmOperand<double>& b, double* c) {
  constexpr std::int64_t kBlock = 8;
  const double* const pa = a.p;
  const double* const pb = b.p;
  const std::int64_t lda = a.ld, ldb = b.ld;
  const auto at_a = [&](std::int64_t i, std::int64_t l) { return kTransA ? pa[l * lda + i] : pa[i * lda + l]; };
  const auto at_b = [&](std::int64_t l, std::int64_t j) { return kTransB ? pb[j * ldb + l] : pb[l * ldb + j]; };
  for (std::int64_t i = first; i < last; ++i) {
    std::int64_t j = 0;
    for (; j + kBlock <= n; j += kBlock) {
      double s[kBlock] = {};
      for (std::int64_t l = 0; l < k; ++l) {
        const double ail = at_a(i, l);
        for (std::int64_t q = 0; q < kBlock; ++q) s[q] += ail * at_b(l, j + q);
      }
      for (std::int64_t q = 0; q < kBlock; ++q) c[i * n + j + q] = s[q];
    }
    for (; j < n; ++j) {
      double s = 0;
      for (std::int64_t l = 0; l < k; ++l) s += at_a(i, l) * at_b(l, j);
      c[i * n + j] = s;
    }
  }
}

void ascending(std::int64_t m, std::int64_t n, std::int64_t k, const oracles::GemmOperand<double>& a,
               const oracles::GemmOperand<double>& b, double* c) {
  const auto rows = [&](std::int64_t first, std::int64_t last) {
    if (a.trans) {
      if (b.trans) ascending_rows<true, true>(first, last, n, k, a, b, c);
      else ascending_rows<true, false>(first, last, n, k, a, b, c);
    } else {
      if (b.trans) ascending_rows<false, true>(first, last, n, k, a, b, c);
      else ascending_rows<false, false>(first, last, n, k, a, b, c);
    }
  };
  // Chunks of rows of about 2^16 multiply-adds each (a fixed partition: threads do not change it).
  const std::int64_t work_per_row = std::max<std::int64_t>(1, n * k);
  const std::int64_t rows_per_chunk = std::max<std::int64_t>(1, (std::int64_t{1} << 16) / work_per_row);
  const std::int64_t chunks = (m + rows_per_chunk - 1) / rows_per_chunk;
  if (chunks <= 1) return rows(0, m);
  parallel_chunks(static_cast<std::size_t>(chunks), [&](std::size_t chunk) {
    const std::int64_t first = static_cast<std::int64_t>(chunk) * rows_per_chunk;
    rows(first, std::min(m, first + rows_per_chunk));
  });
}

}  // namespace

Matrix<double> matmul_double(const MatrixOperand<double>& a, const MatrixOperand<double>& b) {
  check_shapes(a.cols(), b.rows());
  Matrix<double> c(a.rows(), b.cols());
  const auto stored = [](const MatrixOperand<double>& x) { return x.exact() ? x.exact() : x.matrix()->data().data(); };
  ascending(a.rows(), b.cols(), a.cols(), view_of(a, stored(a)), view_of(b, stored(b)), c.data().data());
  return c;
}

Matrix<Bounded> matmul_bounded(const MatrixOperand<Bounded>& a, const MatrixOperand<Bounded>& b, const Arithmetic& ar,
                               std::int64_t terms) {
  check_shapes(a.cols(), b.rows());
  const std::int64_t m = a.rows(), n = b.cols(), k = a.cols();
  const Arrays x = arrays_of(a, true), y = arrays_of(b, false);
  const auto size = static_cast<std::size_t>(m * n);
  std::vector<double> v(size), mags(size), errs(size), other(size);
  ascending(m, n, k, view_of(a, x.values), view_of(b, y.values), v.data());
  oracles::gemm(m, n, k, view_of(a, x.m.data()), view_of(b, y.m.data()), mags.data());
  const bool with_errs = !x.e.empty() || !y.e.empty();
  if (!x.e.empty()) oracles::gemm(m, n, k, view_of(a, x.e.data()), view_of(b, y.m.data()), errs.data());
  if (!y.e.empty()) oracles::gemm(m, n, k, view_of(a, x.m.data()), view_of(b, y.e.data()), other.data());

  const double kd = static_cast<double>(k);
  const double g = static_cast<double>(ar.reduction_depth(std::max(k, terms)));
  const double gamma = g * ar.unit < 1 ? g * ar.unit / (1 - g * ar.unit) : INFINITY;
  // (1 - k 2^-53)^-1 with the roundings of the corrections themselves.
  const double grow = (1 + 4 * kU53) / (1 - kd * kU53);
  Matrix<Bounded> c(m, n);
  auto& out = c.data();
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const auto at = static_cast<std::size_t>(i * n + j);
      const double X = (mags[at] + 2 * kd * kEta53) * grow;
      const double Y = with_errs ? (errs[at] + other[at] + 4 * kd * kEta53) * grow : 0.0;
      // sum_t E_t and sum_t M_t of the derivation (matmul.hpp).
      const double term_errs = Y + ar.unit * X + kd * ar.underflow;
      const double term_mags = (1 + 2 * kU53) * X + 2 * term_errs;
      const double err = (term_errs + gamma * term_mags + g * ar.underflow) * (1 + 0x1p-50);
      if (x.bad[static_cast<std::size_t>(i)] || y.bad[static_cast<std::size_t>(j)] || !std::isfinite(v[at]) ||
          !std::isfinite(err)) {
        out[at] = Bounded::sum(
            k, [&](std::int64_t l) { return a(i, l) * b(l, j); }, ar, terms);
        continue;
      }
      const bool over = !(term_mags * (1 + gamma) < ar.max_finite) || !(X + Y < ar.max_finite);
      out[at] =
          terms > k ? Bounded(v[at], err, &ar, over).as_part(term_mags * (1 + gamma)) : Bounded(v[at], err, &ar, over);
    }
  return c;
}

}  // namespace parity::ops
