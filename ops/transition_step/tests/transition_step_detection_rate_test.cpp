// The default run of transition_step (the case count and caps `parity check` and `parity probes`
// use) must catch a reduction tree that changes above 8 rows in at least 19 of 20 seeds, not by
// luck: probe-tree-reduction-above-8-rows over seeds 1..20 (as PARITY_SEED would give them),
// detected as `parity probes` counts it (on a case parity's kernel passes). The transition
// family's batch properties, which this measured before, are the ops' now; lora_detection_rate_test
// measures the LoRA probes. A measurement (label `rates`, run on demand with it, bench/README.md),
// not part of ci/test; there transition_step_probes_test runs each probe at one seed.
#include <gtest/gtest.h>

#include <iostream>

#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/family.hpp>

namespace parity::ops::transition_step {
namespace {

TEST(DefaultRunDetects, TreeReductionAbove8RowsInNineteenOfTwentySeeds) {
  const gen::Family& family = find_op_family("transition_step");
  const char* probe = "probe-tree-reduction-above-8-rows";
  int detected = 0;
  for (int seed = 1; seed <= 20; ++seed) {
    gen::RunConfig config;  // cases 0: the family's default
    config.seed = seed;
    config.shrink = false;
    config.write_reproducer = false;
    if (gen::detect_probe(family, probe, config)) ++detected;
    else std::cout << probe << ": seed " << seed << " not detected\n";
  }
  std::cout << probe << ": detected in " << detected << " of 20 seeds at " << family.cases_per_property()
            << " cases per property\n";
  EXPECT_GE(detected, 19);
}

}  // namespace
}  // namespace parity::ops::transition_step
