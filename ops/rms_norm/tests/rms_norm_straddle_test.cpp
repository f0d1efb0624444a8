// Output-straddling patches (ops/framework/op_straddle.hpp) on rms_norm: in bf16 and f16 (narrow
// inputs too) what each plan reports is what the patched Case gives; generated cases carry
// straddles and stay inside the contract.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <iostream>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/ops/framework/tests/straddle_distances.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>

namespace parity::ops {
namespace {

using testing::distances;

TEST(OpStraddle, OnRmsNormThePlanIsWhatThePatchedCaseGives) {
  const OpDef op = define_op<rms_norm::RmsNorm>();
  int targets = 0, placed = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed)
    for (const DType dt : {DType::bf16, DType::f16}) {
      Case c;
      c.family = "rms_norm";
      c.seed = seed;
      c.dims = {{"T", 2}, {"D", static_cast<std::int64_t>(8 + 50 * (seed % 5))}};
      c.params = {{"dtype.act", dtype_code(dt)}, {"eps", static_cast<float>(1e-6)}, {"scale.x", 1.0}};
      const StraddlePlan plan = straddle_patches(op, c, 4);
      const auto d = distances(op, c, plan);
      for (std::size_t i = 0; i < d.size(); ++i) {
        EXPECT_EQ(d[i], plan.targets[i].distance_ulps) << "seed " << seed;
        ++targets;
        placed += d[i] <= kStraddleUlps;
      }
    }
  std::cout << "rms_norm with narrow inputs: " << placed << " of " << targets << " targets within " << kStraddleUlps
            << " float32 ulps of their midpoint\n";
  EXPECT_GT(placed, 0);
}

RC_GTEST_PROP(OpStraddle, GeneratedCasesStayInsideTheContract, ()) {
  static const OpDef op = define_op<rms_norm::RmsNorm>();
  const Case c = *op_case(op);
  check_contract(op.decl, c);
  RC_TAG(c.patches.size() > 3 ? "straddled" : "few patches");
}

}  // namespace
}  // namespace parity::ops
