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
#include <parity/ops/op_families.hpp>

namespace parity::ops::adaln {
namespace {

const gen::Family& family() { return find_op_family("adaln"); }

const OpDef& def() { return testing::def_of(family()); }

Case tokens(std::int64_t B, std::int64_t S, std::int64_t D, std::uint64_t seed, double scale = 1e-3) {
  Case c;
  c.family = "adaln";
  c.seed = seed;
  c.dims = {{"B", B}, {"S", S}, {"D", D}};
  c.params = {{"eps", static_cast<float>(1e-6)}, {"dtype.act", 32}, {"scale.x", scale}};
  return c;
}

std::unique_ptr<OpSubject> make(const std::string& name) { return testing::make_subject(family(), name); }

// The documented order: lane l sums terms l, l + 256, ... from 0, then the pairwise fold.
template <class Term>
float documented_sum(const Term& term, std::int64_t n) {
  std::vector<float> lanes(kLanes, 0.0f);
  for (std::int64_t i = 0; i < n; ++i) lanes[static_cast<std::size_t>(i % kLanes)] += term(i);
  for (int stride = kLanes / 2; stride >= 1; stride /= 2)
    for (int j = 0; j < stride; ++j) lanes[static_cast<std::size_t>(j)] += lanes[static_cast<std::size_t>(j + stride)];
  return lanes[0];
}

TEST(AdaLNKernel, TheNormIsTheDocumentedTwoPassLaneOrder) {
  for (const std::int64_t D : {1, 255, 257, 1000}) {
    const std::int64_t S = 2;
    std::vector<float> x(static_cast<std::size_t>(S * D)), n(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = 1.0f + static_cast<float>(k % 89) * 0x1p-9f;
    Standard::normalise(x.data(), S, D, 1e-6f, n.data());
    for (std::int64_t s = 0; s < S; ++s) {
      const float* row = x.data() + s * D;
      const float mean = documented_sum([row](std::int64_t i) { return row[i]; }, D) / static_cast<float>(D);
      const float squares =
          documented_sum([row, mean](std::int64_t i) { return (row[i] - mean) * (row[i] - mean); }, D);
      const float inv = 1.0f / std::sqrt(squares / static_cast<float>(D) + 1e-6f);
      for (std::int64_t i = 0; i < D; ++i)
        ASSERT_EQ(n[s * D + i], (row[i] - mean) * inv) << "D = " << D << " i = " << i;
    }
  }
}

TEST(AdaLNKernel, WithinItsBoundWhereTheVarianceAndAxisProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = tokens(2, 3, 300, seed);
    EXPECT_TRUE(forward_accuracy(def(), c, *make("parity-host")).holds());
    EXPECT_TRUE(forward_accuracy(def(), c, *make("probe-one-pass-variance")).fails()) << seed;
    EXPECT_TRUE(forward_accuracy(def(), c, *make("probe-wrong-axis")).fails()) << seed;
    EXPECT_TRUE(forward_accuracy(def(), c, *make("probe-scale-not-one-plus")).fails()) << seed;
  }
}

TEST(AdaLNKernel, TheWrongSampleProbeIsWrongExactlyFromNineSamples) {
  for (const std::int64_t B : {1, 8, 9, 16}) {
    const Case c = tokens(B, 2, 16, 3, 1.0);
    EXPECT_EQ(forward_accuracy(def(), c, *make("probe-wrong-sample")).fails(), B > 8) << "B = " << B;
    EXPECT_EQ(rows_independent(def(), c, *make("probe-wrong-sample")).fails(), B > 8) << "B = " << B;
  }
}

}  // namespace
}  // namespace parity::ops::adaln
