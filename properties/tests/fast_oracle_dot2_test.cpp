// The fast accurate oracle's pieces (oracles/eft.hpp, dot2.hpp, dot2_kernels.hpp): TwoSum
// and TwoProduct exact, Dot2 within its stated bound of the exact dot product (computed in
// 3650-bit MPFR, exact for these exponent ranges) on generated vectors that are well
// conditioned, cancelling, spread over a wide exponent range or subnormal; the bound small
// where the problem is well conditioned; the same for the exact-product step (dot2_add_exact)
// on float32 values, which it requires (and checks), and there its values those of full
// Dot2; the AVX-512, AVX2 and portable kernels bitwise equal, with either step, and the
// bound sums' weighted_row_sums equal to plain scalar sums.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <vector>

#include <parity/oracles/dot2.hpp>
#include <parity/oracles/dot2_kernels.hpp>
#include <parity/oracles/eft.hpp>

namespace parity {
namespace {

using Exact =
    boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<1100>, boost::multiprecision::et_off>;

enum class Kind { well_conditioned, cancelling, wide_exponents, subnormal };

double with_exponent(double mantissa, int e) { return std::ldexp(mantissa, e); }

// n terms of the kind; mantissas in [1, 2) with a random sign. With `float32`, float32 values
// (24-bit mantissas; wide exponents within float's range; for `subnormal`, float32
// subnormals and small normals), whose products are exact (dot2_add_exact).
rc::Gen<std::vector<double>> values(Kind kind, std::size_t n, bool float32 = false) {
  const int bits = float32 ? 23 : 52;
  const auto mantissa = rc::gen::map(rc::gen::inRange<std::uint64_t>(0, 1ull << bits), [bits](std::uint64_t m) {
    return 1.0 + std::ldexp(static_cast<double>(m), -bits);
  });
  int lo = -4, hi = 4;
  if (kind == Kind::wide_exponents) lo = float32 ? -126 : -400, hi = float32 ? 127 : 400;
  if (kind == Kind::subnormal) lo = -1074, hi = -1000;
  if (float32 && kind == Kind::subnormal)
    return rc::gen::container<std::vector<double>>(
        n, rc::gen::map(rc::gen::inRange(-(1 << 24) + 1, 1 << 24), [](int m) { return std::ldexp(m, -149); }));
  return rc::gen::container<std::vector<double>>(
      n, rc::gen::apply(
             [kind](double m, int e, bool neg) {
               const double v = with_exponent(m, e);
               return neg && kind != Kind::well_conditioned ? -v : v;
             },
             mantissa, rc::gen::inRange(lo, hi + 1), rc::gen::arbitrary<bool>()));
}

// x, y of the kind; for `cancelling`, y's second half is minus its first and x's second
// half repeats its first, but for one perturbed element: the dot product is tiny against
// sum |x_i y_i|.
std::pair<std::vector<double>, std::vector<double>> vectors(Kind kind, std::size_t n, bool float32) {
  std::vector<double> x = *values(kind, n, float32), y = *values(kind, n, float32);
  if (kind == Kind::cancelling && n >= 4) {
    const std::size_t h = n / 2;
    for (std::size_t i = 0; i < h; ++i) {
      x[h + i] = x[i];
      y[h + i] = -y[i];
    }
    x[n - 1] = *rc::gen::inRange(-1000, 1000) * 0x1p-40;
  }
  return {x, y};
}

Exact exact_dot(const std::vector<double>& x, const std::vector<double>& y) {
  Exact s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += Exact(x[i]) * Exact(y[i]);
  return s;
}

// x . y by dot2_nt, one a row and one b row; by dot2_add_exact with `exact`.
oracles::Dot2Result dot2(const std::vector<double>& x, const std::vector<double>& y, bool exact = false) {
  oracles::Dot2Result r;
  oracles::NtOperands op{x.data(), x.size(), 1, y.data(), y.size(), 1, x.size()};
  op.exact = exact;
  oracles::dot2_nt(op, [&r](const oracles::NtGroup& g) { r = {g.hi[0], g.lo[0], g.err_dd[0], g.abs[0]}; });
  return r;
}

// With `float32`, float32 operands through dot2_add_exact.
void check_within_bound(Kind kind, bool float32 = false) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 600);
  const auto [x, y] = vectors(kind, n, float32);
  const oracles::Dot2Result r = dot2(x, y, float32);
  const Exact exact = exact_dot(x, y);
  RC_ASSERT(std::isfinite(r.err_dd));
  const double dd_err = static_cast<double>(abs(Exact(r.hi) + Exact(r.lo) - exact));
  const double hi_err = static_cast<double>(abs(Exact(r.hi) - exact));
  RC_ASSERT(dd_err <= r.err_dd);
  RC_ASSERT(hi_err <= r.err());
  // Faithful-plus: |lo| <= u |hi|, so the bound is within u of the exact value plus the
  // (tiny) Dot2 term.
  const double e = std::fabs(static_cast<double>(exact));
  RC_ASSERT(r.err() <= 0x1p-52 * e + 1.001 * r.err_dd);
  if (kind == Kind::well_conditioned) RC_ASSERT(r.err() <= 0x1p-51 * e);
}

