// op_fuzzer's op byte (decode_op.hpp): every op's slot names it back, every byte names one of a
// subset of the ops (the ops that have a subject), and the slots are the FNV-1a hashes of the
// names, so an op keeps its byte when others are added: a seed names its op across versions.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <parity/fuzz/decode_op.hpp>

namespace parity::fuzz {
namespace {

TEST(OpFuzzByte, EverySlotNamesItsOp) {
  std::set<int> taken;
  for (const std::string& op : op_fuzz_ops()) {
    EXPECT_EQ(op_of_byte(op_slot(op), op_fuzz_ops()), op);
    EXPECT_TRUE(taken.insert(op_slot(op)).second) << op << " shares a slot";
  }
}

TEST(OpFuzzByte, EveryByteNamesAnOpOfTheSubset) {
  const std::vector<std::string> some = {op_fuzz_ops().front(), op_fuzz_ops().back()};
  std::set<std::string> named;
  for (int b = 0; b < 256; ++b) {
    const std::string& op = op_of_byte(static_cast<std::uint8_t>(b), some);
    EXPECT_TRUE(op == some[0] || op == some[1]) << b << " names " << op;
    named.insert(op);
  }
  EXPECT_EQ(named.size(), 2u) << "a byte value names each op of the subset";
}

// The slot is the low byte of the name's FNV-1a hash where no op earlier in the list took it:
// computed here by the published algorithm, not by the code under test.
TEST(OpFuzzByte, ASlotIsTheNamesHashUnlessTaken) {
  std::set<int> taken;
  for (const std::string& op : op_fuzz_ops()) {
    std::uint32_t h = 2166136261u;
    for (const unsigned char ch : op) h = (h ^ ch) * 16777619u;
    int slot = static_cast<int>(h & 0xFF);
    while (taken.contains(slot)) slot = (slot + 1) % 256;
    taken.insert(slot);
    EXPECT_EQ(op_slot(op), slot) << op;
  }
}

}  // namespace
}  // namespace parity::fuzz
