// bf16 rounding (docs/math.md, "bfloat16"): round to nearest even, NaN, overflow, midpoints, straddles.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <parity/core/bf16.hpp>

namespace parity {
namespace {

TEST(Bf16, RoundsToNearestEvenOnTies) {
  // 1 + 2^-8 is halfway between 1 (0x3F80, even) and 1 + 2^-7 (0x3F81): ties to even.
  EXPECT_EQ(bf16_from_float_rne(1.0f + 0x1p-8f), 0x3F80);
  // 1 + 3*2^-8 is halfway between 0x3F81 (odd) and 0x3F82: rounds away to the even one.
  EXPECT_EQ(bf16_from_float_rne(1.0f + 3 * 0x1p-8f), 0x3F82);
  EXPECT_EQ(bf16_from_float_rne(-(1.0f + 0x1p-8f)), 0xBF80);
}

TEST(Bf16, ReferenceReportValues) {
  // The reference trajectory report: 0.40625 and 0.408203125 are neighbouring bf16 values.
  EXPECT_EQ(bf16_to_float(bf16_from_float_rne(0.40625f)), 0.40625f);
  EXPECT_EQ(bf16_to_float(static_cast<std::uint16_t>(bf16_from_float_rne(0.40625f) + 1)), 0.408203125f);
}

TEST(Bf16, NanInfAndOverflow) {
  EXPECT_TRUE(bf16_is_nan(bf16_from_float_rne(std::numeric_limits<float>::quiet_NaN())));
  // A NaN whose payload sits in the low half only must stay NaN (plain rounding would give Inf).
  EXPECT_TRUE(bf16_is_nan(bf16_from_float_rne(bits_float(0x7F800001u))));
  EXPECT_EQ(bf16_from_float_rne(std::numeric_limits<float>::infinity()), 0x7F80);
  EXPECT_EQ(bf16_from_float_rne(std::numeric_limits<float>::max()), 0x7F80);  // overflow rounds to Inf
  EXPECT_EQ(bf16_from_float_rne(-0.0f), 0x8000);
}

TEST(Bf16, MidpointsAndStraddles) {
  int midpoints = 0;
  for (std::uint32_t hi = 0; hi < 0x10000u; ++hi)
    if (is_bf16_midpoint((hi << 16) | 0x8000u)) ++midpoints;
  EXPECT_EQ(midpoints, 65280);  // docs/math.md: every finite exponent field, both signs
  const std::uint16_t odd = 0x3ED1, even = 0x3ED0;
  EXPECT_EQ(bf16_from_float_rne(bits_float(bf16_straddle_bits(odd, -1))), odd);
  EXPECT_EQ(bf16_from_float_rne(bits_float(bf16_straddle_bits(odd, 1))), odd + 1);
  EXPECT_EQ(bf16_from_float_rne(bits_float(bf16_straddle_bits(odd, 0))), odd + 1);  // tie: to even
  EXPECT_EQ(bf16_from_float_rne(bits_float(bf16_straddle_bits(even, 0))), even);    // tie: to even
  EXPECT_EQ(bf16_from_float_truncate(bits_float(bf16_straddle_bits(odd, 3))), odd);
}

TEST(Bf16, RoundingIsNearestOnASweep) {
  // Against a rounding written independently: compare distances in double.
  for (std::uint32_t u = 0x00000000u; u < 0x7F800000u; u += 0x00012345u) {
    const float f = bits_float(u);
    const std::uint16_t b = bf16_from_float_rne(f);
    const double got = bf16_to_float(b);
    const double below = bf16_to_float(static_cast<std::uint16_t>(u >> 16));
    const double above = bf16_to_float(static_cast<std::uint16_t>((u >> 16) + 1));
    const double dl = f - below, da = above - f;
    if (dl < da) EXPECT_EQ(got, below) << std::hex << u;
    else if (da < dl) EXPECT_EQ(got, above) << std::hex << u;
    else EXPECT_EQ(b & 1u, 0u) << std::hex << u;
  }
}

}  // namespace
}  // namespace parity
