// parity's RMSNorm kernels against their documented contracts (rms_norm_kernel.cuh): the row sum in
// the 256-lane order, whatever T; and on one hand-made case of small activations, the kernel within
// its derived bound while the rsqrt and eps probes are not, and the bound of the kernel's declared
// lane order no looser than that of any order; a failure's text names the case's parameters, which
// the one-line case summary leaves out. The backward: its reference is the gradient of the forward
// reference (central differences of the double oracle), its kernel within its derived bound on rows
// of several terms per lane where the mean-term and eps probes are not, and its split-dot probe a
// batch variance.
#include <gtest/gtest.h>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/gradient_check.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/kernels/tests/lane_order.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/ops/rms_norm/rms_norm_kernel.cuh>

namespace parity::ops::rms_norm {
namespace {

const testing::OpUnderTest op{"rms_norm"}, backward{"rms_norm_backward"};

Case small_activations(std::int64_t T, std::int64_t D, std::uint64_t seed, const char* family = "rms_norm",
                       double scale = 1e-3) {
  return testing::case_of(family, seed, {{"T", T}, {"D", D}},
                          {{"eps", static_cast<float>(1e-6)}, {"dtype.act", 32}, {"scale.x", scale}});
}

TEST(RmsNormKernel, RowSumIsTheDocumentedLaneOrder) {
  for (const std::int64_t D : {1, 255, 256, 257, 1000, 4097}) {
    std::vector<float> row(static_cast<std::size_t>(D));
    for (std::int64_t i = 0; i < D; ++i)
      row[static_cast<std::size_t>(i)] = 1.0f + static_cast<float>(i % 97) * 0x1p-10f;
    const float want = kernels::lane_order_sum(
        [&](std::int64_t i) { return row[static_cast<std::size_t>(i)] * row[static_cast<std::size_t>(i)]; }, D);
    for (const std::int64_t T : {1, 300}) EXPECT_EQ(Standard::row_sum(row.data(), D, T), want) << "D = " << D;
  }
}

TEST(RmsNormKernel, WithinItsBoundWhereTheRsqrtAndEpsProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = small_activations(4, 300, seed);
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-rsqrt-approx")).fails());
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-eps-after-sqrt")).fails());
  }
}

TEST(RmsNormFamily, AFailureNamesTheCaseParameters) {
  const Verdict v = op.family().check("probe-rsqrt-approx", "forward_accuracy", small_activations(4, 300, 1));
  ASSERT_TRUE(v.fails());
  EXPECT_NE(v.detail.find("dtype.act=f32 eps=9.99999997e-07 scale.x=0.001"), std::string::npos) << v.detail;
}

TEST(RmsNormKernel, DeclaredLaneOrderBoundIsNoLooserThanAnyOrder) {
  const OpProblem p = materialise(op.def().decl, small_activations(2, 4096, 7));
  const auto kernel = op.def().bounded(p.values, op.make("parity-host")->arithmetic());
  const auto any = op.def().bounded(p.values, Arithmetic{});
  const auto& a = kernel.err.at("y");
  const auto& b = any.err.at("y");
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_LE(a[i], b[i]) << i;
}

// dx is the gradient of y (testing::gradient_mismatches, the step relative to x's scale); eps 0
// too.
TEST(RmsNormReference, TheBackwardIsTheGradientOfTheForward) {
  for (const double scale : {1.0, 1e-3})
    for (const double eps : {static_cast<double>(static_cast<float>(1e-6)), 0.0}) {
      Case c = small_activations(3, 7, 11, "rms_norm_backward", scale);
      c.params["eps"] = eps;
      for (const std::string& fault :
           testing::gradient_mismatches(op.def(), backward.def(), c, {{"y", "dy"}}, {"x"}, 1e-6 * scale))
        ADD_FAILURE() << fault;
    }
}

// D = 1000: four terms per lane in both sums, then the fold.
TEST(RmsNormBackwardKernel, WithinItsBoundWhereTheMeanTermAndEpsProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = small_activations(4, 1000, seed, "rms_norm_backward");
    EXPECT_TRUE(forward_accuracy(backward.def(), c, *backward.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(backward.def(), c, *backward.make("probe-dy-in-mean")).fails());
    EXPECT_TRUE(forward_accuracy(backward.def(), c, *backward.make("probe-eps-dropped")).fails());
    EXPECT_TRUE(forward_accuracy(backward.def(), c, *backward.make("probe-bf16-g")).fails());
  }
}

// A batch of 32 rows is not split, a row alone is: the split-dot plan shows as rows_independent.
TEST(RmsNormBackwardKernel, TheSplitDotProbeDependsOnTheBatch) {
  const Case c = small_activations(32, 1024, 5, "rms_norm_backward", 1.0);
  EXPECT_TRUE(rows_independent(backward.def(), c, *backward.make("parity-host")).holds());
  EXPECT_TRUE(rows_independent(backward.def(), c, *backward.make("probe-split-dot")).fails());
}

}  // namespace
}  // namespace parity::ops::rms_norm
