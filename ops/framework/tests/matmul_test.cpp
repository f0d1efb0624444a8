// Eval::matmul's products (matmul.hpp) against the element-by-element rules they stand for:
// in Bounded, the closed form from GEMMs is never below Bounded::sum over the same products and,
// with exact operands, within the derivation's margins of it; its value is within both bounds of
// the ascending double sum. Inputs are float32 values (exact products in double), and operands
// that carry errors (a Bounded matrix) and non-finite elements, which take the element rules.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/tests/gaussian_floats.hpp>

namespace parity::ops {
namespace {

struct Case {
  std::int64_t m, n, k;
  OpValues values;
};

Case make_case(std::int64_t m, std::int64_t n, std::int64_t k) {
  Case c{m, n, k, {}};
  c.values.inputs["a"] = testing::gaussian_floats(static_cast<std::size_t>(m * k), 1, 1.0);
  c.values.inputs["b"] = testing::gaussian_floats(static_cast<std::size_t>(n * k), 2, 0.05);
  c.values.shapes["a"] = {m, k};
  c.values.shapes["b"] = {n, k};
  return c;
}

// Every element of `got` against Bounded::sum over the products of a(i, .) and b(j, .).
template <class A, class B>
void expect_covers(const Matrix<Bounded>& got, const A& a, const B& b, std::int64_t k, const Arithmetic& ar,
                   double max_ratio) {
  double worst = 0;
  for (std::int64_t i = 0; i < got.rows(); ++i)
    for (std::int64_t j = 0; j < got.cols(); ++j) {
      const Bounded ref = Bounded::sum(
          k, [&](std::int64_t l) { return a(i, l) * b(l, j); }, ar);
      const Bounded& c = got(i, j);
      ASSERT_GE(c.err(), ref.err()) << i << "," << j;
      if (!std::isfinite(ref.value())) {  // the element rules' own: the same class
        ASSERT_EQ(std::isnan(c.value()), std::isnan(ref.value()));
        continue;
      }
      ASSERT_LE(std::fabs(c.value() - ref.value()), c.err() + ref.err()) << i << "," << j;
      worst = std::max(worst, c.err() / ref.err());
    }
  EXPECT_LE(worst, max_ratio);
  EXPECT_GT(worst, 1.0 - 1e-9);  // not degenerate: bounds were compared
}

TEST(Matmul, ExactOperandsGiveTheSumRuleWithinItsMargins) {
  for (const Arithmetic& ar : {Arithmetic{}, Arithmetic{.reduction_lanes = 32}, Arithmetic::float64()}) {
    const Case c = make_case(5, 7, 300);
    Eval<Bounded> e(c.values, ar);
    const auto a = e.matrix("a"), b = e.matrix("b").t();
    const Matrix<Bounded> got = e.matmul(a, b);
    // The margins (2^-50, (1 - k 2^-53)^-1, (1 + 2^-53) on the products) only, at any unit.
    expect_covers(got, a, b, c.k, ar, 1 + 1e-9);
  }
}

TEST(Matmul, OperandsWithErrorsAndTermsOfALongerReduction) {
  const Case c = make_case(4, 6, 50);
  const Arithmetic ar{};
  Eval<Bounded> e(c.values, ar);
  const auto a_in = e.input("a");
  const Bounded s = Bounded(3.0) / Bounded(7.0, 0.0, &ar);  // an inexact scale: every element carries an error
  const Matrix<Bounded> sa = e.matrix(c.m, c.k, [&](std::int64_t i, std::int64_t l) { return s * a_in(i, l); });
  const auto b = e.matrix("b").t();
  expect_covers(e.matmul(sa, b), sa, b, c.k, ar, 1 + 1e-6);
  // As part of a longer reduction: at least the k-term bound.
  const Matrix<Bounded> longer = e.matmul(sa, b, c.k + 20), plain = e.matmul(sa, b);
  EXPECT_GT(longer(0, 0).err(), plain(0, 0).err());
}

TEST(Matmul, NonFiniteOperandsTakeTheElementRules) {
  Case c = make_case(3, 4, 20);
  c.values.inputs["a"][5] = std::numeric_limits<double>::infinity();  // row 0
  const Arithmetic ar{};
  Eval<Bounded> e(c.values, ar);
  const auto a = e.matrix("a"), b = e.matrix("b").t();
  const Matrix<Bounded> got = e.matmul(a, b);
  for (std::int64_t j = 0; j < c.n; ++j) {
    const Bounded ref = Bounded::sum(
        c.k, [&](std::int64_t l) { return a(0, l) * b(l, j); }, ar);
    EXPECT_EQ(std::isfinite(got(0, j).value()), std::isfinite(ref.value()));
    EXPECT_EQ(got(0, j).err(), ref.err());
  }
  expect_covers(Matrix<Bounded>(got), a, b, c.k, ar, std::numeric_limits<double>::infinity());
}

// Inputs (exact operands, whose X comes from the values' pass): every output whose element rules
// give a non-finite value or bound is theirs exactly; the others are bounded at least as widely,
// marked may_overflow wherever the rules mark it.
void expect_element_rules_where_not_finite(const OpValues& values, std::int64_t terms, std::size_t want_taken) {
  const Arithmetic ar{};
  Eval<Bounded> e(values, ar);
  const auto a = e.matrix("a"), b = e.matrix("b").t();
  const Matrix<Bounded> got = e.matmul(a, b, terms);
  std::size_t taken = 0;
  for (std::int64_t i = 0; i < got.rows(); ++i)
    for (std::int64_t j = 0; j < got.cols(); ++j) {
      const Bounded ref = Bounded::sum(
          a.cols(), [&](std::int64_t l) { return a(i, l) * b(l, j); }, ar, terms);
      const Bounded& c = got(i, j);
      if (!std::isfinite(ref.value()) || !std::isfinite(ref.err())) {
        ++taken;
        EXPECT_TRUE(std::bit_cast<std::uint64_t>(c.value()) == std::bit_cast<std::uint64_t>(ref.value()) ||
                    (std::isnan(c.value()) && std::isnan(ref.value())))
            << i << "," << j << ": " << c.value() << " against " << ref.value();
        EXPECT_TRUE(c.err() == ref.err() || (std::isnan(c.err()) && std::isnan(ref.err()))) << i << "," << j;
        EXPECT_EQ(c.may_overflow(), ref.may_overflow()) << i << "," << j;
        continue;
      }
      EXPECT_GE(c.err(), ref.err()) << i << "," << j;
      EXPECT_LE(std::fabs(c.value() - ref.value()), c.err() + ref.err()) << i << "," << j;
      if (ref.may_overflow()) {
        EXPECT_TRUE(c.may_overflow()) << i << "," << j;
      }
    }
  EXPECT_EQ(taken, want_taken);
}

TEST(Matmul, InputsThatReachNonFiniteTakeTheElementRules) {
  Case c = make_case(4, 5, 6);  // a [4, 6], b [5, 6]
  auto& a = c.values.inputs["a"];
  auto& b = c.values.inputs["b"];
  a[1 * 6 + 3] = std::numeric_limits<double>::infinity();  // row 1: Inf * 0 at column 0 (NaN), Inf elsewhere
  b[0 * 6 + 3] = 0.0;
  b[2 * 6 + 4] = std::numeric_limits<double>::quiet_NaN();  // column 2: NaN in every row
  expect_element_rules_where_not_finite(c.values, 0, 5 + 3);
  // -Inf as part of a longer reduction (`terms` > k).
  a[1 * 6 + 3] = -std::numeric_limits<double>::infinity();
  expect_element_rules_where_not_finite(c.values, 9, 5 + 3);

  // Finite products whose magnitudes overflow though they cancel (v = 0, X = 2^1024): the rules';
  // products past float32's range (2^501, marked may_overflow) and ones that underflow in double
  // (2^-1100): bounded.
  Case big = make_case(2, 2, 2);
  big.values.inputs["a"] = {0x1p1000, 0x1p1000, 0x1p-600, 0x1p-600};
  big.values.inputs["b"] = {0x1p23, -0x1p23, 0x1p-500, 0x1p-500};
  expect_element_rules_where_not_finite(big.values, 0, 1);
}

TEST(Matmul, DoubleAndMultiprecisionAgreeWithinTheFloat64Bound) {
  const Case c = make_case(6, 5, 400);
  const Arithmetic ar = Arithmetic::float64();
  Eval<double> d(c.values, ar);
  Eval<Bounded> bd(c.values, ar);
  const Matrix<double> got = d.matmul(d.matrix("a"), d.matrix("b").t());
  const Matrix<Bounded> bound = bd.matmul(bd.matrix("a"), bd.matrix("b").t());
  for (std::int64_t i = 0; i < c.m; ++i)
    for (std::int64_t j = 0; j < c.n; ++j) {
      long double exact = 0;  // float32 products, exact in double; their sum to 64 bits suffices here
      for (std::int64_t l = 0; l < c.k; ++l)
        exact += static_cast<long double>(c.values.inputs.at("a")[static_cast<std::size_t>(i * c.k + l)]) *
                 c.values.inputs.at("b")[static_cast<std::size_t>(j * c.k + l)];
      EXPECT_LE(std::fabs(static_cast<long double>(got(i, j)) - exact), bound(i, j).err());
    }
}

// The values are Eval::sum's, bit for bit: the double oracle's (the same on every machine, whatever
// its BLAS) and Bounded's.
void expect_ascending(const Case& c) {
  const Arithmetic ar{};
  Eval<double> d(c.values, ar);
  Eval<Bounded> bd(c.values, ar);
  const auto a = d.matrix("a"), b = d.matrix("b").t();
  const Matrix<double> got = d.matmul(a, b);
  const auto ba = bd.matrix("a"), bb = bd.matrix("b").t();
  const Matrix<Bounded> bound = bd.matmul(ba, bb);
  // b stored as it is read (not transposed), a Matrix operand.
  const Matrix<double> b_rows = d.matrix(c.k, c.n, [&](std::int64_t l, std::int64_t j) { return b(l, j); });
  const Matrix<double> got_rows = d.matmul(a, b_rows);
  for (std::int64_t i = 0; i < c.m; ++i)
    for (std::int64_t j = 0; j < c.n; ++j) {
      const double plain = d.sum(c.k, [&](std::int64_t l) { return a(i, l) * b(l, j); });
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got(i, j)), std::bit_cast<std::uint64_t>(plain)) << i << "," << j;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(bound(i, j).value()), std::bit_cast<std::uint64_t>(plain));
      EXPECT_EQ(std::bit_cast<std::uint64_t>(got_rows(i, j)), std::bit_cast<std::uint64_t>(plain));
    }
}

