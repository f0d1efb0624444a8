// The LoRA family's default run (the case count `ctest -L properties` and `parity check lora`
// use) must catch a batch-dependent reduction in at least 19 of 20 seeds, not by luck: the
// two probes whose split-K turns on only past a batch size or a reduction depth, each over
// seeds 1..20 (as PARITY_SEED would give them), detected as `parity probes` counts it (on a
// case parity's kernel passes). bench/probe_detection measures every probe of every family.
#include <gtest/gtest.h>

#include <iostream>

#include "properties/gen/family.hpp"

namespace parity {
namespace {

constexpr int kSeeds = 20, kRequired = 19;

class DefaultRunDetects : public ::testing::TestWithParam<const char*> {};

TEST_P(DefaultRunDetects, InNineteenOfTwentySeeds) {
  const gen::Family& lora = gen::find_family("lora");
  int detected = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    gen::RunConfig config;  // cases 0: the family's default
    config.seed = seed;
    config.shrink = false;
    config.write_reproducer = false;
    const auto detection = gen::detect_probe(lora, GetParam(), config);
    if (detection) ++detected;
    else std::cout << GetParam() << ": seed " << seed << " not detected\n";
  }
  std::cout << GetParam() << ": detected in " << detected << " of " << kSeeds << " seeds at "
            << lora.cases_per_property() << " cases per property\n";
  EXPECT_GE(detected, kRequired) << GetParam() << " detected in " << detected << " of " << kSeeds << " seeds at "
                                 << lora.cases_per_property() << " cases per property";
}

INSTANTIATE_TEST_SUITE_P(BatchDependentSplitK, DefaultRunDetects,
                         ::testing::Values("probe-split-k-by-rows", "probe-split-k-by-depth"));

}  // namespace
}  // namespace parity
