// The LoRA oracles: exact on a small integer case (plain float64, fast and multiprecision),
// and the fast accurate oracle within its stated error of the 133-bit one on sampled
// elements of generated cases (the oracle_agreement property).
#include <gtest/gtest.h>

#include <cmath>

#include <parity/core/error.hpp>
#include <parity/oracles/extended_real.hpp>
#include <parity/oracles/lora.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>
#include <parity/properties/gen/lora_runs.hpp>
#include <parity/properties/lora/lora_problem.hpp>
#include <parity/properties/lora/oracle_inputs.hpp>

namespace parity {
namespace {

TEST(LoraOracle, ExactOnSmallIntegers) {
  // T=1, K=2, N=2, r=1: x = [1, 2], W = [[3, 4], [5, 6]], A = [[1, -1]], B = [[2], [-3]], s = 0.5.
  // h = -1; y = [11 + 0.5*2*(-1), 17 + 0.5*(-3)*(-1)] = [10, 18.5].
  const std::vector<double> x{1, 2}, W{3, 4, 5, 6}, A{1, -1}, B{2, -3}, G{1, -2};
  oracles::LoraOperands op{1, 2, 2, 1, x, W, A, B, G, 0.5};
  const oracles::LoraOracle<double> fast(op);
  const oracles::LoraMpOracle exact(op);
  EXPECT_EQ(fast.y(0, 0).value, 10.0);
  EXPECT_EQ(fast.y(0, 1).value, 18.5);
  EXPECT_EQ(fast.y(0, 0).abs_sum, 11.0 + 0.5 * 2 * 3);  // |3|+|8| + s |B| (|1|+|2|)
  // dh = s (G . B) = 0.5 (2 + 6) = 4; dx = G W + dh A = [3 - 10 + 4, 4 - 12 - 4] = [-3, -12].
  EXPECT_EQ(fast.dx(0, 0).value, -3.0);
  EXPECT_EQ(fast.dx(0, 1).value, -12.0);
  // dA = dh x = [4, 8]; dB = s G h = 0.5 [1, -2] (-1) = [-0.5, 1].
  EXPECT_EQ(fast.dA(0, 1).value, 8.0);
  EXPECT_EQ(fast.dB(1, 0).value, 1.0);
  EXPECT_EQ(exact.y(0, 1).value, 18.5);
  EXPECT_EQ(exact.dx(0, 1).value, -12.0);
  EXPECT_EQ(exact.dB(0, 0).value, -0.5);
  const oracles::LoraFastOracle accurate(op);
  EXPECT_EQ(accurate.y(0, 1).value, 18.5);
  EXPECT_EQ(accurate.y(0, 0).abs_sum, 11.0 + 0.5 * 2 * 3);
  EXPECT_EQ(accurate.dx(0, 0).value, -3.0);
  EXPECT_EQ(accurate.dA(0, 1).value, 8.0);
  EXPECT_EQ(accurate.dB(1, 0).value, 1.0);
}

TEST(LoraOracle, FastAgreesWithMultiprecision) {
  const auto& prop = properties::lora::find_lora_property("oracle_agreement");
  gen::LoraCaps caps;  // the 133-bit oracle costs ~1000x the fast one per element: small cases
  caps.max_T = 80;
  caps.max_N = 64;
  caps.max_K = 400;
  caps.max_r = 17;
  const auto result = gen::run_lora_property(subjects::find_lora_subject("parity-host"), prop, {}, caps);
  EXPECT_TRUE(result.passed) << result.message;
  if (result.passed) std::cout << result.message << "\n";
}

// The shrunk case of `parity check lora --cases 50`: K = N = T = r = 1, x = +Inf ("fast -nan vs
// multiprecision -inf" before both oracles followed oracles/extended_real.hpp).
TEST(LoraOracle, AgreeOnAnInfiniteX) {
  Case c;
  c.family = "lora";
  c.seed = 1;
  c.dims = {{"T", 1}, {"N", 1}, {"K", 1}, {"r", 1}};
  c.patches = {{"x", 0, 0x7f800000}};
  for (const std::uint64_t seed : {1, 2, 3, 4, 5, 6, 7, 8}) {
    c.seed = seed;
    const Verdict v = gen::lora_family().check(gen::kOraclesSubject, "oracle_agreement", c);
    EXPECT_TRUE(v.holds()) << v.detail;
  }
}

// The elements of a rows x cols output whose exact value (oracles/extended_real.hpp) is not finite.
template <class Element>
double nonfinite_count(std::int64_t rows, std::int64_t cols, Element exact) {
  double n = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) n += std::isfinite(static_cast<double>(exact(i, j).value)) ? 0 : 1;
  return n;
}

// A -Inf in one row of x (the shrunk fuzz finding, K = N = r = 1, T = 4, B = 0), or of dy: every
// other row's bound depends on none of it, so the accuracy properties hold there with finite
// bounds, and exactly the elements whose exact value is not finite are exempt (compared by class).
// Before, per-tensor maxima in the underflow weights made the other rows' bounds NaN (0 * Inf).
TEST(LoraOracle, ANonFiniteRowLeavesTheOtherRowsBoundsFinite) {
  Case fwd;
  fwd.family = "lora";
  fwd.seed = 17183740160;
  fwd.dims = {{"T", 4}, {"N", 1}, {"K", 1}, {"r", 1}};
  fwd.params = {{"alpha", 1.0}, {"b_zero", 1.0}};
  fwd.patches = {{"x", 0, 0xff800000}, {"x", 2, 0x0000}};
  Case bwd = fwd;
  bwd.seed = 5;
  bwd.dims = {{"T", 2}, {"N", 2}, {"K", 1}, {"r", 1}};
  bwd.patches = {{"dy", 0, 0xff800000}};
  for (const Case* c : {&fwd, &bwd}) {
    const properties::lora::LoraProblem p = properties::lora::materialise(*c);
    const properties::lora::OracleInputs in(p);
    const auto& op = in.operands;
    const oracles::LoraOracle<oracles::ExtendedReal> exact(op);
    const Verdict y = gen::lora_family().check("parity-host", "forward_accuracy", *c);
    EXPECT_TRUE(y.holds()) << y.detail;
    EXPECT_TRUE(std::isfinite(y.metrics.at("bound_utilisation"))) << y.detail;
    EXPECT_EQ(y.metrics.at("exempt"), nonfinite_count(op.T, op.N, [&](auto i, auto j) { return exact.y(i, j); }))
        << y.detail;
    const Verdict g = gen::lora_family().check("parity-host", "gradient_accuracy", *c);
    EXPECT_TRUE(g.holds()) << g.detail;
    EXPECT_EQ(g.metrics.at("grad_x_exempt"),
              nonfinite_count(op.T, op.K, [&](auto i, auto j) { return exact.dx(i, j); }))
        << g.detail;
    EXPECT_EQ(g.metrics.at("grad_a_exempt"),
              nonfinite_count(op.r, op.K, [&](auto i, auto j) { return exact.dA(i, j); }))
        << g.detail;
    EXPECT_EQ(g.metrics.at("grad_b_exempt"),
              nonfinite_count(op.N, op.r, [&](auto i, auto j) { return exact.dB(i, j); }))
        << g.detail;
  }
}

// A self-check runs under the pseudo-subject only: its failure can never read as a subject's.
TEST(LoraOracle, SelfCheckIsNoSubjectsVerdict) {
  const auto result =
      gen::lora_family().run(gen::kOraclesSubject, "oracle_agreement", {.cases = 3, .write_reproducer = false});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_EQ(result.message.find("parity-host"), std::string::npos) << result.message;
  EXPECT_THROW(gen::lora_family().run("parity-host", "oracle_agreement", {.cases = 3}), InputError);
  EXPECT_THROW(gen::lora_family().check("parity-host", "oracle_agreement", Case{}), InputError);
  EXPECT_THROW(gen::lora_family().run(gen::kOraclesSubject, "repeatable", {.cases = 3}), InputError);
}

}  // namespace
}  // namespace parity
