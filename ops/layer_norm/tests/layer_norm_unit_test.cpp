// parity's LayerNorm kernel against its documented contract (layer_norm_kernel.cuh): the mean and
// the squared deviations in the 256-lane order, whatever T; on hand-made cases of activations
// offset 100 times their spread, with and without the affine, the kernel within its derived
// bound while the one-pass-variance and eps probes are not; an unbiased variance outside it on
// a short row.
#include <gtest/gtest.h>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/kernels/tests/lane_order.hpp>
#include <parity/ops/layer_norm/layer_norm_kernel.cuh>
#include <parity/ops/op_families.hpp>

namespace parity::ops::layer_norm {
namespace {

const testing::OpUnderTest op{"layer_norm"};

Case make_case(std::int64_t T, std::int64_t D, double affine, double scale, std::uint64_t seed) {
  return testing::case_of(
      "layer_norm", seed, {{"T", T}, {"D", D}},
      {{"eps", static_cast<float>(1e-5)}, {"affine", affine}, {"dtype.act", 32}, {"scale.x", scale}});
}

TEST(LayerNormKernel, MeanAndVarianceAreTheDocumentedLaneOrder) {
  for (const std::int64_t D : {1, 255, 256, 257, 1000, 4097}) {
    std::vector<float> row(static_cast<std::size_t>(D));
    for (std::int64_t i = 0; i < D; ++i)
      row[static_cast<std::size_t>(i)] = 1.0f + static_cast<float>(i % 97) * 0x1p-10f;
    const auto at = [&](std::int64_t i) { return row[static_cast<std::size_t>(i)]; };
    const float mean = kernels::lane_order_sum(at, D) / static_cast<float>(D);
    const float var = kernels::lane_order_sum([&](std::int64_t i) { return (at(i) - mean) * (at(i) - mean); }, D) /
                      static_cast<float>(D);
    for (const std::int64_t T : {1, 300}) {
      EXPECT_EQ(Standard::mean(row.data(), D, T), mean) << "D = " << D;
      EXPECT_EQ(Standard::var(row.data(), D, mean), var) << "D = " << D;
    }
  }
}

TEST(LayerNormKernel, WithinItsBoundWhereTheOnePassAndEpsProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u})
    for (const double affine : {0.0, 1.0}) {
      const Case c = make_case(4, 300, affine, 1e-2, seed);
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds()) << affine;
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-one-pass-variance")).fails()) << affine;
      EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-eps-after-sqrt")).fails()) << affine;
    }
}

TEST(LayerNormKernel, AnUnbiasedVarianceIsOutsideTheBoundOfAShortRow) {
  const Case c = make_case(2, 4, 0, 1.0, 1);
  EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds());
  EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-unbiased-variance")).fails());
}

}  // namespace
}  // namespace parity::ops::layer_norm
