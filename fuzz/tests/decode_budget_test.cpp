// The property harnesses' byte formats (decode_lora.hpp, decode_transition.hpp) reach the
// realistic sizes (powers of two up to 8192 and their neighbours, ranks past 32, batches past
// 8) while every input stays within its work budget, and encode a case within the caps to
// bytes that decode to the same case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/fuzz/decode_lora.hpp>
#include <parity/fuzz/decode_transition.hpp>

namespace parity::fuzz {
namespace {

std::int64_t lora_work(const Case& c) {
  const std::int64_t T = c.dim("T"), N = c.dim("N"), K = c.dim("K"), r = c.dim("r");
  return T * K * (N + r) + T * N * r;
}

std::int64_t lora_elements(const Case& c) {
  const std::int64_t T = c.dim("T"), N = c.dim("N"), K = c.dim("K"), r = c.dim("r");
  return T * K + N * K + r * K + N * r + T * N;
}

std::vector<std::uint8_t> random_bytes(std::mt19937& rng, std::size_t n) {
  std::vector<std::uint8_t> b(n);
  for (auto& v : b) v = static_cast<std::uint8_t>(rng());
  return b;
}

TEST(LoraFuzzFormat, EveryInputStaysWithinTheBudgetAndLargeExtentsAreReached) {
  std::mt19937 rng(7);
  std::set<std::int64_t> T_seen, r_seen;
  for (int i = 0; i < 20000; ++i) {
    std::vector<std::uint8_t> bytes = random_bytes(rng, 20 + rng() % 130);
    bytes[11] &= 0xC7;  // no output-straddling patches: computing them materialises the case
    const FuzzInput in = decode_lora(bytes);
    ASSERT_LE(lora_work(in.c), kLoraWorkBudget) << in.c.summary();
    ASSERT_LE(lora_elements(in.c), kLoraElementBudget) << in.c.summary();
    for (const char* d : {"T", "N", "K", "r"}) ASSERT_GE(in.c.dim(d), 1) << in.c.summary();
    T_seen.insert(in.c.dim("T"));
    r_seen.insert(in.c.dim("r"));
  }
  for (const std::int64_t T : {64, 127, 128, 129, 1024, 8193}) EXPECT_EQ(T_seen.count(T), 1u) << "T " << T;
  for (const std::int64_t r : {32, 33, 64}) EXPECT_EQ(r_seen.count(r), 1u) << "r " << r;
}

TEST(LoraFuzzFormat, OnlyBothFlagBitsAllowRealisticExtents) {
  // Extent bytes that name realistic sizes (T 63, N 64, K 65, r 31) under each value of bits 6-7.
  for (const std::uint8_t bits : {0x00, 0x40, 0x80, 0xC0}) {
    const std::vector<std::uint8_t> bytes = {0, 192, 193, 194, 224, 0, 0, 0, 0, 0, 0, bits};
    const FuzzInput in = decode_lora(bytes);
    if (bits == 0xC0) {
      EXPECT_EQ(in.c.dim("T"), 63);
      EXPECT_EQ(in.c.dim("r"), 31);
    } else {
      for (const char* d : {"T", "N", "K"}) EXPECT_LE(in.c.dim(d), kLoraMaxExtent) << "bits " << int(bits);
      EXPECT_LE(in.c.dim("r"), kLoraMaxRank) << "bits " << int(bits);
    }
  }
}

TEST(LoraFuzzFormat, SmallAndBoundaryCasesRoundTripWithEveryStraddleCount) {
  // T at the edge of the small tier (32) and just past it (33, which needs the flag), with 0-4
  // output-straddling patches: the decoded case is the encoded one plus its straddles.
  for (const std::int64_t T : {1, 32, 33})
    for (int straddles = 0; straddles <= 4; ++straddles) {
      FuzzInput in;
      in.property = "forward_accuracy";
      in.c.family = "lora";
      in.c.seed = 5;
      in.c.dims = {{"T", T}, {"N", 8}, {"K", 16}, {"r", 2}};
      in.c.probe_row = T - 1;
      in.c.params["alpha"] = 4.0;
      const std::vector<std::uint8_t> bytes = encode_lora(in, straddles);
      EXPECT_EQ(bytes[11] >> 6 == 3, T > kLoraMaxExtent) << "T " << T;
      const FuzzInput out = decode_lora(bytes);
      EXPECT_EQ(out.property, in.property);
      EXPECT_EQ(out.c.dims, in.c.dims) << "T " << T << ", " << straddles << " straddles";
      EXPECT_EQ(out.c.probe_row, in.c.probe_row);
      EXPECT_EQ(out.c.params, in.c.params);
      EXPECT_LE(out.c.patches.size(), static_cast<std::size_t>(straddles)) << "T " << T;
      if (straddles == 0) EXPECT_TRUE(out.c.patches.empty());
      else EXPECT_FALSE(out.c.patches.empty()) << "T " << T << ", " << straddles << " straddles asked";
    }
}

TEST(LoraFuzzFormat, TheBudgetLowersKThenN) {
  // T 1024 (its realistic byte, the flag set in byte 11), N 8, K 32, r 1: K is lowered to what
  // fits both budgets.
  const auto t1024 = std::find(std::begin(kLoraRealisticExtents), std::end(kLoraRealisticExtents), 1024);
  ASSERT_NE(t1024, std::end(kLoraRealisticExtents));
  const auto T_byte = static_cast<std::uint8_t>(192 + (t1024 - std::begin(kLoraRealisticExtents)));
  const std::vector<std::uint8_t> bytes = {0, T_byte, 7, 31, 0, 0, 0, 0, 0, 0, 0, 0xC0};
  const FuzzInput in = decode_lora(bytes);
  EXPECT_EQ(in.c.dim("T"), 1024);
  EXPECT_EQ(in.c.dim("N"), 8);
  EXPECT_EQ(in.c.dim("r"), 1);
  EXPECT_LT(in.c.dim("K"), 32);
  EXPECT_LE(lora_work(in.c), kLoraWorkBudget);
  EXPECT_LE(lora_elements(in.c), kLoraElementBudget);
  EXPECT_TRUE(lora_work(in.c) + 1024 * (8 + 1) > kLoraWorkBudget ||
              lora_elements(in.c) + 1024 + 8 + 1 > kLoraElementBudget)
      << "K is not the largest that fits";
}

TEST(LoraFuzzFormat, ARealisticCaseRoundTrips) {
  FuzzInput in;
  in.property = "rows_independent";
  in.c.family = "lora";
  in.c.seed = 3;
  in.c.dims = {{"T", 129}, {"N", 33}, {"K", 16}, {"r", 17}};  // 7161 elements
  in.c.probe_row = 128;
  in.c.params["alpha"] = 34.0;
  EXPECT_EQ(decode_lora(encode_lora(in)).c, in.c);
  in.c.dims["K"] = 8192;  // over the budget: not encodable
  EXPECT_THROW(encode_lora(in), InputError);
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
