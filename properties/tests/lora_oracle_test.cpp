// The LoRA oracles: exact on a small integer case (plain float64, fast and multiprecision).
#include <gtest/gtest.h>

#include <parity/oracles/lora.hpp>
#include <parity/oracles/lora_fast.hpp>
#include <parity/oracles/lora_mp.hpp>

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

}  // namespace
}  // namespace parity
