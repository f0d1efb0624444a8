#include <parity/ops/framework/matmul.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <parity/core/isa.hpp>
#include <parity/core/thread_pool.hpp>
#include <parity/ops/framework/filtered_product_rules.hpp>
#include <parity/oracles/ascending_gemm.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/oracles/unordered_gemm.hpp>

namespace parity::ops {
namespace {

constexpr double kU53 = 0x1p-53, kEta53 = 0x1p-1074;
constexpr std::size_t kKeptElements = std::size_t{1} << 21;  // 16 MB an array

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

// One Filtered operand as the GEMMs read it, in its stored layout: values, double's M = |v| + 2d,
// and where some d or lo is not 0 (else empty) d, lo and the lower M.
struct FilteredArrays {
  std::vector<double> v, m, d, lo, low;
  const double* values = nullptr;
};

FilteredArrays arrays_of(const MatrixOperand<Filtered>& x) {
  FilteredArrays out;
  const std::int64_t stored_rows = x.transposed() ? x.cols() : x.rows();
  const auto n = static_cast<std::size_t>(stored_rows * x.ld());
  const auto& data = x.matrix()->data();
  out.v.resize(n);
  out.m.resize(n);
  bool inexact = false;
  for (std::size_t i = 0; i < n; ++i) inexact = inexact || data[i].dev() != 0 || data[i].lo() != 0;
  if (inexact) {
    out.d.resize(n);
    out.lo.resize(n);
    out.low.resize(n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Filtered& f = data[i];
    out.v[i] = f.value();
    out.m[i] = std::fabs(f.value()) + 2 * f.dev();
    if (inexact) {
      out.d[i] = f.dev();
      out.lo[i] = f.lo();
      out.low[i] = f.lower_abs() + 2 * f.lo();
    }
  }
  out.values = out.v.data();
  return out;
}

// Products of fewer multiply-adds than this go to parity's own kernel, not the BLAS: its pool's
// start and spin cost more than a short product (a reference makes many of rank r).
constexpr std::int64_t kBlasWork = std::int64_t{1} << 20;
// The filter's products over at most this many terms (its rank-r products) go to parity's own
// kernel at any size: after a product OpenBLAS's workers spin on the cores the filter's next
// steps run on (parity's pool), slowing them more than its kernels gain over a short reduction.
constexpr std::int64_t kShortReduction = 64;

void product(std::int64_t m, std::int64_t n, std::int64_t k, oracles::GemmOperand<double> a,
             oracles::GemmOperand<double> b, double* c) {
  if (m * n * k < kBlasWork || k <= kShortReduction) oracles::ascending_gemm(m, n, k, a, b, c);
  else oracles::gemm(m, n, k, a, b, c);
}

// p[0]^2 + ... + p[k - 1]^2 in an order of its own: 4 vectors of V's lanes of partial sums,
// then the rest; each square and addition rounded once (GCC contracts nothing here: the
// project's -ffp-contract=off). Always inlined into the per-ISA entry points below.
template <class V>
[[gnu::always_inline]] inline double squares(const double* p, std::int64_t k) {
  constexpr std::int64_t kLanes = sizeof(V) / sizeof(double), kStep = 4 * kLanes;
  V part[4] = {};
  std::int64_t l = 0;
  for (; l + kStep <= k; l += kStep)
    for (int w = 0; w < 4; ++w) {
      V x;
      __builtin_memcpy(&x, p + l + w * kLanes, sizeof(V));
      part[w] += x * x;
    }
  double q = 0;
  for (; l < k; ++l) q += p[l] * p[l];
  for (const V& w : part)
    for (std::int64_t i = 0; i < kLanes; ++i) q += w[i];
  return q;
}

using V2 = double __attribute__((vector_size(16)));
double squares_portable(const double* p, std::int64_t k) { return squares<V2>(p, k); }
#if defined(__x86_64__) && defined(__GNUC__)
using V4 = double __attribute__((vector_size(32)));
using V8 = double __attribute__((vector_size(64)));
[[gnu::target("avx2")]] double squares_avx2(const double* p, std::int64_t k) { return squares<V4>(p, k); }
[[gnu::target("avx512f")]] double squares_avx512(const double* p, std::int64_t k) { return squares<V8>(p, k); }
#endif

// The sum of the k squares of p's elements for this CPU's widest vectors (core/isa.hpp).
double sum_of_squares(const double* p, std::int64_t k) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const Isa isa = best_isa();
  if (isa == Isa::avx512) return squares_avx512(p, k);
  if (isa == Isa::avx2) return squares_avx2(p, k);
#endif
  return squares_portable(p, k);
}

// A chunk of euclidean_norms': vectors of about this many elements (512 KB) where each
// vector's elements are adjacent; where the vectors lie side by side in each stored row, this many
// vectors, read as runs of that length from each row.
constexpr std::int64_t kNormChunk = std::int64_t{1} << 16, kSideBySideChunk = 256;

// The Euclidean norms of x's logical rows (`by_row`, k columns each) or of its logical columns (k
// rows each), each sum of squares taken up by (1 + (k + 1) 2^-52) and k 2^-1074 (its roundings and
// underflows) and each root by 1 + 2^-52: so na[i] nb[j] >= sum_l |a(i, l)| |b(l, j)| (Cauchy-Schwarz)
// for the norms of a's rows and b's columns. Not finite where an element or a square is not.
std::vector<double> euclidean_norms(const oracles::GemmOperand<double>& x, std::int64_t count, std::int64_t k,
                                    bool by_row) {
  // Memory-bound (a weight's pass): on parity's pool, each vector's sum on one thread, in chunks of
  // vectors that do not depend on the thread count (core/thread_pool.hpp), so the same bits.
  std::vector<double> squares(static_cast<std::size_t>(count), 0.0);
  const bool adjacent = by_row != x.trans;  // each vector's elements adjacent, else side by side in each stored row
  const std::int64_t per_chunk =
      adjacent ? std::max<std::int64_t>(1, kNormChunk / std::max<std::int64_t>(k, 1)) : kSideBySideChunk;
  parallel_chunks(static_cast<std::size_t>((count + per_chunk - 1) / per_chunk), [&](std::size_t chunk) {
    const std::int64_t first = static_cast<std::int64_t>(chunk) * per_chunk, last = std::min(count, first + per_chunk);
    double* q = squares.data();
    if (adjacent) {  // vector partial sums (any order is bounded)
      for (std::int64_t v = first; v < last; ++v) q[v] = sum_of_squares(x.p + v * x.ld, k);
      return;
    }
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t v = first; v < last; ++v) q[v] += x.p[l * x.ld + v] * x.p[l * x.ld + v];
  });
  const double kd = static_cast<double>(k);
  const double eta_k = kd * kEta53;  // formed once: a subnormal product costs a microcode assist
  for (double& q : squares) q = std::sqrt(q * (1 + (kd + 1) * 0x1p-52) + eta_k) * (1 + 0x1p-52);
  return squares;
}

}  // namespace

