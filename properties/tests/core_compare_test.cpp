// Comparators: bitwise (NaN class-equal), ulp distance, value metrics, per-element bounds.
#include <gtest/gtest.h>

#include <limits>

#include <parity/core/bf16.hpp>
#include <parity/core/compare.hpp>

namespace parity {
namespace {

TEST(Compare, BitwiseTreatsAllNaNsAsEqual) {
  Tensor a = Tensor::zeros(DType::bf16, {1, 3}), b = Tensor::zeros(DType::bf16, {1, 3});
  a.set_bits(0, 0x7FC0);
  b.set_bits(0, 0xFFFF);  // ATen's vectorised NaN payload
  a.set_bits(2, 0x3F80);
  b.set_bits(2, 0x3F81);
  const BitwiseDiff d = compare_bitwise(a, b);
  EXPECT_EQ(d.differing, 1);
  EXPECT_EQ(d.first_index, 2);
  EXPECT_EQ(d.describe(a.shape()), "1 of 3 elements differ; first at [0, 2]: 0x3f80 (1) vs 0x3f81 (1.0078125)");
  EXPECT_TRUE(compare_bitwise(Tensor::zeros(DType::f32, {2}), Tensor::zeros(DType::f32, {3})).shape_mismatch);
}

// An Inf or NaN that makes the difference is named as the cause.
TEST(Compare, MessagesNameNonFiniteCauses) {
  Tensor a = Tensor::zeros(DType::bf16, {2}), b = Tensor::zeros(DType::bf16, {2});
  a.set_bits(1, 0x7F80);  // +inf
  b.set_bits(1, 0x7F7F);  // bf16 max
  EXPECT_EQ(compare_bitwise(a, b).describe(a.shape()),
            "1 of 2 elements differ; first at [1]: 0x7f80 (inf) vs 0x7f7f (3.38953139e+38) (inf where the other is "
            "finite: an overflow)");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(nonfinite_note(inf, 1.0, "fp64"), " (inf where fp64 is finite: an overflow)");
  EXPECT_EQ(nonfinite_note(nan, 1.0, "fp64"), " (nan where fp64 is finite)");
  EXPECT_EQ(nonfinite_note(2.0, -inf, "fp64"), " (finite where fp64 is -inf: an Inf or NaN input was lost)");
  EXPECT_EQ(nonfinite_note(nan, inf, "fp64"), " (nan where fp64 is inf)");
  EXPECT_EQ(nonfinite_note(-inf, inf, "fp64"), " (-inf where fp64 is inf)");
  EXPECT_EQ(nonfinite_note(nan, nan, "fp64"), "");
  EXPECT_EQ(nonfinite_note(1.0, 2.0, "fp64"), "");
}

TEST(Compare, UlpDistance) {
  EXPECT_EQ(ulp_distance_f32(float_bits(1.0f), float_bits(1.0f)), 0u);
  EXPECT_EQ(ulp_distance_f32(float_bits(0.0f), float_bits(-0.0f)), 0u);
  EXPECT_EQ(ulp_distance_f32(0x00000001u, 0x80000001u), 2u);  // across zero
  EXPECT_EQ(ulp_distance_bf16(0x3F80, 0x3F82), 2u);
  EXPECT_EQ(ulp_distance_bf16(0x7FC0, 0xFFFF), 0u);
}

TEST(Compare, ValuesAndBounds) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> got{1.0, 2.5, nan, inf}, ref{1.0, 2.0, nan, 5.0}, bound{0.1, 0.25, 0.1, 1.0};
  const ValueDiff v = compare_values(got, ref);
  EXPECT_EQ(v.max_abs, 0.5);
  EXPECT_EQ(v.max_abs_index, 1);
  EXPECT_EQ(v.nonfinite_mismatch, 1);
  const BoundCheck c = check_bound(got, ref, bound);
  EXPECT_EQ(c.violations, 2);  // 0.5 > 0.25, and Inf against a finite reference
  EXPECT_EQ(c.first_violation, 1);
  EXPECT_DOUBLE_EQ(
      check_bound(std::vector<double>{1.0, 2.1}, std::vector<double>{1.0, 2.0}, std::vector<double>{1.0, 0.2})
          .max_utilisation,
      0.5);
  EXPECT_TRUE(check_bound(std::vector<double>{inf}, std::vector<double>{1.0}, std::vector<double>{inf}).holds());
}

}  // namespace
}  // namespace parity