RC_GTEST_PROP(Dot2, WithinItsBoundWellConditioned, ()) { check_within_bound(Kind::well_conditioned); }
RC_GTEST_PROP(Dot2, WithinItsBoundCancelling, ()) { check_within_bound(Kind::cancelling); }
RC_GTEST_PROP(Dot2, WithinItsBoundWideExponents, ()) { check_within_bound(Kind::wide_exponents); }
RC_GTEST_PROP(Dot2, WithinItsBoundSubnormal, ()) { check_within_bound(Kind::subnormal); }
RC_GTEST_PROP(Dot2Exact, WithinItsBoundWellConditioned, ()) { check_within_bound(Kind::well_conditioned, true); }
RC_GTEST_PROP(Dot2Exact, WithinItsBoundCancelling, ()) { check_within_bound(Kind::cancelling, true); }
RC_GTEST_PROP(Dot2Exact, WithinItsBoundWideExponents, ()) { check_within_bound(Kind::wide_exponents, true); }
RC_GTEST_PROP(Dot2Exact, WithinItsBoundFloat32Subnormal, ()) { check_within_bound(Kind::subnormal, true); }

// On float32 operands TwoProduct's error is exactly 0, so the exact step computes full Dot2's
// values (up to the sign of a zero).
RC_GTEST_PROP(Dot2Exact, ComputesFullDot2sValuesOnFloat32, ()) {
  const Kind kind = *rc::gen::element(Kind::well_conditioned, Kind::cancelling, Kind::wide_exponents, Kind::subnormal);
  const auto [x, y] = vectors(kind, *rc::gen::inRange<std::size_t>(1, 300), true);
  const oracles::Dot2Result e = dot2(x, y, true), g = dot2(x, y, false);
  RC_ASSERT(e.hi == g.hi && e.lo == g.lo && e.err_dd == g.err_dd && e.abs == g.abs);
}

TEST(Dot2Exact, RefusesAnOperandThatIsNotFloat32) {
  const std::vector<double> x{1.0, 0.1}, y{1.0, 2.0};
  EXPECT_THROW(dot2(x, y, true), std::invalid_argument);
  EXPECT_THROW(dot2(y, x, true), std::invalid_argument);
  EXPECT_EQ(dot2(x, y, false).hi, 1.0 + 0.1 * 2.0);
  EXPECT_EQ(dot2({1.0, 0.5f}, y, true).hi, 2.0);
}

TEST(Eft, TwoSumAndTwoProductAreExact) {
  const double a = 1.0 + 0x1p-30, b = 0x1p-60;
  const auto s = oracles::two_sum(a, b);
  EXPECT_EQ(Exact(s.sum) + Exact(s.error), Exact(a) + Exact(b));
  EXPECT_NE(s.error, 0.0);
  const auto f = oracles::fast_two_sum(a, b);  // |a| >= |b|
  EXPECT_EQ(Exact(f.sum) + Exact(f.error), Exact(a) + Exact(b));
  const auto p = oracles::two_product(a, a);
  EXPECT_EQ(Exact(p.product) + Exact(p.error), Exact(a) * Exact(a));
  EXPECT_NE(p.error, 0.0);
}

TEST(Dot2, CancellationThatDefeatsNaiveDoubleIsExact) {
  // 1e16 + 1 - 1e16: naive double summation gives 0, Dot2 gives 1 with a bound of
  // gamma_22^2 (2e16 + 1) ~ 1.2e-13.
  const std::vector<double> x{1e16, 1.0, -1e16}, y{1.0, 1.0, 1.0};
  const auto r = dot2(x, y);
  EXPECT_EQ(r.hi, 1.0);
  EXPECT_LT(r.err(), 2e-13);
  EXPECT_EQ((1e16 + 1.0) - 1e16, 0.0);
}

TEST(Dot2, NonFiniteMeansUnsure) {
  const std::vector<double> x{1e300, 1e300}, y{1e300, 1.0};
  EXPECT_TRUE(std::isinf(dot2(x, y).err_dd));
}