Matrix<double> matmul_double(const MatrixOperand<double>& a, const MatrixOperand<double>& b) {
  check_shapes(a.cols(), b.rows());
  Matrix<double> c(a.rows(), b.cols());
  const auto stored = [](const MatrixOperand<double>& x) { return x.exact() ? x.exact() : x.matrix()->data().data(); };
  oracles::ascending_gemm(a.rows(), b.cols(), a.cols(), view_of(a, stored(a)), view_of(b, stored(b)), c.data().data());
  return c;
}

Matrix<Bounded> matmul_bounded(const MatrixOperand<Bounded>& a, const MatrixOperand<Bounded>& b, const Arithmetic& ar,
                               std::int64_t terms) {
  check_shapes(a.cols(), b.rows());
  const std::int64_t m = a.rows(), n = b.cols(), k = a.cols();
  const auto size = static_cast<std::size_t>(m * n);
  // The GEMMs' outputs, kept per thread between calls: a reference makes many products of the
  // same shape, and fresh pages of that size cost more than the products of a short reduction
  // (held up to kKeptElements each, per thread that ran one; a larger product's are freed after it).
  thread_local std::vector<double> v, mags, errs, other;
  v.resize(size);
  mags.resize(size);
  // Exact operands (M = |v|, E = 0): X in the values' own pass, the ascending sums of |a| |b|.
  // An output that reads a non-finite element gets a non-finite X (|Inf| |b| is Inf or NaN),
  // so the element rules below take exactly the outputs `bad` would send them.
  Arrays x, y;
  if (a.exact() && b.exact()) {
    oracles::ascending_gemm_with_magnitudes(m, n, k, view_of(a, a.exact()), view_of(b, b.exact()), v.data(),
                                            mags.data());
    x.bad.assign(static_cast<std::size_t>(m), 0);
    y.bad.assign(static_cast<std::size_t>(n), 0);
  } else {
    x = arrays_of(a, true);
    y = arrays_of(b, false);
    oracles::ascending_gemm(m, n, k, view_of(a, x.values), view_of(b, y.values), v.data());
    oracles::gemm(m, n, k, view_of(a, x.m.data()), view_of(b, y.m.data()), mags.data());
  }
  const bool with_errs = !x.e.empty() || !y.e.empty();
  if (with_errs) {
    errs.assign(size, 0.0);
    other.assign(size, 0.0);
  }
  if (!x.e.empty()) oracles::gemm(m, n, k, view_of(a, x.e.data()), view_of(b, y.m.data()), errs.data());
  if (!y.e.empty()) oracles::gemm(m, n, k, view_of(a, x.m.data()), view_of(b, y.e.data()), other.data());

  const double kd = static_cast<double>(k);
  const double g = static_cast<double>(ar.reduction_depth(std::max(k, terms)));
  const double gamma = g * ar.unit < 1 ? g * ar.unit / (1 - g * ar.unit) : INFINITY;
  // (1 - k 2^-53)^-1 with the roundings of the corrections themselves.
  const double grow = (1 + 4 * kU53) / (1 - kd * kU53);
  // The subnormal floors, formed once: an operation on a subnormal costs a microcode assist.
  const double x_floor = 2 * kd * kEta53, y_floor = 4 * kd * kEta53;
  Matrix<Bounded> c(m, n);
  auto& out = c.data();
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      const auto at = static_cast<std::size_t>(i * n + j);
      const double X = (mags[at] + x_floor) * grow;
      const double Y = with_errs ? (errs[at] + other[at] + y_floor) * grow : 0.0;
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
  if (size > kKeptElements)
    for (std::vector<double>* array : {&v, &mags, &errs, &other}) {
      array->clear();
      array->shrink_to_fit();
    }
  return c;
}

