// The default run of lora_forward (the case count and caps `parity check` and `parity probes`
// use) must catch a plan that changes with the size in at least 19 of 20 seeds, not by luck: the
// LoRA probes whose split-K turns on only past a batch size or a reduction depth, from 128 rows,
// or on one side of 64/65 rows, and whose rank path drops a column of B above rank 32, each over
// seeds 1..20 (as PARITY_SEED would give them), detected as `parity probes` counts it (on a case
// parity's kernel passes). bench/probe_detection measures every probe of every family.
// A measurement (label `rates`, run on demand, bench/README.md), not part of ci/test; there
// lora_forward_probes_test runs each probe at one seed.
#include <gtest/gtest.h>

#include <string>

#include <parity/ops/framework/tests/op_test_support.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/tests/gtest_name.hpp>

namespace parity::ops::lora_forward {
namespace {

class DefaultRunDetects : public ::testing::TestWithParam<const char*> {};

TEST_P(DefaultRunDetects, InNineteenOfTwentySeeds) {
  EXPECT_GE(testing::detecting_seeds(find_op_family("lora_forward"), GetParam(), 20), 19);
}

INSTANTIATE_TEST_SUITE_P(SizeDependentPlans, DefaultRunDetects,
                         ::testing::Values("probe-split-k-by-rows", "probe-split-k-by-depth",
                                           "probe-split-k-from-128-rows", "probe-plan-switch-at-64-rows",
                                           "probe-rank-path-drops-b-column"),
                         [](const auto& info) { return gtest_name(info.param); });

}  // namespace
}  // namespace parity::ops::lora_forward
