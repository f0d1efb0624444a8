// Eval::matmul in Filtered (matmul.hpp) against the same products in Bounded, at sizes that take
// the BLAS (past 2^20 multiply-adds): for two inputs, the product in blocks of terms (each block's
// operands offset in both storage orders; non-negative ones, where lo is tight) and Cauchy-Schwarz; an operand
// that carries errors, and its transpose; a part of a longer reduction; under an any-order and a
// laned arithmetic. The value within 2d of Bounded's ascending one, lo no larger than Bounded's E.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <parity/ops/framework/op_reference.hpp>
#include <parity/ops/framework/tests/gaussian_floats.hpp>

namespace parity::ops {
namespace {

constexpr std::int64_t kM = 40, kN = 600, kK = 4096;
// b stored K x N (not transposed): its blocks of terms are blocks of rows.
constexpr std::int64_t kWide = 2100;
// Non-negative inputs with K no multiple of the four blocks of terms: there lo's X from the blocks'
// |partial sums| is X itself, lo within a few roundings of Bounded's E (a lo too large fails).
constexpr std::int64_t kOddK = 1027;

std::vector<double> magnitudes(std::vector<double> v) {
  for (double& x : v) x = std::fabs(x);
  return v;
}

OpValues filtered_test_values() {
  OpValues v;
  v.inputs["a"] = testing::gaussian_floats(static_cast<std::size_t>(kM * kK), 1, 1.0);
  v.inputs["b"] = testing::gaussian_floats(static_cast<std::size_t>(kN * kK), 2, 0.05);
  v.shapes["a"] = {kM, kK};
  v.shapes["b"] = {kN, kK};
  v.inputs["a_t"] = testing::gaussian_floats(static_cast<std::size_t>(kK * kM), 3, 1.0);  // a stored K x M
  v.inputs["b_k"] = testing::gaussian_floats(static_cast<std::size_t>(kK * kWide), 4, 0.05);
  v.shapes["a_t"] = {kK, kM};
  v.shapes["b_k"] = {kK, kWide};
  v.inputs["a_pos"] = magnitudes(testing::gaussian_floats(static_cast<std::size_t>(kM * kOddK), 5, 1.0));
  v.inputs["b_pos"] = magnitudes(testing::gaussian_floats(static_cast<std::size_t>(kN * kOddK), 6, 0.05));
  v.shapes["a_pos"] = {kM, kOddK};
  v.shapes["b_pos"] = {kN, kOddK};
  return v;
}

// a(i, l) * a(i, (l + 1) mod K): an operand that carries an error in every real but double.
template <class R>
Matrix<R> operand_with_errors(const Eval<R>& e) {
  const auto a = e.input("a");
  return e.matrix(kM, kK, [&](std::int64_t i, std::int64_t l) { return a(i, l) * a(i, (l + 1) % kK); });
}

void expect_filtered_within(const Matrix<Filtered>& f, const Matrix<Bounded>& b, const char* what) {
  ASSERT_EQ(f.rows(), b.rows());
  ASSERT_EQ(f.cols(), b.cols());
  std::int64_t decidable = 0;
  for (std::size_t i = 0; i < f.data().size(); ++i) {
    const Filtered& x = f.data()[i];
    const Bounded& y = b.data()[i];
    ASSERT_LE(x.lo(), y.err()) << what << " " << i;
    ASSERT_TRUE(std::isfinite(x.dev())) << what << " " << i;
    ASSERT_LE(std::fabs(x.value() - y.value()), 2 * x.dev()) << what << " " << i;
    decidable += x.lo() > 0;
  }
  EXPECT_EQ(decidable, std::ssize(f.data())) << what << ": every lo positive, so the check compared something";
}

TEST(FilteredMatmul, BlasProductsAgainstBounded) {
  const OpValues v = filtered_test_values();
  for (const Arithmetic& ar : {Arithmetic{}, Arithmetic{.reduction_lanes = 32}}) {
    Eval<Filtered> f(v, ar);
    Eval<Bounded> b(v, ar);
    expect_filtered_within(f.matmul(f.matrix("a"), f.matrix("b").t()), b.matmul(b.matrix("a"), b.matrix("b").t()),
                           "inputs");
    expect_filtered_within(f.matmul(f.matrix("a_t").t(), f.matrix("b_k")),
                           b.matmul(b.matrix("a_t").t(), b.matrix("b_k")), "inputs in the other storage order");
    expect_filtered_within(f.matmul(f.matrix("a_pos"), f.matrix("b_pos").t()),
                           b.matmul(b.matrix("a_pos"), b.matrix("b_pos").t()), "non-negative inputs, odd K");
    const Matrix<Filtered> pf = operand_with_errors(f);
    const Matrix<Bounded> pb = operand_with_errors(b);
    expect_filtered_within(f.matmul(pf, f.matrix("b").t()), b.matmul(pb, b.matrix("b").t()), "an operand with errors");
    expect_filtered_within(f.matmul(f.matrix("b"), pf.t()), b.matmul(b.matrix("b"), pb.t()), "its transpose");
    // As part of a longer reduction (Eval::matmul's terms): a deeper sum, a larger bound.
    expect_filtered_within(f.matmul(f.matrix("a"), f.matrix("b").t(), 2 * kK),
                           b.matmul(b.matrix("a"), b.matrix("b").t(), 2 * kK), "a part");
  }
}

}  // namespace
}  // namespace parity::ops