// Shapes: one task of the ascending kernel (a panel of 32 columns and part of one), and tasks over
// parity's pool.
TEST(Matmul, ValuesAreTheAscendingSumBitForBit) {
  for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{7, 9, 513}, std::array<std::int64_t, 3>{40, 33, 600}})
    expect_ascending(make_case(m, n, k));
}

// Two products as parts of one reduction of k + r terms (Eval::parts) against Bounded::sum over
// all k + r terms: the same value (ascending, parts in order, where r = 1), E at least the rule's, and the
// same may_overflow mark - from the terms' magnitudes, not |v| + 2E.
void expect_parts_like_one_sum(const OpValues& values, const Arithmetic& ar) {
  Eval<Bounded> e(values, ar);
  const auto x = e.matrix("x"), W = e.matrix("W"), A = e.matrix("A"), B = e.matrix("B");
  const std::int64_t K = x.cols(), r = A.rows();
  const Matrix<Bounded> h = e.matmul(x, A.t());
  const Matrix<Bounded> base = e.matmul(x, W.t(), K + r), low = e.matmul(h, B.t(), K + r);
  for (std::int64_t t = 0; t < x.rows(); ++t)
    for (std::int64_t n = 0; n < W.rows(); ++n) {
      const Bounded got = e.parts(base(t, n), low(t, n));
      const Bounded rule = Bounded::sum(
          K + r, [&](std::int64_t i) { return i < K ? x(t, i) * W(n, i) : h(t, i - K) * B(n, i - K); }, ar);
      // One low-rank term: the chain's order exactly; more: parts adds their sum in one addition.
      if (r == 1) {
        EXPECT_EQ(got.value(), rule.value()) << t << "," << n;
      }
      EXPECT_LE(std::fabs(got.value() - rule.value()), got.err() + rule.err()) << t << "," << n;
      EXPECT_GE(got.err(), rule.err()) << t << "," << n;
      EXPECT_EQ(got.may_overflow(), rule.may_overflow()) << t << "," << n;
    }
}

