// Both LoRA oracles against the one definition of special values (oracles/extended_real.hpp),
// evaluated exactly by LoraOracle<ExtendedReal>: every special value (+-0, +-Inf, NaN, +-FLT_MAX,
// bf16 max, +-the least float32 subnormal) in every operand position (x, W, A, B, dy, the scale
// s = alpha / r), forward alone and with backward. A non-finite exact element needs the same
// class (NaN, or the infinity of its sign) from each oracle; a finite one needs a finite value
// within the oracle's own stated error (plus half an ulp for the exact value's rounding).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <parity/oracles/extended_real.hpp>
#include <parity/oracles/lora.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>

namespace parity {
namespace {

using oracles::Estimate;
using oracles::ExtendedReal;

constexpr std::int64_t kT = 2, kN = 3, kK = 4, kR = 2;

const std::vector<double>& special_values() {
  static const std::vector<double> v = {0.0,
                                        -0.0,
                                        HUGE_VAL,
                                        -HUGE_VAL,
                                        std::numeric_limits<double>::quiet_NaN(),
                                        std::numeric_limits<float>::max(),
                                        -std::numeric_limits<float>::max(),
                                        0x1.fep127,  // bf16 max
                                        std::numeric_limits<float>::denorm_min(),
                                        -std::numeric_limits<float>::denorm_min()};
  return v;
}

// Ordinary non-zero float32 values in [-2, 2] (a fixed sequence), so that no intermediate
// vanishes unless a special value makes it.
std::vector<double> ordinary(std::size_t n, std::uint32_t seed) {
  std::vector<double> v(n);
  for (double& e : v) {
    seed = seed * 1664525u + 1013904223u;
    const double m = 0.25 + static_cast<double>(seed >> 8) * 0x1p-24 * 1.75;
    e = static_cast<double>(static_cast<float>((seed & 1) ? -m : m));
  }
  return v;
}

struct Problem {
  std::vector<double> x = ordinary(kT * kK, 1), W = ordinary(kN * kK, 2), A = ordinary(kR * kK, 3),
                      B = ordinary(kN * kR, 4), G = ordinary(kT * kN, 5);
  double scale = 0.75;
  oracles::LoraOperands operands(bool backward) const {
    return {kT, kN, kK, kR, x, W, A, B, backward ? std::span<const double>(G) : std::span<const double>(), scale};
  }
};

// The operand named by its first letter: x, W, A, B or d (dy).
std::vector<double>& operand_of(Problem& p, const char* name) {
  return name[0] == 'x' ? p.x : name[0] == 'W' ? p.W : name[0] == 'A' ? p.A : name[0] == 'B' ? p.B : p.G;
}

std::string text(double v) { return std::to_string(v) + (std::signbit(v) ? " (neg)" : ""); }

// One oracle's element against the definition's.
void expect_follows(const char* oracle, const std::string& where, const Estimate<double>& got, double exact) {
  if (std::isnan(exact)) {
    EXPECT_TRUE(std::isnan(got.value)) << oracle << " " << where << ": " << text(got.value) << ", definition NaN";
  } else if (std::isinf(exact)) {
    EXPECT_EQ(got.value, exact) << oracle << " " << where << ": " << text(got.value) << ", definition " << text(exact);
  } else {
    ASSERT_TRUE(std::isfinite(got.value))
        << oracle << " " << where << ": " << text(got.value) << ", definition " << text(exact);
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(exact == 0 ? 1.0 : exact) - 52, -1074));
    EXPECT_LE(std::fabs(got.value - exact), got.oracle_err + ulp)
        << oracle << " " << where << ": " << got.value << " vs definition " << exact;
  }
}

// Every output element of both oracles against LoraOracle<ExtendedReal>.
void expect_all_follow(const Problem& p, bool backward, const std::string& what) {
  const oracles::LoraOperands op = p.operands(backward);
  const oracles::LoraOracle<ExtendedReal> exact(op);
  const oracles::LoraFastOracle fast(op);
  const oracles::LoraMpOracle mp(op);
  const auto each = [&](const char* name, std::int64_t rows, std::int64_t cols, auto exact_at, auto fast_at,
                        auto mp_at) {
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::string where = what + ": " + name + "(" + std::to_string(i) + "," + std::to_string(j) + ")";
        const double e = static_cast<double>(exact_at(i, j).value);
        expect_follows("fast", where, fast_at(i, j), e);
        expect_follows("multiprecision", where, mp_at(i, j), e);
      }
  };
  each(
      "y", kT, kN, [&](auto i, auto j) { return exact.y(i, j); }, [&](auto i, auto j) { return fast.y(i, j); },
      [&](auto i, auto j) { return mp.y(i, j); });
  if (!backward) return;
  each(
      "dx", kT, kK, [&](auto i, auto j) { return exact.dx(i, j); }, [&](auto i, auto j) { return fast.dx(i, j); },
      [&](auto i, auto j) { return mp.dx(i, j); });
  each(
      "dA", kR, kK, [&](auto i, auto j) { return exact.dA(i, j); }, [&](auto i, auto j) { return fast.dA(i, j); },
      [&](auto i, auto j) { return mp.dA(i, j); });
  each(
      "dB", kN, kR, [&](auto i, auto j) { return exact.dB(i, j); }, [&](auto i, auto j) { return fast.dB(i, j); },
      [&](auto i, auto j) { return mp.dB(i, j); });
}

