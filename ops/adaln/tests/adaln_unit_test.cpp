// parity's AdaLN kernel against its documented contract (adaln_kernel.cuh): the token's sums in
// the 256-lane order, whatever B and S; on hand-made cases of offset activations with a small
// spread, the kernel within its derived bound where the one-pass-variance and wrong-axis probes
// are not; the wrong-sample probe wrong exactly from B = 9 on, and caught there by
// rows_independent too (a sample alone reads its own scale and shift).
#include <gtest/gtest.h>

#include <parity/ops/adaln/adaln_kernel.cuh>
#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/kernels/tests/lane_order.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::adaln {
namespace {

const testing::OpUnderTest op{"adaln"};

Case tokens(std::int64_t B, std::int64_t S, std::int64_t D, std::uint64_t seed, double scale = 1e-3) {
  return testing::case_of("adaln", seed, {{"B", B}, {"S", S}, {"D", D}},
                          {{"eps", static_cast<float>(1e-6)}, {"dtype.act", 32}, {"scale.x", scale}});
}

TEST(AdaLNKernel, TheNormIsTheDocumentedTwoPassLaneOrder) {
  for (const std::int64_t D : {1, 255, 257, 1000}) {
    const std::int64_t S = 2;
    std::vector<float> x(static_cast<std::size_t>(S * D)), n(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = 1.0f + static_cast<float>(k % 89) * 0x1p-9f;
    Standard::normalise(x.data(), S, D, 1e-6f, n.data());
    for (std::int64_t s = 0; s < S; ++s) {
      const float* row = x.data() + s * D;
      const float mean = kernels::lane_order_sum([row](std::int64_t i) { return row[i]; }, D) / static_cast<float>(D);
      const float squares =
          kernels::lane_order_sum([row, mean](std::int64_t i) { return (row[i] - mean) * (row[i] - mean); }, D);
      const float inv = 1.0f / std::sqrt(squares / static_cast<float>(D) + 1e-6f);
      for (std::int64_t i = 0; i < D; ++i)
        ASSERT_EQ(n[s * D + i], (row[i] - mean) * inv) << "D = " << D << " i = " << i;
    }
  }
}

TEST(AdaLNKernel, WithinItsBoundWhereTheVarianceAndAxisProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = tokens(2, 3, 300, seed);
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-one-pass-variance")).fails()) << seed;
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-wrong-axis")).fails()) << seed;
    EXPECT_TRUE(forward_accuracy(op.def(), c, *op.make("probe-scale-not-one-plus")).fails()) << seed;
  }
}

TEST(AdaLNKernel, TheWrongSampleProbeIsWrongExactlyFromNineSamples) {
  for (const std::int64_t B : {1, 8, 9, 16}) {
    const Case c = tokens(B, 2, 16, 3, 1.0);
    EXPECT_EQ(forward_accuracy(op.def(), c, *op.make("probe-wrong-sample")).fails(), B > 8) << "B = " << B;
    EXPECT_EQ(rows_independent(op.def(), c, *op.make("probe-wrong-sample")).fails(), B > 8) << "B = " << B;
  }
}

}  // namespace
}  // namespace parity::ops::adaln
