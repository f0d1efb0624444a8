// batch_vs_batch compares a row across two batches of different sizes, both above one: it must
// fail on a kernel that switches plan between them, also where the single-row comparison
// (rows_independent, batch_invariant) holds because the single-row path agrees with one side,
// and hold on parity's own kernels on the same cases (the transition step's: its op's unit test).
#include <gtest/gtest.h>

#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/lora_runs.hpp>
#include <parity/properties/lora/straddle.hpp>

namespace parity {
namespace {

// T rows, other_rows in the second batch, outputs of the probe row on bf16 midpoints (so a
// change of reduction order shows in y).
Case lora_case(std::int64_t T, std::int64_t other_rows) {
  Case c;
  c.family = "lora";
  c.seed = 11;
  c.dims = {{"T", T}, {"N", 48}, {"K", 256}, {"r", 8}};
  c.probe_row = 5;
  c.params["other_rows"] = static_cast<double>(other_rows);
  // A large first element of the probe row: the base sums round, so their association shows.
  c.patches.push_back({"x", c.probe_row * 256, 0x44800000u});  // 1024
  for (const Patch& p : properties::lora::straddle_output_patches(c, 16)) c.patches.push_back(p);
  return c;
}

Verdict check(const gen::Family& family, const std::string& subject, const std::string& property, const Case& c) {
  return family.check(subject, property, c);
}

TEST(BatchVsBatch, LoraPlanSwitchAt64RowsFailsWhereTheSingleRowAgrees) {
  const Case c = lora_case(65, 64);
  const Verdict v = check(gen::lora_family(), "probe-plan-switch-at-64-rows", "batch_vs_batch", c);
  EXPECT_TRUE(v.fails()) << v.detail;
  // 65 rows take the split-K, as one row does: the single-row comparison cannot see the switch.
  const Verdict single = check(gen::lora_family(), "probe-plan-switch-at-64-rows", "rows_independent", c);
  EXPECT_FALSE(single.fails()) << single.detail;
  const Verdict own = check(gen::lora_family(), "parity-host", "batch_vs_batch", c);
  EXPECT_EQ(own.outcome, Outcome::holds) << own.detail;
}

TEST(BatchVsBatch, LoraSplitKFrom128RowsFails) {
  const Case c = lora_case(127, 128);
  const Verdict v = check(gen::lora_family(), "probe-split-k-from-128-rows", "batch_vs_batch", c);
  EXPECT_TRUE(v.fails()) << v.detail;
  const Verdict own = check(gen::lora_family(), "parity-host", "batch_vs_batch", c);
  EXPECT_EQ(own.outcome, Outcome::holds) << own.detail;
  // Both batches on the same side of the threshold: the same plan, the same bits.
  const Verdict same_side =
      check(gen::lora_family(), "probe-split-k-from-128-rows", "batch_vs_batch", lora_case(128, 129));
  EXPECT_EQ(same_side.outcome, Outcome::holds) << same_side.detail;
}

TEST(BatchVsBatch, DiscardsWhatItCannotCompare) {
  EXPECT_EQ(check(gen::lora_family(), "parity-host", "batch_vs_batch", lora_case(64, 64)).outcome, Outcome::discarded);
  EXPECT_EQ(check(gen::lora_family(), "parity-host", "batch_vs_batch", lora_case(64, 1)).outcome, Outcome::discarded);
}

}  // namespace
}  // namespace parity