// A non-finite product makes the value the plain IEEE sum of the products
// (oracles/extended_real.hpp), never the compensation's inf - inf, on every instruction set.
TEST(Dot2, NonFiniteProductsGiveTheIeeeSum) {
  const std::vector<double> x{HUGE_VAL, 1.0, 2.0}, y{-2.0, 3.0, 1.0};
  const std::vector<double> both{HUGE_VAL, -HUGE_VAL, 1.0}, nan{NAN, 1.0, 1.0}, ones{1.0, 1.0, 1.0};
  for (const oracles::Isa isa : {oracles::Isa::portable, oracles::Isa::avx2, oracles::Isa::avx512}) {
    if (isa > oracles::best_isa()) continue;
    const auto at = [isa](const std::vector<double>& a, const std::vector<double>& b) {
      oracles::Dot2Result r;
      oracles::NtOperands op{a.data(), a.size(), 1, b.data(), b.size(), 1, a.size()};
      oracles::dot2_nt(
          op,
          [&r](const oracles::NtGroup& g) {
            r = {g.hi[0], g.lo[0], g.err_dd[0], g.abs[0]};
          },
          isa);
      return r;
    };
    EXPECT_EQ(at(x, y).hi, -HUGE_VAL) << oracles::isa_name(isa);
    EXPECT_EQ(at(x, y).lo, 0.0) << oracles::isa_name(isa);
    EXPECT_TRUE(std::isinf(at(x, y).err_dd)) << oracles::isa_name(isa);
    EXPECT_TRUE(std::isnan(at(both, ones).hi)) << oracles::isa_name(isa);
    EXPECT_TRUE(std::isnan(at(nan, ones).hi)) << oracles::isa_name(isa);
  }
}

bool same_bits(const std::vector<oracles::Dot2State>& a, const std::vector<oracles::Dot2State>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i].s, &b[i].s, sizeof(double)) != 0 || std::memcmp(&a[i].c, &b[i].c, sizeof(double)) != 0 ||
        std::memcmp(&a[i].abs, &b[i].abs, sizeof(double)) != 0 || a[i].terms != b[i].terms ||
        a[i].merges != b[i].merges)
      return false;
  return a.size() == b.size();
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// dot2_nt's results as arrays of `size` values, each written once (else NaN).
struct NtArrays {
  std::vector<double> hi, lo, err_dd, abs, first_abs;
  explicit NtArrays(std::size_t size)
      : hi(size, NAN), lo(size, NAN), err_dd(size, NAN), abs(size, NAN), first_abs(size, NAN) {}
  // The sink for outputs of b_rows columns (groups are disjoint, so concurrent calls write
  // different elements); `overlap` is set if one is written twice.
  std::function<void(const oracles::NtGroup&)> sink(std::size_t b_rows, bool& overlap) {
    return [this, b_rows, &overlap](const oracles::NtGroup& g) {
      for (std::size_t q = 0; q < g.rows; ++q) {
        const std::size_t o = g.i * b_rows + g.j + q;
        if (!std::isnan(hi[o])) overlap = true;
        hi[o] = g.hi[q];
        lo[o] = g.lo[q];
        err_dd[o] = g.err_dd[q];
        abs[o] = g.abs[q];
        first_abs[o] = g.first_abs[q];
      }
    };
  }
  bool operator==(const NtArrays& o) const {
    return same_bits(hi, o.hi) && same_bits(lo, o.lo) && same_bits(err_dd, o.err_dd) && same_bits(abs, o.abs) &&
           same_bits(first_abs, o.first_abs);
  }
};

// dot2_nt's contract, element by element in plain scalar code: eight lanes by dot2_add (or
// dot2_add_exact for an exact first segment; term
// k in lane k mod 8, the first segment before the second), merged in lane order, finished.
NtArrays nt_reference(const oracles::NtOperands& op) {
  NtArrays r(op.a_rows * op.b_rows);
  for (std::size_t i = 0; i < op.a_rows; ++i)
    for (std::size_t j = 0; j < op.b_rows; ++j) {
      oracles::Dot2State lanes[8];
      for (std::size_t k = 0; k < op.n; ++k)
        (op.exact ? oracles::dot2_add_exact : oracles::dot2_add)(lanes[k % 8], op.a[i * op.lda + k],
                                                                 op.b[j * op.ldb + k]);
      double first_abs = lanes[0].abs;
      for (std::size_t l = 1; l < 8; ++l) first_abs = first_abs + lanes[l].abs;
      for (std::size_t k = 0; k < op.n2; ++k)
        oracles::dot2_add(lanes[k % 8], op.a2[i * op.lda2 + k], op.b2[j * op.ldb2 + k]);
      oracles::Dot2State st = lanes[0];
      for (std::size_t l = 1; l < 8; ++l) oracles::dot2_merge(st, lanes[l]);
      const oracles::Dot2Result res = oracles::dot2_finish(st);
      const std::size_t o = i * op.b_rows + j;
      r.hi[o] = res.hi;
      r.lo[o] = res.lo;
      r.err_dd[o] = res.err_dd;
      r.abs[o] = res.abs;
      r.first_abs[o] = first_abs;
    }
  return r;
}

