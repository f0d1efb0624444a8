// Output-straddling patches (op_straddle.hpp): the midpoints of bf16 and f16; from float32
// inputs into a narrow output every target lands within kStraddleUlps of its midpoint
// (ops/rms_norm/tests/rms_norm_straddle_test.cpp checks the plans on rms_norm).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include <parity/ops/framework/define_op.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/framework/op_straddle.hpp>
#include <parity/ops/framework/tests/scale_op.hpp>
#include <parity/ops/framework/tests/straddle_distances.hpp>

namespace parity::ops {
namespace {

using testing::distances;
using testing::Scale;
using testing::scale_case;

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

}  // namespace
}  // namespace parity::ops
