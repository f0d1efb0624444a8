// Eval::matmul in Filtered (matmul.hpp) against the same products in Bounded, past 2^20
// multiply-adds (parity's kernel or the BLAS): for two inputs, the product with its parts' magnitudes
// (oracles/unordered_gemm.hpp: parity's kernel for x W^T, BLAS products over blocks of terms in the
// other storage order; non-negative ones, where lo is tight) and Cauchy-Schwarz;
// an operand that carries errors, and its transpose; two such operands; a row Bounded forms by the
// element rules; a part of a longer reduction; under an any-order and a laned arithmetic. The value
// within 2d of Bounded's ascending one, lo no larger than Bounded's E.
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
// Non-negative inputs (K no multiple of a vector's lanes: the kernel's zero-padded tail): there
// lo's X from the parts' |partial sums| is X itself, lo within a few roundings of Bounded's E (a lo
// too large by more than Bounded's own margins fails; unordered_gemm_test holds the parts' bound,
// filtered_product_rules_test lo at the largest sums that bound allows).
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
  // a with a(0, 0) = a(0, 1) = 2^70: their product 2^140 may overflow float32 (Bounded sends row 0
  // of a product with it to the element rules) and is finite in double.
  v.inputs["a_big"] = v.inputs["a"];
  v.inputs["a_big"][0] = v.inputs["a_big"][1] = 0x1p70;
  v.shapes["a_big"] = {kM, kK};
  return v;
}

// x(i, l) * x(i, (l + 1) mod K) of input x: an operand that carries an error in every real but double.
template <class R>
Matrix<R> operand_with_errors(const Eval<R>& e, const char* x = "a") {
  const auto a = e.input(x);
  const std::int64_t rows = e.matrix(x).rows();
  return e.matrix(rows, kK, [&](std::int64_t i, std::int64_t l) { return a(i, l) * a(i, (l + 1) % kK); });
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

TEST(FilteredMatmul, ProductsPastTheKernelThresholdAgainstBounded) {
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
    // Both operands with errors: lo's Y from both operands' lo.
    const Matrix<Filtered> qf = operand_with_errors(f, "b");
    const Matrix<Bounded> qb = operand_with_errors(b, "b");
    expect_filtered_within(f.matmul(pf, qf.t()), b.matmul(pb, qb.t()), "two operands with errors");
    // A row Bounded takes through the element rules (an element that may overflow float32).
    const Matrix<Filtered> bigf = operand_with_errors(f, "a_big");
    const Matrix<Bounded> bigb = operand_with_errors(b, "a_big");
    ASSERT_TRUE(bigb(0, 0).may_overflow());
    expect_filtered_within(f.matmul(bigf, qf.t()), b.matmul(bigb, qb.t()), "a row of the element rules");
    // As part of a longer reduction (Eval::matmul's terms): a deeper sum, a larger bound.
    expect_filtered_within(f.matmul(f.matrix("a"), f.matrix("b").t(), 2 * kK),
                           b.matmul(b.matrix("a"), b.matrix("b").t(), 2 * kK), "a part");
  }
}

}  // namespace
}  // namespace parity::ops