OpValues lora_values(std::vector<double> x, std::vector<double> W, std::vector<double> A, std::vector<double> B,
                     std::int64_t T, std::int64_t N, std::int64_t K, std::int64_t r) {
  OpValues v;
  v.inputs = {{"x", std::move(x)}, {"W", std::move(W)}, {"A", std::move(A)}, {"B", std::move(B)}};
  v.shapes = {{"x", {T, K}}, {"W", {N, K}}, {"A", {r, K}}, {"B", {N, r}}};
  return v;
}

TEST(Matmul, PartsOfOneReductionMarkOverflowAsTheSumRule) {
  // float32 lora_forward at K = 2, r = 1, s = 1: x W^T = 2^126 - 2^126 = 0, but a one-chain order
  // 2^126 + 1.5 2^127 (+ -2^126) reaches 2^128: Inf. The sum rule marks it; so must parts().
  const Arithmetic ar{};
  const OpValues over = lora_values({0x1p64, 0x1p64}, {0x1p62, -0x1p62}, {1, 0}, {1.5 * 0x1p63}, 1, 1, 2, 1);
  expect_parts_like_one_sum(over, ar);
  Eval<Bounded> e(over, ar);
  const auto x = e.matrix("x");
  const Matrix<Bounded> h = e.matmul(x, e.matrix("A").t());
  const Bounded y = e.parts(e.matmul(x, e.matrix("W").t(), 3)(0, 0), e.matmul(h, e.matrix("B").t(), 3)(0, 0));
  EXPECT_EQ(y.value(), 1.5 * 0x1p127);
  EXPECT_TRUE(y.may_overflow());
  // Ordinary data, both arithmetics: no mark, the same value.
  const std::int64_t T = 3, N = 4, K = 40, r = 5;
  for (const Arithmetic& a : {Arithmetic{}, Arithmetic::float64()})
    expect_parts_like_one_sum(
        lora_values(testing::gaussian_floats(T * K, 3, 1.0), testing::gaussian_floats(N * K, 4, 0.05),
                    testing::gaussian_floats(r * K, 5, 0.05), testing::gaussian_floats(N * r, 6, 0.05), T, N, K, r),
        a);
}

