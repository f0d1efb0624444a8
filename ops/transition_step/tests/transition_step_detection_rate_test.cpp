// The default run of transition_step (the case count and caps `parity check` and `parity probes`
// use) must catch a reduction tree that changes above 8 rows in at least 19 of 20 seeds, not by
// luck: probe-tree-reduction-above-8-rows over seeds 1..20 (as PARITY_SEED would give them),
// detected as `parity probes` counts it (on a case parity's kernel passes). The transition
// family's batch properties are the ops'; lora_forward_detection_rate_test
// measures the LoRA probes. A measurement (label `rates`, run on demand with it, bench/README.md),
// not part of ci/test; there transition_step_probes_test runs each probe at one seed.
#include <gtest/gtest.h>

#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>

namespace parity::ops::transition_step {
namespace {

TEST(DefaultRunDetects, TreeReductionAbove8RowsInNineteenOfTwentySeeds) {
  EXPECT_GE(testing::detecting_seeds(find_op_family("transition_step"), "probe-tree-reduction-above-8-rows", 20), 19);
}

}  // namespace
}  // namespace parity::ops::transition_step
