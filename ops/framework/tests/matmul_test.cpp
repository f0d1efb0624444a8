// Eval::matmul's products (matmul.hpp) against the element-by-element rules they stand for:
// in Bounded, the closed form from GEMMs is never below Bounded::sum over the same products and,
// with exact operands, within the derivation's margins of it; its value is within both bounds of
// the ascending double sum. Inputs are float32 values (exact products in double), and operands
// that carry errors (a Bounded matrix) and non-finite elements, which take the element rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>

namespace parity::ops {
namespace {

std::vector<double> floats(std::size_t n, std::uint32_t seed, double scale) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.0f, static_cast<float>(scale));
  std::vector<double> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

struct Case {
  std::int64_t m, n, k;
  OpValues values;
};

Case make_case(std::int64_t m, std::int64_t n, std::int64_t k) {
  Case c{m, n, k, {}};
  c.values.inputs["a"] = floats(static_cast<std::size_t>(m * k), 1, 1.0);
  c.values.inputs["b"] = floats(static_cast<std::size_t>(n * k), 2, 0.05);
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
    // float32's unit: the margins (2^-50, (1 - k 2^-53)^-1) only; float64's own: v's own error
    // gamma53_k X may exceed the rule's u X + gamma_{k-1} X by one u X.
    expect_covers(got, a, b, c.k, ar, ar.unit < 1e-10 ? 2.01 : 1 + 1e-9);
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

}  // namespace
}  // namespace parity::ops