TEST(LoraOracleSpecialValues, TheDefinitionIsExactOnOrdinaryValues) {
  const Problem p;
  const oracles::LoraOracle<ExtendedReal> exact(p.operands(true));
  const oracles::LoraOracle<double> plain(p.operands(true));
  // Non-degenerate: every element is finite and non-zero, and within a few ulps of float64's.
  for (std::int64_t t = 0; t < kT; ++t)
    for (std::int64_t n = 0; n < kN; ++n) {
      const double e = static_cast<double>(exact.y(t, n).value);
      EXPECT_NE(e, 0.0);
      EXPECT_NEAR(e, plain.y(t, n).value, 1e-13 * std::fabs(e));
    }
  EXPECT_TRUE(std::isnan(static_cast<double>(ExtendedReal(HUGE_VAL) * ExtendedReal(0))));
  EXPECT_TRUE(std::isnan(static_cast<double>(ExtendedReal(HUGE_VAL) + ExtendedReal(-HUGE_VAL))));
  EXPECT_EQ(static_cast<double>(ExtendedReal(-HUGE_VAL) * ExtendedReal(-2.0)), HUGE_VAL);
  // Exact: FLT_MAX + FLT_MAX - FLT_MAX is FLT_MAX, not an overflow.
  const ExtendedReal m(static_cast<double>(std::numeric_limits<float>::max()));
  EXPECT_EQ(static_cast<double>(m * ExtendedReal(0x1p900) + m * ExtendedReal(0x1p900) + -(m * ExtendedReal(0x1p900))),
            static_cast<double>(std::numeric_limits<float>::max()) * 0x1p900);
}

TEST(LoraOracleSpecialValues, BothOraclesFollowTheDefinitionInEveryOperandPosition) {
  for (const bool backward : {false, true})
    for (const char* operand : {"x", "W", "A", "B", "dy"})
      for (const double v : special_values()) {
        if (!backward && std::string(operand) == "dy") continue;
        Problem p;
        for (const std::size_t index : {std::size_t{0}, operand_of(p, operand).size() - 1}) {
          Problem q = p;
          operand_of(q, operand)[index] = v;
          expect_all_follow(q, backward,
                            std::string(backward ? "backward" : "forward") + ", " + operand + "[" +
                                std::to_string(index) + "] = " + text(v));
        }
      }
}

TEST(LoraOracleSpecialValues, BothOraclesFollowTheDefinitionForEverySpecialScale) {
  for (const bool backward : {false, true})
    for (const double v : special_values()) {
      Problem p;
      p.scale = v;
      expect_all_follow(p, backward, std::string(backward ? "backward" : "forward") + ", scale = " + text(v));
    }
}

// The kernel-side fields an element's bound is made of (abs_sum, peak, underflow) depend only
// on the operand elements its exact value depends on. An operand element that feeds an output
// element in a product makes it non-finite when it is (Inf times anything, NaN, or a sum with
// such a term, is not finite), so where the exact element stays finite the non-finite operand
// does not feed it, and its fields must be those of the same problem with that operand ordinary:
// no per-tensor maximum or shared intermediate may carry an Inf or NaN into another row's bound.
void expect_fields_equal(const char* oracle, const std::string& where, const Estimate<double>& got,
                         const Estimate<double>& clean) {
  EXPECT_EQ(got.abs_sum, clean.abs_sum) << oracle << " " << where << ": abs_sum";
  EXPECT_EQ(got.peak, clean.peak) << oracle << " " << where << ": peak";
  EXPECT_EQ(got.underflow, clean.underflow) << oracle << " " << where << ": underflow";
}

TEST(LoraOracleSpecialValues, ANonFiniteOperandLeavesTheBoundFieldsOfFiniteElementsAlone) {
  Problem p;  // the spans of the clean oracles' operands
  const oracles::LoraFastOracle fast_clean(p.operands(true));
  const oracles::LoraMpOracle mp_clean(p.operands(true));
  std::int64_t compared = 0;
  for (const char* operand : {"x", "W", "A", "B", "dy"})
    for (const double v : {HUGE_VAL, -HUGE_VAL, std::numeric_limits<double>::quiet_NaN()})
      for (const std::size_t index : {std::size_t{0}, operand_of(p, operand).size() - 1}) {
        Problem q = p;
        operand_of(q, operand)[index] = v;
        const oracles::LoraOperands op = q.operands(true);
        const oracles::LoraOracle<ExtendedReal> exact(op);
        const oracles::LoraFastOracle fast(op);
        const oracles::LoraMpOracle mp(op);
        const auto each = [&](const char* name, std::int64_t rows, std::int64_t cols, auto at) {
          for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t j = 0; j < cols; ++j) {
              if (!std::isfinite(static_cast<double>(at(exact, i, j).value))) continue;
              const std::string where = std::string(operand) + "[" + std::to_string(index) + "] = " + text(v) + ": " +
                                        name + "(" + std::to_string(i) + "," + std::to_string(j) + ")";
              expect_fields_equal("fast", where, at(fast, i, j), at(fast_clean, i, j));
              expect_fields_equal("multiprecision", where, at(mp, i, j), at(mp_clean, i, j));
              ++compared;
            }
        };
        each("y", kT, kN, [](const auto& o, auto i, auto j) { return o.y(i, j); });
        each("dx", kT, kK, [](const auto& o, auto i, auto j) { return o.dx(i, j); });
        each("dA", kR, kK, [](const auto& o, auto i, auto j) { return o.dA(i, j); });
        each("dB", kN, kR, [](const auto& o, auto i, auto j) { return o.dB(i, j); });
      }
  EXPECT_GT(compared, 0);  // some element stays finite (in fact most do)
}

// Both an operand and the scale special: x = +Inf with s = 0 (0 * Inf in s (h B^T)).
TEST(LoraOracleSpecialValues, BothOraclesFollowTheDefinitionWithInfiniteXAndZeroScale) {
  Problem p;
  p.x[0] = HUGE_VAL;
  p.scale = 0;
  expect_all_follow(p, true, "x[0] = inf, scale = 0");
}

}  // namespace
}  // namespace parity
