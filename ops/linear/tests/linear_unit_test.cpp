// parity's linear kernel against its documented contract (linear_kernel.cuh): each dot product in
// the 256-lane order, whatever T; on hand-made cases with and without a bias, the kernel within
// its derived bound while the K-tail and bf16-epilogue probes are not; and a case of T = 4096,
// K = 8192 refused before anything is allocated (reach_elements, reach_work), while generated cases
// drawn at those extents are cut to fit.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <parity/core/error.hpp>
#include <parity/core/tests/input_error_assertions.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/kernels/tests/lane_order.hpp>
#include <parity/ops/linear/linear_kernel.cuh>
#include <parity/ops/op_families.hpp>

namespace parity::ops::linear {
namespace {

const testing::OpUnderTest op{"linear"};

Case make_case(std::int64_t T, std::int64_t N, std::int64_t K, double bias, std::uint64_t seed) {
  return testing::case_of("linear", seed, {{"T", T}, {"N", N}, {"K", K}},
                          {{"bias", bias}, {"dtype.act", 32}, {"scale.x", 1e-3}});
}

TEST(LinearKernel, DotIsTheDocumentedLaneOrder) {
  for (const std::int64_t K : {1, 255, 256, 257, 1000, 4097}) {
    std::vector<float> x(static_cast<std::size_t>(K)), w(static_cast<std::size_t>(K));
    for (std::int64_t k = 0; k < K; ++k) {
      x[static_cast<std::size_t>(k)] = 1.0f + static_cast<float>(k % 97) * 0x1p-10f;
      w[static_cast<std::size_t>(k)] = 0.5f - static_cast<float>(k % 31) * 0x1p-9f;
    }
    const float want = kernels::lane_order_sum(
        [&](std::int64_t k) { return x[static_cast<std::size_t>(k)] * w[static_cast<std::size_t>(k)]; }, K);
    for (const std::int64_t T : {1, 300}) EXPECT_EQ(Standard::dot(x.data(), w.data(), K, T), want) << "K = " << K;
  }
}

TEST(LinearKernel, WithinItsBoundWhereTheTailAndEpilogueProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    for (const double bias : {0.0, 1.0}) {
      const Case c = make_case(4, 5, 300, bias, seed);
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds()) << bias;
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-k-tail")).fails()) << bias;
    }
    EXPECT_TRUE(forward_accuracy(op.def(), make_case(4, 5, 300, 1, seed), *op.make("probe-bf16-before-bias")).fails());
  }
}

// Found at 10x the default cases: an Inf of x beside W's largest bf16 in one dot product. The
// exact sum is Inf; in float32 the other product may overflow to -Inf, and Inf - Inf is NaN.
TEST(LinearKernel, AnInfBesideAProductThatMayOverflowMayGiveNaN) {
  Case c = make_case(13, 1, 6, 0, 0);
  c.params["dtype.act"] = 16;
  c.params["scale.x"] = 1.0;
  c.patches = {{"x", 73, 0x7f80, DType::bf16}, {"W", 2, 0x7f7f, DType::bf16}};
  const Verdict v = forward_accuracy(op.def(), c, *op.make("parity-host"));
  EXPECT_TRUE(v.holds()) << v.detail;
}

TEST(LinearFamily, ALargeCaseIsRefusedNamingItsDims) {
  // x: 8193 x 8192 > 2^26 elements
  ASSERT_TRUE(throws_input_error([&] { check_contract(op.def().decl, make_case(8192, 64, 8192, 1, 1)); }, "case.dims"))
      << "T = 8192, K = 8192 accepted";
}

// A reach case with W [2048, 2048] beyond the oracle's element cap: W is the case's whatever the
// rows, so forward_accuracy checks the rows whose work fits (not a discard), and holds there.
TEST(LinearFamily, AccuracyChecksRowsOfAReachCaseWithAWideWeight) {
  const Case c = make_case(15, 2048, 2048, 0, 1);
  ASSERT_GT(c.dim("N") * c.dim("K"), op.def().decl.max_elements);
  const std::vector<std::int64_t> rows = accuracy_rows(op.def().decl, c);
  ASSERT_FALSE(rows.empty());
  EXPECT_LT(rows.size(), 15u);
  const Verdict v = forward_accuracy(op.def(), c, *op.make("parity-host"));
  EXPECT_TRUE(v.holds()) << v.detail;
  EXPECT_EQ(v.metrics.at("rows_checked"), static_cast<double>(rows.size()));
}

RC_GTEST_PROP(LinearFamily, GeneratedCasesStayWithinTheWorkCap, ()) {
  const Case c = *op_case(op.def().decl);
  check_contract(op.def().decl, c);
  RC_ASSERT((c.dim("T") + 1) * c.dim("N") * c.dim("K") <= reach_work_of(op.def().decl));  // reach cases' cap
}

}  // namespace
}  // namespace parity::ops::linear
