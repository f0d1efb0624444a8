// IEEE binary16 (core/f16.hpp): every one of the 65536 patterns decodes to its formula's value
// and round-trips; conversions from float32 and double match an independent reference (the
// nearest f16 by search over the ordered patterns, ties to even) around every f16 value and
// midpoint, and the compiler's own _Float16 where it has one; a double is rounded once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include <parity/core/bf16.hpp>
#include <parity/core/f16.hpp>

namespace parity {
namespace {

// The value of pattern h by the format's definition.
double formula(std::uint16_t h) {
  const int exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0x1F)
    return frac ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (exp == 0) return sign * std::ldexp(frac, -24);
  return sign * std::ldexp(1024 + frac, exp - 25);
}

// The nearest f16 to d, ties to the even pattern: the positive patterns 0 .. 0x7BFF are ordered
// by value, and 0x7C00 stands for 2^16 (so that 65520 = 65504 + half an ulp rounds to Inf).
std::uint16_t reference(double d) {
  if (std::isnan(d)) return kF16CanonicalNaN;
  const std::uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  const double a = std::fabs(d);
  const auto value = [](std::uint32_t h) { return h == 0x7C00u ? 65536.0 : formula(static_cast<std::uint16_t>(h)); };
  if (a >= 65536.0) return sign | 0x7C00;
  std::uint32_t lo = 0, hi = 0x7C00;  // value(lo) <= a < value(hi)
  while (hi - lo > 1) {
    const std::uint32_t mid = (lo + hi) / 2;
    (value(mid) <= a ? lo : hi) = mid;
  }
  const double below = a - value(lo), above = value(hi) - a;
  const std::uint32_t pick = below < above ? lo : above < below ? hi : (lo % 2 == 0 ? lo : hi);
  return static_cast<std::uint16_t>(sign | pick);
}

TEST(F16, EveryPatternDecodesToItsFormula) {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const auto b = static_cast<std::uint16_t>(h);
    const double want = formula(b), got = f16_to_float(b);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got) && f16_is_nan(b)) << std::hex << h;
      EXPECT_EQ(std::signbit(got), (h & 0x8000u) != 0) << std::hex << h;
    } else {
      EXPECT_EQ(got, want) << std::hex << h;
      EXPECT_EQ(std::signbit(got), (h & 0x8000u) != 0) << std::hex << h;
      EXPECT_FALSE(f16_is_nan(b)) << std::hex << h;
    }
  }
}

TEST(F16, EveryPatternRoundTrips) {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const auto b = static_cast<std::uint16_t>(h);
    const float f = f16_to_float(b);
    const std::uint16_t want = f16_is_nan(b) ? kF16CanonicalNaN : b;
    EXPECT_EQ(f16_from_float_rne(f), want) << std::hex << h;
    EXPECT_EQ(f16_from_double_rne(f), want) << std::hex << h;
  }
}

// Around every finite f16 value v and the midpoint m to the next one (or to 2^16 above the
// largest): v, m, and their neighbours one float32 and one double ulp away on either side.
TEST(F16, MatchesTheReferenceAroundEveryValueAndMidpoint) {
  long checked = 0;
  for (std::uint32_t h = 0; h < 0x7C00u; ++h) {
    const double v = formula(static_cast<std::uint16_t>(h));
    const double next = h + 1 == 0x7C00u ? 65536.0 : formula(static_cast<std::uint16_t>(h + 1));
    const double m = (v + next) / 2;  // exact in double
    for (const double base : {v, m})
      for (const double sign : {1.0, -1.0}) {
        const double x = sign * base;
        const float fx = static_cast<float>(x);  // exact: f16 values and midpoints are floats
        for (const double d : {x, std::nextafter(x, 1e9), std::nextafter(x, -1e9)}) {
          EXPECT_EQ(f16_from_double_rne(d), reference(d)) << d;
          ++checked;
        }
        for (const float f : {fx, std::nextafter(fx, 1e9f), std::nextafter(fx, -1e9f)}) {
          EXPECT_EQ(f16_from_float_rne(f), reference(f)) << f;
#ifdef __FLT16_MAX__
          const _Float16 g = static_cast<_Float16>(f);
          std::uint16_t gb;
          std::memcpy(&gb, &g, sizeof gb);
          EXPECT_EQ(f16_from_float_rne(f), gb) << f;
#endif
          ++checked;
        }
      }
  }
  EXPECT_EQ(checked, 0x7C00L * 2 * 2 * 6);
}

TEST(F16, MatchesTheReferenceOnRandomFloatAndDoublePatterns) {
  std::mt19937_64 rng(16);
  for (int i = 0; i < 200000; ++i) {
    const auto u = static_cast<std::uint32_t>(rng());
    const float f = bits_float(u);
    EXPECT_EQ(f16_from_float_rne(f), reference(f)) << std::hex << u;
    // doubles of f16's range and below, with every fraction bit random
    const std::uint64_t e = 1023 - 30 + rng() % 47, frac = rng() & 0xFFFFFFFFFFFFFull;
    double d;
    const std::uint64_t bits = (rng() & 1) << 63 | e << 52 | frac;
    std::memcpy(&d, &bits, sizeof d);
    EXPECT_EQ(f16_from_double_rne(d), reference(d)) << d;
  }
}

TEST(F16, SpecialValues) {
  EXPECT_EQ(f16_from_float_rne(std::numeric_limits<float>::infinity()), 0x7C00);
  EXPECT_EQ(f16_from_float_rne(-std::numeric_limits<float>::infinity()), 0xFC00);
  EXPECT_EQ(f16_from_float_rne(bits_float(0x7F800001u)), kF16CanonicalNaN);  // a payload in the low bits only
  EXPECT_EQ(f16_from_float_rne(65504.0f), 0x7BFF);
  EXPECT_EQ(f16_from_float_rne(65519.996f), 0x7BFF);  // below max + half an ulp
  EXPECT_EQ(f16_from_float_rne(65520.0f), 0x7C00);    // the tie goes to Inf (even)
  EXPECT_EQ(f16_from_float_rne(0x1p-24f), 0x0001);    // denorm_min
  EXPECT_EQ(f16_from_float_rne(0x1p-25f), 0x0000);    // half of it: a tie, to even (zero)
  EXPECT_EQ(f16_from_float_rne(0x1.000002p-25f), 0x0001);
  EXPECT_EQ(f16_from_float_rne(-0.0f), 0x8000);
  EXPECT_EQ(f16_from_float_rne(0x1.ffcp-15f), 0x0400);  // the largest subnormal's midpoint up rounds to min normal
}

// A double just above an f16 midpoint whose float32 is the midpoint itself: rounding through
// float32 would tie to even (down); rounding once goes up.
TEST(F16, ADoubleIsRoundedOnce) {
  const double d = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(static_cast<float>(d), 1.0f + 0x1p-11f);
  EXPECT_EQ(f16_from_float_rne(static_cast<float>(d)), 0x3C00);
  EXPECT_EQ(f16_from_double_rne(d), 0x3C01);
}

}  // namespace
}  // namespace parity
