// The LoRA oracles: exact on a small integer case (plain float64, fast and multiprecision),
// and the fast accurate oracle within its stated error of the 133-bit one on sampled
// elements of generated cases (the oracle_agreement property).
#include <gtest/gtest.h>

#include <parity/oracles/lora.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>
#include <parity/core/error.hpp>
#include <parity/properties/gen/lora_runs.hpp>

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
  const auto result = gen::run_lora_property(subjects::find_lora_subject("rlkernels-host"), prop, {}, caps);
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

// A self-check runs under the pseudo-subject only: its failure can never read as a subject's.
TEST(LoraOracle, SelfCheckIsNoSubjectsVerdict) {
  const auto result = gen::lora_family().run(gen::kOraclesSubject, "oracle_agreement", {.cases = 3, .write_reproducer = false});
  EXPECT_TRUE(result.passed) << result.message;
  EXPECT_EQ(result.message.find("rlkernels-host"), std::string::npos) << result.message;
  EXPECT_THROW(gen::lora_family().run("rlkernels-host", "oracle_agreement", {.cases = 3}), InputError);
  EXPECT_THROW(gen::lora_family().check("rlkernels-host", "oracle_agreement", Case{}), InputError);
  EXPECT_THROW(gen::lora_family().run(gen::kOraclesSubject, "repeatable", {.cases = 3}), InputError);
}

}  // namespace
}  // namespace parity
