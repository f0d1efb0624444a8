// op_fuzzer's byte format on a ragged op (decode_op.hpp, sdpa_varlen): every decoded case is
// within the contract and its patches lie on real positions (never a sequence's padding).
#include <gtest/gtest.h>

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

TEST(OpDecodeRagged, PatchesLieOnRealPositions) {
  const ops::OpDecl& d = ops::find_op_family("sdpa_varlen").def().decl;
  std::mt19937_64 rng(11);
  int patches = 0;
  for (int k = 0; k < 200; ++k) {
    std::vector<std::uint8_t> bytes(kOpFuzzMaxBytes / 4);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    const FuzzInput in = decode_op(bytes, "sdpa_varlen", "parity-host");
    ASSERT_NO_THROW(ops::check_contract(d, in.c)) << in.c.summary();
    for (const Patch& p : in.c.patches) {
      ++patches;
      ASSERT_TRUE(real_position(in.c, p.operand, p.index)) << p.operand << " " << p.index << " " << in.c.summary();
    }
  }
  EXPECT_GT(patches, 100);
}

}  // namespace
}  // namespace parity::fuzz
