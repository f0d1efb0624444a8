// transition_fuzzer's byte format (decode_transition.hpp) reaches batches past 8 and rows near
// 4096 elements while every input stays within its work budget, and encodes a case within the
// caps to bytes that decode to the same case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_transition.hpp>

namespace parity::fuzz {
namespace {

std::vector<std::uint8_t> random_bytes(std::mt19937& rng, std::size_t n) {
  std::vector<std::uint8_t> b(n);
  for (auto& v : b) v = static_cast<std::uint8_t>(rng());
  return b;
}

TEST(TransitionFuzzFormat, BatchesPastEightWithinTheBudget) {
  std::mt19937 rng(11);
  std::set<std::int64_t> B_seen;
  std::int64_t longest = 0, short_rows = 0;
  for (int i = 0; i < 20000; ++i) {
    const FuzzInput in = decode_transition(random_bytes(rng, 18 + rng() % 160));
    const std::int64_t B = in.c.dim("B"), n = in.c.dim("tokens") * in.c.dim("channels");
    ASSERT_LE(B * n, kTransitionWorkBudget) << in.c.summary();
    ASSERT_LE(n, kTransitionMaxRowLength) << in.c.summary();
    B_seen.insert(B);
    longest = std::max(longest, n);
    short_rows += in.c.dim("tokens") <= kTransitionSmallRowTokens;
  }
  for (const std::int64_t B : {8, 9, 16, 17, 33, 64}) EXPECT_EQ(B_seen.count(B), 1u) << "B " << B;
  EXPECT_GT(longest, 4000) << "rows near 4096 elements are not reached";
  EXPECT_GT(short_rows, 20000 * 7 / 10) << "a short row is not the default (3 inputs in 4)";
}

TEST(TransitionFuzzFormat, ALargeBatchRoundTrips) {
  std::vector<std::uint8_t> bytes = {0, 248 + 7, 95, 0x10, 0, 5, 0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(i));  // seed
  for (int b = 0; b < 8; ++b) bytes.insert(bytes.end(), {static_cast<std::uint8_t>(b * 31), 0x80, 200});
  const FuzzInput in = decode_transition(bytes);
  ASSERT_EQ(in.c.dim("B"), 64);
  EXPECT_EQ(in.c.param("sigma.63", 0.0), in.c.param("sigma.7", 1.0));
  EXPECT_EQ(decode_transition(encode_transition(in)).c, in.c);
}

}  // namespace
}  // namespace parity::fuzz
