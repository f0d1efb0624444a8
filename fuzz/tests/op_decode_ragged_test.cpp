// op_fuzzer's byte format on a ragged op (decode_op.hpp, sdpa_varlen): every decoded case is
// within the contract, its patches lie on real positions (never a sequence's padding), and a
// row's length reaches past 256 where the extent does (two bytes a row there).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <parity/fuzz/decode_op.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/framework/op_problem.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::fuzz {
namespace {

// Whether element i of sdpa_varlen's operand `name` in `c` is at a position below its row's length.
bool real_position(const Case& c, const std::string& name, std::int64_t i) {
  const std::int64_t heads = name == "q" ? c.dim("Hkv") * c.dim("G") : c.dim("Hkv");
  const std::int64_t per = heads * c.dim("D"), width = c.dim("S") * per;
  return (i % width) / per < static_cast<std::int64_t>(c.params.at("S." + std::to_string(i / width)));
}

TEST(OpDecodeRagged, PatchesLieOnRealPositionsAndLengthsPass256) {
  const ops::OpDecl& d = ops::find_op_family("sdpa_varlen").def().decl;
  std::mt19937_64 rng(11);
  int patches = 0;
  double longest = 0;
  for (int k = 0; k < 300; ++k) {
    std::vector<std::uint8_t> bytes(kOpFuzzMaxBytes / 4);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    if (k % 2 == 0)  // B, Hkv, G and D small (1 to 4), S (the fourth extent) realistic: up to 512
      for (int e = 0; e < 5; ++e) {
        bytes[static_cast<std::size_t>(2 + 2 * e)] = e == 3 ? 255 : 0;
        if (e != 3) bytes[static_cast<std::size_t>(3 + 2 * e)] %= 4;
      }
    const FuzzInput in = decode_op(bytes, "sdpa_varlen", "parity-host");
    ASSERT_NO_THROW(ops::check_contract(d, in.c)) << in.c.summary();
    for (const Patch& p : in.c.patches) {
      ++patches;
      ASSERT_TRUE(real_position(in.c, p.operand, p.index)) << p.operand << " " << p.index << " " << in.c.summary();
    }
    for (std::int64_t b = 0; b < in.c.dim("B"); ++b)
      longest = std::max(longest, in.c.params.at("S." + std::to_string(b)));
  }
  EXPECT_GT(patches, 150);
  EXPECT_GT(longest, 256);
}

}  // namespace
}  // namespace parity::fuzz
