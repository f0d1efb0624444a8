// parity's RMSNorm kernel against its documented contract (rms_norm_arith.cuh): the row sum in
// the 256-lane order, whatever T; and on one hand-made case of small activations, the kernel
// within its derived bound while the rsqrt and eps probes are not, and the bound of the kernel's
// declared lane order no looser than that of any order; a failure's text names the case's
// parameters, which the one-line case summary leaves out.
#include <gtest/gtest.h>

#include <cmath>

#include <parity/ops/framework/op_checks.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/rms_norm/rms_norm_family.hpp>
#include <parity/ops/rms_norm/rms_norm_host.hpp>

namespace parity::ops::rms_norm {
namespace {

const OpDef& def() { return dynamic_cast<const OpFamily&>(family()).def(); }

Case small_activations(std::int64_t T, std::int64_t D, std::uint64_t seed) {
  Case c;
  c.family = "rms_norm";
  c.seed = seed;
  c.dims = {{"T", T}, {"D", D}};
  c.params = {{"eps", static_cast<float>(1e-6)}, {"dtype.act", 32}, {"scale.x", 1e-3}};
  return c;
}

std::unique_ptr<OpSubject> make(const std::string& name) {
  family().subjects();  // registers parity's own
  for (const auto& s : op_subjects("rms_norm"))
    if (s.name == name) return s.make();
  throw std::logic_error("no subject " + name);
}

TEST(RmsNormKernel, RowSumIsTheDocumentedLaneOrder) {
  for (const std::int64_t D : {1, 255, 256, 257, 1000, 4097}) {
    std::vector<float> row(static_cast<std::size_t>(D));
    for (std::int64_t i = 0; i < D; ++i) row[static_cast<std::size_t>(i)] = 1.0f + static_cast<float>(i % 97) * 0x1p-10f;
    std::vector<float> lanes(kLanes, 0.0f);
    for (std::int64_t i = 0; i < D; ++i) {
      float& s = lanes[static_cast<std::size_t>(i % kLanes)];
      s = s + row[static_cast<std::size_t>(i)] * row[static_cast<std::size_t>(i)];
    }
    for (int stride = kLanes / 2; stride >= 1; stride /= 2)
      for (int j = 0; j < stride; ++j) lanes[static_cast<std::size_t>(j)] += lanes[static_cast<std::size_t>(j + stride)];
    for (const std::int64_t T : {1, 300}) EXPECT_EQ(Standard::row_sum(row.data(), D, T), lanes[0]) << "D = " << D;
  }
}

TEST(RmsNormKernel, WithinItsBoundWhereTheRsqrtAndEpsProbesAreNot) {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = small_activations(4, 300, seed);
    EXPECT_TRUE(forward_accuracy(def(), c, *make("rlkernels-host")).holds());
    EXPECT_TRUE(forward_accuracy(def(), c, *make("probe-rsqrt-approx")).fails());
    EXPECT_TRUE(forward_accuracy(def(), c, *make("probe-eps-after-sqrt")).fails());
  }
}

TEST(RmsNormFamily, AFailureNamesTheCaseParameters) {
  const Verdict v = family().check("probe-rsqrt-approx", "forward_accuracy", small_activations(4, 300, 1));
  ASSERT_TRUE(v.fails());
  EXPECT_NE(v.detail.find("dtype.act=f32 eps=9.99999997e-07 scale.x=0.001"), std::string::npos) << v.detail;
}

TEST(RmsNormKernel, DeclaredLaneOrderBoundIsNoLooserThanAnyOrder) {
  const OpProblem p = materialise(def().decl, small_activations(2, 4096, 7));
  const auto kernel = def().bounded(p.values, make("rlkernels-host")->arithmetic());
  const auto any = def().bounded(p.values, Arithmetic{});
  const auto& a = kernel.err.at("y");
  const auto& b = any.err.at("y");
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_LE(a[i], b[i]) << i;
}

}  // namespace
}  // namespace parity::ops::rms_norm
