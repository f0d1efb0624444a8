// The default run of a family (the case count and caps `ctest -L properties` and `parity check`
// use) must catch a plan that changes with the size in at least 19 of 20 seeds, not by luck:
// the LoRA probes whose split-K turns on only past a batch size or a reduction depth, from 128
// rows, or on one side of 64/65 rows, and whose rank path drops a column of B above rank 32 (the
// transition step's tree probe is its op's: transition_step_detection_rate_test), each over seeds 1..20 (as
// PARITY_SEED would give them), detected as `parity probes` counts it (on a case parity's
// kernel passes). bench/probe_detection measures every probe of every family.
// A measurement (label `rates`, about ten minutes on one core: run on demand, bench/README.md),
// not part of ci/test; there family_probes_test (label `probes`) runs each probe at one seed.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/lora_runs.hpp>

namespace parity {
namespace {

constexpr int kSeeds = 20, kRequired = 19;

struct Probe {
  const gen::Family& (*family)();
  const char* name;
};

class DefaultRunDetects : public ::testing::TestWithParam<Probe> {};

TEST_P(DefaultRunDetects, InNineteenOfTwentySeeds) {
  const gen::Family& family = GetParam().family();
  const char* probe = GetParam().name;
  int detected = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    gen::RunConfig config;  // cases 0: the family's default
    config.seed = seed;
    config.shrink = false;
    config.write_reproducer = false;
    const auto detection = gen::detect_probe(family, probe, config);
    if (detection) ++detected;
    else std::cout << probe << ": seed " << seed << " not detected\n";
  }
  std::cout << probe << ": detected in " << detected << " of " << kSeeds << " seeds at " << family.cases_per_property()
            << " cases per property\n";
  EXPECT_GE(detected, kRequired) << probe << " detected in " << detected << " of " << kSeeds << " seeds at "
                                 << family.cases_per_property() << " cases per property";
}

INSTANTIATE_TEST_SUITE_P(SizeDependentPlans, DefaultRunDetects,
                         ::testing::Values(Probe{&gen::lora_family, "probe-split-k-by-rows"},
                                           Probe{&gen::lora_family, "probe-split-k-by-depth"},
                                           Probe{&gen::lora_family, "probe-split-k-from-128-rows"},
                                           Probe{&gen::lora_family, "probe-plan-switch-at-64-rows"},
                                           Probe{&gen::lora_family, "probe-rank-path-drops-b-column"}),
                         [](const auto& info) {
                           std::string name = info.param.name;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace parity