// An output element that reads a bad operand element takes Bounded::sum with the same `terms`.
TEST(Matmul, FallbackElementsKeepTheirTerms) {
  const Arithmetic ar{};
  OpValues v = lora_values({0x1p64, 0x1p64}, {0x1p62, -0x1p62}, {1, 0}, {1.5 * 0x1p63}, 1, 1, 2, 1);
  Eval<Bounded> e(v, ar);
  const auto x = e.matrix("x"), W = e.matrix("W");
  // x with an element that may overflow (a Bounded operand marked so): the row falls back.
  const Matrix<Bounded> bad_x =
      e.matrix(1, 2, [&](std::int64_t, std::int64_t k) { return k == 0 ? Bounded(0x1p64, 0.0, &ar, true) : x(0, k); });
  const Matrix<Bounded> base = e.matmul(bad_x, W.t(), 3);
  const Bounded rule = Bounded::sum(
      2, [&](std::int64_t k) { return bad_x(0, k) * W(0, k); }, ar, 3);
  EXPECT_EQ(base(0, 0).value(), rule.value());
  EXPECT_EQ(base(0, 0).err(), rule.err());
  EXPECT_EQ(base(0, 0).may_overflow(), rule.may_overflow());
  // Its depth is the 3-term reduction's, not the 2 products': the rule's E with `terms` = 3.
  EXPECT_GT(rule.err(), Bounded::sum(
                            2, [&](std::int64_t k) { return bad_x(0, k) * W(0, k); }, ar)
                            .err());
}

}  // namespace
}  // namespace parity::ops
