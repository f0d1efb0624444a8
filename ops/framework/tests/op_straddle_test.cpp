// Output-straddling patches (op_straddle.hpp): the midpoints of bf16 and f16; from float32
// inputs into a narrow output every target lands within kStraddleUlps of its midpoint; on
// rms_norm in bf16 and f16 (narrow inputs too) what each plan reports is what the patched Case
// gives; generated cases carry straddles and stay inside the contract.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>
#include <parity/ops/rms_norm/rms_norm_op.hpp>

namespace parity::ops {
namespace {

using testing::Scale;
using testing::scale_case;

// Each target's distance from its midpoint in the Case with the plan's patches appended, from
// the full (not one-row) reference.
std::vector<double> distances(const OpDef& op, Case c, const StraddlePlan& plan) {
  for (const Patch& p : plan.patches) c.patches.push_back(p);
  const OpProblem p = materialise(op.decl, c);
  const OutputValues out = op.oracle(p.values);
  std::vector<double> d;
  for (const Straddle& s : plan.targets)
    d.push_back(midpoint_distance_ulps(out.at(s.output).at(static_cast<std::size_t>(s.index)), p.call.output_dtypes.at(s.output)));
  return d;
}

TEST(OpStraddle, Midpoints) {
  EXPECT_EQ(nearest_midpoint(1.0 + 0x3p-10, DType::bf16), 1.0 + 0x1p-8);
  EXPECT_EQ(nearest_midpoint(1.0 + 0x1p-12, DType::bf16), 1.0 - 0x1p-9);  // below 1 the spacing halves
  EXPECT_EQ(nearest_midpoint(1.0 + 0x1p-12, DType::f16), 1.0 + 0x1p-11);
  EXPECT_EQ(nearest_midpoint(-(1.0 + 0x1p-12), DType::f16), -(1.0 + 0x1p-11));
  EXPECT_EQ(nearest_midpoint(1.0 - 0x1p-14, DType::f16), 1.0 - 0x1p-12);  // below 1 the spacing halves
  EXPECT_EQ(midpoint_distance_ulps(1.0 + 0x1p-11 + 0x1p-22, DType::f16), 2.0);
}

TEST(OpStraddle, FromFloat32InputsEveryTargetLandsOnItsMidpoint) {
  const OpDef op = define_op<Scale>();
  int placed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed)
    for (const DType out : {DType::bf16, DType::f16}) {
      Case c = scale_case(3, 2 + static_cast<std::int64_t>(seed % 30), DType::f32, out, seed);
      c.probe_row = static_cast<std::int64_t>(seed % 3);
      const StraddlePlan plan = straddle_patches(op, c, 4);
      ASSERT_FALSE(plan.targets.empty());
      const auto d = distances(op, c, plan);
      for (std::size_t i = 0; i < d.size(); ++i) {
        EXPECT_LE(d[i], kStraddleUlps) << "seed " << seed << " target " << plan.targets[i].index;
        EXPECT_EQ(d[i], plan.targets[i].distance_ulps);
        EXPECT_EQ(plan.targets[i].index / c.dim("D"), c.probe_row);
        ++placed;
      }
      // Without them the outputs lie anywhere: a few float32 ulps of a midpoint is rare.
      std::vector<double> before = distances(op, c, {{}, plan.targets});
      for (const double b : before) EXPECT_GT(b, 0.0);
    }
  EXPECT_GE(placed, 200);
}

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