// The portable NT path against its contract, and every vector path this CPU supports (AVX2,
// and AVX-512 where present) against the portable one, on NT blocks of 1 to 40 b rows (whole
// and partial register and merge blocks) with tails.
RC_GTEST_PROP(Dot2Kernels, EveryIsaGivesThePortableBits, ()) {
  const oracles::Isa best = oracles::best_isa();
  if (best == oracles::Isa::portable) RC_DISCARD("this CPU has no vector path to compare");
  const oracles::Isa isa =
      best == oracles::Isa::avx512 ? *rc::gen::element(oracles::Isa::avx2, oracles::Isa::avx512) : oracles::Isa::avx2;
  RC_TAG(oracles::isa_name(isa));
  const Kind kind = *rc::gen::element(Kind::well_conditioned, Kind::cancelling, Kind::wide_exponents, Kind::subnormal);
  const std::size_t rows = *rc::gen::inRange<std::size_t>(1, 5), cols = *rc::gen::inRange<std::size_t>(1, 40),
                    n = *rc::gen::inRange<std::size_t>(0, 70);
  const std::size_t n2 = *rc::gen::inRange<std::size_t>(0, 20);
  const bool exact = *rc::gen::arbitrary<bool>();
  RC_TAG(exact ? "exact" : "general");
  const std::vector<double> a = *values(kind, rows * n, exact), b = *values(kind, cols * n, exact);
  const std::vector<double> a2 = *values(kind, rows * n2), b2 = *values(kind, cols * n2);
  NtArrays p(rows * cols), v(rows * cols);
  const oracles::NtOperands nt{a.data(), n, rows, b.data(), n, cols, n, a2.data(), n2, b2.data(), n2, n2, exact};
  bool overlap = false;
  dot2_nt(nt, p.sink(cols, overlap), oracles::Isa::portable);
  dot2_nt(nt, v.sink(cols, overlap), isa);
  RC_ASSERT(!overlap);
  RC_ASSERT(p == nt_reference(nt));
  RC_ASSERT(v == p);
  // TN over the same data read column-wise: a as [n][rows], b as [n][cols]; each element is a
  // plain ascending dot2_add sequence.
  std::vector<const double*> ar, br;
  for (std::size_t m = 0; m < n; ++m) {
    ar.push_back(a.data() + m * rows);
    br.push_back(b.data() + m * cols);
  }
  const oracles::TnOperands tn{ar, br, rows, cols};
  std::vector<oracles::Dot2State> tp(rows * cols), tv(rows * cols), ts(rows * cols);
  dot2_tn(tn, tp.data(), oracles::Isa::portable);
  dot2_tn(tn, tv.data(), isa);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < cols; ++k)
      for (std::size_t m = 0; m < n; ++m) oracles::dot2_add(ts[i * cols + k], ar[m][i], br[m][k]);
  RC_ASSERT(same_bits(tp, tv));
  RC_ASSERT(same_bits(tp, ts));
}

// weighted_row_sums on the portable path and on this CPU's best against plain scalar sums
// from 0 in ascending j, bitwise, over rows of mixed signs and exponents.
RC_GTEST_PROP(Dot2Kernels, WeightedRowSumsGiveTheScalarBits, ()) {
  constexpr std::size_t w = oracles::kNtGroupRows;
  const std::size_t r = *rc::gen::inRange<std::size_t>(0, 40), ldm = w + *rc::gen::inRange<std::size_t>(0, 5);
  const Kind kind = *rc::gen::element(Kind::well_conditioned, Kind::cancelling, Kind::wide_exponents);
  const std::vector<double> m = *values(kind, r * ldm + w), wa = *values(kind, r), wb = *values(kind, r);
  std::vector<double> ref_a(w), ref_b(w);
  for (std::size_t q = 0; q < w; ++q) {
    double a = 0, b = 0;
    for (std::size_t j = 0; j < r; ++j) {
      a = a + wa[j] * m[j * ldm + q];
      b = b + wb[j] * m[j * ldm + q];
    }
    ref_a[q] = a;
    ref_b[q] = b;
  }
  for (const oracles::Isa isa : {oracles::Isa::portable, oracles::best_isa()}) {
    std::vector<double> a(w, NAN), b(w, NAN);
    oracles::weighted_row_sums(m.data(), ldm, r, wa.data(), wb.data(), a.data(), b.data(), isa);
    RC_ASSERT(same_bits(a, ref_a));
    RC_ASSERT(same_bits(b, ref_b));
  }
}

}  // namespace
}  // namespace parity