Matrix<Filtered> matmul_filtered(const MatrixOperand<Filtered>& a, const MatrixOperand<Filtered>& b,
                                 const Arithmetic& ar, std::int64_t terms) {
  check_shapes(a.cols(), b.rows());
  const std::int64_t m = a.rows(), n = b.cols(), k = a.cols();
  const auto size = static_cast<std::size_t>(m * n);
  thread_local std::vector<double> v, mags, errs;  // as matmul_bounded's
  v.resize(size);
  mags.resize(size);
  bool with_errs = false;  // whether errs holds lo's Y (sum lo_a Mb + Ma lo_b, lower magnitudes)
  // d's X and Y: from `mags` where it holds sum Ma Mb (then lo's X too), else from the operands'
  // norms (Cauchy-Schwarz: X <= ||Ma(i, :)|| ||Mb(:, j)||, Y <= ||Ma(i, :)|| ||db(:, j)|| +
  // ||da(i, :)|| ||Mb(:, j)||), where mags holds lo's X alone. An operand's norms of d are empty
  // where every d and lo of it is 0.
  bool mags_bound_d = true, from_parts = false;
  std::vector<double> norm_a, norm_b, dev_norm_a, dev_norm_b;
  if (a.exact() && b.exact()) {
    const auto va = view_of(a, a.exact()), vb = view_of(b, b.exact());
    if (m * n * k < kBlasWork) {
      oracles::ascending_gemm_with_magnitudes(m, n, k, va, vb, v.data(), mags.data());
    } else {
      // lo's X from the parts' |S_p| (unordered_gemm), d's from the norms: one product and one
      // pass over each operand.
      oracles::unordered_gemm(m, n, k, va, vb, v.data(), mags.data());
      norm_a = euclidean_norms(va, m, k, true);
      norm_b = euclidean_norms(vb, n, k, false);
      mags_bound_d = false;
      from_parts = true;
    }
  } else {
    // An operand the reference built (a Matrix): its arrays formed whole; an input's read in place
    // (every d and lo 0, M = |v|).
    const auto arrays = [](const MatrixOperand<Filtered>& x) {
      if (!x.exact()) return arrays_of(x);
      FilteredArrays out;
      const std::int64_t stored_rows = x.transposed() ? x.cols() : x.rows();
      out.values = x.exact();
      out.m.resize(static_cast<std::size_t>(stored_rows * x.ld()));
      for (std::size_t i = 0; i < out.m.size(); ++i) out.m[i] = std::fabs(x.exact()[i]);
      return out;
    };
    const FilteredArrays x = arrays(a), y = arrays(b);
    product(m, n, k, view_of(a, x.values), view_of(b, y.values), v.data());
    if (x.d.empty() && y.d.empty()) {
      // Every d and lo 0: M = m = |v|, one product of magnitudes for both bounds.
      product(m, n, k, view_of(a, x.m.data()), view_of(b, y.m.data()), mags.data());
    } else {
      const double* low_a = x.low.empty() ? x.m.data() : x.low.data();
      const double* low_b = y.low.empty() ? y.m.data() : y.low.data();
      product(m, n, k, view_of(a, low_a), view_of(b, low_b), mags.data());
      // lo's Y: the operands' own lo times the other's lower magnitudes, one product for each
      // operand that has a lo, their sum taken down as X is.
      errs.resize(size);
      thread_local std::vector<double> other;
      if (!x.lo.empty()) product(m, n, k, view_of(a, x.lo.data()), view_of(b, low_b), errs.data());
      if (!y.lo.empty() && x.lo.empty()) product(m, n, k, view_of(a, low_a), view_of(b, y.lo.data()), errs.data());
      if (!y.lo.empty() && !x.lo.empty()) {
        other.resize(size);
        product(m, n, k, view_of(a, low_a), view_of(b, y.lo.data()), other.data());
        for (std::size_t i = 0; i < size; ++i) errs[i] += other[i];
        if (size > kKeptElements) std::vector<double>().swap(other);
      }
      with_errs = true;
      norm_a = euclidean_norms(view_of(a, x.m.data()), m, k, true);
      norm_b = euclidean_norms(view_of(b, y.m.data()), n, k, false);
      if (!x.d.empty()) dev_norm_a = euclidean_norms(view_of(a, x.d.data()), m, k, true);
      if (!y.d.empty()) dev_norm_b = euclidean_norms(view_of(b, y.d.data()), n, k, false);
      mags_bound_d = false;
    }
  }

  FilteredProductRules rules = filtered_product_constants(k, terms, from_parts, ar);
  rules.values = v.data();
  rules.sums = mags.data();
  rules.lo_errs = with_errs ? errs.data() : nullptr;
  if (!mags_bound_d) {
    rules.norm_a = norm_a.data();
    rules.norm_b = norm_b.data();
  }
  if (!dev_norm_a.empty()) rules.dev_norm_a = dev_norm_a.data();
  if (!dev_norm_b.empty()) rules.dev_norm_b = dev_norm_b.data();
  rules.n = n;
  // Element by element, on parity's pool (parallel_rows: each element its own, the same bits for
  // any thread count and instruction set), a block of a row's d and lo at a time.
  std::vector<Filtered> out(size);
  parallel_rows(m, n, [&](std::int64_t i) {
    constexpr std::int64_t kBlock = 256;  // a row's elements at a time
    double d[kBlock], lo[kBlock];
    for (std::int64_t j0 = 0; j0 < n; j0 += kBlock) {
      const std::int64_t j1 = std::min(n, j0 + kBlock);
      filtered_product_rules(rules, i, j0, j1, d, lo);
      for (std::int64_t j = j0; j < j1; ++j) {
        const auto at = static_cast<std::size_t>(i * n + j);
        out[at] = Filtered(rules.values[at], d[j - j0], lo[j - j0], &ar);
      }
    }
  });
  if (size > kKeptElements)
    for (std::vector<double>* array : {&v, &mags, &errs}) {
      array->clear();
      array->shrink_to_fit();
    }
  return Matrix<Filtered>(m, n, std::move(out));
}

}  // namespace parity::ops
